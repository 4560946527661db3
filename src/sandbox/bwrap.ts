/**
 * Linux sandbox: bubblewrap (`bwrap`). The argv is built here, in code; the command itself runs as
 * `bash -c <command>` inside. The sandbox (mirroring what @anthropic-ai/sandbox-runtime does on
 * Linux, claude-code-reference.md §5.4, minus its network proxy: here there is no network at all):
 * - the whole file system read-only (`--ro-bind / /`), a fresh `/dev` and `/proc`, a private
 *   empty `/tmp` (tmpfs, discarded);
 * - the working directory replaced by a writable **copy** bound at the same path, so the command
 *   sees its usual paths, every write lands in the copy, and the real directory is never touched
 *   (even through another path to it: everything else is read-only);
 * - new user (when unprivileged), IPC, PID, network, UTS and cgroup namespaces: only a loopback
 *   interface of its own, no route to the host's;
 * - every capability dropped (`--cap-drop ALL`, which matters when shellward runs as root),
 *   `--new-session` (no terminal injection through TIOCSTI), `--die-with-parent`;
 * - `--clearenv` and `--setenv` for an allowlisted environment (src/sandbox/env.ts);
 * - `/run` (host Unix sockets: a container daemon's, the user bus) and `$HOME` hidden under empty
 *   size-limited tmpfs mounts (abstract sockets are cut by the network namespace), and limits on
 *   processes, memory and file size ({@link SANDBOX_LIMITS});
 * - `--json-status-fd 3`, so a failure of bwrap itself is told apart from the command's exit status.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';
import { runBounded, type BoundedRunOptions, type BoundedRunResult } from './process.js';

/** Everything {@link bwrapArgv} needs. Paths are absolute and free of symlinks. */
export interface BwrapPlan {
  /** The working directory as the command sees it (the real directory's path). */
  readonly cwd: string;
  /** The writable copy of the working directory, bound at `cwd`. */
  readonly copy: string;
  /** Absolute path of bash on the host (the same path inside: `/` is bound). */
  readonly bash: string;
  readonly command: string;
  /** The complete environment of the command. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Existing host directories replaced by an empty, size-limited tmpfs inside: `/run` (host
   * sockets: the container daemon's, the user bus, `$XDG_RUNTIME_DIR`) and `$HOME` (its secrets).
   * The caller checks they exist (bwrap cannot create a mount point in the read-only root).
   */
  readonly hide?: readonly string[];
}

/**
 * Resource limits set inside the sandbox before the command runs (bash `ulimit`, hard and soft,
 * only ever lowered): processes of the user (`-u`), virtual memory in KiB (`-v`), size of any one
 * file written in 1024-byte blocks (`-f`), no core files (`-c`). A private tmpfs holds at most
 * {@link TMPFS_BYTES}.
 */
export const SANDBOX_LIMITS: Readonly<Record<'-u' | '-v' | '-f' | '-c', number>> = { '-u': 1024, '-v': 4 * 1024 * 1024, '-f': 256 * 1024, '-c': 0 };

/** Size of each private tmpfs (`/tmp` and the hidden directories), bytes. */
export const TMPFS_BYTES = 256 * 1024 * 1024;

/**
 * The bash program that applies {@link SANDBOX_LIMITS} and then runs the command (`$1`) with
 * `bash -c` (`$0` is bash). A limit already lower stays; one that cannot be set stops the run
 * with status 125 before the command starts.
 */
export const LIMITS_SCRIPT = `l(){ c=$(ulimit -H "$1") || exit 125; if [ "$c" = unlimited ] || [ "$c" -gt "$2" ]; then ulimit -H -S "$1" "$2" || exit 125; fi; }; ${Object.entries(SANDBOX_LIMITS)
  .map(([k, v]) => `l ${k} ${v}`)
  .join('; ')}; exec "$0" -c "$1"`;

/** The namespace, session and capability flags of every bwrap run (and of the availability probe). */
export const BWRAP_ISOLATION: readonly string[] = [
  '--unshare-user-try',
  '--unshare-ipc',
  '--unshare-pid',
  '--unshare-net',
  '--unshare-uts',
  '--unshare-cgroup-try',
  '--die-with-parent',
  '--new-session',
  '--cap-drop',
  'ALL',
];

/** The file-system flags shared by runs and the probe: read-only root, fresh /dev and /proc, private /tmp. */
export const BWRAP_FILESYSTEM: readonly string[] = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--size', String(TMPFS_BYTES), '--tmpfs', '/tmp'];

function assertPath(name: string, p: string): void {
  if (!isAbsolute(p) || p.includes('\0')) throw new Error(`${name} must be an absolute path without NUL: ${JSON.stringify(p)}`);
}

/**
 * The bwrap arguments (without the `bwrap` program name) for a plan: isolation flags, file
 * system, the copy bound writable at `cwd` (after `/tmp`, so a working directory under `/tmp`
 * works too), a cleared environment plus `--setenv` per variable, `--chdir cwd`, the status fd,
 * then `-- bash -c command`. Pure. Throws when a path is not absolute, `cwd` is `/`, or a value
 * contains NUL (it could not be passed as an argument).
 */
export function bwrapArgv(plan: BwrapPlan): string[] {
  assertPath('cwd', plan.cwd);
  assertPath('copy', plan.copy);
  assertPath('bash', plan.bash);
  if (plan.cwd === '/') throw new Error('the working directory must not be /');
  if (plan.command.includes('\0')) throw new Error('the command contains a NUL character');
  const hide: string[] = [];
  for (const d of plan.hide ?? []) {
    assertPath('hidden directory', d);
    if (d === '/') continue;
    hide.push('--size', String(TMPFS_BYTES), '--tmpfs', d);
  }
  const env: string[] = [];
  for (const [k, v] of Object.entries(plan.env)) {
    if (k.includes('\0') || k.includes('=') || k === '' || v.includes('\0')) throw new Error(`invalid environment variable ${JSON.stringify(k)}`);
    env.push('--setenv', k, v);
  }
  return [
    ...BWRAP_ISOLATION,
    ...BWRAP_FILESYSTEM,
    ...hide,
    '--bind',
    plan.copy,
    plan.cwd,
    '--clearenv',
    ...env,
    '--chdir',
    plan.cwd,
    '--json-status-fd',
    '3',
    '--',
    plan.bash,
    '-c',
    LIMITS_SCRIPT,
    plan.bash,
    plan.command,
  ];
}

/**
 * The first executable file named `name` on `pathVar` (a `PATH` value), or `undefined`. Only
 * absolute `PATH` entries are searched (an empty or relative entry would mean the current directory).
 */
export async function findExecutable(name: string, pathVar: string | undefined): Promise<string | undefined> {
  for (const dir of (pathVar ?? '').split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    const p = join(dir, name);
    try {
      await access(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The bwrap status lines (`--json-status-fd`): whether the command started, and its exit status. */
export interface BwrapStatus {
  /** True once bwrap reported the command's pid: the sandbox was set up. */
  readonly started: boolean;
  /** The command's exit status as bwrap reported it, if it did. */
  readonly exitCode: number | undefined;
}

/** Parses what bwrap wrote to its `--json-status-fd` (one JSON object per line; bad lines ignored). Pure. */
export function parseBwrapStatus(text: string): BwrapStatus {
  let started = false;
  let exitCode: number | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const v = JSON.parse(line) as Record<string, unknown>;
      if (typeof v['child-pid'] === 'number') started = true;
      if (typeof v['exit-code'] === 'number') exitCode = v['exit-code'];
    } catch {
      // not JSON: ignore
    }
  }
  return { started, exitCode };
}

/** Why no sandbox can run. */
export type UnavailableReason = 'unsupported-platform' | 'no-bwrap' | 'no-user-namespaces' | 'bwrap-failed' | 'no-sandbox-exec' | 'sandbox-exec-failed' | 'no-bash';

/** Whether bwrap can run here, and if not why, in a sentence for the user. */
export type BwrapAvailability =
  | { readonly available: true; readonly bwrap: string; readonly bash: string }
  | { readonly available: false; readonly reason: UnavailableReason; readonly message: string };

/** Time-out of the availability probe, in milliseconds. */
const PROBE_TIMEOUT_MS = 15_000;

/**
 * Detects whether bwrap works here: finds `bwrap` and `bash` on `env.PATH`, then runs
 * `bwrap <isolation> <file system> -- true` once. A probe that fails with a namespace or
 * permission message is reported as `no-user-namespaces` (unprivileged user namespaces disabled,
 * e.g. `kernel.unprivileged_userns_clone=0`, or an AppArmor restriction as on Ubuntu ≥ 24.04);
 * any other failure as `bwrap-failed` with bwrap's own message. Never throws.
 */
export async function detectBwrap(env: Readonly<Record<string, string | undefined>>): Promise<BwrapAvailability> {
  const path = env.PATH;
  const bwrap = await findExecutable('bwrap', path);
  if (!bwrap) return { available: false, reason: 'no-bwrap', message: 'bubblewrap (`bwrap`) is not installed or not on PATH (Debian/Ubuntu: apt-get install bubblewrap)' };
  const bash = await findExecutable('bash', path);
  if (!bash) return { available: false, reason: 'no-bash', message: '`bash` is not on PATH' };
  const truePath = (await findExecutable('true', path)) ?? bash;
  const probeArgs = [...BWRAP_ISOLATION, ...BWRAP_FILESYSTEM, '--clearenv', '--json-status-fd', '3', '--', truePath, ...(truePath === bash ? ['-c', 'exit 0'] : [])];
  let r: BoundedRunResult;
  try {
    r = await runBounded(bwrap, probeArgs, { cwd: '/', env: {}, timeoutMs: PROBE_TIMEOUT_MS, maxOutputBytes: 64 * 1024, statusFd: true });
  } catch (err) {
    return { available: false, reason: 'bwrap-failed', message: `bwrap could not be started: ${err instanceof Error ? err.message : String(err)}` };
  }
  const status = parseBwrapStatus(r.status);
  if (r.exitCode === 0 && status.started) return { available: true, bwrap, bash };
  const said = r.spawnError ?? (r.stderr.text.trim() || (r.timedOut ? 'the probe timed out' : `exit status ${r.exitCode ?? r.signal}`));
  return classifyBwrapFailure(said);
}

/**
 * The unavailability a failed bwrap probe means, from what bwrap said: a namespace or permission
 * message (`No permissions to creating new namespace`, `setting up uid map: Permission denied`,
 * `Creating new namespace failed: Operation not permitted` …) is `no-user-namespaces`; anything
 * else `bwrap-failed`. The message quotes bwrap. Pure.
 */
export function classifyBwrapFailure(said: string): BwrapAvailability & { readonly available: false } {
  if (/namespace|uid map|gid map|operation not permitted|permission denied|no permissions/i.test(said)) {
    return {
      available: false,
      reason: 'no-user-namespaces',
      message: `bwrap cannot create its namespaces here (${said}); unprivileged user namespaces are disabled or restricted (sysctl kernel.unprivileged_userns_clone, user.max_user_namespaces, or an AppArmor policy as on Ubuntu 24.04), or the container forbids them`,
    };
  }
  return { available: false, reason: 'bwrap-failed', message: `bwrap does not work here: ${said}` };
}

/** Bounds of one sandboxed run. */
export interface RunBounds {
  /** Time-out in milliseconds. */
  readonly timeoutMs: number;
  /** Bytes of standard output and of standard error kept (each). */
  readonly maxOutputBytes: number;
  /** A watchdog that may stop the run early ({@link BoundedRunOptions.watch}). */
  readonly watch?: BoundedRunOptions['watch'];
}

/** Thrown when bwrap itself failed to set up the sandbox (the command never started). */
export class SandboxSetupError extends Error {
  override readonly name = 'SandboxSetupError';
}

/**
 * Runs a plan under bwrap. Resolves with the bounded run; the exit status is the command's as
 * bwrap reported it. Throws {@link SandboxSetupError} when bwrap failed before the command
 * started (and was not killed by the time-out), with bwrap's message.
 */
export async function runBwrap(bwrap: string, plan: BwrapPlan, bounds: RunBounds): Promise<BoundedRunResult> {
  const r = await runBounded(bwrap, bwrapArgv(plan), { cwd: '/', env: {}, timeoutMs: bounds.timeoutMs, maxOutputBytes: bounds.maxOutputBytes, statusFd: true, ...(bounds.watch ? { watch: bounds.watch } : {}) });
  const status = parseBwrapStatus(r.status);
  if (!status.started && !r.timedOut) {
    throw new SandboxSetupError(`bwrap failed to set up the sandbox: ${r.spawnError ?? (r.stderr.text.trim() || `exit status ${r.exitCode ?? r.signal}`)}`);
  }
  return status.exitCode !== undefined && !r.timedOut ? { ...r, exitCode: status.exitCode } : r;
}
