/**
 * `--format github`: GitHub Actions workflow commands (`::error file=…,line=…::message`), one per
 * finding, which the runner turns into annotations on the pull request
 * (docs.github.com, "Workflow commands for GitHub Actions": `error`, `warning`, `notice` with
 * `file`, `line`, `endLine`, `col`, `endColumn`, `title`). GitHub shows at most 10 annotations
 * of each level per step, so findings are printed most severe first; a summary line ends the
 * output. Pure.
 */
import { SEVERITY_RANK, type Diagnostic, type Severity } from '../core/types.js';
import { summaryLine } from './text.js';
import type { ReportInput } from './types.js';

const COMMAND: Readonly<Record<Severity, string>> = { error: 'error', warning: 'warning', note: 'notice' };

/** Escapes a workflow command's message (`%`, CR, LF), as @actions/core's `escapeData` does. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command property value (also `:` and `,`), as @actions/core's `escapeProperty` does. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** The workflow command of one finding in `file` (the path as given to the user). */
export function workflowCommand(file: string, d: Diagnostic): string {
  const { start, end } = d.range;
  const props = [`file=${escapeProperty(file)}`, `line=${start.line}`, `endLine=${end.line}`];
  // GitHub uses columns only for single-line annotations.
  if (start.line === end.line) props.push(`col=${start.column}`, `endColumn=${end.column}`);
  props.push(`title=${escapeProperty(d.ruleId)}`);
  return `::${COMMAND[d.severity]} ${props.join(',')}::${escapeData(d.message)}`;
}

/**
 * Renders `input` as workflow commands, most severe first (then by file, line and column, as
 * the input is sorted), and a final plain summary line. Ends with a newline.
 */
export function formatGithub(input: ReportInput): string {
  const all = input.results.flatMap((r) => r.diagnostics.map((d) => ({ file: r.file, d })));
  // Array.prototype.sort is stable: within a severity the input order (file, position) stays.
  all.sort((a, b) => SEVERITY_RANK[a.d.severity] - SEVERITY_RANK[b.d.severity]);
  const lines = all.map(({ file, d }) => workflowCommand(file, d));
  lines.push(summaryLine(input));
  return lines.join('\n') + '\n';
}
