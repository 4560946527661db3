/**
 * File discovery (I/O edge): turns command-line paths, directories and globs into the list of
 * files to lint. Inside a git work tree a directory expands to the files git knows about
 * (tracked, plus untracked ones that .gitignore does not exclude); elsewhere to every file under
 * it except `.git` and `node_modules`. Globs are expanded with tinyglobby.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { execa } from 'execa';
import { glob, isDynamicPattern } from 'tinyglobby';

/** A file to consider. `explicit` files were named directly and are linted whatever they look like. */
export interface Candidate {
  /** Absolute path. */
  readonly path: string;
  readonly explicit: boolean;
  /**
   * The bytes to lint instead of the file's (the staged version, `lint --staged`). Such a
   * candidate is linted as a script or Makefile only, never read from disk or as a transcript.
   */
  readonly content?: Uint8Array;
}

/** An argument that matched nothing or could not be read. */
export interface DiscoveryError {
  readonly arg: string;
  readonly message: string;
}

/** Result of {@link discover}: candidates sorted by path, without duplicates. */
export interface Discovery {
  readonly candidates: readonly Candidate[];
  readonly errors: readonly DiscoveryError[];
}

const DEFAULT_IGNORE = ['**/.git/**', '**/node_modules/**'];

/** Files under `dir` that git tracks or would track, or `undefined` when `dir` is not in a work tree. */
async function gitFiles(dir: string): Promise<string[] | undefined> {
  const r = await execa('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '.'], {
    cwd: dir,
    reject: false,
    stripFinalNewline: false,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.exitCode !== 0 || r.failed) return undefined;
  return String(r.stdout)
    .split('\0')
    .filter((f) => f !== '')
    .map((f) => join(dir, f));
}

async function walk(dir: string): Promise<string[]> {
  const files = await glob('**/*', { cwd: dir, absolute: true, dot: true, onlyFiles: true, ignore: DEFAULT_IGNORE, followSymbolicLinks: false });
  return files;
}

/**
 * Expands `args` (files, directories, glob patterns) relative to `cwd`. Never throws for a bad
 * argument: it is reported in `errors` and the others are still expanded.
 */
export async function discover(args: readonly string[], cwd: string): Promise<Discovery> {
  const seen = new Map<string, Candidate>();
  const errors: DiscoveryError[] = [];
  const add = (path: string, explicit: boolean): void => {
    const prev = seen.get(path);
    if (!prev || (explicit && !prev.explicit)) seen.set(path, { path, explicit });
  };
  for (const arg of args) {
    const abs = isAbsolute(arg) ? arg : resolve(cwd, arg);
    let info: Awaited<ReturnType<typeof stat>> | undefined;
    let statError: string | undefined;
    try {
      info = await stat(abs);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      statError = code === 'ENOENT' || code === 'ENOTDIR' ? undefined : `cannot be read (${code ?? 'error'})`;
    }
    if (info?.isFile()) {
      add(abs, true);
    } else if (info?.isDirectory()) {
      const files = (await gitFiles(abs)) ?? (await walk(abs));
      for (const f of files) add(f, false);
    } else if (isDynamicPattern(arg)) {
      const files = await glob(arg, { cwd, absolute: true, dot: false, onlyFiles: true, ignore: DEFAULT_IGNORE });
      if (files.length === 0) errors.push({ arg, message: 'no files match this pattern' });
      for (const f of files) add(f, false);
    } else {
      errors.push({ arg, message: statError ?? (info ? 'not a regular file or directory' : 'no such file or directory') });
    }
  }
  const candidates = [...seen.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { candidates, errors };
}

/** The path to show for `abs`: relative to `cwd` when inside it, POSIX separators; else absolute. */
export function displayPath(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return abs.split('\\').join('/');
  return rel.split('\\').join('/');
}
