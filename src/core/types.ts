/**
 * Core types shared by every stage of the pipeline (architecture.md §3).
 *
 * Offsets: every `Span` in the core is a pair of indices into a JavaScript string, i.e. UTF-16
 * code units, 0-based, end exclusive. web-tree-sitter reports node indices in exactly this unit
 * for string input, so no byte offsets ever exist in shellward. Offsets become 1-based lines and
 * columns exactly once, in `src/core/positions.ts`.
 */

/** Severity of a finding; maps one to one onto SARIF `level` (`error`, `warning`, `note`). */
export type Severity = 'error' | 'warning' | 'note';

/** Severity as configured: a severity, or `off` to silence a rule. */
export type SeverityLevel = Severity | 'off';

/** Profile of a unit (architecture.md §5): how loud the checks are. */
export type Profile = 'agent' | 'script';

/** Shell dialect of a unit, from shebang or extension. */
export type Dialect = 'bash' | 'sh' | 'dash' | 'ksh' | 'zsh';

/** A half-open range `[start, end)` of UTF-16 code-unit offsets into a unit's text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A 1-based line and 1-based column; columns count UTF-16 code units (SARIF's default). */
export interface Position {
  readonly line: number;
  readonly column: number;
}

/**
 * A region in a host file. `end` is the position just after the last character, as in SARIF's
 * `endLine`/`endColumn` (the column of the character following the region).
 */
export interface Range {
  readonly start: Position;
  readonly end: Position;
}

/**
 * Maps offsets in a unit's text back to offsets in its host file's text (both UTF-16 code
 * units). For a shell script the map is the identity; extracted code (Makefile recipes,
 * transcript commands) maps piecewise.
 */
export interface SourceMap {
  /** Host-file offset of `offset` (0 ≤ offset ≤ unit text length). */
  toHost(offset: number): number;
}

/** What kind of host file a unit came from. */
export type SourceKind = 'script' | 'makefile' | 'transcript' | 'command';

/** Where a unit came from. `file` is the path as the user should see it (repository-relative when possible). */
export interface UnitOrigin {
  readonly file: string;
  readonly kind: SourceKind;
}

/**
 * One piece of shell text to analyse: a whole script (granularity `script`) or one command
 * (a Makefile recipe line, a transcript tool call: granularity `command`).
 */
export interface CommandUnit {
  readonly text: string;
  readonly dialect: Dialect;
  readonly granularity: 'script' | 'command';
  readonly profile: Profile;
  readonly origin: UnitOrigin;
  readonly sourceMap: SourceMap;
  /** The full text of the host file, used to turn host offsets into lines and columns. */
  readonly hostText: string;
  readonly context?: UnitContext;
}

/**
 * What a transcript recorded about a tool call's execution (transcript-formats.md §5 item 5):
 * - `ran`: it ran to completion (see `exitCode`, `failed`);
 * - `rejected`: the user refused it, so it never ran;
 * - `denied`: a permission rule, hook, sandbox or validation refused it, so it never ran;
 * - `cancelled`: cancelled (Gemini `status: "cancelled"`), before or while running;
 * - `interrupted`: the user interrupted it while it ran;
 * - `backgrounded`: it was started in the background (an exit code may still be recorded later);
 * - `unknown`: no result was recorded (the session ended first).
 */
export type CommandOutcome = 'ran' | 'rejected' | 'denied' | 'cancelled' | 'interrupted' | 'backgrounded' | 'unknown';

/** Facts recorded about a command outside its text (transcripts fill these). */
export interface UnitContext {
  /** Working directory the command ran in (absolute when recorded so). */
  readonly cwd?: string;
  /** Further directories the agent may work in besides `cwd` (Claude Code `additionalDirectories`; absolute). */
  readonly additionalDirectories?: readonly string[];
  /** The agent whose transcript recorded it: `claude-code`, `codex` or `gemini`. */
  readonly agent?: string;
  readonly sessionId?: string;
  /** The tool call's id in the transcript (`toolu_…`, `call_…`, `run_shell_command-…`). */
  readonly toolUseId?: string;
  /** ISO-8601 time of the tool call as recorded. */
  readonly timestamp?: string;
  /** The recorded outcome; absent for units that are not recorded executions. */
  readonly outcome?: CommandOutcome;
  /** The exit code, when recorded (or parsed from the recorded output text). */
  readonly exitCode?: number;
  /** True when the transcript marks the call as failed but records no exit code. */
  readonly failed?: boolean;
  /** Id of the subagent (sidechain / child thread) that made the call; absent for the main agent. */
  readonly subagent?: string;
  /**
   * True when the command was an argv executed without a shell (Codex `shell` argv that is not a
   * `sh -c` wrapper): the text is the argv quote-joined, and no shell expansion happened.
   */
  readonly directExec?: boolean;
  /** 1-based line of the tool call in the host transcript. */
  readonly line?: number;
  /**
   * Claude Code's permission mode in force when the call was made, as the transcript recorded it
   * (`default`, `acceptEdits`, `plan`, `bypassPermissions` …); decisions use it when it is one
   * shellward models (`default`, `acceptEdits`).
   */
  readonly permissionMode?: string;
  /**
   * The shell the session ran its commands in, as the transcript recorded or implies it: `bash`,
   * `zsh`, `sh`, `powershell`, `cmd` … Absent when nothing says (then bash is assumed). Only the
   * POSIX shells are analysed; see {@link isAnalysedShell}.
   */
  readonly shell?: string;
  /**
   * The session user's home directory (what `~` meant in the session), as recorded or as the
   * recorded cwd shows it (`/home/u/…`, `/Users/u/…`, `C:\Users\u\…`); `null` when the unit
   * is a recorded call whose home is not known (then `~` is an unknown path, never shellward's
   * own home); absent for local units (scripts, `check`), whose `~` is the local user's.
   */
  readonly home?: string | null;
}

/** Shells whose commands shellward parses (as bash; zsh and sh are close enough for the checks). */
const ANALYSED_SHELLS: ReadonlySet<string> = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', 'ash']);

/**
 * Whether a unit's text is shell shellward analyses: true when no shell is recorded or the
 * recorded one is a POSIX shell; false for PowerShell, cmd.exe and anything else.
 */
export function isAnalysedShell(context: UnitContext | undefined): boolean {
  return context?.shell === undefined || ANALYSED_SHELLS.has(context.shell);
}

/** The name a report shows for a shell that is not analysed (`PowerShell`, `cmd.exe`, or the name as recorded). */
export function shellDisplayName(shell: string): string {
  return shell === 'powershell' || shell === 'pwsh' ? 'PowerShell' : shell === 'cmd' ? 'cmd.exe' : shell;
}

/**
 * A finding as a check reports it, before it is placed in the host file.
 * `span` is in the unit's text (UTF-16 offsets, end exclusive).
 */
export interface Finding {
  readonly ruleId: string;
  readonly message: string;
  readonly span: Span;
  /** Severity for this finding; when absent the rule's default for the unit's profile applies. */
  readonly severity?: Severity;
  readonly data?: Readonly<Record<string, unknown>>;
}

/**
 * The one diagnostic type every output format consumes (architecture.md §3).
 * `range` is in the host file: 1-based lines and columns, UTF-16 columns, end exclusive.
 */
export interface Diagnostic {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly message: string;
  readonly file: string;
  readonly range: Range;
  /**
   * Stable identity of the finding that survives lines moving: a hash of the rule id and the
   * whitespace-normalised text of the first line of the region, plus `:n` for the n-th
   * occurrence of that hash in the file (SARIF `partialFingerprints["shellward/v1"]`; code scanning's own `primaryLocationLineHash` is src/report/line-hash.ts).
   */
  readonly fingerprint: string;
  readonly data?: Readonly<Record<string, unknown>>;
  /**
   * For a finding in a recorded command (a transcript tool call): the command line it is on, for
   * the text report's code frame. Presentation only: the JSON, SARIF and GitHub formats do not
   * print it.
   */
  readonly excerpt?: CommandExcerpt;
}

/**
 * A line of a recorded command around a finding, masked and cut (src/analyses/excerpt.ts).
 * Offsets are 0-based UTF-16 code units into `text`, end exclusive.
 */
export interface CommandExcerpt {
  /** The command line (or a window of it), secrets masked. */
  readonly text: string;
  /** The finding's part of `text`. */
  readonly start: number;
  readonly end: number;
  /** Whether `text` was cut at its start / end (the formats add an ellipsis). */
  readonly cutBefore: boolean;
  readonly cutAfter: boolean;
  /** 1-based line of the command that `text` comes from, and the command's number of lines. */
  readonly line: number;
  readonly lines: number;
  /** The recorded session and tool call id, when known. */
  readonly sessionId?: string;
  readonly callId?: string;
}

/** Sort order of severities, most severe first. */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { error: 0, warning: 1, note: 2 };
