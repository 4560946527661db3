/**
 * Runs a CommonJS bundle (the hook's, dist/src/cli/hook-bundle.cjs) with V8's code cache: the
 * bytecode V8 compiled for it in an earlier run, read from a file, instead of compiling its
 * source again (https://nodejs.org/api/vm.html#scriptcreatecacheddata). A hook process lives for
 * one agent tool call; compiling the ~1.5 MB of bundled source, and the functions a verdict
 * calls, was a large part of its time. This works the same on Node 20, which has no compile
 * cache for modules (`module.enableCompileCache` came with Node 22.1), and on later versions.
 *
 * The cache is an optimisation only: a cache that is missing, unsafe (see {@link codeCacheDir}),
 * unreadable or rejected by V8 (another Node version, other V8 flags) just means compiling the
 * source, after which a new cache is written; failing to write it changes nothing else.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';
import { currentUid, unsafeBecause } from './hook-socket.js';

/**
 * The directory of shellward's code caches: `$XDG_CACHE_HOME/shellward` (an absolute
 * `XDG_CACHE_HOME`, as the XDG Base Directory specification says), else `~/.cache/shellward`.
 * Created with mode 0700 when missing; `undefined` when it cannot be created, or when it (or its
 * owner) is not safe: whoever can write a code cache chooses the code that runs, so the
 * directory must be this user's and writable by nobody else.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const base = env.XDG_CACHE_HOME?.startsWith('/') ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  const dir = join(base, 'shellward');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return undefined;
  }
  return unsafeBecause(dir, false) === undefined ? dir : undefined;
}

/** A bundle loaded by {@link loadBundle}. */
export interface LoadedBundle {
  /** The bundle's `module.exports`. */
  readonly exports: Record<string, unknown>;
  /** `used` (compiled from the cache), `compiled` (no usable cache) or `off` (no cache directory). */
  readonly cache: 'used' | 'compiled' | 'off';
  /**
   * Writes the code cache when the bundle was compiled from source: call it after the run, so
   * the functions the run compiled are in it too. Never throws.
   */
  saveCache(): void;
}

/** How many code caches of one bundle name are kept (different builds or installs of shellward). */
export const KEPT_CACHES = 8;

/** Removes the `.v8cache` files of `dir` starting with `prefix`, except the {@link KEPT_CACHES} newest. */
function pruneCaches(dir: string, prefix: string): void {
  const caches = readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith('.v8cache'))
    .map((f) => ({ path: join(dir, f), mtime: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const c of caches.slice(KEPT_CACHES)) unlinkSync(c.path);
}

/** Whether `path` is a regular file of this user that nobody else may write. */
function safeFile(path: string): boolean {
  try {
    const st = lstatSync(path);
    const uid = currentUid();
    return st.isFile() && (uid === -1 || st.uid === uid) && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * Loads the CommonJS bundle at `file` (an absolute path) and runs its top level. Its code runs as
 * the body of a function of `exports`, `require` (resolving from `file`), `module`, `__filename`,
 * `__dirname` and, as further free variables, the names and values of `host`. With `cacheDir`
 * (see {@link codeCacheDir}), the compiled code comes from and goes to a file there, named by
 * the bundle's name, size, modification time and inode and by Node's version and architecture
 * (V8 itself refuses a cache of another V8, other flags or another source length); when a new
 * one is written, the caches of that name beyond the {@link KEPT_CACHES} newest are removed
 * (other builds and installs, which may share the directory). Throws what reading the
 * bundle or running its top level throws.
 */
export function loadBundle(file: string, host: Readonly<Record<string, unknown>>, cacheDir: string | undefined): LoadedBundle {
  const source = readFileSync(file, 'utf8');
  const names = Object.keys(host);
  const wrapped = `(function (exports, require, module, __filename, __dirname, ${names.join(', ')}) {${source}\n})`;
  let cacheFile: string | undefined;
  let cachedData: Buffer | undefined;
  if (cacheDir !== undefined) {
    try {
      const st = statSync(file);
      cacheFile = join(cacheDir, `${basename(file)}-${process.version}-${process.arch}-${st.size}-${Math.round(st.mtimeMs)}-${st.ino}.v8cache`);
      if (safeFile(cacheFile)) cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(wrapped, { filename: file, ...(cachedData !== undefined ? { cachedData } : {}) });
  const used = cachedData !== undefined && script.cachedDataRejected !== true;
  const fn = script.runInThisContext() as (...args: unknown[]) => void;
  const module = { exports: {} as Record<string, unknown> };
  fn(module.exports, createRequire(file), module, file, dirname(file), ...names.map((n) => host[n]));
  return {
    exports: module.exports,
    cache: cacheFile === undefined ? 'off' : used ? 'used' : 'compiled',
    saveCache(): void {
      if (cacheFile === undefined || used) return;
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        renameSync(tmp, cacheFile);
        pruneCaches(dirname(cacheFile), `${basename(file)}-`);
      } catch {
        try {
          unlinkSync(tmp);
        } catch {
          // nothing was written
        }
      }
    },
  };
}
