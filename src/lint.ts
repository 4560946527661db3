/**
 * The analysis pipeline for command units: parse → checks → diagnostics in host coordinates.
 * Pure apart from the parser's wasm memory; no file system, no processes, no environment.
 */
import { commandExcerpt } from './analyses/excerpt.js';
import { gitHooksDirectories, gitRepositoryHazard } from './analyses/git-repository.js';
import { RULES, CHECKS, ruleMeta } from './checks/index.js';
import { INTERNAL_ERROR } from './checks/input/input-rules.js';
import type { Check, CheckContext, CheckHost } from './checks/define.js';
import { isSecurityCheck } from './checks/security/statement.js';
import { lineHash, numberFingerprints } from './core/fingerprint.js';
import { LineIndex, spanToRange } from './core/positions.js';
import type { CommandUnit, Diagnostic, Finding, Range, Severity, SeverityLevel, Span } from './core/types.js';
import { SEVERITY_RANK } from './core/types.js';
import { withEmbedded } from './parse/embedded.js';
import { isOversizedCommand, judgeCrowdedHeredocs, judgeDeepNesting, judgeOversized } from './oversized-command.js';
import { deepNesting } from './parse/nesting-pressure.js';
import { heredocPressure } from './parse/heredoc-pressure.js';
import { buildViews, type ParsedScript, type Statement } from './parse/nodes.js';
import { decisionSlices } from './rules/decision-slice.js';
import { decide, GATING_RULES, isGatingFinding, type DecisionContext, type GateFinding, type PermissionDecision, type PermissionMode } from './rules/decide.js';
import { buildModel } from './model/build.js';
import type { CommandModel } from './model/command-model.js';
import type { PathContext, PathHost } from './analyses/paths.js';
import { homedir } from 'node:os';
import { posix } from 'node:path';
import { toPosixPath } from './core/session-paths.js';
import { EMPTY_POLICY, type PermissionPolicy } from './rules/policy.js';
import { DEFAULT_PARSE_TIMEOUT_MS, initParser, parseBudgetMs, parseClockMs, parseWithin, type ParserInit, type ParseStop } from './parse/parser.js';
import type { Parser } from 'web-tree-sitter';
import type { PackSet } from './analyses/destructive.js';

/** Options of a {@link Linter}. */
export interface LinterOptions {
  /** Per-rule severity overrides (`off` silences a rule); unknown ids are ignored here. */
  readonly severity?: Readonly<Record<string, SeverityLevel>>;
  /**
   * Longest parse time per unit, its embedded code included, in milliseconds of this process's CPU
   * time (default 10 000); a unit's budget is proportional to its size up to this (see
   * `parseBudgetMs`), so a loaded machine does not turn a parse into a time-out.
   */
  readonly parseTimeoutMs?: number;
  readonly parser?: ParserInit;
  /** The merged permission policy (src/config/load.ts builds it); default: no rules. */
  readonly policy?: PermissionPolicy;
  /**
   * How paths resolve for path validation (claude-code-reference.md §3.4): the home directory for `~`, and
   * optionally `realpath` to follow symlinks (the CLI injects one for local commands; transcripts
   * recorded elsewhere stay lexical). Default: lexical, home = `os.homedir()` at creation.
   */
  readonly pathHost?: PathHost;
  /** Claude Code's permission mode for the decision (default `default`). */
  readonly mode?: PermissionMode;
  /** The destructive-command packs (config `packs`: built-ins minus disabled ones, plus custom files); default: the built-in packs. */
  readonly packs?: PackSet;
}

/** The unit's recorded permission mode when shellward models it (`default` or `acceptEdits`). */
function recordedMode(unit: CommandUnit): PermissionMode | undefined {
  const m = unit.context?.permissionMode;
  return m === 'default' || m === 'acceptEdits' ? m : undefined;
}

/**
 * The path context of a unit: its recorded working directory plus the policy's
 * `additionalDirectories` (resolved against it, `~/` expanded), or `undefined` when the unit has
 * no working directory (scripts, Makefiles): then path constraints are not applied.
 */
export function pathContextFor(unit: CommandUnit, policy: PermissionPolicy, host: PathHost): PathContext | undefined {
  const recorded = unit.context?.cwd;
  if (recorded === undefined) return undefined;
  // A recorded session's `~` is its user's home (absent from the record → unknown), not the home
  // of whoever runs shellward; Windows drive paths are judged in their Git Bash form (`/c/…`).
  const recordedHome = unit.context?.home;
  const sessionHome = recordedHome === undefined ? host.home : recordedHome === null ? undefined : toPosixPath(recordedHome);
  const here: PathHost = sessionHome === host.home ? host : { ...host, home: sessionHome };
  const cwd = toPosixPath(recorded);
  // A recorded cwd that is not absolute names no known directory: relative paths are unknown and
  // nothing is inside (every path asks) rather than path checks being switched off.
  if (cwd === undefined || !cwd.startsWith('/')) return { cwd: undefined, workingDirectories: [], host: here };
  const dirs = [posix.resolve(cwd)];
  for (const d of policy.additionalDirectories) {
    const home = here.home;
    if ((d.path === '~' || d.path.startsWith('~/')) && home === undefined) continue;
    const raw = d.path === '~' ? home! : d.path.startsWith('~/') ? posix.join(home!, d.path.slice(2)) : d.path;
    const p = toPosixPath(raw);
    if (p === undefined) continue;
    const abs = posix.resolve(cwd, p);
    if (!dirs.includes(abs)) dirs.push(abs);
  }
  // The repository's own hook directory (`core.hooksPath`) is a protected write like `.git/hooks`.
  const hooks = gitHooksDirectories(posix.resolve(cwd), here);
  return { cwd: posix.resolve(cwd), workingDirectories: dirs, host: here, ...(hooks.length > 0 ? { protectedDirectories: hooks } : {}) };
}

/** What {@link Linter.analyse} returns for one unit. */
export interface UnitAnalysis {
  /** The diagnostics, as {@link Linter.lintUnit} returns them. */
  readonly diagnostics: PendingDiagnostic[];
  /**
   * The permission decision for the unit (src/rules/decide.ts) with the misparsing gate applied:
   * `misparsing` is set when a reported finding is a Claude Code misparsing security ask.
   * Computed on first call (the parse views outlive the tree), after the security checks whose
   * rules are all `off` for the unit's profile, which run only then (their findings gate the
   * decision but are never printed); `undefined` when the unit could not
   * be parsed (time-out) or the decision failed (an `internal-error` diagnostic says why).
   */
  decision(): PermissionDecision | undefined;
  /**
   * The comment spans and top-level statements of the unit's own parse (embedded code not
   * included; spans in UTF-16 code units of `unit.text`), so that callers needing them
   * (suppression comments, per-statement verdicts) do not parse the text again. `undefined`
   * when the unit was not parsed (an oversized command, a parse time-out, a failed analysis).
   */
  readonly views?: Pick<ParsedScript, 'comments' | 'statements'>;
  /**
   * With {@link AnalyseOptions.statements}: each top-level statement judged where the unit runs
   * it, from this one analysis (computed on first call; `undefined` when the unit was not parsed
   * into statements: a parse time-out, an oversized or unparsable text, a failed analysis).
   */
  statementJudgements?(): readonly StatementJudgement[] | undefined;
}

/** What {@link Linter.analyse} does beyond the unit's own lint. */
export interface AnalyseOptions {
  /**
   * Also judge each top-level statement of the unit as the permission decision would where the
   * unit runs it ({@link UnitAnalysis.statementJudgements}), with `cwd` (an absolute directory)
   * as the directory the unit starts in; `home`: what `~` means (`null`: not known; absent: the
   * linter's home).
   */
  readonly statements?: { readonly cwd: string; readonly home?: string | null };
}

/** One top-level statement of a unit, judged in its unit (see {@link AnalyseOptions.statements}). */
export interface StatementJudgement {
  /** The statement's extent in the unit's text (UTF-16 code units, end exclusive). */
  readonly span: Span;
  /**
   * The unit's diagnostics inside the statement (those {@link UnitAnalysis.diagnostics} holds,
   * at the unit's profile), each with its span in the unit's text.
   */
  readonly findings: readonly { readonly diagnostic: PendingDiagnostic; readonly span: Span }[];
  /**
   * Why the analysis of the unit is incomplete (an `internal-error` finding anywhere in it, whatever
   * its configured severity: a failed check, code not parsed in time), so that no statement can be
   * judged; else `undefined`.
   */
  readonly incomplete?: string;
  /** The decision for the statement; `undefined` when the decision failed or the unit is incomplete. */
  readonly decision: PermissionDecision | undefined;
}

/** The checks a {@link Linter} runs for one profile, in run order, and those of them run only for a decision. */
interface ActiveChecks {
  readonly all: readonly Check[];
  readonly deferred: ReadonlySet<Check>;
}

/** A diagnostic before its fingerprint is known (fingerprints need the whole file). */
export type PendingDiagnostic = Omit<Diagnostic, 'fingerprint'>;

/**
 * Runs every registered check over command units. Create it with {@link Linter.create} (which
 * loads the parser once); `lintUnit` is then synchronous.
 */
export class Linter {
  private readonly indexByText = new Map<string, LineIndex>();

  /** The machine's facts every check reads (home, the run's directory), fixed at creation. */
  private readonly checkHost: CheckHost;

  private constructor(
    private readonly parser: Parser,
    private readonly options: LinterOptions,
  ) {
    const cwd = toPosixPath(process.cwd()) ?? '/';
    this.checkHost = { home: options.pathHost?.home, cwd: cwd.startsWith('/') ? cwd : '/' };
  }

  /** Loads the parser (once per process) and returns a linter. Rejects if the wasm cannot load. */
  static async create(options: LinterOptions = {}): Promise<Linter> {
    return new Linter(await initParser(options.parser), { ...options, pathHost: options.pathHost ?? { home: homedir() } });
  }

  /**
   * The options this linter was created with (`pathHost` filled in with its default), so that a
   * worker thread can create an equal linter (src/lint-pool.ts). Not to be modified.
   */
  get createdWith(): LinterOptions {
    return this.options;
  }

  /** Effective severity of `ruleId` for `unit`, or `undefined` when the rule is off. */
  severityFor(ruleId: string, unit: Pick<CommandUnit, 'profile'>, requested?: Severity): Severity | undefined {
    const override = this.options.severity?.[ruleId];
    const level = override ?? requested ?? ruleMeta(ruleId)?.severity[unit.profile] ?? 'warning';
    return level === 'off' ? undefined : level;
  }

  private lineIndex(hostText: string): LineIndex {
    let idx = this.indexByText.get(hostText);
    if (!idx) {
      idx = new LineIndex(hostText);
      // Keep only the last host text: units of one file arrive together.
      this.indexByText.clear();
      this.indexByText.set(hostText, idx);
    }
    return idx;
  }

  /**
   * Analyses one unit and returns its diagnostics in host-file coordinates, in no particular
   * order and without fingerprints (see {@link finishFile}). Never throws: a failing check
   * becomes an `internal-error` diagnostic and the other checks still run.
   */
  lintUnit(unit: CommandUnit, policy?: PermissionPolicy): PendingDiagnostic[] {
    return this.analyse(unit, policy).diagnostics;
  }

  /** The policy of this linter (its options', or the empty policy). */
  get policy(): PermissionPolicy {
    return this.options.policy ?? EMPTY_POLICY;
  }

  private readonly active = new Map<string, ActiveChecks>();

  /**
   * The checks to run for `profile`: `now`, those with at least one rule that is not `off` (after
   * the configured severities), the policy check last; and `deferred`, the security checks whose
   * every rule is off but whose findings gate the permission decision. A deferred check cannot
   * print anything (its findings are all dropped by severity), so it runs only when the unit's
   * decision is asked for (`lint` of a script never asks); a check that gates nothing and prints
   * nothing is not run at all.
   */
  private activeChecks(profile: CommandUnit['profile']): ActiveChecks {
    let list = this.active.get(profile);
    if (!list) {
      const shown = (c: Check): boolean => c.rules.some((r) => this.severityFor(r.id, { profile }) !== undefined);
      // Checks whose findings gate the permission decision run whatever their severity: settings
      // change what is printed, never the decision. The policy check runs last, so the decision it
      // reads has every gate.
      // Only rules whose findings can gate count (src/rules/decide.ts `isGatingFinding`): the findings
      // of the other security rules never reach the decision, so a check of only those that prints
      // nothing is not run at all.
      const gating = (c: Check): boolean => c.rules.some((r) => r.claudeCode !== undefined && (GATING_RULES.has(r.id) || r.id === 'command-substitution'));
      // Only security checks are deferred: they report through defineSecurityCheck, which never
      // asks for a severity of its own, so an `off` rule of theirs prints nothing.
      const deferrable = (c: Check): boolean => !shown(c) && gating(c) && isSecurityCheck(c);
      const all = CHECKS.filter((c) => shown(c) || gating(c));
      const ordered = [...all.filter((c) => c.name !== 'permission-rules'), ...all.filter((c) => c.name === 'permission-rules')];
      list = { all: ordered, deferred: new Set(ordered.filter(deferrable)) };
      this.active.set(profile, list);
    }
    return list;
  }

  /**
   * Parses embedded shell code into views (the tree is freed at once), or says why it was not
   * parsed: the unit's `deadline` (CPU milliseconds, shared with the unit's own parse) passed,
   * the parse stalled, or the code was refused unparsed (`parseWithin`).
   */
  private views(code: string, deadline: number): ParsedScript | ParseStop {
    const { tree, stop } = parseWithin(this.parser, code, deadline);
    if (!tree) return stop;
    try {
      return buildViews(tree, code);
    } finally {
      tree.delete();
    }
  }

  /**
   * {@link lintUnit} plus the permission decision of the unit, from one parse. `policy` replaces
   * the linter's own policy for this unit (the `check` command merges a request's rules into it).
   * Never throws.
   */
  analyse(unit: CommandUnit, policy: PermissionPolicy = this.policy, options: AnalyseOptions = {}): UnitAnalysis {
    try {
      return this.analyseOrThrow(unit, policy, options);
    } catch (err) {
      // The parser or the views failed (a wasm trap, a stack exhausted by pathological input):
      // report it on this unit instead of failing the run.
      const index = this.lineIndex(unit.hostText);
      const range = spanToRange({ start: 0, end: Math.min(unit.text.length, 1) }, unit.sourceMap, index);
      const message = `Analysis failed: ${err instanceof Error ? err.message : String(err)}`;
      const severity = this.severityFor(INTERNAL_ERROR.id, unit) ?? 'error';
      return { diagnostics: [{ ruleId: INTERNAL_ERROR.id, severity, message, file: unit.origin.file, range }], decision: () => undefined };
    }
  }

  private analyseOrThrow(unit: CommandUnit, policy: PermissionPolicy, options: AnalyseOptions): UnitAnalysis {
    const out: PendingDiagnostic[] = [];
    // With statement judgements: the unit-text span of each diagnostic in `out`, and the first
    // internal error whatever its severity.
    const judging = options.statements !== undefined;
    const outSpans: Span[] = [];
    let incomplete: string | undefined;
    // Gates in check order: slot 0 before the checks, slot i + 1 for the i-th check, so that a
    // deferred check's gates sit where they would be had it run in its turn.
    const gateSlots: GateFinding[][] = [];
    let slot = 0;
    let gateCount = 0;
    const index = this.lineIndex(unit.hostText);
    const place = (f: Finding): void => {
      const claudeCode = ruleMeta(f.ruleId)?.claudeCode;
      // Gates are recorded before the severity filter: `rules: {x: off}` hides a finding, it
      // does not change the decision.
      if (claudeCode !== undefined && isGatingFinding(f.ruleId, f.data)) {
        const order = typeof f.data?.order === 'number' ? f.data.order : claudeCode.order;
        const into = gateSlots[slot] ?? [];
        gateSlots[slot] = into;
        into.push({ ruleId: f.ruleId, message: f.message, span: f.span, order });
        gateCount++;
      }
      if (judging && f.ruleId === INTERNAL_ERROR.id) incomplete ??= f.message;
      const severity = this.severityFor(f.ruleId, unit, f.severity);
      if (!severity) return;
      if (judging) outSpans.push(f.span);
      const range: Range = spanToRange(f.span, unit.sourceMap, index);
      // A recorded command is one long JSON string in its transcript: show its line under the finding.
      const excerpt = unit.origin.kind === 'transcript' ? { excerpt: commandExcerpt(unit.text, f.span, unit.context) } : {};
      out.push({ ruleId: f.ruleId, severity, message: f.message, file: unit.origin.file, range, ...(f.data ? { data: f.data } : {}), ...excerpt });
    };
    if (isOversizedCommand(unit)) {
      const judged = judgeOversized(unit.text, policy);
      for (const f of judged.findings) place(f);
      return { diagnostics: out, decision: () => judged.decision };
    }
    // Text the parser could not be stopped in is judged unparsed, like an oversized command.
    const crowded = heredocPressure(unit.text);
    const nesting = crowded ? undefined : deepNesting(unit.text);
    if (crowded || nesting) {
      const judged = crowded ? judgeCrowdedHeredocs(unit.text, crowded, policy) : judgeDeepNesting(unit.text, nesting!, policy);
      // Where `parse-too-complex` is off (scripts), the unanalysed text is an `internal-error`, as
      // a parse time-out is: never silent.
      const visible = this.severityFor('parse-too-complex', unit) !== undefined;
      for (const f of judged.findings) place(visible ? f : { ruleId: INTERNAL_ERROR.id, message: `${f.message.replace(/ It was not parsed\.$/, '')} This code was not analysed.`, span: f.span });
      return { diagnostics: out, decision: () => judged.decision };
    }
    // One time budget, proportional to the unit's size, covers the unit and all code embedded in it.
    const budget = parseBudgetMs(unit.text.length, this.options.parseTimeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS);
    const deadline = parseClockMs() + budget;
    const { tree, stop } = parseWithin(this.parser, unit.text, deadline);
    if (!tree) {
      place({
        ruleId: INTERNAL_ERROR.id,
        message: `${stopMessage(stop, budget, unit.text.length)}; this code was not analysed.`,
        span: { start: 0, end: Math.min(unit.text.length, 1) },
      });
      return { diagnostics: out, decision: () => undefined };
    }
    let decision: (() => PermissionDecision | undefined) | undefined;
    let judgements: (() => readonly StatementJudgement[] | undefined) | undefined;
    let views: { comments: readonly Span[]; statements: readonly Statement[] } | undefined;
    try {
      // Commands inside `sh -c '…'`, `eval …` and heredocs fed to a shell are checked too.
      let embeddedStop: { stop: ParseStop; length: number } | undefined;
      const own = buildViews(tree, unit.text);
      views = { comments: own.comments, statements: own.statements };
      const parsed = withEmbedded(own, unit.text, (code) => {
        const inner = this.views(code, deadline);
        if ('reason' in inner) {
          embeddedStop ??= { stop: inner, length: code.length };
          return undefined;
        }
        return inner;
      });
      if (embeddedStop) {
        // The embedded code was not seen: the unit's analysis is incomplete, never silently so.
        place({
          ruleId: INTERNAL_ERROR.id,
          message:
            embeddedStop.stop.reason === 'deadline'
              ? `Parsing the shell code embedded in this command ran past the parse budget of ${Math.round(budget)} ms of CPU time and was stopped; that code was not analysed.`
              : `Shell code embedded in this command was not analysed: ${stopMessage(embeddedStop.stop, budget, embeddedStop.length).replace(/^./, (c) => c.toLowerCase())}.`,
          span: { start: 0, end: Math.min(unit.text.length, 1) },
        });
      }
      const cwd = unit.context?.cwd;
      const paths = pathContextFor(unit, policy, this.options.pathHost ?? { home: homedir() });
      // git guard (src/analyses/git-repository.ts): a bare repository from the cwd up, or a repository config naming programs.
      const bare = paths?.cwd !== undefined && gitRepositoryHazard(paths.cwd, paths.host) !== undefined;
      const base: DecisionContext = {
        ...(cwd !== undefined ? { cwd } : {}),
        ...(paths ? { paths } : {}),
        ...(bare ? { bareRepository: true } : {}),
        // A mode the transcript recorded for this call wins over the configured one.
        ...((recordedMode(unit) ?? this.options.mode) ? { mode: recordedMode(unit) ?? this.options.mode } : {}),
      };
      const modelCwd = paths?.cwd;
      const modelHome = (this.options.pathHost ?? { home: homedir() }).home;
      // Built when first read (the decision, a check judging from the unit's own directory): a
      // script's lint asks for neither, so its model is never built there.
      let built: CommandModel | undefined;
      const model = (): CommandModel => (built ??= buildModel(parsed, { ...(modelCwd !== undefined ? { cwd: modelCwd } : {}), home: modelHome }));
      // Models of the unit started elsewhere (a check that judges a script from its own
      // directory), built once per directory and home.
      const elsewhere = new Map<string, CommandModel>();
      const modelAt = (cwd: string | undefined, home: string | undefined): CommandModel => {
        if (cwd === modelCwd && home === modelHome) return model();
        const key = `${cwd === undefined ? '-' : `+${cwd}`}\0${home === undefined ? '-' : `+${home}`}`;
        let other = elsewhere.get(key);
        if (!other) {
          other = buildModel(parsed, { ...(cwd !== undefined ? { cwd } : {}), home });
          elsewhere.set(key, other);
        }
        return other;
      };
      let current: PermissionDecision | undefined;
      let currentGates = -1;
      const active = this.activeChecks(unit.profile);
      let deferred: [Check, number][] = [];
      const runCheck = (check: Check, at: number): void => {
        const outer = slot;
        slot = at + 1;
        try {
          check.run(ctx);
        } catch (err) {
          place({
            ruleId: INTERNAL_ERROR.id,
            message: `Check \`${check.name}\` failed: ${err instanceof Error ? err.message : String(err)}`,
            span: { start: 0, end: Math.min(unit.text.length, 1) },
          });
        } finally {
          slot = outer;
        }
      };
      // The decision with the gates found so far (the policy check runs after the security checks);
      // the deferred checks run first, once.
      const decideNow = (): PermissionDecision => {
        if (deferred.length > 0) {
          const waiting = deferred;
          deferred = [];
          for (const [check, at] of waiting) runCheck(check, at);
        }
        if (!current || currentGates !== gateCount) {
          current = decide(unit.text, parsed, policy, { ...base, model: model(), gates: gateSlots.flat() });
          currentGates = gateCount;
        }
        return current;
      };
      const ctx: CheckContext = {
        unit,
        parsed,
        host: this.checkHost,
        registry: CHECKS,
        policy,
        get model() {
          return model();
        },
        modelAt,
        decision: decideNow,
        report: place,
        ...(this.options.packs ? { packs: this.options.packs } : {}),
      };
      active.all.forEach((check, at) => {
        if (active.deferred.has(check)) deferred.push([check, at]);
        else runCheck(check, at);
      });
      decision = () => {
        try {
          return decideNow();
        } catch {
          // decide() does not throw by design; a bug there must not crash a run.
          return undefined;
        }
      };
      if (options.statements) {
        const at = options.statements;
        const statements = own.statements;
        let memo: readonly StatementJudgement[] | undefined;
        judgements = () => (memo ??= this.judgeStatements(unit, parsed, policy, statements, at, {
          runDeferred: () => {
            if (deferred.length === 0) return;
            const waiting = deferred;
            deferred = [];
            for (const [check, at2] of waiting) runCheck(check, at2);
          },
          gates: () => gateSlots.flat(),
          modelAt,
          modelHome,
          findings: () => out.map((diagnostic, i) => ({ diagnostic, span: outSpans[i]! })),
          incomplete: () => incomplete,
        }));
      }
    } finally {
      tree.delete();
    }
    return {
      diagnostics: out,
      decision: decision ?? (() => undefined),
      ...(views ? { views } : {}),
      ...(judging ? { statementJudgements: judgements ?? (() => undefined) } : {}),
    };
  }

  /**
   * The judgement of each top-level statement of a parsed unit (see
   * {@link AnalyseOptions.statements}): the deferred gating checks run once, one model of the unit
   * started in `at.cwd`, the model cut into statements (src/rules/decision-slice.ts), and one
   * {@link decide} per statement on its slice with the gates inside it.
   */
  private judgeStatements(
    unit: CommandUnit,
    parsed: ParsedScript,
    policy: PermissionPolicy,
    statements: readonly Statement[],
    at: NonNullable<AnalyseOptions['statements']>,
    from: {
      runDeferred(): void;
      gates(): GateFinding[];
      modelAt(cwd: string | undefined, home: string | undefined): CommandModel;
      modelHome: string | undefined;
      findings(): { diagnostic: PendingDiagnostic; span: Span }[];
      incomplete(): string | undefined;
    },
  ): StatementJudgement[] {
    from.runDeferred();
    const incomplete = from.incomplete();
    const all = from.findings();
    // Diagnostics are placed in check order, not document order.
    all.sort((a, b) => a.span.start - b.span.start);
    const findingsIn = (s: Span): { diagnostic: PendingDiagnostic; span: Span }[] => {
      let lo = 0;
      let hi = all.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (all[mid]!.span.start < s.start) lo = mid + 1;
        else hi = mid;
      }
      const found: { diagnostic: PendingDiagnostic; span: Span }[] = [];
      for (let i = lo; i < all.length && all[i]!.span.start < s.end; i++) found.push(all[i]!);
      return found;
    };
    if (incomplete !== undefined) return statements.map((s) => ({ span: s.span, findings: findingsIn(s.span), incomplete, decision: undefined }));
    const judgedUnit: CommandUnit = { ...unit, context: { ...(unit.context ?? {}), cwd: at.cwd, ...(at.home !== undefined ? { home: at.home } : {}) } };
    const host = this.options.pathHost ?? { home: homedir() };
    const paths = pathContextFor(judgedUnit, policy, host);
    const bare = paths?.cwd !== undefined && gitRepositoryHazard(paths.cwd, paths.host) !== undefined;
    const mode = recordedMode(unit) ?? this.options.mode;
    const model = from.modelAt(paths?.cwd, from.modelHome);
    const slices = decisionSlices(model, parsed, statements);
    const gates = [...from.gates()].sort((a, b) => a.span.start - b.span.start);
    let g = 0;
    return slices.map((slice) => {
      const s = slice.span;
      // Gates are in document order and statements do not overlap: one walk.
      while (g < gates.length && gates[g]!.span.end <= s.start && gates[g]!.span.start < s.start) g++;
      const inside: GateFinding[] = [];
      for (let k = g; k < gates.length && gates[k]!.span.start < s.end; k++) if (gates[k]!.span.end > s.start || gates[k]!.span.start >= s.start) inside.push(gates[k]!);
      let decision: PermissionDecision | undefined;
      try {
        decision = decide(unit.text, parsed, policy, {
          cwd: at.cwd,
          ...(paths ? { paths } : {}),
          ...(bare ? { bareRepository: true } : {}),
          ...(mode ? { mode } : {}),
          model,
          gates: inside,
          slice,
        });
      } catch {
        // decide() does not throw by design; a bug there must not crash a run.
        decision = undefined;
      }
      return { span: s, findings: findingsIn(s), decision };
    });
  }
}

/** Why the parse of a unit of `length` UTF-16 code units with a budget of `budget` ms stopped, as the start of a sentence. */
function stopMessage(stop: ParseStop, budget: number, length: number): string {
  if (stop.reason === 'stalled') {
    return `The parser's error recovery stopped making progress (${stop.offset} of ${length} characters read after ${Math.round(stop.spentMs)} ms of CPU time) and was stopped`;
  }
  if (stop.reason === 'crowded-heredocs') return 'Here-document operators stand where the parser cannot be stopped in them (too many on a line, or first in too many commands), so it was not parsed';
  if (stop.reason === 'deep-nesting') return 'Substitutions, `[[` conditionals or braces are nested deeper than the analysis is bounded for, so it was not parsed';
  return `Parsing used more than ${Math.round(budget)} ms of CPU time (the budget for ${length} characters) and was stopped`;
}

/** Orders diagnostics: line, column, severity (most severe first), rule id, message. */
export function compareDiagnostics(a: PendingDiagnostic, b: PendingDiagnostic): number {
  return (
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.range.start.line - b.range.start.line ||
    a.range.start.column - b.range.start.column ||
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

/**
 * Sorts the diagnostics of one host file and gives each its fingerprint. `hostText` is the
 * file's text (used for the line content the fingerprint hashes).
 */
export function finishFile(hostText: string, pending: readonly PendingDiagnostic[]): Diagnostic[] {
  const sorted = [...pending].sort(compareDiagnostics);
  const index = new LineIndex(hostText);
  const hashes = sorted.map((d) => {
    const start = index.lineStart(d.range.start.line);
    const end = index.lineStart(d.range.start.line + 1);
    const line = d.range.start.line < index.lineCount ? hostText.slice(start, end) : hostText.slice(start);
    return lineHash(d.ruleId, line);
  });
  const fps = numberFingerprints(hashes);
  return sorted.map((d, i) => ({ ...d, fingerprint: fps[i]! }));
}

export { RULES };
