/** Temporary git repositories for tests (argv arrays through execa, never a shell string). */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

/** Runs `git args…` in `cwd` and returns its stdout. Rejects when git exits non-zero. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  return String((await execa('git', args, { cwd })).stdout);
}

/** A new repository in a temp directory (name prefix `prefix`) on branch `branch`, with an identity for commits. */
export async function gitRepo(branch = 'main', prefix = 'shellward-git-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await git(dir, 'init', '-q', '-b', branch);
  await git(dir, 'config', 'user.email', 'test@example.com');
  await git(dir, 'config', 'user.name', 'test');
  await git(dir, 'config', 'commit.gpgsign', 'false');
  return dir;
}

/** Stages everything and commits it with `message`. */
export async function commitAll(dir: string, message: string): Promise<void> {
  await git(dir, 'add', '-A');
  await git(dir, 'commit', '-q', '-m', message);
}
