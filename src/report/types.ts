/**
 * The input every output format consumes (DESIGN.md §2, `report/`). Kept in its own module so
 * the per-format files and `index.ts` can share it without an import cycle.
 */
import type { RuleMeta } from '../checks/define.js';
import type { Diagnostic } from '../core/types.js';

/** The names of the output formats, as given to `--format`. */
export type OutputFormat = 'text' | 'json' | 'sarif';

/** The diagnostics of one analysed file. */
export interface FileResult {
  /**
   * The path as shown to the user: POSIX separators, relative to the repository root (or the
   * working directory) when the file is inside it, absolute otherwise. Every format prints this
   * string, not `Diagnostic.file`.
   */
  readonly file: string;
  /** Already sorted and fingerprinted by `finishFile` (src/lint.ts); may be empty. */
  readonly diagnostics: readonly Diagnostic[];
}

/** Everything a formatter needs. Formatters render it as given: they neither sort nor filter. */
export interface ReportInput {
  /**
   * One entry per analysed file, files without findings included, sorted by `file` (plain
   * UTF-16 code-unit order, as `compareDiagnostics`; see `sortFileResults`).
   */
  readonly results: readonly FileResult[];
  /** Every rule shellward can report (`RULES` from src/checks/index.ts), in the order SARIF lists them. */
  readonly rules: readonly RuleMeta[];
  /** shellward's version (package.json `version`), printed in JSON and SARIF. */
  readonly toolVersion: string;
  /** Number of files analysed, for the summaries (normally `results.length`). */
  readonly filesAnalysed: number;
}

/** Presentation options; only the text format uses them. */
export interface FormatOptions {
  /** Emit ANSI colours. The CLI decides (TTY, `NO_COLOR`, `FORCE_COLOR`, `--color`); formatters never look. */
  readonly color: boolean;
}
