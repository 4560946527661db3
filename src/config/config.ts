/**
 * The shellward configuration, validated and merged (architecture.md §6): pure functions over values
 * that src/config/load.ts reads. The JSON schema shipped in the package
 * (schemas/shellward-config.schema.json) validates the shellward config; `.claude/settings*.json`
 * files are checked for the shape of their `permissions` only (other keys belong to Claude Code).
 */
import picomatch from 'picomatch';
import { BUILTIN_PACKS, PackSet, type Pack } from '../analyses/destructive.js';
import type { Profile, SeverityLevel, SourceKind } from '../core/types.js';
import { RuleSyntaxError } from '../rules/parse.js';
import type { PermissionMode } from '../rules/decide.js';
import { mergePolicies, policyFrom, type PermissionLists, type PermissionPolicy } from '../rules/policy.js';

/** The shellward config file's content (see the schema for each key). */
export interface ShellwardConfig {
  readonly permissions?: PermissionLists;
  readonly additionalDirectories?: readonly string[];
  readonly rules?: Readonly<Record<string, SeverityLevel>>;
  readonly profile?: Readonly<Partial<Record<SourceKind, Profile>>>;
  readonly ignore?: readonly string[];
  /** More Makefile names: globs matched against a file's base name (`*.rules`, `Makefile.*`). */
  readonly makefiles?: readonly string[];
  readonly claudeSettings?: boolean;
  /** Built-in packs to turn off (`disable`) and custom pack files (`files`, relative to the config). */
  readonly packs?: { readonly disable?: readonly string[]; readonly files?: readonly string[] };
}

/** A configuration problem; the message names the file and the key path. */
export class ConfigError extends Error {
  /**
   * `file`: the config file as shown to the user; `message`: what is wrong (may end with a code
   * frame); `location`: the 1-based line and column of the problem in `file`, when known.
   */
  constructor(
    readonly file: string,
    message: string,
    readonly location?: { readonly line: number; readonly column?: number },
  ) {
    super(`${file}${location ? `:${location.line}${location.column !== undefined ? `:${location.column}` : ''}` : ''}: ${message}`);
    this.name = 'ConfigError';
  }
}

/**
 * The packs in force: the built-in ones not in `disable`, then `custom` (already validated).
 * Throws {@link ConfigError} for a `disable` entry that names no built-in pack.
 */
export function packSetFrom(config: ShellwardConfig, file: string, custom: readonly Pack[] = []): PackSet {
  const disable = config.packs?.disable ?? [];
  const unknown = disable.filter((id) => !BUILTIN_PACKS.some((p) => p.id === id));
  if (unknown.length > 0) {
    throw new ConfigError(file, `invalid configuration:\n  ${unknown.map((id) => `packs.disable: unknown pack "${id}" (built-in packs: ${BUILTIN_PACKS.map((p) => p.id).join(', ')})`).join('\n  ')}`);
  }
  return new PackSet([...BUILTIN_PACKS.filter((p) => !disable.includes(p.id)), ...custom]);
}

const LISTS = ['allow', 'ask', 'deny', 'additionalDirectories'] as const;

/**
 * The `permissions` lists of a Claude Code settings value. Other keys are Claude Code's and are
 * ignored; a list that is not an array of strings throws {@link ConfigError} with its key path.
 */
export function claudeSettingsPermissions(value: unknown, file: string): PermissionLists {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(file, '(root): must be an object');
  const p = (value as Record<string, unknown>).permissions;
  if (p === undefined) return {};
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw new ConfigError(file, 'permissions: must be an object');
  // Other keys belong to Claude Code (defaultMode …) and may be newer than this table, so they
  // pass — but one that is a typo of a rule list (`deyn`, `alow`) would silently drop rules.
  for (const key of Object.keys(p)) {
    if ((LISTS as readonly string[]).includes(key)) continue;
    const near = LISTS.find((l) => editDistance(key.toLowerCase(), l) <= 2);
    if (near) throw new ConfigError(file, `permissions.${key}: unknown key; did you mean permissions.${near}?`);
  }
  const out: Record<string, readonly string[]> = {};
  for (const key of LISTS) {
    const list = (p as Record<string, unknown>)[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new ConfigError(file, `permissions.${key}: must be an array of strings`);
    list.forEach((r, i) => {
      if (typeof r !== 'string') throw new ConfigError(file, `permissions.${key}[${i}]: must be a string`);
    });
    out[key] = list as string[];
  }
  return out;
}

/** Levenshtein distance of two short strings (keys of a settings file). */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Kind of a policy source, for `print-config`. */
export type PolicySourceKind = 'shellward-config' | 'claude-settings' | 'claude-settings-local';

/** One file that contributed policy. */
export interface PolicySource {
  /** Path as shown to the user (relative to the working directory when inside it). */
  readonly file: string;
  readonly kind: PolicySourceKind;
  /** The file's text, for locating rules (findings are placed at the rule string). */
  readonly text: string;
  /** JSON path of the config object inside the file (`['shellward']` for package.json), when JSON. */
  readonly jsonRoot?: readonly string[];
  /** Whether the file is JSON (positions of rules can be located). */
  readonly json: boolean;
  readonly permissions: PermissionLists;
  /** Top-level `additionalDirectories` of the shellward config. */
  readonly additionalDirectories?: readonly string[];
  /** `permissions.defaultMode` of a Claude Code settings file, as written (e.g. `acceptEdits`). */
  readonly defaultMode?: string;
  /**
   * The source is below the project's top directory (a monorepo package's, a dependency's, a
   * vendored repository's): only its deny and ask rules apply; its allow rules,
   * `additionalDirectories` and `defaultMode` are ignored, so a directory inside the project can
   * restrict the project's policy but never widen it.
   */
  readonly restrictOnly?: boolean;
}

/**
 * The permission mode a settings file's `permissions.defaultMode` sets, when shellward models it:
 * `default` or `acceptEdits`. Other modes (`plan`, `bypassPermissions`, `dontAsk`) and malformed
 * values give `undefined` (the decisions then assume `default`).
 */
export function modelledMode(defaultMode: string | undefined): PermissionMode | undefined {
  return defaultMode === 'default' || defaultMode === 'acceptEdits' ? defaultMode : undefined;
}

/** `permissions.defaultMode` of a parsed Claude Code settings file, when it is a string. */
export function claudeSettingsDefaultMode(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const p = (value as Record<string, unknown>).permissions;
  if (typeof p !== 'object' || p === null) return undefined;
  const m = (p as Record<string, unknown>).defaultMode;
  return typeof m === 'string' ? m : undefined;
}

/** The configuration of a run after loading and merging. */
export interface ResolvedConfig {
  /** The shellward config (empty when none was found). */
  readonly config: ShellwardConfig;
  /** Files that contributed, in merge order: the shellward config, then settings.local.json, then settings.json. */
  readonly sources: readonly PolicySource[];
  readonly policy: PermissionPolicy;
  /** Severity overrides per rule id. */
  readonly severity: Readonly<Record<string, SeverityLevel>>;
  /** Directory that `ignore` globs are relative to. */
  readonly root: string;
  /** The permission mode of the Claude Code settings (`permissions.defaultMode`), when modelled. */
  readonly permissionMode?: PermissionMode;
  /** The destructive-command packs in force (config `packs`); absent: the built-in packs. */
  readonly packs?: PackSet;
}

/**
 * Merges the policy of `sources` in order. Throws {@link ConfigError} wrapping the
 * {@link RuleSyntaxError} of a malformed rule (its message names the file, key path and rule).
 */
export function mergeSources(config: ShellwardConfig, sources: readonly PolicySource[], root: string): ResolvedConfig {
  const policies: PermissionPolicy[] = [];
  for (const s of sources) {
    try {
      policies.push(policyFrom(s.restrictOnly ? { ...s.permissions, allow: [], additionalDirectories: [] } : s.permissions, s.file));
      if (s.additionalDirectories && !s.restrictOnly) {
        policies.push({
          allow: [],
          ask: [],
          deny: [],
          additionalDirectories: s.additionalDirectories.map((path, i) => ({ path, origin: { file: s.file, path: `additionalDirectories[${i}]` } })),
        });
      }
    } catch (err) {
      if (err instanceof RuleSyntaxError) {
        throw new ConfigError(s.file, `${err.origin.path ?? '(root)'}: invalid permission rule ${JSON.stringify(err.rule)}: ${err.problem}`);
      }
      throw err;
    }
  }
  // The first source in merge order that sets a modelled mode wins (settings.local.json before settings.json).
  const permissionMode = sources.map((s) => (s.restrictOnly ? undefined : modelledMode(s.defaultMode))).find((m) => m !== undefined);
  return { config, sources, policy: mergePolicies(...policies), severity: config.rules ?? {}, root, ...(permissionMode ? { permissionMode } : {}) };
}

/**
 * A matcher for ignore globs, gitignore-style, with picomatch: a glob without a `/` matches at any
 * depth (`*.tmp`, `build/`), one with a `/` is anchored at the config's directory; a glob that
 * names a directory also matches everything below it; `*`, `**`, `?`, braces and classes as in
 * picomatch; dot files included.
 */
export function globMatcher(globs: readonly string[]): (rel: string) => boolean {
  const patterns = globs.flatMap((glob) => {
    const g = glob.replace(/^\.\//, '').replace(/\/+$/, '');
    const base = g.includes('/') ? g : `**/${g}`;
    return [base, `${base}/**`];
  });
  return patterns.length === 0 ? () => false : picomatch(patterns, { dot: true });
}

/** True when the `/`-separated relative path `rel` matches one of `globs` (see {@link globMatcher}). */
export function isIgnored(rel: string, globs: readonly string[]): boolean {
  return globMatcher(globs)(rel);
}

/**
 * The merged policy as `shellward print-config` prints it: each list with every rule and the file
 * (and key path) it came from, then directories, severities, profiles and ignores.
 */
export function formatResolvedConfig(r: ResolvedConfig): string {
  const lines: string[] = [];
  lines.push('Sources (merged in this order; a deny in any of them beats an allow in all of them):');
  if (r.sources.length === 0) lines.push('  (none)');
  for (const s of r.sources) lines.push(`  ${s.file}  [${s.kind}]${s.restrictOnly ? ' (below the project top: deny and ask rules only)' : ''}`);
  for (const b of ['deny', 'ask', 'allow'] as const) {
    lines.push('', `permissions.${b}:`);
    const rules = r.policy[b];
    if (rules.length === 0) lines.push('  (none)');
    for (const rule of rules) {
      const note = rule.ignored ? `  — ignored: ${rule.ignored}` : rule.toolName !== 'Bash' ? `  — ${rule.toolName} rule, not a shell command rule` : '';
      lines.push(`  ${rule.raw}  ← ${rule.origin.file} ${rule.origin.path ?? ''}${note}`);
    }
  }
  lines.push('', 'additionalDirectories:');
  if (r.policy.additionalDirectories.length === 0) lines.push('  (none)');
  for (const d of r.policy.additionalDirectories) lines.push(`  ${d.path}  ← ${d.origin.file} ${d.origin.path ?? ''}`);
  lines.push('', 'permission mode:');
  const modeSource = r.sources.find((s) => !s.restrictOnly && modelledMode(s.defaultMode) !== undefined);
  lines.push(modeSource ? `  ${r.permissionMode}  ← ${modeSource.file} permissions.defaultMode` : '  default');
  for (const s of r.sources) {
    if (s.defaultMode !== undefined && modelledMode(s.defaultMode) === undefined) lines.push(`  (${s.file} sets defaultMode ${JSON.stringify(s.defaultMode)}, which is not modelled: decisions assume default)`);
  }
  const sev = Object.entries(r.severity).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  lines.push('', 'rules (severity overrides):');
  if (sev.length === 0) lines.push('  (none)');
  for (const [id, level] of sev) lines.push(`  ${id}: ${level}`);
  const prof = Object.entries(r.config.profile ?? {});
  lines.push('', 'profile:');
  if (prof.length === 0) lines.push('  (defaults: script and makefile → script, transcript and command → agent)');
  for (const [kind, p] of prof) lines.push(`  ${kind}: ${p}`);
  lines.push('', 'ignore:');
  if ((r.config.ignore ?? []).length === 0) lines.push('  (none)');
  for (const g of r.config.ignore ?? []) lines.push(`  ${g}`);
  return lines.join('\n') + '\n';
}
