/**
 * Output formats (architecture.md §2 `report/`, architecture.md §9.5): one small pure function per format,
 * plus the table of formats for `--help` and the docs. Nothing here does I/O or reads the
 * environment: the CLI decides colour and where the string goes.
 */
import { formatGithub } from './github.js';
import { formatJson } from './json.js';
import { formatSarif } from './sarif.js';
import { formatText } from './text.js';
import type { FileResult, FormatOptions, OutputFormat, ReportInput } from './types.js';

export type { FileResult, FormatOptions, OutputFormat, ReportInput, UnitVerdict, UnitVerdictKind } from './types.js';
export { countSeverities, type SeverityCounts } from './summary.js';
export { escapeForTerminal, formatText, ruleLinkLines, summaryLine } from './text.js';
export { escapeData, escapeProperty, formatGithub, workflowCommand } from './github.js';
export { buildJsonReport, formatJson, JSON_REPORT_VERSION, type JsonDiagnostic, type JsonFileResult, type JsonReport } from './json.js';
export { artifactLocation, buildSarif, formatSarif, pascalCase, ruleHelpUri, sarifRule, SARIF_SCHEMA_URI } from './sarif.js';

/** Every output format, the default (`text`) first. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'sarif', 'github'];

/** Whether `s` names an output format (for validating `--format`). */
export function isOutputFormat(s: string): s is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(s);
}

/**
 * Renders `input` in `format`. Returns the complete output, ending with a newline; `options.color`
 * only affects `text`. Results are rendered in the order given (see {@link sortFileResults}).
 */
export function formatReport(format: OutputFormat, input: ReportInput, options: FormatOptions): string {
  switch (format) {
    case 'text':
      return formatText(input, options);
    case 'json':
      return formatJson(input);
    case 'sarif':
      return formatSarif(input);
    case 'github':
      return formatGithub(input);
    default:
      throw new Error(`Unknown output format: ${String(format satisfies never)}`);
  }
}

/**
 * Returns `results` sorted by `file` in UTF-16 code-unit order (the order `compareDiagnostics`
 * uses), stable for equal paths, so output does not depend on the order files finished in.
 */
export function sortFileResults(results: readonly FileResult[]): FileResult[] {
  return [...results].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}
