/**
 * `shellward audit`: pure aggregation of the shell tool calls read from agent transcripts, per
 * session and overall (issue 6). Each call arrives with its recorded context (outcome, exit code,
 * cwd …) and its verdict under the policy (src/verdict.ts); the accumulator counts and keeps a
 * bounded number of examples, so memory does not grow with the number of calls beyond the
 * distinct suggested rules and the distinct refused or destructive commands (both capped).
 */
import { interpretExitCode } from '../analyses/exit-code.js';
import type { Range, UnitContext } from '../core/types.js';
import type { Decision, Verdict } from '../verdict.js';
import type { AuditSandboxReport } from './sandbox.js';

/** One call to aggregate. */
export interface AuditEntry {
  /** Transcript path as shown to the user. */
  readonly file: string;
  /** The call's command in the transcript: 1-based lines, UTF-16 columns, end exclusive. */
  readonly range: Range;
  readonly command: string;
  readonly context: UnitContext;
  readonly verdict: Verdict;
}

/** Counts for one session or for all of them. */
export interface AuditCounts {
  /** Every shell tool call recorded (attempts included). */
  readonly calls: number;
  /** Calls that started: outcome `ran`, `backgrounded` or `interrupted`. */
  readonly ran: number;
  /** Refused by the user: they never ran (counted apart from `ran`). */
  readonly rejected: number;
  /** Refused by a rule, hook, sandbox or validation: never ran. */
  readonly denied: number;
  readonly cancelled: number;
  readonly interrupted: number;
  readonly backgrounded: number;
  /** No result recorded. */
  readonly unknown: number;
  /** Decisions of the policy over all calls. */
  readonly decisions: Readonly<Record<Decision, number>>;
  /** Calls that started and match a destructive-command rule. */
  readonly destructiveRan: number;
  /**
   * Calls that started and touch paths outside the working directories, as the verdict's
   * `outsideCwd` says; meaningful only when {@link AuditReport.outsideCwdEstablished}.
   */
  readonly outsideCwdRan: number;
  /** Calls that started and failed under exit-code semantics (SPEC §3.6), or were recorded as failed without a code. */
  readonly failed: number;
  /** Calls with a non-zero exit that is not an error (grep/rg/find/diff/test exit 1). */
  readonly benignNonZero: number;
}

/** A call shown as an example in the report. */
export interface AuditExample {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly command: string;
  readonly outcome: string;
  readonly exitCode?: number;
  /** Destructive rule ids, or the exit-code message, or the verdict reason. */
  readonly detail: string;
}

/** One session (a transcript session id; a subagent's calls count in its parent session). */
export interface AuditSession {
  readonly agent: string;
  readonly sessionId: string;
  /** Transcript files the session's calls came from, sorted. */
  readonly files: readonly string[];
  readonly firstTimestamp?: string;
  readonly lastTimestamp?: string;
  readonly counts: AuditCounts;
  /** Destructive calls that started (at most {@link MAX_EXAMPLES}). */
  readonly destructive: readonly AuditExample[];
  /** Failed calls (at most {@link MAX_EXAMPLES}). */
  readonly failures: readonly AuditExample[];
  /** Calls the user rejected (at most {@link MAX_EXAMPLES}). */
  readonly rejected: readonly AuditExample[];
}

/** An allow rule that would have saved prompts. */
export interface RuleSuggestion {
  /** A `Bash(…)` permission rule, as the verdict suggested it. */
  readonly rule: string;
  /** Asked-and-run calls whose verdict suggested this rule. */
  readonly covers: number;
}

/** The whole audit. */
export interface AuditReport {
  readonly overall: AuditCounts;
  /** Sessions sorted by agent, then first timestamp, then id. */
  readonly sessions: readonly AuditSession[];
  /** Ranked by `covers` (then by rule), excluding rules that would admit a refused or destructive command. */
  readonly suggestions: readonly RuleSuggestion[];
  /** Suggested rules left out because they would admit a denied, rejected or destructive command. */
  readonly excludedSuggestions: readonly string[];
  /**
   * Whether the verdicts establish `outsideCwd` (they do since path validation, for calls with a
   * recorded working directory); the formats print the `outsideCwdRan` counts as not established
   * while this is false.
   */
  readonly outsideCwdEstablished: boolean;
  /** Transcript files read, and lines that could not be read. */
  readonly files: number;
  readonly parseErrors: number;
  /** With `audit --sandbox`: the calls the policy allows, run again in the sandbox (src/audit/sandbox.ts). */
  readonly sandbox?: AuditSandboxReport;
}

/**
 * Whether src/verdict.ts establishes `outsideCwd` (see {@link AuditReport.outsideCwdEstablished}):
 * it does for every call with a recorded working directory (SPEC §3.4 path validation); a call
 * without one counts as not outside.
 */
export const VERDICT_ESTABLISHES_OUTSIDE_CWD = true;

/** Examples kept per list per session. */
export const MAX_EXAMPLES = 20;
/** Distinct suggested rules and distinct refused/destructive commands remembered. */
export const MAX_DISTINCT = 10_000;
/** Suggestions reported. */
export const MAX_SUGGESTIONS = 25;

interface MutableCounts {
  calls: number;
  ran: number;
  rejected: number;
  denied: number;
  cancelled: number;
  interrupted: number;
  backgrounded: number;
  unknown: number;
  decisions: Record<Decision, number>;
  destructiveRan: number;
  outsideCwdRan: number;
  failed: number;
  benignNonZero: number;
}

function zero(): MutableCounts {
  return {
    calls: 0, ran: 0, rejected: 0, denied: 0, cancelled: 0, interrupted: 0, backgrounded: 0, unknown: 0,
    decisions: { allow: 0, ask: 0, deny: 0 }, destructiveRan: 0, outsideCwdRan: 0, failed: 0, benignNonZero: 0,
  };
}

interface SessionState {
  agent: string;
  sessionId: string;
  files: Set<string>;
  first?: string;
  last?: string;
  counts: MutableCounts;
  destructive: AuditExample[];
  failures: AuditExample[];
  rejected: AuditExample[];
}

/** Whether a call started running (its effects may have happened). */
export function started(outcome: string | undefined): boolean {
  return outcome === 'ran' || outcome === 'backgrounded' || outcome === 'interrupted';
}

/** A command whose admission by an allow rule would be a mistake. */
export interface RefusedCommand {
  readonly command: string;
  readonly cwd?: string;
}

/**
 * Accumulates {@link AuditEntry}s; {@link finish} builds the report. `admits(rule, command)`
 * says whether an allow rule would allow a command (the CLI answers with the verdict engine).
 */
export class AuditAccumulator {
  private readonly overall = zero();
  private readonly sessions = new Map<string, SessionState>();
  private readonly suggestionCounts = new Map<string, number>();
  private readonly refused = new Map<string, RefusedCommand>();
  private files = new Set<string>();
  private parseErrors = 0;

  /** Records that a transcript file was read. */
  addFile(file: string): void {
    this.files.add(file);
  }

  /** Records a transcript line that could not be read. */
  addParseError(): void {
    this.parseErrors++;
  }

  /** Adds one call. */
  add(e: AuditEntry): void {
    const agent = e.context.agent ?? 'unknown';
    const sessionId = e.context.sessionId ?? e.file;
    const key = `${agent}\0${sessionId}`;
    let s = this.sessions.get(key);
    if (!s) {
      s = { agent, sessionId, files: new Set(), counts: zero(), destructive: [], failures: [], rejected: [] };
      this.sessions.set(key, s);
    }
    s.files.add(e.file);
    const ts = e.context.timestamp;
    if (ts !== undefined) {
      if (s.first === undefined || ts < s.first) s.first = ts;
      if (s.last === undefined || ts > s.last) s.last = ts;
    }
    const outcome = e.context.outcome ?? 'unknown';
    const example = (detail: string): AuditExample => ({
      file: e.file,
      line: e.range.start.line,
      column: e.range.start.column,
      command: e.command,
      outcome,
      ...(e.context.exitCode !== undefined ? { exitCode: e.context.exitCode } : {}),
      detail,
    });
    const push = (list: AuditExample[], x: () => AuditExample): void => {
      if (list.length < MAX_EXAMPLES) list.push(x());
    };
    const destructive = e.verdict.destructive.length > 0;
    for (const c of [this.overall, s.counts]) {
      c.calls++;
      c.decisions[e.verdict.decision]++;
      if (outcome === 'rejected') c.rejected++;
      else if (outcome === 'denied') c.denied++;
      else if (outcome === 'cancelled') c.cancelled++;
      else if (outcome === 'unknown') c.unknown++;
      if (outcome === 'interrupted') c.interrupted++;
      if (outcome === 'backgrounded') c.backgrounded++;
      if (started(outcome)) {
        c.ran++;
        if (destructive) c.destructiveRan++;
        if (e.verdict.outsideCwd) c.outsideCwdRan++;
      }
    }
    let failure: string | undefined;
    if (started(outcome)) {
      if (e.context.exitCode !== undefined && e.context.exitCode !== 0) {
        const m = interpretExitCode(e.command, e.context.exitCode);
        if (m.isError) failure = m.message;
        else {
          this.overall.benignNonZero++;
          s.counts.benignNonZero++;
        }
      } else if (e.context.exitCode === undefined && e.context.failed) failure = 'failed (no exit code recorded)';
    }
    if (failure !== undefined) {
      this.overall.failed++;
      s.counts.failed++;
      push(s.failures, () => example(failure!));
    }
    if (started(outcome) && destructive) push(s.destructive, () => example(e.verdict.destructive.join(', ')));
    if (outcome === 'rejected') push(s.rejected, () => example(destructive ? e.verdict.destructive.join(', ') : e.verdict.reason));
    if ((destructive || e.verdict.decision === 'deny' || outcome === 'rejected') && this.refused.size < MAX_DISTINCT && !this.refused.has(e.command)) {
      this.refused.set(e.command, { command: e.command, ...(e.context.cwd !== undefined ? { cwd: e.context.cwd } : {}) });
    }
    if (e.verdict.decision === 'ask' && started(outcome)) {
      for (const rule of e.verdict.suggestions) {
        const n = this.suggestionCounts.get(rule);
        if (n !== undefined) this.suggestionCounts.set(rule, n + 1);
        else if (this.suggestionCounts.size < MAX_DISTINCT) this.suggestionCounts.set(rule, 1);
      }
    }
  }

  /**
   * The report. Suggested rules are ranked by coverage; from the top, each is kept only when
   * `admits` says it allows none of the remembered refused or destructive commands, until
   * {@link MAX_SUGGESTIONS} are kept.
   */
  finish(admits: (rule: string, command: RefusedCommand) => boolean): AuditReport {
    const ranked = [...this.suggestionCounts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    const suggestions: RuleSuggestion[] = [];
    const excluded: string[] = [];
    const refused = [...this.refused.values()];
    for (const [rule, covers] of ranked) {
      if (suggestions.length >= MAX_SUGGESTIONS) break;
      if (refused.some((c) => admits(rule, c))) excluded.push(rule);
      else suggestions.push({ rule, covers });
    }
    const sessions = [...this.sessions.values()]
      .sort((a, b) => (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : 0) || (a.first ?? '').localeCompare(b.first ?? '') || (a.sessionId < b.sessionId ? -1 : 1))
      .map((s) => ({
        agent: s.agent,
        sessionId: s.sessionId,
        files: [...s.files].sort(),
        ...(s.first !== undefined ? { firstTimestamp: s.first } : {}),
        ...(s.last !== undefined ? { lastTimestamp: s.last } : {}),
        counts: s.counts,
        destructive: s.destructive,
        failures: s.failures,
        rejected: s.rejected,
      }));
    return {
      overall: this.overall,
      sessions,
      suggestions,
      excludedSuggestions: excluded,
      outsideCwdEstablished: VERDICT_ESTABLISHES_OUTSIDE_CWD,
      files: this.files.size,
      parseErrors: this.parseErrors,
    };
  }
}
