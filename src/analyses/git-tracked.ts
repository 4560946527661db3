/**
 * The protected files a repository tracks (src/analyses/paths.ts `protectedPath`: the policy's
 * own files, `.claude/`, `Makefile`, `.husky/`, `.github/workflows/` …), read from the index of
 * the repository git would use in a directory. git commands that rewrite the work tree as a
 * whole (`git checkout REV`, `git merge`, `git stash pop`, `git reset --hard`) may rewrite any
 * of them with content the command does not show. Reads through the {@link PathHost} only
 * (`realpath`, `readFile`, `readBytes`), bounded by the directory's depth and
 * {@link MAX_INDEX_BYTES}; pure otherwise; never throws.
 */
import { posix } from 'node:path';
import { indexPaths } from './git-index.js';
import { protectedPath, type PathHost } from './paths.js';

/** Largest index read (about 60 000 tracked files); a larger one leaves the tracked files unknown. */
export const MAX_INDEX_BYTES = 8 * 1024 * 1024;

/**
 * What is known of the protected files tracked by the repository of a directory:
 * `none` (no repository found), `known` (the repository's top directory and the protected tracked files, paths relative to
 * the top, `/`-separated, in index order), or
 * `unknown` with a phrase saying why.
 */
export type TrackedProtected =
  | { readonly kind: 'none' }
  | { readonly kind: 'known'; readonly top: string; readonly files: readonly string[] }
  | { readonly kind: 'unknown'; readonly reason: string };

/**
 * The protected files tracked by the repository git finds from `cwd` (absolute) as its
 * discovery does: the first directory upwards with a `.git` (a directory, or a file
 * `gitdir: X` naming one); its index is `index` in that git directory. No index yet (a new
 * repository) tracks nothing.
 */
export function trackedProtectedFiles(cwd: string, host: PathHost): TrackedProtected {
  if (host.realpath === undefined) return { kind: 'unknown', reason: 'the file system is not visible to this run' };
  for (let dir = posix.normalize(cwd); ; ) {
    const dotGit = posix.join(dir, '.git');
    if (host.realpath(dotGit) !== undefined) {
      const asFile = host.readFile?.(dotGit);
      const link = asFile === undefined ? undefined : /^gitdir:\s*(.+)$/m.exec(asFile)?.[1]?.trim();
      if (asFile !== undefined && link === undefined) return { kind: 'none' };
      const gitDir = link !== undefined ? posix.resolve(dir, link) : dotGit;
      return tracked(dir, posix.join(gitDir, 'index'), host);
    }
    const up = posix.dirname(dir);
    if (up === dir) return { kind: 'none' };
    dir = up;
  }
}

function tracked(top: string, index: string, host: PathHost): TrackedProtected {
  if (host.readBytes === undefined) return { kind: 'unknown', reason: 'the repository index cannot be read here' };
  const bytes = host.readBytes(index, MAX_INDEX_BYTES);
  if (bytes === undefined) {
    if (host.realpath?.(index) === undefined) return { kind: 'known', top, files: [] };
    return { kind: 'unknown', reason: `the repository index is larger than ${MAX_INDEX_BYTES / 1024 / 1024} MiB or cannot be read` };
  }
  const paths = indexPaths(bytes);
  if (paths === undefined) return { kind: 'unknown', reason: 'the repository index is in a format shellward does not read' };
  const files: string[] = [];
  for (const p of paths) {
    if (protectedPath(`/${p}`)) files.push(p);
  }
  return { kind: 'known', top, files };
}
