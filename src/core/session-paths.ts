/**
 * Paths as a recorded agent session saw them, independent of the machine shellward runs on.
 *
 * Windows sessions record working directories such as `c:\Users\ana\proj` or `C:/Users/ana/proj`.
 * Claude Code runs its Bash tool in Git Bash there (https://code.claude.com/docs/en/setup, Windows
 * section), where a drive path `C:\x` is the same file as the MSYS path `/c/x`
 * (https://www.msys2.org/docs/filesystem-paths/). shellward judges every path in that one POSIX
 * namespace: a drive path becomes `/<drive letter, lower case>/<rest with forward slashes>`, so
 * `cd "C:/Users/ana/proj"` reaches the recorded cwd `c:\Users\ana\proj`, and `C:/Users/ana/.ssh`
 * is an absolute path, never a relative one that happens to land inside the project. Pure: no
 * file system, no process state (nothing is resolved against shellward's own cwd).
 */
import { posix, win32 } from 'node:path';

/** A drive path: `C:`, `c:\…`, `C:/…` (drive letter, colon, then a separator or nothing). */
const DRIVE_ABSOLUTE = /^[A-Za-z]:(?:[\\/]|$)/;
/** Any path that starts with a drive letter and a colon, drive-relative `C:foo` included. */
const DRIVE_ANY = /^[A-Za-z]:/;

/** True when `p` starts with a drive letter and a colon (`C:\x`, `c:/x`, `C:x`). */
export function hasDriveLetter(p: string): boolean {
  return DRIVE_ANY.test(p);
}

/** True when `p` is absolute in the session's namespace: POSIX `/…` or a drive path `C:\…` / `C:/…`. */
export function isSessionAbsolute(p: string): boolean {
  return p.startsWith('/') || DRIVE_ABSOLUTE.test(p);
}

/**
 * The POSIX form of a path: a drive path `C:\Users\ana` or `C:/Users/ana` → `/c/Users/ana`
 * (normalised, no trailing slash); a drive-relative path `C:foo` → `undefined` (it depends on the
 * drive's own current directory, which no session records); anything else unchanged.
 */
export function toPosixPath(p: string): string | undefined {
  if (!DRIVE_ANY.test(p)) return p;
  if (!DRIVE_ABSOLUTE.test(p)) return undefined;
  const rest = p.slice(2).split('\\').join('/');
  const out = posix.normalize(`/${p[0]!.toLowerCase()}${rest === '' ? '/' : rest}`);
  return out.length > 1 ? out.replace(/\/+$/, '') : out;
}

/**
 * `rel` resolved against the recorded directory `base`, both as recorded (not converted):
 * an absolute `rel` (POSIX or drive) is itself; otherwise it is joined to `base` with the path
 * rules of `base`'s platform (win32 for a drive path, POSIX for `/…`). `undefined` when `base`
 * is absent or not absolute, or `rel` is drive-relative: the directory is not known.
 */
export function resolveSessionPath(base: string | undefined, rel: string): string | undefined {
  if (isSessionAbsolute(rel)) return rel;
  if (DRIVE_ANY.test(rel) || base === undefined) return undefined;
  if (DRIVE_ABSOLUTE.test(base)) return win32.resolve(base, rel);
  if (base.startsWith('/')) return posix.resolve(base, rel);
  return undefined;
}

/**
 * The home directory a recorded working directory reveals: `/home/<user>`, `/Users/<user>`
 * (macOS), `/root`, or `<drive>:\Users\<user>` (returned in the recorded form), or `undefined`
 * when the cwd does not show it (`/srv/app`, `/workspace`).
 */
export function homeFromCwd(cwd: string | undefined): string | undefined {
  if (cwd === undefined) return undefined;
  const m = /^(\/home\/[^/]+|\/Users\/[^/]+|\/root)(?:\/|$)/.exec(cwd);
  if (m) return m[1];
  const w = /^([A-Za-z]:[\\/](?:Users|Documents and Settings)[\\/][^\\/]+)(?:[\\/]|$)/i.exec(cwd);
  return w ? w[1] : undefined;
}

/** True when a recorded path is a Windows drive path (the session ran on Windows). */
export function isWindowsPath(p: string | undefined): boolean {
  return p !== undefined && DRIVE_ABSOLUTE.test(p);
}
