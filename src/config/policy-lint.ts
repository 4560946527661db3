/**
 * Lints the policy itself: allow rules that admit arbitrary code are
 * `policy-overbroad-allow` findings, placed at the rule string in the file it came from.
 * Pure: the caller passes each file's text.
 */
import table from '../../rules/commands/wrappers.json' with { type: 'json' };
import facts from '../../rules/permissions.json' with { type: 'json' };
import { POLICY_OVERBROAD_ALLOW } from '../checks/policy/policy-file-rules.js';
import { LineIndex, spanToRange } from '../core/positions.js';
import type { Severity } from '../core/types.js';
import type { PendingDiagnostic } from '../lint.js';
import type { PermissionRule } from '../rules/parse.js';
import type { PermissionPolicy } from '../rules/policy.js';
import { finishFile } from '../lint.js';
import type { FileResult } from '../report/index.js';
import { IdentityMap } from '../core/source-map.js';
import type { ResolvedConfig } from './config.js';
import { locateJsonValue } from './json-locate.js';
import { codeRunningOptions } from '../analyses/option-effects.js';

/**
 * Programs that run the code they are given: claude-code-reference.md §2.9's code-execution list, the bare shells and
 * wrappers of BARE_SHELL_PREFIXES, and every wrapper of rules/commands/wrappers.json.
 */
const CODE_RUNNERS: ReadonlySet<string> = new Set([...facts.codeExecutionPrefixes, ...facts.bareShellPrefixes, ...Object.keys(table.wrappers)]);

/** One option after a runner that still leaves the code as an argument (`sh -c`, `node -e`, `python -m`). */
const ONE_OPTION = /^-[A-Za-z]{1,3}$|^--(eval|print|command|exec)$/;

/**
 * Why an allow rule admits arbitrary code, or `undefined` when it does not. Compares the rule's
 * leading words (a prefix rule's prefix, the text before a wildcard's first `*`): empty (so the
 * rule matches anything), a runner of {@link CODE_RUNNERS}, a runner plus one option, or a
 * program whose remaining options or subcommands run programs (rules/option-effects.json:
 * `Bash(git diff:*)` admits `--ext-diff`, `Bash(sort:*)` admits `--compress-program`), named in
 * the reason. Claude Code allows those under the rule; shellward's own decision asks for them.
 */
export function overbroadReason(rule: PermissionRule): string | undefined {
  const m = rule.bash;
  if (!m || rule.behavior !== 'allow') return undefined;
  let head: string;
  if (m.kind === 'any') return 'it allows every Bash command';
  if (m.kind === 'exact') return undefined;
  if (m.kind === 'prefix') head = m.prefix.trim();
  else head = m.segments[0]!.trim();
  if (head === '') return 'it matches every command';
  const words = head.split(/\s+/);
  const two = words.slice(0, 2).join(' ');
  const options = codeRunningOptions(words);
  // A runner whose code-running options are known names them (`find` through `-exec`).
  const through = options.length > 0 ? ` (${options.map((o) => `\`${o}\``).join(', ')})` : '';
  if (words.length <= 2 && CODE_RUNNERS.has(two)) return `\`${two}\` runs whatever code it is given${through}`;
  if (CODE_RUNNERS.has(words[0]!) && (words.length === 1 || (words.length === 2 && ONE_OPTION.test(words[1]!)))) {
    return `\`${words[0]}\` runs whatever code it is given${through}`;
  }
  if (options.length > 0) {
    return `\`${words.join(' ')}\` also takes options that run other programs (${options.map((o) => `\`${o}\``).join(', ')}), which Claude Code allows under this rule`;
  }
  return undefined;
}

/** A policy file's text, by the `file` its rules' origins name. */
export type PolicyTexts = ReadonlyMap<string, string>;

/** Parses a rule origin path such as `permissions.allow[3]` into `['permissions', 'allow', 3]`. */
function pathOf(p: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of p.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

/**
 * `policy-overbroad-allow` diagnostics for the allow rules of `policy`, grouped by file. Each is at
 * the rule string in its file when `texts` has the file's text and it is JSON (`jsonRoot` prefixes
 * the path, e.g. `['shellward']` for package.json); otherwise at line 1, column 1. `severity` is
 * the configured level (`undefined` → the rule's default; `off` is the caller's to filter).
 */
export function overbroadAllowFindings(
  policy: PermissionPolicy,
  texts: PolicyTexts,
  jsonRoots: ReadonlyMap<string, readonly string[]> = new Map(),
  severity: Severity = 'warning',
): Map<string, PendingDiagnostic[]> {
  const out = new Map<string, PendingDiagnostic[]>();
  for (const rule of policy.allow) {
    const why = overbroadReason(rule);
    if (!why) continue;
    const file = rule.origin.file;
    const text = texts.get(file) ?? '';
    const span = rule.origin.path ? locateJsonValue(text, [...(jsonRoots.get(file) ?? []), ...pathOf(rule.origin.path)]) : undefined;
    const range = spanToRange(span ?? { start: 0, end: 0 }, new IdentityMap(), new LineIndex(text));
    const list = out.get(file) ?? [];
    list.push({
      ruleId: POLICY_OVERBROAD_ALLOW.id,
      severity,
      message: `Allow rule \`${rule.raw}\` admits arbitrary code: ${why}. Allow specific commands instead, or move it to \`ask\`.`,
      file,
      range,
      data: { rule: rule.raw, ...(rule.origin.path ? { path: rule.origin.path } : {}) },
    });
    out.set(file, list);
  }
  return out;
}

/**
 * The policy files' own findings as report results, one per file that has any: the
 * `policy-overbroad-allow` diagnostics of `resolved`'s allow rules at `severity`, sorted and
 * fingerprinted against the file's text (JSON files; other files are reported at 1:1).
 */
export function policyFileResults(resolved: ResolvedConfig, severity: Severity): FileResult[] {
  const texts = new Map(resolved.sources.map((s) => [s.file, s.json ? s.text : '']));
  const roots = new Map(resolved.sources.filter((s) => s.jsonRoot).map((s) => [s.file, s.jsonRoot!]));
  return [...overbroadAllowFindings(resolved.policy, texts, roots, severity)].map(([file, pending]) => ({
    file,
    diagnostics: finishFile(texts.get(file) ?? '', pending),
  }));
}
