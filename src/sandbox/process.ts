/**
 * Starts a sandbox launcher (`bwrap`, `sandbox-exec`) through execa with an argv built in code
 * (never a shell string), and bounds it: a time-out that kills the launcher's whole process group
 * with SIGKILL, and a cap on the bytes of standard output and standard error kept (each stream
 * separately; output past the cap is read and discarded, so the command never blocks on a full
 * pipe, and the time-out bounds how long it can go on). Standard input is closed (`/dev/null`).
 */
import { execa } from 'execa';
import type { Readable } from 'node:stream';

/** Options of {@link runBounded}. */
export interface BoundedRunOptions {
  /** Working directory of the launcher process. */
  readonly cwd: string;
  /** The launcher's complete environment (the host's is not inherited). */
  readonly env: Readonly<Record<string, string>>;
  /** Time-out in milliseconds, counted from the start; then the process group gets SIGKILL. */
  readonly timeoutMs: number;
  /** Bytes kept per output stream. */
  readonly maxOutputBytes: number;
  /** Open a fourth pipe as file descriptor 3 and collect it (bwrap's `--json-status-fd 3`). */
  readonly statusFd?: boolean;
  /**
   * A watchdog: `check` runs every `intervalMs` milliseconds while the process lives (never two
   * at once); when it resolves with a reason, the process group gets SIGKILL and the result's
   * `stopped` is that reason. A rejecting check counts as no reason.
   */
  readonly watch?: { readonly intervalMs: number; readonly check: () => Promise<string | undefined> };
}

/** One captured output stream. */
export interface CapturedOutput {
  /** The kept bytes decoded as UTF-8 (invalid sequences become U+FFFD). */
  readonly text: string;
  /** Bytes the stream produced in total, kept or not. */
  readonly bytes: number;
  /** True when `bytes` exceeded the cap and the rest was discarded. */
  readonly truncated: boolean;
}

/** What happened to a bounded process. */
export interface BoundedRunResult {
  /** The launcher's exit status, `null` when it was killed by a signal or never started. */
  readonly exitCode: number | null;
  /** The signal that ended the launcher (`SIGKILL` after a time-out), or `null`. */
  readonly signal: string | null;
  readonly timedOut: boolean;
  /** Wall-clock milliseconds from spawn to exit, rounded. */
  readonly durationMs: number;
  readonly stdout: CapturedOutput;
  readonly stderr: CapturedOutput;
  /** Everything written to file descriptor 3 (when `statusFd`), as UTF-8. */
  readonly status: string;
  /** Set when the launcher could not be started (e.g. `ENOENT`). */
  readonly spawnError?: string;
  /** Why the watchdog ({@link BoundedRunOptions.watch}) killed the process, when it did. */
  readonly stopped?: string;
}

function capture(stream: Readable | null | undefined, cap: number): Promise<CapturedOutput> {
  return new Promise((resolve) => {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let bytes = 0;
    const done = (): void =>
      resolve({ text: Buffer.concat(kept).toString('utf8'), bytes, truncated: bytes > cap });
    if (!stream) return done();
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (keptBytes < cap) {
        const part = chunk.subarray(0, cap - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
    });
    stream.on('end', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}

/** Milliseconds after the time-out after which output pipes are closed from this side. */
const HARD_STOP_GRACE_MS = 2_000;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    // The launcher leads its own process group (detached), so -pid reaches every process in it.
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * Runs `file` with `args` under the bounds of `opts` and resolves once it has exited and its
 * pipes are drained. Never rejects for the child's behaviour: a non-zero status, a signal, a
 * time-out or a failure to start are all in the result. The launcher is started detached (its
 * own process group, so the time-out can kill the group); launchers are expected to tie their
 * children to themselves (bwrap `--die-with-parent`).
 */
export async function runBounded(file: string, args: readonly string[], opts: BoundedRunOptions): Promise<BoundedRunResult> {
  const started = performance.now();
  const sub = execa(file, [...args], {
    cwd: opts.cwd,
    env: { ...opts.env },
    extendEnv: false,
    stdio: opts.statusFd ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    buffer: false,
    reject: false,
    detached: true,
    cleanup: true,
    stripFinalNewline: false,
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(sub.pid);
  }, opts.timeoutMs);
  // Last resort: a process outside the group (it left the session) could hold a pipe open.
  const streams = [sub.stdout, sub.stderr, opts.statusFd ? (sub.stdio[3] as Readable | undefined) : undefined];
  const hardStop = setTimeout(() => {
    for (const s of streams) s?.destroy();
  }, opts.timeoutMs + HARD_STOP_GRACE_MS);
  const outputs = Promise.all([capture(streams[0], opts.maxOutputBytes), capture(streams[1], opts.maxOutputBytes), capture(streams[2], 1024 * 1024)]);
  let exited: number | undefined;
  let stopped: string | undefined;
  let watchTimer: NodeJS.Timeout | undefined;
  const watch = opts.watch;
  if (watch) {
    const tick = async (): Promise<void> => {
      const why = await watch.check().catch(() => undefined);
      if (exited !== undefined || timedOut) return;
      if (why !== undefined) {
        stopped = why;
        killGroup(sub.pid);
        return;
      }
      watchTimer = setTimeout(() => void tick(), watch.intervalMs);
    };
    watchTimer = setTimeout(() => void tick(), watch.intervalMs);
  }
  sub.once('exit', () => {
    exited = performance.now();
    clearTimeout(watchTimer);
    // Once the launcher is reaped its group id may be reused: never signal it again (the
    // 'exit' event comes before the pipes close, so this does not wait for the output).
    clearTimeout(timer);
  });
  const result = await sub;
  clearTimeout(timer);
  clearTimeout(watchTimer);
  exited ??= performance.now();
  const [stdout, stderr, status] = await outputs;
  clearTimeout(hardStop);
  const durationMs = Math.round(exited - started);
  const spawned = result.exitCode !== undefined || result.signal !== undefined;
  return {
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    timedOut,
    durationMs,
    stdout,
    stderr,
    status: status.text,
    ...(!spawned && result.failed ? { spawnError: result.shortMessage } : {}),
    ...(stopped !== undefined ? { stopped } : {}),
  };
}
