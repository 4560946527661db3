/**
 * The verdict for one command, as `shellward check` prints it (architecture.md §3 `Verdict`).
 *
 * The JSON shape is a stable interface: later work adds fields and fills the placeholders
 * below, and never renames or removes a field. Field order is fixed (see {@link VERDICT_FIELDS}).
 *
 * What is real and what is a placeholder:
 * - `findings`: real — every diagnostic of the linter's checks on the command, agent profile (for
 *   a script's statement in a JSON report: the script's own diagnostics inside the statement, see
 *   {@link statementVerdict}).
 * - `destructive`: real — the rule ids of the destructive-command check (`matchDestructive` over
 *   every simple command, first matching row per command), deduplicated, in document order.
 * - `decision`: real — the permission engine (src/rules/decide.ts, claude-code-reference.md §2) over the
 *   linter's policy merged with the request's `permissions`, combined with the findings' asks
 *   (see {@link verdictFor} for the precedence).
 * - `reason`: why (a stable code first, see {@link Verdict.reason}).
 * - `suggestions`: real — Claude Code's suggested allow rules (§2.9) when nothing decided.
 * - `matchedRule`: the rule that decided, or `null`.
 * - `readOnly`: real — Claude Code's read-only recognition (claude-code-reference.md §3.3: the flag-level allowlist in
 *   rules/read-only.json, the git guards, no security ask); read-only commands are allowed.
 * - `outsideCwd`, `paths`: real when the request has a working directory (`check` defaults it to
 *   the current directory) — every path the command reads or writes (claude-code-reference.md §3.4 extractors and
 *   output redirections), resolved and judged against the working directories (cwd plus
 *   `additionalDirectories`).
 *
 * Pure: no I/O; the linter is passed in.
 */
import { DESTRUCTIVE_RULES } from './analyses/destructive.js';
import { ruleMeta } from './checks/index.js';
import { LineIndex } from './core/positions.js';
import type { CommandUnit, Position, Severity } from './core/types.js';
import { SEVERITY_RANK } from './core/types.js';
import type { Linter, PendingDiagnostic, StatementJudgement } from './lint.js';
import type { PermissionDecision } from './rules/decide.js';
import { RuleSyntaxError } from './rules/parse.js';
import { mergePolicies, policyFrom, type PermissionPolicy } from './rules/policy.js';
import { IdentityMap } from './core/source-map.js';

/** Claude Code's three permission outcomes; its `passthrough` ("no rule decided") is reported as `ask`. */
export type Decision = 'allow' | 'ask' | 'deny';

/**
 * One finding in a verdict. `start` and `end` are 0-based offsets into the command string in
 * UTF-16 code units (JavaScript string indices), `end` exclusive: `command.slice(start, end)` is
 * the text the finding is about. An empty region is widened to one character, as in every other
 * output format (so `end` may equal `start + 1` at the end of the command, clamped to its length).
 */
export interface VerdictFinding {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly message: string;
  readonly start: number;
  readonly end: number;
}

/** The verdict for one command. Field order is {@link VERDICT_FIELDS}. */
export interface Verdict {
  readonly decision: Decision;
  /**
   * A stable code — a rule id, `no-matching-rule` or `internal-error` — optionally followed by
   * `: ` and a human-readable explanation. Consumers that branch on it split at the first `: `.
   */
  readonly reason: string;
  /** Whether the command only reads (claude-code-reference.md §3.3; a security ask or a non-simple parse makes it `false`). */
  readonly readOnly: boolean;
  /** Ids of the destructive-command rules that matched (e.g. `git-push-force`), in document order. */
  readonly destructive: readonly string[];
  /**
   * Whether the command reads or writes a path established to be outside the working directories
   * (a path with a variable is unknown, not outside). `false` without a working directory.
   */
  readonly outsideCwd: boolean;
  /** Every finding, sorted by `start`, then `end`, severity (most severe first), rule id, message. */
  readonly findings: readonly VerdictFinding[];
  /**
   * Permission rules (`Bash(…)`) that would allow the command (Claude Code's suggestions, claude-code-reference.md
   * §2.9: at most 5, leftmost subcommand first). Empty unless the decision is `ask` with reason
   * `no-matching-rule`; never offered for security, parse-complexity or structural asks.
   */
  readonly suggestions: readonly string[];
  /** The permission rule that decided (`deny`, `ask` or `allow`), or `null` when no rule did. */
  readonly matchedRule: MatchedRule | null;
  /** Every path the command touches, in document order (empty without a working directory). */
  readonly paths: readonly VerdictPath[];
}

/**
 * One path of a verdict. `resolved` is absolute (lexical, symlinks followed where the host can
 * see them), or `null` when it cannot be known (a variable, `~user`, an unknown directory).
 * `allowed` is Claude Code's `validatePath` without `Read`/`Edit` rules: inside the working
 * directories (or a device such as `/dev/null`). `reason`: `inside`, `outside`, `variable`,
 * `tilde-user`, `glob-write`, `unknown-cwd`, `device` or `brace` (a brace expansion too large to list).
 * Paths of commands outside Claude Code's 36 path extractors (`tac`, `tree`, `du`, `grep -f` …,
 * brace alternatives) are listed and count for `outsideCwd`, but do not change the decision.
 */
export interface VerdictPath {
  readonly path: string;
  readonly operation: 'read' | 'write' | 'create';
  readonly resolved: string | null;
  readonly allowed: boolean;
  readonly reason: string;
}

/** A rule in a verdict: the rule string, its list, and where it was configured. */
export interface MatchedRule {
  readonly rule: string;
  readonly behavior: 'allow' | 'ask' | 'deny';
  /** The settings or config file, or `<request>` for a check request's own `permissions`. */
  readonly file: string;
  /** Key path of the rule in that file, e.g. `permissions.deny[0]`; absent when unknown. */
  readonly path?: string;
}

/** The fields of a {@link Verdict} in output order; the stable interface. */
export const VERDICT_FIELDS = ['decision', 'reason', 'readOnly', 'destructive', 'outsideCwd', 'findings', 'suggestions', 'matchedRule', 'paths'] as const;

/** The fields of a {@link VerdictPath} in output order. */
export const PATH_FIELDS = ['path', 'operation', 'resolved', 'allowed', 'reason'] as const;

/** The fields of a {@link VerdictFinding} in output order. */
export const FINDING_FIELDS = ['ruleId', 'severity', 'message', 'start', 'end'] as const;

/** Reason code when nothing decided (Claude Code's `passthrough`, architecture.md §3). */
export const NO_MATCHING_RULE = 'no-matching-rule';

/** Reason code of an `allow`: a permission rule (named in `matchedRule`) allowed the command. */
export const ALLOW_RULE = 'allow-rule';

/** Reason code of an `allow` of a read-only command (claude-code-reference.md §2.8 step 8, "Read-only command is allowed"). */
export const READ_ONLY = 'read-only';

/** File name a check request's own `permissions` are reported under. */
export const REQUEST_ORIGIN = '<request>';

/**
 * Claude Code permission rule strings (`Bash(git status)`, `Bash(npm run:*)`) as in
 * `.claude/settings.json` `permissions`; merged after the linter's configured policy.
 */
export interface PermissionRules {
  readonly allow?: readonly string[];
  readonly ask?: readonly string[];
  readonly deny?: readonly string[];
  readonly additionalDirectories?: readonly string[];
}

/** The context of one check request. */
export interface VerdictRequest {
  /** The working directory the command would run in (absolute path): paths are judged against it. */
  readonly cwd?: string;
  readonly permissions?: PermissionRules;
  /** Claude Code's permission mode for this request (`default` or `acceptEdits`); default: the linter's. */
  readonly mode?: 'default' | 'acceptEdits';
  /**
   * What `~` meant where the command ran (a recorded session's home; `null` = not known, so `~`
   * paths are unknown). Absent: the home of the user running shellward.
   */
  readonly home?: string | null;
}

/** One request line of `shellward check --jsonl`: `{"command": "...", "cwd": "...", "permissions": {...}}`. */
export interface CheckRequest extends VerdictRequest {
  readonly command: string;
}

/** Result of {@link parseCheckRequest}: the request, or why it was rejected. */
export type ParsedRequest = { readonly ok: true; readonly request: CheckRequest } | { readonly ok: false; readonly error: string };

const RULE_LISTS = ['allow', 'ask', 'deny', 'additionalDirectories'] as const;

/**
 * Validates a decoded JSON request: an object with a string `command`, an optional string `cwd`,
 * optional `permissions` whose `allow` / `ask` / `deny` / `additionalDirectories` are arrays
 * of strings, and an optional `mode` (`default` or `acceptEdits`). `null` counts as absent for
 * `cwd`, `permissions` and `mode`; unknown keys are ignored
 * (forward compatible). Rule strings are parsed: a malformed one rejects the request, naming it.
 */
export function parseCheckRequest(value: unknown): ParsedRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, error: 'a request must be a JSON object with a string "command"' };
  }
  const v = value as Record<string, unknown>;
  if (typeof v.command !== 'string') {
    return { ok: false, error: v.command === undefined ? 'missing "command"' : '"command" must be a string' };
  }
  if (v.cwd !== undefined && v.cwd !== null && typeof v.cwd !== 'string') return { ok: false, error: '"cwd" must be a string' };
  if (v.mode !== undefined && v.mode !== null && v.mode !== 'default' && v.mode !== 'acceptEdits') {
    return { ok: false, error: '"mode" must be "default" or "acceptEdits"' };
  }
  let permissions: PermissionRules | undefined;
  if (v.permissions !== undefined && v.permissions !== null) {
    if (typeof v.permissions !== 'object' || Array.isArray(v.permissions)) {
      return { ok: false, error: '"permissions" must be an object with "allow", "ask" and "deny" arrays' };
    }
    const p = v.permissions as Record<string, unknown>;
    const out: Record<string, readonly string[]> = {};
    for (const key of RULE_LISTS) {
      const list = p[key];
      if (list === undefined || list === null) continue;
      if (!Array.isArray(list) || !list.every((r) => typeof r === 'string')) {
        return { ok: false, error: `"permissions.${key}" must be an array of strings` };
      }
      out[key] = list as string[];
    }
    permissions = out;
    try {
      policyFrom(permissions, REQUEST_ORIGIN);
    } catch (err) {
      if (err instanceof RuleSyntaxError) return { ok: false, error: err.message };
      throw err;
    }
  }
  const request: CheckRequest = {
    command: v.command,
    ...(typeof v.cwd === 'string' ? { cwd: v.cwd } : {}),
    ...(permissions ? { permissions } : {}),
    ...(v.mode === 'default' || v.mode === 'acceptEdits' ? { mode: v.mode } : {}),
  };
  return { ok: true, request };
}

/** File name shown for a command unit in diagnostics. */
export const COMMAND_ORIGIN_FILE = '<command>';

/**
 * The {@link CommandUnit} of a single command: granularity `command`, profile `agent` (docs/architecture.md
 * §5), origin kind `command`, the command as its own host text (identity source map).
 */
export function commandUnit(command: string, request: VerdictRequest = {}): CommandUnit {
  return {
    text: command,
    dialect: 'bash',
    granularity: 'command',
    profile: 'agent',
    origin: { file: COMMAND_ORIGIN_FILE, kind: 'command' },
    sourceMap: new IdentityMap(),
    hostText: command,
    ...(request.cwd !== undefined || request.mode !== undefined || request.home !== undefined
      ? {
          context: {
            ...(request.cwd !== undefined ? { cwd: request.cwd } : {}),
            ...(request.mode !== undefined ? { permissionMode: request.mode } : {}),
            ...(request.home !== undefined ? { home: request.home } : {}),
          },
        }
      : {}),
  };
}

const DESTRUCTIVE_IDS: ReadonlySet<string> = new Set(DESTRUCTIVE_RULES.map((r) => r.id));

/**
 * Where a security finding stands in Claude Code's validator run (claude-code-reference.md §1.4): its
 * 1-based position in the execution order and whether its ask carries the misparsing flag.
 */
export interface SecurityRank {
  readonly misparsing: boolean;
  readonly order: number;
}

function asRank(v: unknown): SecurityRank | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const { misparsing, order } = v as Record<string, unknown>;
  if (typeof misparsing !== 'boolean' || typeof order !== 'number' || !Number.isFinite(order)) return undefined;
  return { misparsing, order };
}

/**
 * The {@link SecurityRank} of a finding, or `undefined` for a finding that is not a Claude Code
 * security ask. The finding's own `data.order` / `data.misparsing` win (a validator may raise an
 * ask at another position than its rule's, e.g. the git-commit dash case); otherwise the rule's
 * `claudeCode` metadata. Both are read defensively: malformed values count as absent.
 */
export function securityRankOf(ruleId: string, data: Readonly<Record<string, unknown>> | undefined): SecurityRank | undefined {
  const meta = asRank(ruleMeta(ruleId)?.claudeCode as unknown);
  if (!meta) return undefined;
  return asRank(data) ?? meta;
}

function offsetOf(p: Position, index: LineIndex, length: number): number {
  return Math.min(index.lineStart(p.line) + p.column - 1, length);
}

function compareFindings(a: VerdictFinding, b: VerdictFinding): number {
  return (
    a.start - b.start ||
    a.end - b.end ||
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

function withMessage(code: string, message: string): string {
  return message === '' ? code : `${code}: ${message}`;
}

/**
 * The security finding Claude Code would have returned (claude-code-reference.md §1.4 items 5–6): the
 * validators run in `order`; the first misparsing ask wins at once, while an ask of the two
 * non-misparsing validators (newlines, redirections) is only remembered and returned when the
 * run ends without a misparsing ask. Ties in order go to the leftmost finding.
 */
function firstSecurityFinding(
  findings: readonly VerdictFinding[],
  ranks: readonly (SecurityRank | undefined)[],
): { finding: VerdictFinding; misparsing: boolean } | undefined {
  let best: { finding: VerdictFinding; misparsing: boolean; order: number } | undefined;
  for (let i = 0; i < findings.length; i++) {
    const f = findings[i]!;
    const o = ranks[i];
    if (!o) continue;
    // findings are sorted by position, so `<` keeps the leftmost of equal order.
    if (!best || (o.misparsing && !best.misparsing) || (o.misparsing === best.misparsing && o.order < best.order)) {
      best = { finding: f, misparsing: o.misparsing, order: o.order };
    }
  }
  return best && { finding: best.finding, misparsing: best.misparsing };
}

/**
 * The verdict for `command` (any string: any length, any characters) as a single command unit
 * (granularity `command`, profile `agent`, origin kind `command`), analysed by `linter` (its
 * severity settings apply: a rule turned off contributes no finding and no reason) under the
 * linter's policy merged with `request.permissions` (reported as file `<request>`). Synchronous,
 * never throws for any input, and does work linear in the command's length plus the checks' own.
 *
 * `decision` and `reason` come from the one permission decision (src/rules/decide.ts, see its
 * module comment for the order: deny, ask, unknown code and parser differentials, the removal
 * limit, structural caps, per-command paths / allow rules / sed / acceptEdits / read-only), except
 * that a failed check, a parse time-out or a malformed request rule gives `ask`,
 * `internal-error: …` (the analysis is incomplete). The reason is `code: message` with the codes
 * of `PermissionDecision.code`; `no-matching-rule` carries no message.
 */
export function verdictFor(command: string, request: VerdictRequest, linter: Linter): Verdict {
  let policy: PermissionPolicy;
  try {
    policy = request.permissions ? mergePolicies(linter.policy, policyFrom(request.permissions, REQUEST_ORIGIN)) : linter.policy;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { decision: 'ask', reason: withMessage('internal-error', message), readOnly: false, destructive: [], outsideCwd: false, findings: [], suggestions: [], matchedRule: null, paths: [] };
  }
  const analysis = linter.analyse(commandUnit(command, request), policy);
  const index = new LineIndex(command);
  const findings = analysis.diagnostics.map((d) => ({
    diagnostic: d,
    start: offsetOf(d.range.start, index, command.length),
    end: offsetOf(d.range.end, index, command.length),
  }));
  const internal = findings.find((f) => f.diagnostic.ruleId === 'internal-error');
  return wordVerdict(findings, internal ? { incomplete: internal.diagnostic.message } : { decision: analysis.decision() });
}

/**
 * The verdict of one top-level statement of a script judged where the script runs it
 * (`Linter.analyse` with `statements`, src/lint.ts): `decision` and `reason` from the one
 * decision for the statement's slice of the script's analysis; `findings` are the script's own
 * diagnostics (at the script's profile) inside the statement, with offsets into the statement's
 * text; `ask` with reason `internal-error: …` when the script's analysis is incomplete or the
 * decision failed. Never throws.
 */
export function statementVerdict(judgement: StatementJudgement): Verdict {
  const at = judgement.span.start;
  const length = judgement.span.end - at;
  const findings = judgement.findings.map(({ diagnostic, span }) => {
    const start = Math.min(span.start - at, length);
    // An empty region is one character, as in every other output format.
    const end = Math.min(Math.max(span.end, span.start + 1) - at, Math.max(length, start + 1));
    return { diagnostic, start, end };
  });
  return wordVerdict(findings, judgement.incomplete !== undefined ? { incomplete: judgement.incomplete } : { decision: judgement.decision });
}

/**
 * Words a verdict from findings (each a diagnostic with its 0-based offsets into the command)
 * and the one permission decision (src/rules/decide.ts), or why there is none (`incomplete`: the
 * message of the internal error that left the analysis incomplete).
 */
function wordVerdict(
  placed: readonly { readonly diagnostic: PendingDiagnostic; readonly start: number; readonly end: number }[],
  judged: { readonly decision: PermissionDecision | undefined } | { readonly incomplete: string },
): Verdict {
  const ranked = placed.map(({ diagnostic: d, start, end }) => ({
    finding: { ruleId: d.ruleId, severity: d.severity, message: d.message, start, end } satisfies VerdictFinding,
  }));
  ranked.sort((a, b) => compareFindings(a.finding, b.finding));
  const findings = ranked.map((r) => r.finding);

  const destructive: string[] = [];
  const diagnostics = placed.map((p) => p.diagnostic);
  // Custom packs' rules (config `packs.files`) are not in the table: their findings name their pack.
  const packRuleIds = new Set(diagnostics.filter((x) => typeof x.data?.pack === 'string').map((x) => x.ruleId));
  for (const f of findings) {
    if ((DESTRUCTIVE_IDS.has(f.ruleId) || packRuleIds.has(f.ruleId)) && !destructive.includes(f.ruleId)) destructive.push(f.ruleId);
  }
  // A removal path-dangerous-removal reports (`rm -rf /`) names the destructive rules it also hits.
  for (const x of diagnostics) {
    const related = x.data?.related;
    if (x.ruleId === 'path-dangerous-removal' && Array.isArray(related)) for (const id of related) if (typeof id === 'string' && !destructive.includes(id)) destructive.push(id);
  }
  const incomplete = 'incomplete' in judged ? judged.incomplete : undefined;
  const d = 'decision' in judged ? judged.decision : undefined;
  const paths: VerdictPath[] = (d?.paths ?? []).map((p) => ({ path: p.path, operation: p.operation, resolved: p.resolved, allowed: p.allowed, reason: p.reason }));
  const base = { readOnly: d?.readOnly ?? false, destructive, outsideCwd: paths.some((p) => p.reason === 'outside'), findings };
  const out = (decision: Decision, reason: string, dd?: PermissionDecision, suggestions: readonly string[] = []): Verdict => ({
    decision,
    reason,
    ...base,
    suggestions,
    matchedRule: dd?.rule ? matchedRuleOf(dd) : null,
    paths,
  });

  if (incomplete !== undefined || !d) return out('ask', incomplete !== undefined ? withMessage('internal-error', incomplete) : 'internal-error: the permission decision failed');
  // The one decision (src/rules/decide.ts); the verdict only words it.
  const decision: Decision = d.behavior === 'passthrough' ? 'ask' : d.behavior;
  // No allow rule is suggested for a command that hit a destructive-command pack: the rule would
  // let the dangerous part through next time (`curl … | sh` would suggest `Bash(curl …)`).
  return out(decision, withMessage(d.code, d.code === NO_MATCHING_RULE ? '' : d.message), d, d.behavior === 'passthrough' && destructive.length === 0 ? d.suggestions : []);
}

function matchedRuleOf(d: PermissionDecision): MatchedRule {
  const r = d.rule!;
  return { rule: r.raw, behavior: r.behavior, file: r.origin.file, ...(r.origin.path ? { path: r.origin.path } : {}) };
}

/**
 * The security and parse reason of an `ask` from sorted findings, or `undefined`: a misparsing
 * security finding (first in Claude Code's validator order, §1.4), then `parse-error` (with its
 * offset), then `parse-too-complex`, then a deferred security finding (newlines, redirections).
 * Misparsing asks come before the parse-complexity ask because they block first in Claude Code's
 * legacy flow (§2.6 step 5) and are facts about the text that no parser can refute; the deferred
 * asks come last because Claude Code never lets them block early (§1.1).
 */
function securityReason(findings: readonly VerdictFinding[], ranks: readonly (SecurityRank | undefined)[]): string | undefined {
  const security = firstSecurityFinding(findings, ranks);
  if (security?.misparsing) return withMessage(security.finding.ruleId, security.finding.message);
  const parseError = findings.find((f) => f.ruleId === 'parse-error');
  // parse-error messages do not name their offset; parse-too-complex messages do.
  if (parseError) return withMessage(parseError.ruleId, `${parseError.message} (at offset ${parseError.start})`);
  const tooComplex = findings.find((f) => f.ruleId === 'parse-too-complex');
  if (tooComplex) return withMessage(tooComplex.ruleId, tooComplex.message);
  if (security) return withMessage(security.finding.ruleId, security.finding.message);
  return undefined;
}

/**
 * The `reason` of an `ask` verdict from its sorted findings alone (no permission rules):
 * `internal-error`, then the security and parse reasons (misparsing security finding, parse error,
 * too-complex construct, deferred security finding), then `path-dangerous-removal`, else
 * `no-matching-rule`. `ranks[i]` is the {@link SecurityRank} of `findings[i]` (undefined for
 * non-security findings). `_request` is kept for compatibility; rules are decided by
 * {@link verdictFor}.
 */
export function reasonFor(findings: readonly VerdictFinding[], ranks: readonly (SecurityRank | undefined)[], _request: VerdictRequest = {}): string {
  const internal = findings.find((f) => f.ruleId === 'internal-error');
  if (internal) return withMessage(internal.ruleId, internal.message);
  const gate = securityReason(findings, ranks);
  if (gate) return gate;
  // Claude Code's rm/rmdir hard limit (claude-code-reference.md §3.4.2 item 4), checked with the paths after the
  // security validators: an ask that no allow rule can override.
  const removal = findings.find((f) => f.ruleId === 'path-dangerous-removal');
  if (removal) return withMessage(removal.ruleId, removal.message);
  return NO_MATCHING_RULE;
}

/**
 * The error line `shellward check --jsonl` writes for a malformed request: `{"error", "line"}`,
 * `line` being the 1-based physical line number of the request in the input.
 */
export interface RequestError {
  readonly error: string;
  readonly line: number;
}
