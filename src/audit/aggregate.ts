/**
 * `shellward audit`: pure aggregation of the shell tool calls read from agent transcripts, per
 * session and overall. Each call arrives with its recorded context (outcome, exit code,
 * cwd …) and its verdict under the policy (src/verdict.ts); the accumulator counts and keeps a
 * bounded number of examples, so memory does not grow with the number of calls beyond the
 * distinct suggested rule sets, the distinct verified calls and the distinct refused or
 * destructive commands (all capped).
 *
 * Suggested rules are verified, not taken at their word: Claude Code suggests one rule per
 * subcommand it can name (at most 5), and for `curl … | sh` it names only `curl`. A call is
 * credited to its suggestions only when the verdict with ALL of the call's suggested rules added
 * becomes `allow` (the caller's {@link SuggestionVerifier} re-runs the verdict); the call's rules
 * are then reported together as one suggestion (`Bash(npm run build:*) + Bash(npm test:*)`),
 * since adding only some of them would not save the prompt. Every other asked-and-run call
 * counts as "no rule would help" ({@link AuditReport.noRuleHelps}).
 */
import { interpretExitCode } from '../analyses/exit-code.js';
import { findSecrets, maskSecrets } from '../analyses/secrets.js';
import { isAnalysedShell, type Range, type UnitContext } from '../core/types.js';
import { nativeRules } from './agent-rules.js';
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
  /** Calls that started and failed under exit-code semantics (claude-code-reference.md §3.6), or were recorded as failed without a code. */
  readonly failed: number;
  /** Calls with a non-zero exit that is not an error (grep/rg/find/diff/test exit 1). */
  readonly benignNonZero: number;
  /** Calls in a shell shellward does not parse (PowerShell, cmd.exe): counted, never judged. */
  readonly notAnalysed: number;
  /** Calls that started with no recorded working directory: whether they touched paths outside it is not known. */
  readonly outsideCwdUnknown: number;
  /** Calls whose command line holds a secret (rule `secret-in-command`), whatever their outcome. */
  readonly secrets: number;
  /** Calls that started and run `sudo` (or `doas`, `su -c`). */
  readonly sudoRan: number;
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
  /** Calls a rule, hook or sandbox denied (at most {@link MAX_EXAMPLES}). */
  readonly denied: readonly AuditExample[];
  /** Calls that started and touched paths outside the working directory (at most {@link MAX_EXAMPLES}). */
  readonly outside: readonly AuditExample[];
  /** Calls whose command line holds a secret, masked (at most {@link MAX_EXAMPLES}). */
  readonly secrets: readonly AuditExample[];
  /** `sudo` calls that started (at most {@link MAX_EXAMPLES}). */
  readonly sudo: readonly AuditExample[];
}

/** Allow rules that, added together, would have saved prompts. */
export interface RuleSuggestion {
  /**
   * For display: the rules of {@link rules} joined by ` + ` (a single rule when one suffices),
   * e.g. `Bash(npm run build:*) + Bash(npm test:*)`. Not itself a permission rule when it joins
   * several: use {@link rules}.
   */
  readonly rule: string;
  /** The `Bash(…)` permission rules to add, all of them, in the verdict's order (leftmost subcommand first). */
  readonly rules: readonly string[];
  /**
   * Asked-and-run calls these rules would allow: calls whose own suggested rules are all among
   * {@link rules} and were verified to make the call's verdict `allow`.
   */
  readonly covers: number;
  /** The agent whose calls these are (`claude-code`, `codex`, `gemini`). */
  readonly agent: string;
  /**
   * The same rules in that agent's own syntax (src/audit/agent-rules.ts): Claude Code `Bash(…)`,
   * Codex execpolicy `prefix_rule(…)`, Gemini CLI policy `[[rule]]` lines.
   */
  readonly native: readonly string[];
}

/**
 * Whether adding all of `rules` as allow rules makes the verdict of `command` (run in `cwd`)
 * `allow`. The CLI answers with `verdictFor(command, { cwd, permissions: { allow: rules } })`.
 */
export type SuggestionVerifier = (command: string, cwd: string | undefined, rules: readonly string[]) => boolean;

/** Why asked-and-run calls got no allow-rule suggestion; see {@link AuditReport.noRuleBecause}. */
export interface NoRuleBecause {
  readonly destructive: number;
  readonly askRule: number;
  readonly paths: number;
  readonly checks: number;
  readonly fellShort: number;
}

/** Reason codes of the verdict (src/rules/decide.ts) that come from a path or argument constraint. */
const PATH_REASONS: ReadonlySet<string> = new Set(['path-constraint', 'path-dangerous-removal', 'sed-constraint', 'option-effect']);

/** The {@link NoRuleBecause} bucket of an asked call with no suggestion. */
function noRuleBucket(v: Verdict): Exclude<keyof NoRuleBecause, 'fellShort'> {
  if (v.destructive.length > 0) return 'destructive';
  if (v.matchedRule?.behavior === 'ask') return 'askRule';
  const code = v.reason.split(': ', 1)[0]!;
  return PATH_REASONS.has(code) ? 'paths' : 'checks';
}

/** The whole audit. */
export interface AuditReport {
  readonly overall: AuditCounts;
  /** Sessions sorted by agent, then first timestamp, then id. */
  readonly sessions: readonly AuditSession[];
  /**
   * Ranked by `covers` (then fewer rules first, then by rule), excluding rule sets that would
   * admit a refused or destructive command.
   */
  readonly suggestions: readonly RuleSuggestion[];
  /**
   * Suggestions (their {@link RuleSuggestion.rule} display) left out because they would admit a
   * denied, rejected or destructive command.
   */
  readonly excludedSuggestions: readonly string[];
  /** Calls the policy asks about that started (`ask` and outcome `ran`, `backgrounded` or `interrupted`). */
  readonly askedAndRun: number;
  /**
   * Asked-and-run calls that no suggested allow rule would have allowed: no suggestion (a security
   * or parse ask, a path constraint, an ask rule), or suggestions that do not make the verdict
   * `allow` when added ({@link suggestionsFellShort}).
   */
  readonly noRuleHelps: number;
  /** Of {@link noRuleHelps}: calls whose suggested rules, all added, still leave them asked (e.g. `curl … | sh`). */
  readonly suggestionsFellShort: number;
  /**
   * {@link noRuleHelps} split by why no allow rule is suggested, each call counted once, in this
   * order of precedence: `destructive` (a destructive-command rule matched: an allow rule would let
   * it run unprompted next time, so none is offered), `askRule` (an ask rule matched: an allow
   * rule does not override it), `paths` (a path, `sed`, or option-effect constraint asked: it
   * depends on the arguments, not the command), `checks` (a security, parse or structure check
   * asked, or the program is unknown), `fellShort` (= {@link suggestionsFellShort}). They sum to
   * {@link noRuleHelps}.
   */
  readonly noRuleBecause: NoRuleBecause;
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
 * it does for every call with a recorded working directory (claude-code-reference.md §3.4 path validation); a call
 * without one counts as not outside.
 */
export const VERDICT_ESTABLISHES_OUTSIDE_CWD = true;

/** Examples kept per list per session. */
export const MAX_EXAMPLES = 20;
/** Distinct suggested rule sets, verified calls and refused/destructive commands remembered. */
export const MAX_DISTINCT = 10_000;
/** Suggestions reported. */
export const MAX_SUGGESTIONS = 25;
/** Prompts a suggested rule set must have saved to be reported (one-off commands are not). */
export const MIN_COVERS = 2;

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
  notAnalysed: number;
  outsideCwdUnknown: number;
  secrets: number;
  sudoRan: number;
}

function zero(): MutableCounts {
  return {
    calls: 0, ran: 0, rejected: 0, denied: 0, cancelled: 0, interrupted: 0, backgrounded: 0, unknown: 0,
    decisions: { allow: 0, ask: 0, deny: 0 }, destructiveRan: 0, outsideCwdRan: 0, failed: 0, benignNonZero: 0,
    notAnalysed: 0, outsideCwdUnknown: 0, secrets: 0, sudoRan: 0,
  };
}

/** `sudo`, `doas` or `su` as a command word of `command` (a cheap textual test on the masked text). */
export function runsSudo(command: string): boolean {
  return /(?:^|[\s;&|(`]|\$\()(?:sudo|doas|su)(?=\s|$)/m.test(command);
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
  denied: AuditExample[];
  outside: AuditExample[];
  secrets: AuditExample[];
  sudo: AuditExample[];
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

/** A verified suggested rule set and the calls it was verified for. */
interface RuleSet {
  readonly agent: string;
  /** The rules in the verdict's order (of the first call seen with this set). */
  readonly rules: readonly string[];
  calls: number;
}

/** Canonical key of a rule set: the distinct rules, sorted, joined by NUL. */
function setKey(agent: string, rules: readonly string[]): string {
  return `${agent}\0\0${[...new Set(rules)].sort().join('\0')}`;
}

/**
 * Accumulates {@link AuditEntry}s; {@link finish} builds the report. `verify` checks a call's
 * suggested rules (see {@link SuggestionVerifier}); its answers are cached by command, working
 * directory and rule set, so repeated calls cost one verification. `finish`'s
 * `admits(rules, command)` says whether allow rules would allow a command (the CLI answers with
 * the verdict engine).
 */
export class AuditAccumulator {
  private readonly overall = zero();
  private readonly sessions = new Map<string, SessionState>();
  /** Verified rule sets by {@link setKey}. */
  private readonly ruleSets = new Map<string, RuleSet>();
  private readonly verified = new Map<string, boolean>();
  private readonly refused = new Map<string, RefusedCommand>();
  private files = new Set<string>();
  private parseErrors = 0;
  private askedAndRun = 0;
  private noRuleHelps = 0;
  private fellShort = 0;
  private readonly because = { destructive: 0, askRule: 0, paths: 0, checks: 0 };

  constructor(private readonly verify: SuggestionVerifier) {}

  /** Whether the call's suggested rules, all added, allow it (cached). */
  private suggestionsAllow(command: string, cwd: string | undefined, rules: readonly string[]): boolean {
    const key = `${cwd ?? ''}\0${cwd === undefined ? 0 : 1}\0${command}\0${rules.join('\0')}`;
    let ok = this.verified.get(key);
    if (ok === undefined) {
      ok = this.verify(command, cwd, rules);
      if (this.verified.size < MAX_DISTINCT) this.verified.set(key, ok);
    }
    return ok;
  }

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
      s = { agent, sessionId, files: new Set(), counts: zero(), destructive: [], failures: [], rejected: [], denied: [], outside: [], secrets: [], sudo: [] };
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
      command: maskSecrets(e.command),
      outcome,
      ...(e.context.exitCode !== undefined ? { exitCode: e.context.exitCode } : {}),
      detail,
    });
    const push = (list: AuditExample[], x: () => AuditExample): void => {
      if (list.length < MAX_EXAMPLES) list.push(x());
    };
    const destructive = e.verdict.destructive.length > 0;
    const notAnalysed = !isAnalysedShell(e.context);
    const secrets = findSecrets(e.command);
    const sudo = !notAnalysed && started(outcome) && runsSudo(e.command);
    const outsideUnknown = !notAnalysed && started(outcome) && e.context.cwd === undefined;
    for (const c of [this.overall, s.counts]) {
      if (notAnalysed) c.notAnalysed++;
      if (secrets.length > 0) c.secrets++;
      if (sudo) c.sudoRan++;
      if (outsideUnknown) c.outsideCwdUnknown++;
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
    if (outcome === 'denied') push(s.denied, () => example(destructive ? e.verdict.destructive.join(', ') : 'refused before it ran'));
    if (started(outcome) && e.verdict.outsideCwd) {
      push(s.outside, () => example((e.verdict.paths ?? []).filter((p) => p.reason === 'outside').map((p) => p.resolved ?? p.path).slice(0, 3).join(', ')));
    }
    if (secrets.length > 0) push(s.secrets, () => example([...new Set(secrets.map((x) => x.label))].join(', ')));
    if (sudo) push(s.sudo, () => example(e.verdict.reason));
    if ((destructive || e.verdict.decision === 'deny' || outcome === 'rejected') && this.refused.size < MAX_DISTINCT && !this.refused.has(e.command)) {
      this.refused.set(e.command, { command: e.command, ...(e.context.cwd !== undefined ? { cwd: e.context.cwd } : {}) });
    }
    if (e.verdict.decision === 'ask' && started(outcome) && !notAnalysed) {
      this.askedAndRun++;
      const rules = e.verdict.suggestions;
      if (rules.length === 0) {
        this.noRuleHelps++;
        this.because[noRuleBucket(e.verdict)]++;
      } else if (!this.suggestionsAllow(e.command, e.context.cwd, rules)) {
        this.noRuleHelps++;
        this.fellShort++;
      } else {
        const key = setKey(agent, rules);
        const set = this.ruleSets.get(key);
        if (set) set.calls++;
        else if (this.ruleSets.size < MAX_DISTINCT) this.ruleSets.set(key, { agent, rules: [...new Set(rules)], calls: 1 });
      }
    }
  }

  /**
   * The report. Verified rule sets are ranked by coverage (a set also covers the calls verified
   * for any of its subsets: adding more allow rules never takes an allow away); from the top,
   * each is kept only when `admits` says its rules, added together, allow none of the remembered
   * refused or destructive commands, until {@link MAX_SUGGESTIONS} are kept.
   */
  finish(admits: (rules: readonly string[], command: RefusedCommand) => boolean): AuditReport {
    const candidates = [...this.ruleSets.values()].map((s) => {
      let covers = s.calls;
      // The other subsets of a set (Claude Code suggests at most 5 rules: 30 lookups; larger sets
      // are credited with their own calls only).
      const n = s.rules.length <= 8 ? s.rules.length : 0;
      for (let mask = 1; mask < (1 << n) - 1; mask++) {
        covers += this.ruleSets.get(setKey(s.agent, s.rules.filter((_, i) => (mask & (1 << i)) !== 0)))?.calls ?? 0;
      }
      return { rule: s.rules.join(' + '), rules: s.rules, covers, agent: s.agent, native: nativeRules(s.agent, s.rules) };
    });
    const ranked = candidates.sort((a, b) => b.covers - a.covers || a.rules.length - b.rules.length || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
    const suggestions: RuleSuggestion[] = [];
    const excluded: string[] = [];
    const refused = [...this.refused.values()];
    for (const s of ranked) {
      if (suggestions.length >= MAX_SUGGESTIONS) break;
      if (refused.some((c) => admits(s.rules, c))) excluded.push(s.rule);
      // A rule that would have saved one prompt is a one-off: not worth a permanent allow rule.
      else if (s.covers >= MIN_COVERS) suggestions.push(s);
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
        denied: s.denied,
        outside: s.outside,
        secrets: s.secrets,
        sudo: s.sudo,
      }));
    return {
      overall: this.overall,
      sessions,
      suggestions,
      excludedSuggestions: excluded,
      askedAndRun: this.askedAndRun,
      noRuleHelps: this.noRuleHelps,
      suggestionsFellShort: this.fellShort,
      noRuleBecause: { ...this.because, fellShort: this.fellShort },
      outsideCwdEstablished: VERDICT_ESTABLISHES_OUTSIDE_CWD,
      files: this.files.size,
      parseErrors: this.parseErrors,
    };
  }
}
