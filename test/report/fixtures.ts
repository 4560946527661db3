/**
 * Hand-built report inputs shared by the format tests: several files (one outside the
 * repository, one with a space and `#` in its path, one with a non-ASCII name, one clean), every
 * severity, a non-ASCII message, rule-specific data, and rules covering every SARIF mapping
 * (error/warning/note defaults, a rule off in the script profile, security and non-security
 * categories, with and without exceptions).
 */
import type { RuleMeta } from '../../src/checks/define.js';
import type { Diagnostic, Range, Severity } from '../../src/core/types.js';
import type { FileResult, ReportInput } from '../../src/report/index.js';

function rule(partial: Pick<RuleMeta, 'id' | 'code' | 'title' | 'category' | 'severity'> & { exceptions?: string }): RuleMeta {
  return {
    id: partial.id,
    code: partial.code,
    title: partial.title,
    category: partial.category,
    severity: partial.severity,
    docs: {
      rationale: `Why \`${partial.id}\` matters.`,
      fix: `How to fix \`${partial.id}\`.`,
      ...(partial.exceptions ? { exceptions: partial.exceptions } : {}),
    },
    sources: [],
    examples: { valid: [], invalid: [] },
  };
}

/** Rules of the fixture, sorted by id like `RULES`. */
export const RULES_FIXTURE: readonly RuleMeta[] = [
  rule({ id: 'file-skipped', code: 'I901', title: 'File could not be analysed', category: 'input', severity: { agent: 'note', script: 'note' } }),
  rule({ id: 'parse-error', code: 'P101', title: 'Code that does not parse', category: 'parse', severity: { agent: 'warning', script: 'warning' } }),
  rule({
    id: 'path-dangerous-removal',
    code: 'F401',
    title: 'Removal of the root, the home directory or a top-level directory',
    category: 'paths',
    severity: { agent: 'error', script: 'error' },
  }),
  rule({
    id: 'rm-recursive-force',
    code: 'D301',
    title: 'Recursive forced removal',
    category: 'destructive',
    severity: { agent: 'warning', script: 'warning' },
    exceptions: 'Temporary directories made with `mktemp -d`.',
  }),
  rule({
    id: 'unicode-whitespace',
    code: 'S201',
    title: 'Unicode whitespace in a command',
    category: 'security',
    severity: { agent: 'error', script: 'off' },
  }),
];

/** A diagnostic of `file` on one line, columns `[col, endCol)`. */
export function diag(
  file: string,
  ruleId: string,
  severity: Severity,
  message: string,
  line: number,
  col: number,
  endCol: number,
  extra: { fingerprint?: string; data?: Record<string, unknown>; range?: Range } = {},
): Diagnostic {
  return {
    ruleId,
    severity,
    message,
    file,
    range: extra.range ?? { start: { line, column: col }, end: { line, column: endCol } },
    fingerprint: extra.fingerprint ?? `0123456789abcdef:${line}`,
    ...(extra.data ? { data: extra.data } : {}),
  };
}

export const OUTSIDE = '/home/user/.claude/projects/demo/session.jsonl';
export const SPACED = 'a dir/deploy #1.sh';
export const UNICODE_PATH = 'src/ünïcode.sh';

/** Four files, sorted by path; `b.sh` is clean. */
export const RESULTS_FIXTURE: readonly FileResult[] = [
  {
    file: OUTSIDE,
    diagnostics: [diag(OUTSIDE, 'unicode-whitespace', 'error', 'Non-breaking space (U+00A0) between words of a command.', 12, 30, 31)],
  },
  {
    file: SPACED,
    diagnostics: [
      diag(SPACED, 'path-dangerous-removal', 'error', 'Removes `/`: the whole file system.', 3, 1, 9, {
        fingerprint: 'fedcba9876543210:1',
        data: { target: '/', recursive: true },
      }),
      diag(SPACED, 'rm-recursive-force', 'warning', '`rm -rf` removes files without asking.', 3, 1, 9, { fingerprint: 'aaaaaaaaaaaaaaaa:1' }),
      diag(SPACED, 'parse-error', 'warning', 'The parser could not read this code.', 7, 5, 1, {
        range: { start: { line: 7, column: 5 }, end: { line: 8, column: 1 } },
      }),
    ],
  },
  { file: 'b.sh', diagnostics: [] },
  {
    file: UNICODE_PATH,
    diagnostics: [diag(UNICODE_PATH, 'file-skipped', 'note', 'Datei „ünïcode.sh“ übersprungen: 日本語 😀 → nicht UTF-8', 1, 1, 2)],
  },
];

/** The main fixture: 4 findings in 4 files, version 1.2.3. */
export const INPUT_FIXTURE: ReportInput = {
  results: RESULTS_FIXTURE,
  rules: RULES_FIXTURE,
  toolVersion: '1.2.3',
  filesAnalysed: RESULTS_FIXTURE.length,
};

/** A run that found nothing. */
export const EMPTY_INPUT: ReportInput = {
  results: [
    { file: 'a.sh', diagnostics: [] },
    { file: 'b.sh', diagnostics: [] },
  ],
  rules: RULES_FIXTURE,
  toolVersion: '1.2.3',
  filesAnalysed: 2,
};

/** Removes ANSI SGR escape sequences. */
export function stripAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u001b\[[0-9;]*m/g, '');
}
