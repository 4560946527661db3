/**
 * Validation of shellward config values and custom pack files against the JSON schemas shipped
 * in the package (schemas/shellward-config.schema.json, rules/schema/pack.schema.json) and the
 * rule registry. A module of its own, loaded by load.ts only when there is a config file: the
 * schema validator library is a large part of what a `check` or `hook` run would otherwise load
 * for a project that has no shellward config.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import schema from '../../schemas/shellward-config.schema.json' with { type: 'json' };
import packSchema from '../../rules/schema/pack.schema.json' with { type: 'json' };
import { BUILTIN_PACKS, type Pack } from '../analyses/destructive.js';
import { ruleMeta } from '../checks/index.js';
import { ConfigError, type ShellwardConfig } from './config.js';

// Compiled on first use: most runs (`check` and `hook` in a project without a shellward config)
// validate no config at all, and compiling the schema costs more than loading the rules.
let compiledSchema: ValidateFunction | undefined;
function validateSchema(value: unknown): boolean {
  compiledSchema ??= new Ajv({ allErrors: true, strict: false }).compile(schema);
  return compiledSchema(value);
}

// A pack's `format: regex` strings are compiled as the engine compiles them (no flags). Compiled
// on first use, like the config schema.
let compiledPackSchema: ValidateFunction | undefined;
function packValidator(): ValidateFunction {
  if (compiledPackSchema) return compiledPackSchema;
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat('regex', {
    type: 'string',
    validate: (s: string) => {
      try {
        new RegExp(s);
        return true;
      } catch {
        return false;
      }
    },
    });
  compiledPackSchema = ajv.compile(packSchema);
  return compiledPackSchema;
}

/**
 * Validates the content of a custom pack file against rules/schema/pack.schema.json and checks
 * what the schema cannot: every rule's family exists, no rule id repeats or reuses a built-in
 * rule's id, no pack id reuses a built-in one. Throws {@link ConfigError} naming `file` and every
 * problem's key path (`rules[0].match: must NOT have more than 1 properties`).
 */
export function validatePack(value: unknown, file: string, taken: ReadonlySet<string> = new Set()): Pack {
  const validatePackSchema = packValidator();
  if (!validatePackSchema(value)) {
    const problems = (validatePackSchema.errors ?? []).map((e) => {
      const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
      return `${keyPath(e.instancePath)}: ${e.message ?? 'invalid'}${extra}`;
    });
    throw new ConfigError(file, `invalid pack:\n  ${problems.join('\n  ')}`);
  }
  const pack = value as unknown as Pack;
  const problems: string[] = [];
  if (BUILTIN_PACKS.some((p) => p.id === pack.id)) problems.push(`id: "${pack.id}" is a built-in pack`);
  const seen = new Set<string>();
  pack.rules.forEach((r, i) => {
    if (r.family !== '*' && !(r.family in pack.families)) problems.push(`rules[${i}].family: no family "${r.family}" in this pack`);
    if (seen.has(r.id) || taken.has(r.id) || ruleMeta(r.id) !== undefined) problems.push(`rules[${i}].id: "${r.id}" is already a rule id`);
    seen.add(r.id);
  });
  if (problems.length > 0) throw new ConfigError(file, `invalid pack:\n  ${problems.join('\n  ')}`);
  return pack;
}

/** `/permissions/allow/0` → `permissions.allow[0]`; the root is `(root)`. */
function keyPath(pointer: string): string {
  if (pointer === '') return '(root)';
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`))
    .join('');
}

/**
 * Validates a shellward config value against the shipped schema and the rule registry. Throws
 * {@link ConfigError} listing every problem with its key path (`rules.no-such-rule: unknown rule
 * id`, `permissions.allow[2]: must be string`), or for a malformed permission rule.
 */
export function validateConfig(value: unknown, file: string, extraRuleIds: ReadonlySet<string> = new Set()): ShellwardConfig {
  if (!validateSchema(value)) {
    const problems = (compiledSchema?.errors ?? []).map((e) => {
      const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
      const allowed = e.keyword === 'enum' ? `: ${((e.params as { allowedValues?: unknown[] }).allowedValues ?? []).join(', ')}` : '';
      return `${keyPath(e.instancePath)}: ${e.message ?? 'invalid'}${extra}${allowed}`;
    });
    throw new ConfigError(file, `invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const config = value as ShellwardConfig;
  const unknown = Object.keys(config.rules ?? {}).filter((id) => ruleMeta(id) === undefined && !extraRuleIds.has(id));
  if (unknown.length > 0) throw new ConfigError(file, `invalid configuration:\n  ${unknown.map((id) => `rules.${id}: unknown rule id`).join('\n  ')}`);
  return config;
}
