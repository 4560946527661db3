/**
 * The generated part of schemas/shellward-config.schema.json: under `rules`, one property per
 * rule id (described by the rule's code and title), so editors offer the ids as completions and
 * show what each is. Other names stay allowed by the schema (the kebab-case pattern) and are
 * rejected by validateConfig with "unknown rule id", a clearer message than an enum's. The rest of the schema is written by hand. `npm run docs` rewrites the file;
 * test/meta/config-schema.test.ts fails when it is out of date. Pure.
 */
import type { RuleMeta } from '../checks/define.js';

/** The severities a config may give a rule. */
const SEVERITY_LEVELS = ['off', 'note', 'warning', 'error'] as const;

/**
 * `schema` (the parsed config schema) with `properties.rules` regenerated from `rules`: the
 * description, `propertyNames` and `additionalProperties` kept, `properties` = `{ [id]: { enum: severities, description: "CODE: title" } }`. Returns a
 * new object; throws when `schema` has no `properties.rules` object.
 */
export function withRuleIds(schema: Record<string, unknown>, rules: readonly RuleMeta[]): Record<string, unknown> {
  const properties = schema.properties as Record<string, unknown> | undefined;
  const current = properties?.rules as Record<string, unknown> | undefined;
  if (!properties || typeof current !== 'object' || current === null) throw new Error('config schema: no properties.rules');
  const ruleProps: Record<string, unknown> = {};
  for (const r of rules) ruleProps[r.id] = { description: `${r.code}: ${r.title}`, enum: [...SEVERITY_LEVELS] };
  const rulesSchema = {
    type: 'object',
    description: current.description,
    propertyNames: current.propertyNames,
    properties: ruleProps,
    additionalProperties: { enum: [...SEVERITY_LEVELS] },
  };
  return { ...schema, properties: { ...properties, rules: rulesSchema } };
}

/** {@link withRuleIds} as the file's text: JSON indented by 2 spaces with a final newline. */
export function renderConfigSchema(schema: Record<string, unknown>, rules: readonly RuleMeta[]): string {
  return JSON.stringify(withRuleIds(schema, rules), null, 2) + '\n';
}
