/**
 * The input every output format consumes (architecture.md §2, `report/`). Kept in its own module so
 * the per-format files and `index.ts` can share it without an import cycle.
 */
import type { RuleMeta } from '../checks/define.js';
import type { Diagnostic, Range, UnitContext } from '../core/types.js';
import type { Verdict } from '../verdict.js';

/** The names of the output formats, as given to `--format`. */
export type OutputFormat = 'text' | 'json' | 'sarif' | 'github';

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
  /**
   * The verdict of every command unit of the file, in host order, when the run computed them
   * (`lint --format json`): each top-level statement of a script, each recipe line or
   * `$(shell …)` of a Makefile, each shell tool call of a transcript.
   */
  readonly verdicts?: readonly UnitVerdict[];
}

/**
 * What a command unit is, for {@link UnitVerdict.kind}: a script's top-level statement, a Makefile
 * unit, a transcript tool call, a GitHub Actions `run:` step (one verdict per top-level statement
 * of its script), a Dockerfile `RUN`, a package.json script, a GitLab CI script line, a pre-commit
 * hook entry, a dev container lifecycle command, a Claude Code settings hook.
 */
export type UnitVerdictKind =
  | 'statement'
  | 'recipe'
  | 'shell-function'
  | 'shell-assignment'
  | 'tool-call'
  | 'run-step'
  | 'dockerfile-run'
  | 'npm-script'
  | 'ci-script'
  | 'hook-entry'
  | 'devcontainer-command'
  | 'settings-hook';

/**
 * The verdict of one command unit, with where the unit is in its host file (src/verdict.ts; its
 * finding offsets are 0-based UTF-16 offsets into `command`). For a unit that is its own command
 * (a Makefile unit, a tool call) it is what `shellward check` prints for `command`. For a
 * top-level statement of a script it is the decision for that statement where the script runs it,
 * in the context the statements before it leave (working directory after `cd`, variables,
 * functions, `shopt`, `PATH`), judged from the one analysis of the whole script; its findings are
 * the script's own diagnostics inside the statement; a statement that analysis cannot judge (a
 * parse time-out, a cap, a failed check) is `ask` with the reason (src/unit-verdicts.ts
 * `statementVerdicts`).
 */
export interface UnitVerdict {
  readonly kind: UnitVerdictKind;
  /** The shell text analysed (a Makefile recipe after make's own processing, a tool call's decoded command). */
  readonly command: string;
  /** The unit in the host file: 1-based lines and UTF-16 columns, end exclusive. */
  readonly range: Range;
  /** What the transcript recorded about the call (agent, session, outcome, exit code …); absent for scripts and Makefiles. */
  readonly context?: UnitContext;
  readonly verdict: Verdict;
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
