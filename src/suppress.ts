/**
 * Inline suppressions (pure): `# shellward-disable-next-line <id>[,<id>] -- <reason>`,
 * `# shellward-disable-line <id> -- <reason>` (at the end of the line it silences, like ESLint's
 * `eslint-disable-line`) and `# shellward-disable-file <id>[,<id>] -- <reason>` comments in
 * scripts and Makefiles; a rule may be named by its id or its code (`D301`, as `shellward rules`
 * prints). ShellCheck's own `# shellcheck disable=SC2115[,SC…]` directive — alone on the line
 * before the command, or at the end of the command's line — silences the rules whose metadata cites that ShellCheck code (ShellCheck's
 * directive needs no reason, and one shellward has no rule for is not reported:
 * https://github.com/koalaman/shellcheck/wiki/Directive). The
 * comments are parsed once into {@link SuppressionDirective}s and applied to a file's diagnostics
 * after every check ran ({@link applySuppressions}); directives that are malformed, name an unknown
 * rule, give no reason, or suppress nothing are reported themselves (`suppression-invalid`,
 * `suppression-unused`).
 *
 * Where the comments come from is the caller's business: for scripts the parser's comment nodes
 * (so heredoc bodies and quoted strings that merely contain the words are never directives), for
 * Makefiles {@link makefileCommentSpans}, a line scan (Make has no heredocs; a comment is a line
 * whose first non-blank character is `#`, in recipes and outside them).
 */
import { SUPPRESSION_INVALID, SUPPRESSION_UNUSED } from './checks/input/input-rules.js';
import { LineIndex } from './core/positions.js';
import type { Range, Severity, Span } from './core/types.js';
import type { PendingDiagnostic } from './lint.js';

/** The words that start a directive; a file without them has no directives (fast path). */
export const DIRECTIVE_MARKER = 'shellward-disable';

/**
 * Scope of a directive: the line after the comment, the comment's own line, the whole file, or
 * (`shellcheck`) ShellCheck's `disable=` directive: the next line when the comment is alone on
 * its line, else its own line.
 */
export type SuppressionKind = 'next-line' | 'line' | 'file' | 'shellcheck';

/** Whether `text` may hold a directive (the fast path: a file without the words has none). */
export function mayHaveDirectives(text: string): boolean {
  return text.includes(DIRECTIVE_MARKER) || text.includes('shellcheck');
}

/** `# shellcheck disable=SC2115,SC2086` (other ShellCheck directives may follow on the line). */
const SHELLCHECK = /^#\s*shellcheck\s+(?:[a-z-]+=\S*\s+)*disable=((?:SC)?\d{4}(?:\s*,\s*(?:SC)?\d{4})*)/i;

/** One directive comment, parsed. */
export interface SuppressionDirective {
  /** `undefined` when the directive's name is not one shellward knows (e.g. `shellward-disable-line`). */
  readonly kind: SuppressionKind | undefined;
  /** The directive as written, e.g. `shellward-disable-next-line` (for messages). */
  readonly name: string;
  /** Rule ids or codes, in order, as written (possibly unknown); ShellCheck codes (`SC2115`) for `shellcheck`. */
  readonly ruleIds: readonly string[];
  /** Text after ` -- `, trimmed; `undefined` or empty when none was given. */
  readonly reason: string | undefined;
  /** 1-based line of the comment. */
  readonly line: number;
  /** Whether the comment is alone on its line (a `shellcheck` directive then applies to the next line, else to its own). */
  readonly alone?: boolean;
  /** Range of the comment in the host file. */
  readonly range: Range;
}

const DIRECTIVE = /^#\s*(shellward-disable[A-Za-z-]*)(?=\s|$)(.*)$/s;

/**
 * Parses the directives among `comments` (spans of `#` comments in `text`, each from the `#` to
 * the end of the comment). Comments that do not start with `# shellward-disable` are ignored.
 */
export function parseDirectives(text: string, comments: readonly Span[]): SuppressionDirective[] {
  const out: SuppressionDirective[] = [];
  let index: LineIndex | undefined;
  for (const span of comments) {
    const raw = text.slice(span.start, span.end).replace(/\r$/, '');
    const sc = SHELLCHECK.exec(raw);
    if (sc) {
      index ??= new LineIndex(text);
      const start = index.position(span.start);
      const codes = sc[1]!.split(',').map((c) => c.trim().toUpperCase()).map((c) => (c.startsWith('SC') ? c : `SC${c}`));
      const lineStart = text.lastIndexOf('\n', span.start - 1) + 1;
      const alone = text.slice(lineStart, span.start).trim() === '';
      out.push({ kind: 'shellcheck', name: 'shellcheck disable', ruleIds: codes, reason: 'shellcheck', line: start.line, alone, range: { start, end: index.position(span.start + raw.length) } });
      continue;
    }
    const m = DIRECTIVE.exec(raw);
    if (!m) continue;
    const name = m[1]!;
    const rest = m[2]!;
    const kind: SuppressionKind | undefined =
      name === 'shellward-disable-next-line' ? 'next-line' : name === 'shellward-disable-line' ? 'line' : name === 'shellward-disable-file' ? 'file' : undefined;
    const sep = /(?:^|\s)--(?:\s|$)/.exec(rest);
    const idsText = sep ? rest.slice(0, sep.index) : rest;
    const reason = sep ? rest.slice(sep.index + sep[0].length).trim() : undefined;
    const ruleIds = idsText.split(/[\s,]+/).filter((s) => s !== '');
    index ??= new LineIndex(text);
    const start = index.position(span.start);
    const end = index.position(span.start + raw.length);
    out.push({ kind, name, ruleIds, reason, line: start.line, range: { start, end } });
  }
  return out;
}

/**
 * Spans of the comment lines of a Makefile: lines whose first non-blank character is `#`
 * (a Make comment, or a comment line in a recipe, which the shell ignores). Each span runs from
 * the `#` to the end of the line.
 */
export function makefileCommentSpans(text: string): Span[] {
  const out: Span[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    const hash = line.search(/\S/);
    if (hash !== -1 && line[hash] === '#') out.push({ start: start + hash, end });
    start = end + 1;
  }
  return out;
}

/** What {@link applySuppressions} needs to know about rules. */
export interface SuppressionRules {
  /** Whether `id` is a rule shellward can report. */
  readonly known: (id: string) => boolean;
  /**
   * Effective severity of a rule (after the user's configuration), `undefined` when it is off.
   * Used for the suppression rules' own findings, and to not call a directive for a rule that is
   * off unused.
   */
  readonly severity: (id: string) => Severity | undefined;
  /** The rule id a name stands for: itself, or the id of a code (`D301`); absent: names are ids. */
  readonly resolve?: (name: string) => string | undefined;
  /** The rule ids that cite a ShellCheck code (`SC2115`); absent: ShellCheck directives silence nothing. */
  readonly shellcheck?: (code: string) => readonly string[];
}

/** Rules a directive may not name: the suppression rules themselves. */
const UNSUPPRESSIBLE: ReadonlySet<string> = new Set([SUPPRESSION_INVALID.id, SUPPRESSION_UNUSED.id]);

/**
 * Drops the diagnostics of `file` that `directives` suppress and adds the directives' own
 * findings. A `next-line` directive suppresses the named rules' diagnostics that start on the line
 * after the comment; a `file` directive suppresses them anywhere in the file. A directive with an
 * unknown name, no rule ids or no reason suppresses nothing and is reported as
 * `suppression-invalid`; an unknown rule id is reported and the directive's other ids still apply;
 * a valid id that suppressed nothing (and whose rule is not off) is reported as
 * `suppression-unused`. Pure; the input array is not modified.
 */
export function applySuppressions(
  file: string,
  diagnostics: readonly PendingDiagnostic[],
  directives: readonly SuppressionDirective[],
  rules: SuppressionRules,
): PendingDiagnostic[] {
  if (directives.length === 0) return [...diagnostics];
  const own: PendingDiagnostic[] = [];
  const report = (ruleId: string, range: Range, message: string): void => {
    const severity = rules.severity(ruleId);
    if (severity) own.push({ ruleId, severity, message, file, range });
  };
  // Per active (directive, id): whether it suppressed something.
  const active: { readonly d: SuppressionDirective; readonly id: string; used: boolean }[] = [];
  for (const d of directives) {
    if (d.kind === 'shellcheck') {
      // ShellCheck's directive is the user's, for ShellCheck: never reported, used or not.
      for (const code of d.ruleIds) for (const id of rules.shellcheck?.(code) ?? []) active.push({ d, id, used: true });
      continue;
    }
    if (d.kind === undefined) {
      report(SUPPRESSION_INVALID.id, d.range, `Unknown directive \`${d.name}\`; use \`shellward-disable-line\`, \`shellward-disable-next-line\` or \`shellward-disable-file\`.`);
      continue;
    }
    if (d.ruleIds.length === 0) {
      report(SUPPRESSION_INVALID.id, d.range, `\`${d.name}\` names no rule id; write \`# ${d.name} <rule-id> -- <reason>\`.`);
      continue;
    }
    if (!d.reason) {
      report(SUPPRESSION_INVALID.id, d.range, `\`${d.name}\` gives no reason, so it suppresses nothing; add \` -- <why this is safe>\`.`);
      continue;
    }
    for (const name of d.ruleIds) {
      const id = rules.resolve ? (rules.resolve(name) ?? name) : name;
      if (UNSUPPRESSIBLE.has(id)) report(SUPPRESSION_INVALID.id, d.range, `\`${name}\` cannot be suppressed.`);
      else if (!rules.known(id)) report(SUPPRESSION_INVALID.id, d.range, `Unknown rule id \`${name}\` in \`${d.name}\`.`);
      else active.push({ d, id, used: false });
    }
  }
  const kept = diagnostics.filter((diag) => {
    let suppressed = false;
    for (const a of active) {
      if (a.id !== diag.ruleId) continue;
      const line = diag.range.start.line;
      const hit =
        a.d.kind === 'file' ||
        (a.d.kind === 'next-line' && line === a.d.line + 1) ||
        (a.d.kind === 'line' && line === a.d.line) ||
        (a.d.kind === 'shellcheck' && line === (a.d.alone ? a.d.line + 1 : a.d.line));
      if (hit) {
        a.used = true;
        suppressed = true;
      }
    }
    return !suppressed;
  });
  for (const a of active) {
    if (a.used || rules.severity(a.id) === undefined) continue;
    const where = a.d.kind === 'file' ? 'in this file' : `on line ${a.d.kind === 'line' ? a.d.line : a.d.line + 1}`;
    report(SUPPRESSION_UNUSED.id, a.d.range, `\`${a.d.name}\` for \`${a.id}\` suppresses nothing: no \`${a.id}\` finding ${where}; remove it.`);
  }
  return [...kept, ...own];
}
