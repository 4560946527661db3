/**
 * The staged contents of changed files (I/O edge, for `shellward lint --staged`): the files that
 * the index adds, copies, modifies or renames relative to `HEAD`, each with its bytes as staged
 * (`git show :path`), not as in the working tree — what a pre-commit hook must check.
 */
import { realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { execa } from 'execa';
import type { Candidate, DiscoveryError } from './discover.js';

/** Largest staged file read, in bytes (larger ones are reported as errors, not linted). */
const MAX_STAGED_BYTES = 64 * 1024 * 1024;

/** What {@link stagedCandidates} returns. */
export interface StagedFiles {
  /** Repository root: displayed paths are relative to it. */
  readonly root: string;
  /** Staged files, sorted by path, each with its staged bytes in `content`; not explicit. */
  readonly candidates: readonly Candidate[];
  readonly errors: readonly DiscoveryError[];
}

/**
 * The staged files of the repository that contains `cwd`, limited to those equal to or under one
 * of `paths` (relative to `cwd`) when any are given. Returns `undefined` when `cwd` is not in a git
 * work tree. Files whose staged bytes cannot be read (e.g. a submodule) are reported in `errors`.
 */
export async function stagedCandidates(cwd: string, paths: readonly string[] = []): Promise<StagedFiles | undefined> {
  const top = await execa('git', ['rev-parse', '--show-toplevel'], { cwd, reject: false });
  if (top.exitCode !== 0 || top.failed) return undefined;
  const root = String(top.stdout).trim();
  const diff = await execa('git', ['diff', '--cached', '--name-only', '--diff-filter=ACMR', '-z'], {
    cwd: root,
    reject: false,
    stripFinalNewline: false,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (diff.exitCode !== 0 || diff.failed) return undefined;
  // git prints the real path of the root; resolve the scopes from the real cwd to compare.
  const base = await realpath(cwd);
  const scopes = paths.map((p) => (isAbsolute(p) ? p : resolve(base, p)));
  const inScope = (abs: string): boolean =>
    scopes.length === 0 ||
    scopes.some((s) => {
      const rel = relative(s, abs);
      return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
    });
  const names = String(diff.stdout)
    .split('\0')
    .filter((f) => f !== '')
    .sort();
  const candidates: Candidate[] = [];
  const errors: DiscoveryError[] = [];
  for (const name of names) {
    const path = join(root, ...name.split('/'));
    if (!inScope(path)) continue;
    const show = await execa('git', ['show', `:${name}`], { cwd: root, reject: false, encoding: 'buffer', stripFinalNewline: false, maxBuffer: MAX_STAGED_BYTES });
    if (show.exitCode !== 0 || show.failed) {
      errors.push({ arg: name, message: 'staged content cannot be read' });
      continue;
    }
    candidates.push({ path, explicit: false, content: new Uint8Array(show.stdout) });
  }
  return { root: join(root), candidates, errors };
}
