/**
 * macOS sandbox: `sandbox-exec` with a generated Seatbelt (SBPL) profile. The profile allows
 * everything by default, then denies all networking and every file write, and finally allows
 * writes below the scratch directories (the working-directory copy and a private temporary
 * directory) and to the few device files programs write to. In SBPL a later rule takes precedence
 * over an earlier one for the same operation, so the final allow carves the scratch space out of
 * the deny. The shape follows common `(allow default)` + `(deny file-write*)` profiles; unlike
 * @anthropic-ai/sandbox-runtime (claude-code-reference.md §5.4) it starts from `allow default`, because
 * a deny-by-default profile needs a curated list of Mach services to keep programs working.
 *
 * Unlike bwrap there is no bind mount on macOS: the command runs **in the copy's path**, not the
 * original one (`pwd` shows the scratch path). The generator is pure and tested on every platform;
 * the runner only on macOS.
 */
import { isAbsolute } from 'node:path';
import { runBounded, type BoundedRunResult } from './process.js';
import type { RunBounds } from './bwrap.js';

/** Device files a sandboxed command may write to (the defaults of sandbox-runtime, claude-code-reference.md §5.4). */
export const SEATBELT_WRITABLE_DEVICES: readonly string[] = ['/dev/null', '/dev/zero', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/dtracehelper', '/dev/autofs_nowait'];

/** Options of {@link seatbeltProfile}. */
export interface SeatbeltProfileOptions {
  /** Directories below which writes are allowed: absolute, symlinks resolved (`/private/var/…`, not `/var/…`). */
  readonly writableDirs: readonly string[];
}

/**
 * A path as an SBPL string literal: double-quoted, with `\` and `"` escaped. Throws for a path
 * that is not absolute or that contains a control character (no legitimate scratch path does,
 * and the profile language has no reviewed escape for them).
 */
export function sbplString(path: string): string {
  if (!isAbsolute(path)) throw new Error(`not an absolute path: ${JSON.stringify(path)}`);
  if (/[\u0000-\u001f\u007f]/.test(path)) throw new Error(`path contains a control character: ${JSON.stringify(path)}`);
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * The Seatbelt profile text: `(version 1)`, `(allow default)`, `(deny network*)`,
 * `(deny file-write*)`, then one `(allow file-write* …)` with a `subpath` per writable directory
 * (trailing slashes removed, `/` refused) and a `literal` per device in
 * {@link SEATBELT_WRITABLE_DEVICES}. Pure; throws as {@link sbplString} does, or when no
 * writable directory is given or one is `/`.
 */
export function seatbeltProfile(opts: SeatbeltProfileOptions): string {
  if (opts.writableDirs.length === 0) throw new Error('at least one writable directory is required');
  const dirs = opts.writableDirs.map((d) => {
    const trimmed = d.length > 1 ? d.replace(/\/+$/, '') : d;
    if (trimmed === '/' || trimmed === '') throw new Error('the root directory cannot be writable');
    return trimmed;
  });
  return [
    '(version 1)',
    '(allow default)',
    '(deny network*)',
    '(deny file-write*)',
    '(allow file-write*',
    ...dirs.map((d) => `  (subpath ${sbplString(d)})`),
    ...SEATBELT_WRITABLE_DEVICES.map((d) => `  (literal ${sbplString(d)})`),
    ')',
    '',
  ].join('\n');
}

/** The `sandbox-exec` arguments for a profile and a command: `-p profile bash -c command`. Pure. */
export function sandboxExecArgv(profile: string, bash: string, command: string): string[] {
  if (command.includes('\0')) throw new Error('the command contains a NUL character');
  return ['-p', profile, bash, '-c', command];
}

/** Path of the macOS launcher. */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** Everything a macOS run needs. `copy` is the working-directory copy and the command's cwd; `tmp` its private TMPDIR. */
export interface SandboxExecPlan {
  readonly copy: string;
  readonly tmp: string;
  readonly bash: string;
  readonly command: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Runs a plan under `sandbox-exec` (macOS only) in the copy, with writes allowed below `copy`
 * and `tmp`. Resolves with the bounded run; never falls back to running unsandboxed (a launcher
 * that cannot start is a `spawnError`).
 */
export async function runSandboxExec(plan: SandboxExecPlan, bounds: RunBounds): Promise<BoundedRunResult> {
  const profile = seatbeltProfile({ writableDirs: [plan.copy, plan.tmp] });
  return runBounded(SANDBOX_EXEC, sandboxExecArgv(profile, plan.bash, plan.command), {
    cwd: plan.copy,
    env: plan.env,
    timeoutMs: bounds.timeoutMs,
    maxOutputBytes: bounds.maxOutputBytes,
    ...(bounds.watch ? { watch: bounds.watch } : {}),
  });
}

/**
 * Whether `sandbox-exec` works here: it exists and runs `/usr/bin/true` under a minimal profile.
 * `platform` is `process.platform` (injected). Never throws.
 */
export async function detectSandboxExec(platform: string): Promise<{ available: true } | { available: false; message: string }> {
  if (platform !== 'darwin') return { available: false, message: 'sandbox-exec exists only on macOS' };
  const r = await runBounded(SANDBOX_EXEC, ['-p', '(version 1)\n(allow default)\n', '/usr/bin/true'], { cwd: '/', env: {}, timeoutMs: 15_000, maxOutputBytes: 64 * 1024 });
  if (r.exitCode === 0) return { available: true };
  return { available: false, message: `sandbox-exec does not work here: ${r.spawnError ?? (r.stderr.text.trim() || `exit status ${r.exitCode ?? r.signal}`)}` };
}
