/**
 * The default CLI format, one line per finding in the style of gcc and actionlint
 * (`path:line:col: severity: message [rule-id]`), so an editor, a GitHub problem matcher and the
 * golden `.out` fixtures all read the same text. Pure: returns a string, prints nothing.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import type { CommandExcerpt, Severity } from '../core/types.js';
import { ruleHelpUri } from './help-uri.js';
import { countFilesWithFindings, countSeverities } from './summary.js';
import type { FormatOptions, ReportInput } from './types.js';

/**
 * Characters that would let a finding's text act on the terminal or break the one-line-per-finding
 * shape: C0 and C1 controls (ESC starts ANSI sequences, CR and LF break lines), DEL, the Unicode
 * line and paragraph separators, and the bidirectional controls of "Trojan Source".
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * Makes `s` safe to print as part of one terminal line: each character of {@link UNSAFE_CHARS}
 * becomes a visible escape (`\n`, `\t`, `\r`, `\x1b`, `\u202e`); everything else, other Unicode
 * included, is kept. Messages and paths quote shell text, which is attacker-controlled.
 */
export function escapeForTerminal(s: string): string {
  return s.replace(UNSAFE_CHARS, (c) => {
    const named = NAMED_ESCAPES[c];
    if (named) return named;
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * The code frame under a finding in a recorded command: the command line (escaped for the
 * terminal, an ellipsis where it was cut), a line of carets under the finding's part, and the
 * session and call id. Three lines, each indented by four spaces.
 */
export function excerptLines(x: CommandExcerpt, chalk: ChalkInstance): string[] {
  const lead = x.cutBefore ? '…' : '';
  const before = lead + escapeForTerminal(x.text.slice(0, x.start));
  const marked = escapeForTerminal(x.text.slice(x.start, x.end));
  const after = escapeForTerminal(x.text.slice(x.end)) + (x.cutAfter ? '…' : '');
  const where = [
    x.lines > 1 ? `line ${x.line} of ${x.lines} of the command` : '',
    x.sessionId !== undefined ? `session ${escapeForTerminal(x.sessionId)}` : '',
    x.callId !== undefined ? `call ${escapeForTerminal(x.callId)}` : '',
  ].filter((p) => p !== '');
  return [
    `    ${before}${marked}${after}`,
    `    ${' '.repeat([...before].length)}${chalk.green('^'.repeat(Math.max(1, [...marked].length)))}`,
    ...(where.length > 0 ? [chalk.dim(`    ${where.join(', ')}`)] : []),
  ];
}

/** `n word` or `n words`. */
function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The summary line without colour. With findings, `3 problems (1 error, 2 warnings, 0 notes) in 2
 * files; 12 files checked`: the first count of files is those with a finding (a policy file such as
 * `.claude/settings.json` included), the second the files analysed. Without, `No problems found;
 * 12 files checked`. Each count says what it counts, so neither reads as the other.
 */
export function summaryLine(input: ReportInput): string {
  const c = countSeverities(input.results);
  const checked = `${plural(input.filesAnalysed, 'file')} checked`;
  if (c.total === 0) return `No problems found; ${checked}`;
  const files = plural(countFilesWithFindings(input.results), 'file');
  return `${plural(c.total, 'problem')} (${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}, ${plural(c.notes, 'note')}) in ${files}; ${checked}`;
}

/**
 * The "For more information" block, in the style of ShellCheck's terminal output: a heading, then
 * one line per distinct rule of the findings, in order of first appearance, `  <url> -- <title>`,
 * where the URL is the rule's reference page ({@link ruleHelpUri}, the SARIF `helpUri`). Rules not
 * in `input.rules` (no page) are left out; no findings, no block (an empty array).
 */
export function ruleLinkLines(input: ReportInput): string[] {
  const byId = new Map(input.rules.map((r) => [r.id, r]));
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const result of input.results) {
    for (const d of result.diagnostics) {
      if (seen.has(d.ruleId)) continue;
      seen.add(d.ruleId);
      const rule = byId.get(d.ruleId);
      if (rule) lines.push(`  ${ruleHelpUri(rule.id)} -- ${escapeForTerminal(rule.title)}`);
    }
  }
  return lines.length > 0 ? ['For more information:', ...lines] : [];
}

/**
 * Renders the report as text: one line per finding in input order, each
 * `path:line:col: severity: message [rule-id]` with 1-based line and column (UTF-16 code units)
 * of the range start, followed for a finding in a recorded command by its code frame
 * ({@link excerptLines}: indented, so tools that match the first line are not disturbed); then,
 * when there was any finding, a blank line and the rule links ({@link ruleLinkLines}), and a
 * blank line; then the summary line.
 * Every line ends with `\n`. With `options.color` false the result contains no escape sequence
 * at all; with it true, severities are coloured (error red, warning yellow, note blue), the path
 * is bold and the position and rule id are dim. Paths and messages go through
 * {@link escapeForTerminal}.
 */
export function formatText(input: ReportInput, options: FormatOptions): string {
  const chalk: ChalkInstance = new Chalk({ level: options.color ? 1 : 0 });
  const severityStyle: Readonly<Record<Severity, (s: string) => string>> = {
    error: chalk.red.bold,
    warning: chalk.yellow.bold,
    note: chalk.blue.bold,
  };
  const lines: string[] = [];
  for (const result of input.results) {
    const file = chalk.bold(escapeForTerminal(result.file));
    for (const d of result.diagnostics) {
      const pos = chalk.dim(`:${d.range.start.line}:${d.range.start.column}:`);
      lines.push(`${file}${pos} ${severityStyle[d.severity](d.severity)}: ${escapeForTerminal(d.message)} ${chalk.dim(`[${d.ruleId}]`)}`);
      if (d.excerpt) lines.push(...excerptLines(d.excerpt, chalk));
    }
  }
  const c = countSeverities(input.results);
  const summary = summaryLine(input);
  const links = ruleLinkLines(input);
  if (links.length > 0) lines.push('', chalk.bold(links[0]!), ...links.slice(1).map((l) => chalk.dim(l)));
  if (lines.length > 0) lines.push('');
  const summaryStyle = c.errors > 0 ? chalk.red.bold : c.warnings > 0 ? chalk.yellow.bold : c.notes > 0 ? chalk.bold : chalk.green;
  lines.push(summaryStyle(summary));
  return lines.join('\n') + '\n';
}
