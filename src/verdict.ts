/**
 * The verdict for one command, as `shellward check` prints it (issue 3, DESIGN.md §3 `Verdict`).
 *
 * The JSON shape is a stable interface: later work adds fields and fills the placeholders
 * below, and never renames or removes a field. Field order is fixed (see {@link VERDICT_FIELDS}).
 *
 * What is real and what is a placeholder until the permission engine exists:
 * - `findings`: real — every diagnostic of the linter's checks on the command, agent profile.
 * - `destructive`: real — the rule ids of the destructive-command check (`matchDestructive` over
 *   every simple command, first matching row per command), deduplicated, in document order.
 * - `decision`: never `allow` and, for now, never `deny`: always `ask`. No permission rule is
 *   matched yet, so nothing can be allowed and no deny rule can fire; `permissions` in the
 *   request are accepted and checked for shape only, and the reason says they were not evaluated.
 * - `reason`: why it is `ask` (see {@link verdictFor} for the precedence).
 * - `readOnly: false`, `outsideCwd: false`, `suggestions: []`: the honest "not established" values
 *   until read-only recognition, path validation and rule suggestions exist.
 *
 * Pure: no I/O; the linter is passed in.
 */
import { DESTRUCTIVE_RULES } from './analyses/destructive.js';
import { ruleMeta } from './checks/index.js';
import { LineIndex } from './core/positions.js';
import type { CommandUnit, Position, Severity } from './core/types.js';
import { SEVERITY_RANK } from './core/types.js';
import type { Linter, PendingDiagnostic } from './lint.js';
import { IdentityMap } from './sources/source-map.js';

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
  /** Whether the command only reads. Always `false` until read-only recognition exists. */
  readonly readOnly: boolean;
  /** Ids of the destructive-command rules that matched (e.g. `git-push-force`), in document order. */
  readonly destructive: readonly string[];
  /** Whether the command touches paths outside the working directories. `false` until path checks exist. */
  readonly outsideCwd: boolean;
  /** Every finding, sorted by `start`, then `end`, severity (most severe first), rule id, message. */
  readonly findings: readonly VerdictFinding[];
  /** Permission rules (`Bash(…)`) that would allow the command. Empty until suggestions exist. */
  readonly suggestions: readonly string[];
}

/** The fields of a {@link Verdict} in output order; the stable interface. */
export const VERDICT_FIELDS = ['decision', 'reason', 'readOnly', 'destructive', 'outsideCwd', 'findings', 'suggestions'] as const;

/** The fields of a {@link VerdictFinding} in output order. */
export const FINDING_FIELDS = ['ruleId', 'severity', 'message', 'start', 'end'] as const;

/** Reason code when nothing decided (Claude Code's `passthrough`, DESIGN.md §3). */
export const NO_MATCHING_RULE = 'no-matching-rule';

/**
 * Claude Code permission rule strings (`Bash(git status)`, `Bash(npm run:*)`) as in
 * `.claude/settings.json` `permissions`. Accepted and shape-checked; not matched yet.
 */
export interface PermissionRules {
  readonly allow?: readonly string[];
  readonly ask?: readonly string[];
  readonly deny?: readonly string[];
  readonly additionalDirectories?: readonly string[];
}

/** The context of one check request. */
export interface VerdictRequest {
  /** The working directory the command would run in (absolute path); recorded, used by later path checks. */
  readonly cwd?: string;
  readonly permissions?: PermissionRules;
}

/** One request line of `shellward check --jsonl`: `{"command": "...", "cwd": "...", "permissions": {...}}`. */
export interface CheckRequest extends VerdictRequest {
  readonly command: string;
}

/** Result of {@link parseCheckRequest}: the request, or why it was rejected. */
export type ParsedRequest = { readonly ok: true; readonly request: CheckRequest } | { readonly ok: false; readonly error: string };

const RULE_LISTS = ['allow', 'ask', 'deny', 'additionalDirectories'] as const;

/**
 * Validates a decoded JSON request: an object with a string `command`, an optional string `cwd`
 * and optional `permissions` whose `allow` / `ask` / `deny` / `additionalDirectories` are arrays
 * of strings. `null` counts as absent for `cwd` and `permissions`; unknown keys are ignored
 * (forward compatible). Rule strings are not parsed: nothing matches them yet.
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
  }
  const request: CheckRequest = {
    command: v.command,
    ...(typeof v.cwd === 'string' ? { cwd: v.cwd } : {}),
    ...(permissions ? { permissions } : {}),
  };
  return { ok: true, request };
}

/** File name shown for a command unit in diagnostics. */
export const COMMAND_ORIGIN_FILE = '<command>';

/**
 * The {@link CommandUnit} of a single command: granularity `command`, profile `agent` (DESIGN.md
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
    ...(request.cwd !== undefined ? { context: { cwd: request.cwd } } : {}),
  };
}

const DESTRUCTIVE_IDS: ReadonlySet<string> = new Set(DESTRUCTIVE_RULES.map((r) => r.id));

/**
 * Where a security finding stands in Claude Code's validator run (SPEC-bashtool.md §1.4): its
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
 * The security finding Claude Code would have returned (SPEC-bashtool.md §1.4 items 5–6): the
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

/** Number of rule strings in `permissions`. */
function ruleCount(p: PermissionRules | undefined): number {
  return (p?.allow?.length ?? 0) + (p?.ask?.length ?? 0) + (p?.deny?.length ?? 0);
}

/**
 * The verdict for `command` (any string: any length, any characters) as a single command unit
 * (granularity `command`, profile `agent`, origin kind `command`), analysed by `linter` (its
 * severity settings apply: a rule turned off contributes no finding and no reason). Synchronous,
 * never throws for any input, and does work linear in the command's length plus the checks' own.
 *
 * `decision` is always `ask` for now; `reason` is the first that applies of:
 * 1. `internal-error: …` — a check failed or parsing timed out, so the analysis is incomplete;
 * 2. `<rule-id>: <message>` of a misparsing security finding, the first in Claude Code's
 *    validator order (§1.4);
 * 3. `parse-error: …` or `parse-too-complex: …` — the command does not parse, or contains a
 *    construct that cannot be proven safe (§1.7), naming the construct and its offset;
 * 4. `<rule-id>: <message>` of a deferred non-misparsing security finding (newlines,
 *    redirections), the first in validator order;
 * 5. `path-dangerous-removal: …` — `rm`/`rmdir` of `/`, home, `/*` or a child of `/` (Claude
 *    Code's non-overridable removal limit, §3.4.2 item 4);
 * 6. `no-matching-rule` — nothing decided; when the request carried permission rules, followed by
 *    `: permission rules are not evaluated yet (N given)`.
 * Misparsing asks come before the parse-complexity ask because they block first in Claude Code's
 * legacy flow (§2.6 step 5) and are facts about the text that no parser can refute; the deferred
 * asks come last because Claude Code never lets them block early (§1.1).
 */
export function verdictFor(command: string, request: VerdictRequest, linter: Linter): Verdict {
  const diagnostics: PendingDiagnostic[] = linter.lintUnit(commandUnit(command, request));
  const index = new LineIndex(command);
  const ranked = diagnostics.map((d) => ({
    finding: {
      ruleId: d.ruleId,
      severity: d.severity,
      message: d.message,
      start: offsetOf(d.range.start, index, command.length),
      end: offsetOf(d.range.end, index, command.length),
    } satisfies VerdictFinding,
    rank: securityRankOf(d.ruleId, d.data),
  }));
  ranked.sort((a, b) => compareFindings(a.finding, b.finding));
  const findings = ranked.map((r) => r.finding);
  const ranks = ranked.map((r) => r.rank);

  const destructive: string[] = [];
  for (const f of findings) {
    if (DESTRUCTIVE_IDS.has(f.ruleId) && !destructive.includes(f.ruleId)) destructive.push(f.ruleId);
  }

  return {
    decision: 'ask',
    reason: reasonFor(findings, ranks, request),
    readOnly: false,
    destructive,
    outsideCwd: false,
    findings,
    suggestions: [],
  };
}

/**
 * The `reason` of an `ask` verdict from its sorted findings; `ranks[i]` is the
 * {@link SecurityRank} of `findings[i]` (undefined for non-security findings). The precedence is
 * documented at {@link verdictFor}.
 */
export function reasonFor(findings: readonly VerdictFinding[], ranks: readonly (SecurityRank | undefined)[], request: VerdictRequest): string {
  const internal = findings.find((f) => f.ruleId === 'internal-error');
  if (internal) return withMessage(internal.ruleId, internal.message);
  const security = firstSecurityFinding(findings, ranks);
  if (security?.misparsing) return withMessage(security.finding.ruleId, security.finding.message);
  const parseError = findings.find((f) => f.ruleId === 'parse-error');
  // parse-error messages do not name their offset; parse-too-complex messages do.
  if (parseError) return withMessage(parseError.ruleId, `${parseError.message} (at offset ${parseError.start})`);
  const tooComplex = findings.find((f) => f.ruleId === 'parse-too-complex');
  if (tooComplex) return withMessage(tooComplex.ruleId, tooComplex.message);
  if (security) return withMessage(security.finding.ruleId, security.finding.message);
  // Claude Code's rm/rmdir hard limit (SPEC §3.4.2 item 4), checked with the paths after the
  // security validators: an ask that no allow rule can override.
  const removal = findings.find((f) => f.ruleId === 'path-dangerous-removal');
  if (removal) return withMessage(removal.ruleId, removal.message);
  const n = ruleCount(request.permissions);
  return n > 0 ? `${NO_MATCHING_RULE}: permission rules are not evaluated yet (${n} given)` : NO_MATCHING_RULE;
}

/**
 * The error line `shellward check --jsonl` writes for a malformed request: `{"error", "line"}`,
 * `line` being the 1-based physical line number of the request in the input.
 */
export interface RequestError {
  readonly error: string;
  readonly line: number;
}
