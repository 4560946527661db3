/**
 * Many commands through the sandbox (`lint --sandbox`, `audit --sandbox`): given the
 * calls of transcripts with their verdicts, runs in the sandbox only those the policy **allows**,
 * each against a fresh copy of its working directory and under the usual time-out and output
 * caps (src/sandbox/run.ts), and returns one entry per call.
 *
 * - Calls the policy asks about or denies are never run; they are counted by decision.
 * - Identical calls (same command, working directory and read-only classification) run once and
 *   share the result: a transcript that ran `npm test` twenty times costs one run.
 * - At most `limit` distinct commands run (`--sandbox-limit`); the rest are counted as over the
 *   limit, in input order.
 * - At most two run at once (this is meant for laptops and CI runners, and each run copies a
 *   directory and starts a sandbox).
 * - Where a transcript recorded a working directory that does not exist here (or none, or a
 *   relative one), the command runs in a fresh empty directory and the entry says so
 *   (`place.substituted`): its failures are the environment's, not analysis misses.
 * - When no sandbox is available (probed once, before anything runs) the batch is `unavailable`
 *   and nothing runs; a run that reports `unavailable` later stops the batch the same way. There
 *   is never a fallback to running unsandboxed.
 */
import { mkdtemp, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Severity } from '../core/types.js';
import type { FileResult } from '../report/types.js';
import type { Verdict } from '../verdict.js';
import type { UnavailableReason } from './bwrap.js';
import { transcriptCalls, withSandboxFindings, type BatchEntry, type RunPlace } from './compare.js';
import { clearanceFromVerdict } from './policy.js';
import type { SandboxHost, SandboxOutcome, SandboxRequest } from './run.js';
import { removeTree } from './tree.js';
// The runner and the launchers (execa) are imported when a batch runs, not when the CLI starts.

/** Default of `--sandbox-limit`: distinct commands run per invocation. */
export const DEFAULT_SANDBOX_LIMIT = 50;

/** Largest accepted `--sandbox-limit`. */
export const MAX_SANDBOX_LIMIT = 10_000;

/** Most runs at once. */
export const MAX_CONCURRENCY = 2;

/** One call to run: its command, the working directory the transcript recorded, and its verdict. */
export interface BatchCall {
  readonly command: string;
  /** The recorded working directory; absent when none was recorded. */
  readonly cwd?: string;
  readonly verdict: Pick<Verdict, 'decision' | 'reason' | 'readOnly'>;
}

export type { BatchEntry, BatchRun } from './compare.js';

/** Counts over the calls of a batch. */
export interface BatchCounts {
  readonly calls: number;
  /** Calls the policy allows. */
  readonly allowed: number;
  /** Calls never run because the policy asks about them / denies them. */
  readonly refusedAsk: number;
  readonly refusedDeny: number;
  /** Distinct allowed commands (command, working directory, read-only). */
  readonly distinct: number;
  /** Distinct commands that ran in the sandbox. */
  readonly ran: number;
  /** Distinct allowed commands past the limit, not run. */
  readonly overLimit: number;
  /** Distinct commands whose run could not be made. */
  readonly errors: number;
  /** Distinct commands that ran in an empty directory because the recorded one is not available. */
  readonly substituted: number;
}

/** The outcome of {@link runSandboxBatch}; `entries` has one entry per call, in input order. */
export type SandboxBatch =
  | { readonly status: 'ran'; readonly entries: readonly BatchEntry[]; readonly counts: BatchCounts; readonly limit: number }
  | {
      readonly status: 'unavailable';
      readonly reason: UnavailableReason;
      readonly message: string;
      readonly entries: readonly BatchEntry[];
      readonly counts: BatchCounts;
      readonly limit: number;
    };

/** Whether a sandbox can run here. */
export type SandboxAvailability = { readonly available: true } | { readonly available: false; readonly reason: UnavailableReason; readonly message: string };

/** Options of {@link runSandboxBatch}. */
export interface BatchOptions {
  /** Most distinct commands run (default {@link DEFAULT_SANDBOX_LIMIT}). */
  readonly limit?: number;
  /** Runs at once, 1 or 2 (default 2; clamped). */
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  readonly host?: SandboxHost;
  /** The availability probe (default: {@link probeSandbox} on `host`); tests inject one. */
  readonly probe?: () => Promise<SandboxAvailability>;
  /** The runner (default: `runInSandbox`); tests inject one. */
  readonly run?: (request: SandboxRequest, host: SandboxHost) => Promise<SandboxOutcome>;
  /** Called after each distinct run (progress). */
  readonly onRun?: (done: number, total: number) => void;
}

/**
 * Whether a sandbox can run on `host`: bwrap on Linux (one probe run), sandbox-exec and bash on
 * macOS, nothing elsewhere. The same test `runInSandbox` makes before every run. Never throws.
 */
export async function probeSandbox(host: SandboxHost): Promise<SandboxAvailability> {
  const { detectBwrap, findExecutable } = await import('./bwrap.js');
  const { detectSandboxExec } = await import('./sandbox-exec.js');
  if (host.platform === 'linux') {
    const b = await detectBwrap(host.env);
    return b.available ? { available: true } : { available: false, reason: b.reason, message: b.message };
  }
  if (host.platform === 'darwin') {
    const s = await detectSandboxExec(host.platform);
    if (!s.available) return { available: false, reason: 'sandbox-exec-failed', message: s.message };
    return (await findExecutable('bash', host.env.PATH)) ? { available: true } : { available: false, reason: 'no-bash', message: '`bash` is not on PATH' };
  }
  return { available: false, reason: 'unsupported-platform', message: `no sandbox is supported on ${host.platform} (bubblewrap on Linux, sandbox-exec on macOS)` };
}

/** Pseudo-file systems that are never copied as a working directory. */
const SYSTEM_DIRS = ['/proc', '/sys', '/dev'];

/**
 * Where a call runs: its recorded directory when that is an absolute path to an existing
 * directory here; otherwise `undefined` with the reason (the caller makes an empty directory).
 */
async function recordedPlace(cwd: string | undefined): Promise<{ ok: true; dir: string } | { ok: false; why: string }> {
  if (cwd === undefined) return { ok: false, why: 'the transcript recorded no working directory' };
  if (!isAbsolute(cwd)) return { ok: false, why: `the recorded working directory ${cwd} is not an absolute path` };
  if (SYSTEM_DIRS.some((d) => cwd === d || cwd.startsWith(`${d}/`))) return { ok: false, why: `the recorded working directory ${cwd} is a system directory` };
  try {
    if ((await stat(cwd)).isDirectory()) return { ok: true, dir: cwd };
    return { ok: false, why: `the recorded working directory ${cwd} is not a directory here` };
  } catch {
    return { ok: false, why: `the recorded working directory ${cwd} does not exist on this machine` };
  }
}

interface Job {
  readonly call: BatchCall;
  readonly indices: number[];
  result?: BatchEntry;
}

/** Parses `--sandbox-limit`: an integer 1 … {@link MAX_SANDBOX_LIMIT}; throws a `RangeError` saying so. */
export function parseSandboxLimit(value: string): number {
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_SANDBOX_LIMIT) throw new RangeError(`expected a number of commands between 1 and ${MAX_SANDBOX_LIMIT}`);
  return n;
}

/**
 * Runs the allowed calls of `calls` in the sandbox (see the module comment). Resolves with one
 * entry per call; never throws for a single call's failure (it becomes an `error` entry).
 */
export async function runSandboxBatch(calls: readonly BatchCall[], options: BatchOptions = {}): Promise<SandboxBatch> {
  const host = options.host ?? { env: process.env, platform: process.platform, tmpDir: tmpdir() };
  const limit = options.limit ?? DEFAULT_SANDBOX_LIMIT;
  const concurrency = Math.max(1, Math.min(MAX_CONCURRENCY, options.concurrency ?? MAX_CONCURRENCY));
  const entries: BatchEntry[] = new Array<BatchEntry>(calls.length);
  const jobs = new Map<string, Job>();
  let allowed = 0;
  let refusedAsk = 0;
  let refusedDeny = 0;
  calls.forEach((call, i) => {
    const decision = call.verdict.decision;
    if (decision !== 'allow') {
      // Anything but exactly `allow` is a refusal (as in the runner's own gate).
      if (decision === 'deny') refusedDeny++;
      else refusedAsk++;
      entries[i] = { status: 'refused', decision: decision === 'deny' ? 'deny' : 'ask' };
      return;
    }
    allowed++;
    const key = JSON.stringify([call.command, call.cwd ?? null, call.verdict.readOnly]);
    const job = jobs.get(key);
    if (job) job.indices.push(i);
    else jobs.set(key, { call, indices: [i] });
  });
  const all = [...jobs.values()];
  const toRun = all.slice(0, limit);
  for (const j of all.slice(limit)) j.result = { status: 'over-limit' };
  const counts = (): BatchCounts => {
    let ran = 0;
    let errors = 0;
    let substituted = 0;
    for (const j of toRun) {
      if (j.result?.status === 'ran') ran++;
      if (j.result?.status === 'error') errors++;
      if ((j.result?.status === 'ran' && j.result.run.place.substituted) || (j.result?.status === 'error' && j.result.place.substituted)) substituted++;
    }
    return { calls: calls.length, allowed, refusedAsk, refusedDeny, distinct: all.length, ran, overLimit: all.length - toRun.length, errors, substituted };
  };
  const finish = (): BatchEntry[] => {
    for (const j of all) for (const i of j.indices) entries[i] = j.result ?? { status: 'not-run' };
    return entries;
  };

  if (toRun.length === 0) return { status: 'ran', entries: finish(), counts: counts(), limit };
  const availability = await (options.probe ?? (() => probeSandbox(host)))();
  if (!availability.available) {
    return { status: 'unavailable', reason: availability.reason, message: availability.message, entries: finish(), counts: counts(), limit };
  }

  const run = options.run ?? (await import('./run.js')).runInSandbox;
  let unavailable: { reason: UnavailableReason; message: string } | undefined;
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (unavailable === undefined && next < toRun.length) {
      const job = toRun[next++]!;
      const r = await runOne(job.call, run, host, options);
      if (r.status === 'unavailable-now') unavailable ??= { reason: r.reason, message: r.message };
      else job.result = r;
      options.onRun?.(++done, toRun.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, toRun.length) }, worker));
  if (unavailable) return { status: 'unavailable', ...unavailable, entries: finish(), counts: counts(), limit };
  return { status: 'ran', entries: finish(), counts: counts(), limit };
}

type RunOne = BatchEntry | { readonly status: 'unavailable-now'; readonly reason: UnavailableReason; readonly message: string };

async function runOne(call: BatchCall, run: NonNullable<BatchOptions['run']>, host: SandboxHost, options: BatchOptions): Promise<RunOne> {
  const found = await recordedPlace(call.cwd);
  let empty: string | undefined;
  let place: RunPlace;
  if (found.ok) place = { ...(call.cwd !== undefined ? { recorded: call.cwd } : {}), used: found.dir, substituted: false };
  else {
    empty = await mkdtemp(join(host.tmpDir, 'shellward-sandbox-empty-'));
    place = { ...(call.cwd !== undefined ? { recorded: call.cwd } : {}), used: empty, substituted: true, why: found.why };
  }
  try {
    const outcome = await run(
      {
        command: call.command,
        cwd: place.used,
        clearance: clearanceFromVerdict(call.verdict),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.maxOutputBytes !== undefined ? { maxOutputBytes: options.maxOutputBytes } : {}),
      },
      host,
    );
    if (outcome.status === 'ran') return { status: 'ran', run: { result: outcome.result, place } };
    if (outcome.status === 'unavailable') return { status: 'unavailable-now', reason: outcome.reason, message: outcome.message };
    // The gate above lets only `allow` through, so a refusal here is a bug; report it, run nothing.
    return { status: 'error', message: `refused by the runner: ${outcome.reason}`, place };
  } catch (err) {
    return { status: 'error', message: err instanceof Error ? err.message : String(err), place };
  } finally {
    if (empty !== undefined) await removeTree(empty);
  }
}

/**
 * One line about a batch for the user: how many commands ran, how many calls were not run and
 * why (the policy, the limit, a failure to run, no sandbox). Pure.
 */
export function batchSummary(batch: SandboxBatch): string {
  const c = batch.counts;
  const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
  const notRun = [
    `${plural(c.refusedAsk, 'call')} the policy asks about`,
    `${plural(c.refusedDeny, 'call')} it denies`,
    ...(c.overLimit > 0 ? [`${plural(c.overLimit, 'command')} over the limit of ${batch.limit} (--sandbox-limit)`] : []),
    ...(c.errors > 0 ? [`${plural(c.errors, 'command')} that could not be run`] : []),
  ].join(', ');
  const head =
    batch.status === 'unavailable'
      ? `no sandbox is available (${batch.reason}: ${batch.message}); ${c.ran > 0 ? `stopped after ${plural(c.ran, 'command')}` : 'no command was run'}`
      : `ran ${plural(c.ran, 'distinct command')} in the sandbox for ${plural(c.allowed, 'allowed call')} of ${c.calls}`;
  const empty = c.substituted > 0 ? `; ${plural(c.substituted, 'command')} ran in an empty directory (the recorded working directory is not available here)` : '';
  return `${head}; never run: ${notRun}${empty}`;
}

/** What {@link sandboxLint} returns. */
export interface SandboxLint {
  /** The results with the sandbox findings added (and without `verdicts` unless kept). */
  readonly results: FileResult[];
  readonly batch: SandboxBatch;
  /** Lines for the user (stderr): the batch summary, and the note when scripts or Makefiles were not run. */
  readonly messages: readonly string[];
  /** True when no sandbox was available: the caller must not report success. */
  readonly unavailable: boolean;
}

/**
 * `lint --sandbox`: runs the transcript tool calls of `results` (which must carry `verdicts`)
 * that the policy allows, and adds their findings at each call's place. Scripts and Makefiles are
 * not run (see {@link transcriptCalls}); a message says so. `severityFor` is the linter's severity
 * of a rule in the transcript profile. `keepVerdicts: false` drops the `verdicts` the run computed
 * only for this.
 */
export async function sandboxLint(
  results: readonly FileResult[],
  severityFor: (ruleId: string, requested?: Severity) => Severity | undefined,
  options: BatchOptions & { readonly keepVerdicts?: boolean } = {},
): Promise<SandboxLint> {
  const { calls, otherFiles } = transcriptCalls(results);
  const batch = await runSandboxBatch(
    calls.map((c) => ({ command: c.unit.command, ...(c.unit.context?.cwd !== undefined ? { cwd: c.unit.context.cwd } : {}), verdict: c.unit.verdict })),
    options,
  );
  let out = withSandboxFindings(results, calls, batch.entries, severityFor);
  if (!options.keepVerdicts) out = out.map(({ verdicts: _, ...r }) => r);
  const messages = calls.length > 0 || batch.status === 'unavailable' ? [batchSummary(batch)] : [];
  if (otherFiles > 0) messages.push(`runs transcript commands only: ${otherFiles} script${otherFiles === 1 ? '' : 's'} or Makefile${otherFiles === 1 ? '' : 's'} not run (a script's commands run one by one, out of their script, would not show what the script does; run a single command with shellward sandbox-check)`);
  return { results: out, batch, messages, unavailable: batch.status === 'unavailable' };
}
