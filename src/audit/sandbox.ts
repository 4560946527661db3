/**
 * The sandbox section of `shellward audit --sandbox`: the audited calls the policy
 * allows were run again in the sandbox (src/sandbox/batch.ts); this section says how many ran,
 * how many were never run and why, whether each call's recorded outcome agrees with the
 * sandboxed one (src/sandbox/compare.ts), and lists the mismatches, the read-only commands that
 * wrote files and the commands that could not be run. Pure.
 */
import type { Range, UnitContext } from '../core/types.js';
import type { BatchCounts, BatchEntry, SandboxBatch } from '../sandbox/batch.js';
import { compareOutcome, sandboxedKind, type MismatchCause, type OutcomeKind } from '../sandbox/compare.js';

/** One audited call the policy allows, as the sandbox section needs it. */
export interface AuditSandboxCall {
  readonly file: string;
  readonly range: Range;
  readonly command: string;
  readonly context: UnitContext;
}

/** A call shown in the sandbox section. */
export interface AuditSandboxExample {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly command: string;
  /** The recorded outcome (`ran`, `rejected` …) and exit code. */
  readonly recorded: { readonly outcome: string; readonly exitCode?: number; readonly kind?: OutcomeKind };
  /** The sandboxed exit code (`null` when killed) and its meaning. */
  readonly sandboxed?: { readonly exitCode: number | null; readonly kind: OutcomeKind };
  readonly cause?: MismatchCause;
  /** The finding's message, or why the call could not be run. */
  readonly detail: string;
}

/** One distinct command that ran in the sandbox. */
export interface AuditSandboxRun {
  readonly command: string;
  /** The directory whose copy it ran in; `recordedCwd` what the transcript recorded. */
  readonly cwd: string;
  readonly recordedCwd?: string;
  /** True when it ran in an empty directory because the recorded one is not available here. */
  readonly cwdSubstituted: boolean;
  readonly exitCode: number | null;
  readonly kind: OutcomeKind;
  readonly durationMs: number;
  /** Files it created, changed or deleted in the copy (relative paths). */
  readonly filesWritten: readonly string[];
  /** Audited calls of this command (same command, working directory and classification). */
  readonly calls: number;
  /** The first such call in the transcripts. */
  readonly file: string;
  readonly line: number;
}

/** The section. */
export interface AuditSandboxReport {
  /** `unavailable`: no sandbox here; nothing (or, if it failed midway, not everything) ran. */
  readonly status: 'ran' | 'unavailable';
  /** Why no sandbox is available (with `unavailable`). */
  readonly message?: string;
  /** `--sandbox-limit`: most distinct commands run. */
  readonly limit: number;
  /** Counts over the calls (`calls` is every audited call; `refusedAsk` / `refusedDeny` were never run). */
  readonly counts: BatchCounts;
  /** Calls whose command ran, by how their recorded outcome compares with the sandboxed one. */
  readonly agreement: { readonly agree: number; readonly mismatch: number; readonly notComparable: number };
  /** Calls whose command ran in an empty directory (the recorded one is not available here). */
  readonly environmentDiffers: number;
  /** Calls whose command failed in the sandbox (an error exit status or the time-out). */
  readonly failedInSandbox: number;
  /** Calls classified read-only whose command wrote files. */
  readonly wroteFiles: number;
  /** Every distinct command that ran, in the order they were found. */
  readonly runs: readonly AuditSandboxRun[];
  /** Mismatches (at most {@link MAX_SANDBOX_EXAMPLES}). */
  readonly mismatches: readonly AuditSandboxExample[];
  /** Read-only calls that wrote files (at most {@link MAX_SANDBOX_EXAMPLES}). */
  readonly wrote: readonly AuditSandboxExample[];
  /** Calls whose command could not be run (at most {@link MAX_SANDBOX_EXAMPLES}). */
  readonly errors: readonly AuditSandboxExample[];
}

/** Examples kept per list. */
export const MAX_SANDBOX_EXAMPLES = 50;

/**
 * The section from the allowed calls and the batch that ran them (`batch.entries[i]` belongs to
 * `calls[i]`); `refused` are the audited calls the policy asks about or denies, never given to
 * the batch (counted here). Pure.
 */
export function sandboxSection(calls: readonly AuditSandboxCall[], batch: SandboxBatch, refused: { readonly ask: number; readonly deny: number }): AuditSandboxReport {
  let agree = 0;
  let mismatch = 0;
  let notComparable = 0;
  let environmentDiffers = 0;
  let failedInSandbox = 0;
  let wroteFiles = 0;
  const mismatches: AuditSandboxExample[] = [];
  const wrote: AuditSandboxExample[] = [];
  const errors: AuditSandboxExample[] = [];
  const runs = new Map<object, { -readonly [K in keyof AuditSandboxRun]: AuditSandboxRun[K] }>();
  const base = (c: AuditSandboxCall): Pick<AuditSandboxExample, 'file' | 'line' | 'column' | 'command'> => ({ file: c.file, line: c.range.start.line, column: c.range.start.column, command: c.command });
  const recordedOf = (c: AuditSandboxCall): AuditSandboxExample['recorded'] => ({ outcome: c.context.outcome ?? 'unknown', ...(c.context.exitCode !== undefined ? { exitCode: c.context.exitCode } : {}) });
  calls.forEach((c, i) => {
    const entry: BatchEntry | undefined = batch.entries[i];
    if (entry?.status === 'error') {
      if (errors.length < MAX_SANDBOX_EXAMPLES) errors.push({ ...base(c), recorded: recordedOf(c), detail: entry.message });
      return;
    }
    if (entry?.status !== 'ran') return;
    const { result, place } = entry.run;
    const sandboxed = { exitCode: result.timedOut ? null : result.exitCode, kind: sandboxedKind(result) };
    const seen = runs.get(entry.run);
    if (seen) seen.calls++;
    else {
      runs.set(entry.run, {
        command: c.command,
        cwd: place.used,
        ...(place.recorded !== undefined ? { recordedCwd: place.recorded } : {}),
        cwdSubstituted: place.substituted,
        exitCode: sandboxed.exitCode,
        kind: sandboxed.kind,
        durationMs: result.durationMs,
        filesWritten: result.filesWritten.map((f) => f.path),
        calls: 1,
        file: c.file,
        line: c.range.start.line,
      });
    }
    if (place.substituted) environmentDiffers++;
    if (sandboxed.kind === 'error' || sandboxed.kind === 'timed-out') failedInSandbox++;
    const wroteFinding = result.findings.find((f) => f.ruleId === 'sandbox-wrote-files');
    if (wroteFinding) {
      wroteFiles++;
      if (wrote.length < MAX_SANDBOX_EXAMPLES) wrote.push({ ...base(c), recorded: recordedOf(c), sandboxed, detail: wroteFinding.message });
    }
    const cmp = compareOutcome(c.command, c.context, result, place);
    if (cmp.agreement === 'agree') agree++;
    else if (cmp.agreement === 'not-comparable') notComparable++;
    else {
      mismatch++;
      if (mismatches.length < MAX_SANDBOX_EXAMPLES) {
        mismatches.push({ ...base(c), recorded: { ...recordedOf(c), kind: cmp.recorded.kind }, sandboxed, cause: cmp.cause!, detail: cmp.message! });
      }
    }
  });
  const counts: BatchCounts = { ...batch.counts, calls: batch.counts.calls + refused.ask + refused.deny, refusedAsk: batch.counts.refusedAsk + refused.ask, refusedDeny: batch.counts.refusedDeny + refused.deny };
  return {
    status: batch.status,
    ...(batch.status === 'unavailable' ? { message: `${batch.reason}: ${batch.message}` } : {}),
    limit: batch.limit,
    counts,
    agreement: { agree, mismatch, notComparable },
    environmentDiffers,
    failedInSandbox,
    wroteFiles,
    runs: [...runs.values()],
    mismatches,
    wrote,
    errors,
  };
}
