/**
 * One sandboxed run, end to end: policy gate → sandbox detection → copy of the working
 * directory → the command under bwrap (Linux) or sandbox-exec (macOS) → diff of the copy →
 * exit-code meaning → findings → the copy removed. This module and its siblings are the only
 * part of shellward that runs processes (architecture.md §8).
 *
 * Guarantees: a command whose clearance is not `allow` is never started; a command is never
 * started outside a sandbox — when none is available the outcome says why, and nothing runs.
 *
 * Limits and what is not covered: the copy lives in the host's temporary directory; a watchdog
 * stops the command once the copy holds more than twice the copy limits (entries or bytes), and
 * bash's `ulimit -f` bounds any one file (src/sandbox/bwrap.ts), so what a run can write there is
 * bounded by about one watch interval of writing past the limit. Only the working directory is observed; writes elsewhere fail
 * (read-only) or vanish with `/tmp`. The copy keeps symlinks as they are, so a symlink pointing
 * outside the working directory leads to the read-only original.
 */
import { mkdir, mkdtemp, realpath, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitCommandName, exitMeaning, type ExitMeaning } from '../analyses/exit-code.js';
import { resolveCommand } from '../parse/command-name.js';
import { lastCommandOf, type LastCommand } from '../parse/last-command.js';
import { buildViews } from '../parse/nodes.js';
import { initParser, parseBash } from '../parse/parser.js';
import { detectBwrap, findExecutable, runBwrap, type UnavailableReason } from './bwrap.js';
import { sandboxEnv } from './env.js';
import { sandboxFindings, type SandboxFinding } from './findings.js';
import { refusalOf, type SandboxClearance } from './policy.js';
import type { BoundedRunResult, CapturedOutput } from './process.js';
import { detectSandboxExec, runSandboxExec } from './sandbox-exec.js';
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS } from './defaults.js';
import { copyTree, DEFAULT_TREE_LIMITS, diffSnapshots, removeTree, snapshotTree, treeLimitExceeded, type FileChange, type TreeLimits } from './tree.js';

export { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS };

/** How often the running command's working-directory copy is measured against its limits, ms. */
export const WATCH_INTERVAL_MS = 1000;

/** The system facts a run depends on, injected (architecture.md §9.4 item 11); defaults are the real process's. */
export interface SandboxHost {
  /** Environment the allowlisted variables and `PATH` (to find bwrap and bash) are taken from. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `process.platform`. */
  readonly platform: string;
  /** Directory the scratch space is created in (default `os.tmpdir()`). */
  readonly tmpDir: string;
}

/** The real process's {@link SandboxHost}. */
export function processHost(): SandboxHost {
  return { env: process.env, platform: process.platform, tmpDir: tmpdir() };
}

/** A request to run one command. */
export interface SandboxRequest {
  readonly command: string;
  /** The working directory (absolute or relative to the process's); its copy is what the command may write. */
  readonly cwd: string;
  /** What the policy said; only `allow` runs. */
  readonly clearance: SandboxClearance;
  /** Time-out in milliseconds (default {@link DEFAULT_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
  /** Bytes kept per output stream (default {@link DEFAULT_MAX_OUTPUT_BYTES}). */
  readonly maxOutputBytes?: number;
  /** Size limits of the working-directory copy (default {@link DEFAULT_TREE_LIMITS}). */
  readonly limits?: TreeLimits;
}

/** Which sandbox ran the command. */
export type SandboxKind = 'bwrap' | 'sandbox-exec';

/** What happened when the command ran. */
export interface SandboxRunResult {
  readonly sandbox: SandboxKind;
  readonly command: string;
  /** The working directory, resolved (symlinks followed). */
  readonly cwd: string;
  /** The command's exit status; `null` when it was killed (time-out). */
  readonly exitCode: number | null;
  /** The signal that ended the run, or `null`. */
  readonly signal: string | null;
  readonly timedOut: boolean;
  /**
   * Why the run was stopped before it ended, or `null`: the working-directory copy grew past
   * twice the copy limits (entries or bytes) while it ran, checked every {@link WATCH_INTERVAL_MS} ms.
   */
  readonly stopped: string | null;
  /** Exit-code semantics (claude-code-reference.md §3.6); `null` when there is no exit status. */
  readonly meaning: ExitMeaning | null;
  /** Wall-clock milliseconds the sandboxed process ran, sandbox set-up included. */
  readonly durationMs: number;
  readonly stdout: CapturedOutput;
  readonly stderr: CapturedOutput;
  /** Files created, changed and deleted in the working-directory copy, sorted by path. */
  readonly filesWritten: readonly FileChange[];
  /** False when the command left more entries than the limits allow and the diff is partial. */
  readonly filesComplete: boolean;
  /** Entries of the working directory that were not copied (sockets, FIFOs, devices). */
  readonly notCopied: readonly string[];
  readonly findings: readonly SandboxFinding[];
}

/** The outcome of {@link runInSandbox}. */
export type SandboxOutcome =
  /** The policy did not allow the command; nothing ran. */
  | { readonly status: 'refused'; readonly reason: string }
  /** No sandbox can run here; nothing ran. */
  | { readonly status: 'unavailable'; readonly reason: UnavailableReason; readonly message: string }
  | { readonly status: 'ran'; readonly result: SandboxRunResult };

/** Thrown for a request that cannot be run: the working directory is missing, not a directory, `/`, or too large to copy. */
export class SandboxRequestError extends Error {
  override readonly name = 'SandboxRequestError';
}

/** Which sandbox to use on `platform`, or why there is none. */
async function detect(host: SandboxHost): Promise<{ kind: SandboxKind; bwrap?: string; bash: string } | { reason: UnavailableReason; message: string }> {
  if (host.platform === 'linux') {
    const b = await detectBwrap(host.env);
    return b.available ? { kind: 'bwrap', bwrap: b.bwrap, bash: b.bash } : { reason: b.reason, message: b.message };
  }
  if (host.platform === 'darwin') {
    const s = await detectSandboxExec(host.platform);
    if (!s.available) return { reason: 'sandbox-exec-failed', message: s.message };
    const bash = await findExecutable('bash', host.env.PATH);
    return bash ? { kind: 'sandbox-exec', bash } : { reason: 'no-bash', message: '`bash` is not on PATH' };
  }
  return { reason: 'unsupported-platform', message: `no sandbox is supported on ${host.platform} (bubblewrap on Linux, sandbox-exec on macOS)` };
}

/**
 * The status-deciding command of `command` and whether any of its simple commands runs `git`
 * (parsed with the shared tree-sitter parser).
 */
async function commandFacts(command: string): Promise<{ last: LastCommand; runsGit: boolean }> {
  const tree = parseBash(await initParser(), command);
  if (!tree) return { last: { kind: 'other', type: 'parse-timeout' }, runsGit: false };
  try {
    const runsGit = buildViews(tree, command).commands.some((c) => resolveCommand(c)?.name === 'git');
    return { last: lastCommandOf(tree), runsGit };
  } finally {
    tree.delete();
  }
}

/**
 * The host directories hidden under an empty tmpfs in a bwrap run: `/run` and `/var/run` (host
 * Unix sockets), `$XDG_RUNTIME_DIR`, and `$HOME` (symlinks resolved, duplicates dropped), each
 * only when it is an existing directory other than `/` and not the working directory or inside it.
 */
export async function hiddenDirectories(cwd: string, env: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const out: string[] = [];
  for (const d of ['/run', '/var/run', env.XDG_RUNTIME_DIR, env.HOME]) {
    if (d === undefined || !d.startsWith('/')) continue;
    try {
      const r = await realpath(d);
      if (r === '/' || out.includes(r) || r === cwd || r.startsWith(cwd + '/')) continue;
      if ((await stat(r)).isDirectory()) out.push(r);
    } catch {
      // absent: nothing to hide
    }
  }
  return out;
}

/**
 * Runs one command in a sandbox if its clearance allows it. Resolves `refused` (nothing ran) for
 * any decision but `allow`, `unavailable` (nothing ran) when this machine has no working sandbox,
 * `ran` with the result otherwise. Throws {@link SandboxRequestError} for a bad working directory
 * (missing, not a directory, `/`, larger than the copy limits) and `SandboxSetupError` when bwrap
 * failed to set up the sandbox; file-system errors of the copy propagate. The scratch copy is
 * always removed.
 */
export async function runInSandbox(request: SandboxRequest, host: SandboxHost = processHost()): Promise<SandboxOutcome> {
  const refusal = refusalOf(request.clearance);
  if (refusal !== undefined) return { status: 'refused', reason: refusal };

  const sandbox = await detect(host);
  if ('reason' in sandbox) return { status: 'unavailable', reason: sandbox.reason, message: sandbox.message };

  let cwd: string;
  try {
    cwd = await realpath(request.cwd);
    if (!(await stat(cwd)).isDirectory()) throw new SandboxRequestError(`the working directory ${request.cwd} is not a directory`);
  } catch (err) {
    if (err instanceof SandboxRequestError) throw err;
    throw new SandboxRequestError(`the working directory ${request.cwd} cannot be used: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (cwd === '/') throw new SandboxRequestError('the working directory must not be / (it would be copied whole)');

  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxOutputBytes = request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const limits = request.limits ?? DEFAULT_TREE_LIMITS;
  const scratch = await realpath(await mkdtemp(join(host.tmpDir, 'shellward-sandbox-')));
  try {
    const copy = join(scratch, 'cwd');
    let notCopied: string[];
    try {
      notCopied = (await copyTree(cwd, copy, limits)).skipped;
    } catch (err) {
      if (err instanceof Error && err.name === 'TreeTooLargeError') throw new SandboxRequestError(err.message);
      throw err;
    }
    const before = await snapshotTree(copy, limits);
    // Twice the limits: a command may legitimately add files, but not without bound. The watchdog
    // stops a command that grows the copy past them while it runs (the copy is on the host's disk).
    const afterLimits: TreeLimits = { maxEntries: limits.maxEntries * 2, maxBytes: limits.maxBytes * 2 };
    const watch = { intervalMs: WATCH_INTERVAL_MS, check: () => treeLimitExceeded(copy, afterLimits) };
    let raw: BoundedRunResult;
    if (sandbox.kind === 'bwrap') {
      const env = sandboxEnv(host.env, { TMPDIR: '/tmp', PWD: cwd });
      const hide = await hiddenDirectories(cwd, host.env);
      raw = await runBwrap(sandbox.bwrap!, { cwd, copy, bash: sandbox.bash, command: request.command, env, hide }, { timeoutMs, maxOutputBytes, watch });
    } else {
      const tmp = join(scratch, 'tmp');
      await mkdir(tmp, { mode: 0o700 });
      const env = sandboxEnv(host.env, { TMPDIR: tmp, PWD: copy });
      raw = await runSandboxExec({ copy, tmp, bash: sandbox.bash, command: request.command, env }, { timeoutMs, maxOutputBytes, watch });
      if (raw.spawnError) return { status: 'unavailable', reason: 'sandbox-exec-failed', message: `sandbox-exec could not be started: ${raw.spawnError}` };
    }
    const after = await snapshotTree(copy, afterLimits);
    const filesWritten = diffSnapshots(before, after);
    const stopped = raw.stopped ?? null;
    const exitCode = raw.timedOut || stopped !== null ? null : raw.exitCode;
    const facts = await commandFacts(request.command);
    const meaning = exitCode === null ? null : exitMeaning(exitCommandName(facts.last), exitCode);
    const findings = sandboxFindings({ command: request.command, readOnly: request.clearance.readOnly, meaning, timedOut: raw.timedOut, timeoutMs, ...(stopped !== null ? { stopped } : {}), filesWritten, runsGit: facts.runsGit });
    return {
      status: 'ran',
      result: {
        sandbox: sandbox.kind,
        command: request.command,
        cwd,
        exitCode,
        signal: raw.signal,
        timedOut: raw.timedOut,
        stopped,
        meaning,
        durationMs: raw.durationMs,
        stdout: raw.stdout,
        stderr: raw.stderr,
        filesWritten,
        filesComplete: !after.truncated,
        notCopied,
        findings,
      },
    };
  } finally {
    await removeTree(scratch);
  }
}
