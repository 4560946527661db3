/**
 * Recorded vs sandboxed: what a transcript recorded about a call (outcome, exit code)
 * against what the same command did when `lint --sandbox` / `audit --sandbox` ran it again in the
 * sandbox, and the findings of one call's run — the runner's own (`sandbox-wrote-files`,
 * `sandbox-exit-error`, `sandbox-exit-nonzero`, src/sandbox/findings.ts) adjusted for a working
 * directory that had to be replaced, plus `sandbox-outcome-mismatch`. Pure.
 *
 * Outcomes are compared by meaning (claude-code-reference.md §3.6 via src/analyses/exit-code.ts), not by number: exit
 * 2 and exit 127 are both `error` and agree; grep's exit 1 (`no-match`) and exit 0 (`success`)
 * do not. The recorded code is read with the same command name the sandboxed status was read
 * with, so only the codes differ.
 */
import { exitMeaning, interpretExitCode, type ExitKind } from '../analyses/exit-code.js';
import { SANDBOX_EXIT_ERROR, SANDBOX_OUTCOME_MISMATCH } from '../checks/sandbox/sandbox-rules.js';
import { lineHash, numberFingerprints } from '../core/fingerprint.js';
import type { Diagnostic, Severity, UnitContext } from '../core/types.js';
import { compareDiagnostics, type PendingDiagnostic } from '../lint.js';
import type { FileResult, UnitVerdict } from '../report/types.js';
import type { SandboxFinding } from './findings.js';
import type { SandboxRunResult } from './run.js';

/** An outcome's meaning: an {@link ExitKind}, or `timed-out` for a sandboxed run killed at the time-out. */
export type OutcomeKind = ExitKind | 'timed-out';

/** Where a sandboxed command ran, relative to where the transcript says it ran. */
export interface RunPlace {
  /** The working directory the transcript recorded, if any. */
  readonly recorded?: string;
  /** The directory whose copy the command ran in. */
  readonly used: string;
  /**
   * True when the recorded directory could not be used (missing here, not recorded, not absolute)
   * and the command ran in a fresh empty directory instead: the environment differs.
   */
  readonly substituted: boolean;
  /** Why the directory was replaced, as a sentence fragment; set when `substituted`. */
  readonly why?: string;
}

/** A run shared by every identical call. */
export interface BatchRun {
  readonly result: SandboxRunResult;
  readonly place: RunPlace;
}

/** What happened to one call of a sandbox batch (src/sandbox/batch.ts). */
export type BatchEntry =
  | { readonly status: 'ran'; readonly run: BatchRun }
  /** The policy asks about or denies the call: never run. */
  | { readonly status: 'refused'; readonly decision: 'ask' | 'deny' }
  /** Allowed, but past `limit` distinct commands: not run. */
  | { readonly status: 'over-limit' }
  /** Allowed, but the run could not be made (a directory too large to copy, a sandbox set-up failure …). */
  | { readonly status: 'error'; readonly message: string; readonly place: RunPlace }
  /** Allowed, but no sandbox was available when its turn came: not run. */
  | { readonly status: 'not-run' };

/** Why a recorded and a sandboxed outcome differ (the likeliest cause). */
export type MismatchCause = 'environment-differs' | 'sandbox-restrictions' | 'state-differs';

/** The comparison of one call's recorded outcome with its sandboxed one. */
export type OutcomeComparison =
  /** The recorded call did not run to completion, or recorded no result: nothing to compare. */
  | { readonly agreement: 'not-comparable'; readonly why: string }
  | {
      readonly agreement: 'agree' | 'mismatch';
      readonly recorded: { readonly exitCode: number | null; readonly kind: OutcomeKind };
      readonly sandboxed: { readonly exitCode: number | null; readonly kind: OutcomeKind };
      /** Set for a mismatch. */
      readonly cause?: MismatchCause;
      /** For a mismatch: what the outcomes are and the likely cause, one or two sentences. */
      readonly message?: string;
    };

/** The meaning of a sandboxed run's status. */
export function sandboxedKind(result: Pick<SandboxRunResult, 'timedOut' | 'meaning'>): OutcomeKind {
  if (result.timedOut) return 'timed-out';
  return result.meaning?.kind ?? 'error';
}

function describe(kind: OutcomeKind, exitCode: number | null): string {
  if (kind === 'timed-out') return 'killed at the time-out';
  if (exitCode === null) return kind === 'error' ? 'failed (no exit code recorded)' : kind;
  return `exit ${exitCode} (${kind})`;
}

const CAUSE_TEXT: Readonly<Record<MismatchCause, string>> = {
  'environment-differs': '', // built with the place
  'sandbox-restrictions':
    'Often the sandbox is the cause, not the command: it has no network, the file system outside the working directory is read-only, the environment is reduced to an allowlist, and state the call relied on (services, caches, credentials) is missing.',
  'state-differs':
    'The files the command read are likely not what they were when the call was recorded (a failure fixed since, output of later calls, a search that now matches or no longer does).',
};

/**
 * Compares a call's recorded result (`context.outcome`, `exitCode`, `failed`) with a sandboxed run
 * of `command`. Only calls recorded as `ran` with an exit code or marked failed are compared;
 * everything else is `not-comparable`. Pure.
 */
export function compareOutcome(command: string, context: UnitContext | undefined, result: Pick<SandboxRunResult, 'timedOut' | 'meaning' | 'exitCode'>, place: RunPlace): OutcomeComparison {
  const outcome = context?.outcome;
  if (outcome === undefined) return { agreement: 'not-comparable', why: 'no recorded result' };
  if (outcome !== 'ran') return { agreement: 'not-comparable', why: `the recorded call did not run to completion (${outcome})` };
  const name = result.meaning ? result.meaning.command : interpretExitCode(command, 1).command;
  let recorded: { exitCode: number | null; kind: OutcomeKind };
  if (context!.exitCode !== undefined) recorded = { exitCode: context!.exitCode, kind: exitMeaning(name, context!.exitCode).kind };
  else if (context!.failed) recorded = { exitCode: null, kind: 'error' };
  else return { agreement: 'not-comparable', why: 'no exit code recorded' };
  const sandboxed = { exitCode: result.timedOut ? null : result.exitCode, kind: sandboxedKind(result) };
  if (recorded.kind === sandboxed.kind) return { agreement: 'agree', recorded, sandboxed };
  const sandboxFailed = sandboxed.kind === 'error' || sandboxed.kind === 'timed-out';
  const cause: MismatchCause = place.substituted ? 'environment-differs' : sandboxFailed && recorded.kind !== 'error' ? 'sandbox-restrictions' : 'state-differs';
  const because =
    cause === 'environment-differs'
      ? `The environment differs: ${place.why ?? 'the recorded working directory is not available here'}, so the command ran in an empty directory.`
      : CAUSE_TEXT[cause];
  const message = `Recorded: ${describe(recorded.kind, recorded.exitCode)}; in the sandbox: ${describe(sandboxed.kind, sandboxed.exitCode)}. ${because}`;
  return { agreement: 'mismatch', recorded, sandboxed, cause, message };
}

/** One call's finding, before it is placed in the host file; `severity` already resolved. */
export type CallFinding = Omit<SandboxFinding, 'start' | 'end'>;

/**
 * The findings of one call's sandboxed run: the runner's findings, then `sandbox-outcome-mismatch`
 * for a mismatch. When the working directory was substituted, a `sandbox-exit-error` is lowered
 * to a note and says so (a failure in an empty directory says nothing about the command).
 * `severityFor` returns the configured severity of a rule, or `undefined` when it is off. Pure.
 */
export function callFindings(
  result: SandboxRunResult,
  comparison: OutcomeComparison,
  place: RunPlace,
  severityFor: (ruleId: string, requested?: Severity) => Severity | undefined,
): CallFinding[] {
  const out: CallFinding[] = [];
  const where = { cwd: place.used, ...(place.recorded !== undefined ? { recordedCwd: place.recorded } : {}), cwdSubstituted: place.substituted };
  for (const f of result.findings) {
    const lowered = place.substituted && f.ruleId === SANDBOX_EXIT_ERROR.id;
    const severity = severityFor(f.ruleId, lowered ? 'note' : undefined);
    if (!severity) continue;
    const message = lowered ? `${f.message} The environment differs: ${place.why ?? 'the recorded working directory is not available'}; the command ran in an empty directory.` : f.message;
    out.push({ ruleId: f.ruleId, severity, message, data: { ...f.data, ...where, durationMs: result.durationMs, ...(lowered ? { environmentDiffers: true } : {}) } });
  }
  if (comparison.agreement === 'mismatch') {
    const severity = severityFor(SANDBOX_OUTCOME_MISMATCH.id);
    if (severity) {
      out.push({
        ruleId: SANDBOX_OUTCOME_MISMATCH.id,
        severity,
        message: comparison.message!,
        data: { recorded: comparison.recorded, sandboxed: comparison.sandboxed, cause: comparison.cause!, ...where },
      });
    }
  }
  return out;
}

/** A transcript tool call of a lint result, with the file result it belongs to. */
export interface LintCall {
  /** Index of the file in the results. */
  readonly file: number;
  readonly unit: UnitVerdict;
}

/**
 * The transcript tool calls among `results` (their `verdicts` of kind `tool-call`, which the run
 * computes when asked), and the number of files with other command units — scripts and Makefiles,
 * which `--sandbox` does not run: a script's statements run one by one, out of their script,
 * would report what they do in a context they never run in. Pure.
 */
export function transcriptCalls(results: readonly FileResult[]): { calls: LintCall[]; otherFiles: number } {
  const calls: LintCall[] = [];
  let otherFiles = 0;
  results.forEach((r, file) => {
    let other = false;
    for (const unit of r.verdicts ?? []) {
      if (unit.kind === 'tool-call') calls.push({ file, unit });
      else other = true;
    }
    if (other) otherFiles++;
  });
  return { calls, otherFiles };
}

/**
 * `results` with the findings of the sandboxed calls added at each call's place in its
 * transcript (`entries[i]` is the batch entry of `calls[i]`), sorted and fingerprinted like the
 * others (hash of the rule id, the tool-call id and the command). Calls that did not run add
 * nothing. Pure.
 */
export function withSandboxFindings(
  results: readonly FileResult[],
  calls: readonly LintCall[],
  entries: readonly BatchEntry[],
  severityFor: (ruleId: string, requested?: Severity) => Severity | undefined,
): FileResult[] {
  const added = new Map<number, { d: PendingDiagnostic; hash: string }[]>();
  calls.forEach((call, i) => {
    const entry = entries[i];
    if (entry?.status !== 'ran') return;
    const { result, place } = entry.run;
    const u = call.unit;
    const comparison = compareOutcome(u.command, u.context, result, place);
    const list = added.get(call.file) ?? [];
    for (const f of callFindings(result, comparison, place, severityFor)) {
      list.push({
        d: { ruleId: f.ruleId, severity: f.severity, message: f.message, file: results[call.file]!.file, range: u.range, data: f.data },
        hash: lineHash(f.ruleId, `${u.context?.toolUseId ?? ''}\n${u.command}`),
      });
    }
    added.set(call.file, list);
  });
  return results.map((r, i) => {
    const extra = added.get(i);
    if (!extra || extra.length === 0) return r;
    const fps = numberFingerprints(extra.map((x) => x.hash));
    const diagnostics: Diagnostic[] = [...r.diagnostics, ...extra.map((x, k) => ({ ...x.d, fingerprint: fps[k]! }))].sort(compareDiagnostics);
    return { ...r, diagnostics };
  });
}
