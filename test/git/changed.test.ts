/** Changed files and lines of a branch, in temporary git repositories. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitAll, git, gitRepo as newRepo } from '../git-repo.js';
import type { Diagnostic } from '../../src/core/types.js';
import {
  binaryFromNumstat,
  changedFiles,
  changedLines,
  defaultBase,
  GitChangeError,
  onChangedLines,
  parseUnifiedZero,
  unquoteGitPath,
} from '../../src/git/changed.js';




const lines = (n: number, prefix = 'echo'): string => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n') + '\n';

function diag(file: string, line: number, endLine = line, endColumn = 5): Diagnostic {
  return { ruleId: 'r', severity: 'warning', message: 'm', file, range: { start: { line, column: 1 }, end: { line: endLine, column: endColumn } }, fingerprint: 'x:1' };
}

describe('changedFiles and changedLines', () => {
  it('lists added, modified and renamed files from the merge base, not deleted ones nor changes on the base after the fork', async () => {
    const dir = await gitRepo();
    await writeFile(join(dir, 'keep.sh'), lines(10));
    await writeFile(join(dir, 'gone.sh'), lines(3));
    await writeFile(join(dir, 'old name.sh'), lines(20));
    await writeFile(join(dir, 'base-only.sh'), lines(2));
    await commitAll(dir, 'init');
    await git(dir, 'checkout', '-q', '-b', 'feature');
    // Modify lines 3 and 7-8 of keep.sh, and append two lines.
    const keep = lines(10).split('\n');
    keep[2] = 'rm -rf build';
    keep[6] = 'git reset --hard';
    keep[7] = 'echo changed';
    await writeFile(join(dir, 'keep.sh'), keep.join('\n') + 'echo 11\necho 12\n');
    await rm(join(dir, 'gone.sh'));
    await git(dir, 'mv', 'old name.sh', 'new näme "q".sh');
    await writeFile(join(dir, 'new näme "q".sh'), lines(20).replace('echo 15\n', 'echo fifteen\n'));
    await mkdir(join(dir, 'dir with space'));
    await writeFile(join(dir, 'dir with space', 'añadido.sh'), '#!/bin/sh\n++ not a header\necho x\n');
    await commitAll(dir, 'feature');
    // The base moves on after the fork: not part of the change.
    await git(dir, 'checkout', '-q', 'main');
    await writeFile(join(dir, 'base-only.sh'), lines(5));
    await commitAll(dir, 'main moves');
    await git(dir, 'checkout', '-q', 'feature');

    expect(await changedFiles({ cwd: dir, base: 'main' })).toEqual(['dir with space/añadido.sh', 'keep.sh', 'new näme "q".sh']);
    const changed = await changedLines({ cwd: dir, base: 'main', head: 'HEAD' });
    expect(Object.fromEntries(changed)).toEqual({
      'keep.sh': [
        [3, 3],
        [7, 8],
        [11, 12],
      ],
      'new näme "q".sh': [[15, 15]],
      'dir with space/añadido.sh': [[1, 3]],
    });
    // From a subdirectory: still repository-relative.
    expect(await changedFiles({ cwd: join(dir, 'dir with space'), base: 'main' })).toContain('keep.sh');
  });

  it('gives a pure rename no changed lines and a binary file every line; handles removals only', async () => {
    const dir = await gitRepo();
    await writeFile(join(dir, 'a.sh'), lines(5));
    await writeFile(join(dir, 'b.sh'), lines(5));
    await writeFile(join(dir, 'blob.bin'), Buffer.from([0, 1, 2, 3, 0, 255]));
    await commitAll(dir, 'init');
    await git(dir, 'checkout', '-q', '-b', 'feature');
    await git(dir, 'mv', 'a.sh', 'moved.sh');
    await writeFile(join(dir, 'b.sh'), lines(5).replace('echo 3\n', ''));
    await writeFile(join(dir, 'blob.bin'), Buffer.from([0, 9, 9, 9, 0, 255]));
    await writeFile(join(dir, 'tab\tname.sh'), 'echo\n');
    await commitAll(dir, 'feature');
    expect(await changedFiles({ cwd: dir, base: 'main' })).toEqual(['b.sh', 'blob.bin', 'moved.sh', 'tab\tname.sh']);
    const changed = await changedLines({ cwd: dir, base: 'main' });
    expect(changed.get('moved.sh')).toEqual([]);
    expect(changed.get('b.sh')).toEqual([]);
    expect(changed.get('blob.bin')).toEqual([[1, Number.POSITIVE_INFINITY]]);
    expect(changed.get('tab\tname.sh')).toEqual([[1, 1]]);
  });

  it('names a ref that does not resolve, and says to fetch the history', async () => {
    const dir = await gitRepo();
    await writeFile(join(dir, 'a.sh'), 'echo\n');
    await commitAll(dir, 'init');
    const err = await changedFiles({ cwd: dir, base: 'origin/nope' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GitChangeError);
    expect((err as Error).message).toBe('base ref "origin/nope" does not resolve to a commit; fetch it first (in GitHub Actions, check out with `fetch-depth: 0`)');
    await expect(changedLines({ cwd: dir, base: 'main', head: 'nohead' })).rejects.toThrow('head ref "nohead"');
    await expect(changedFiles({ cwd: dir, base: '--output=x' })).rejects.toThrow('is not a valid ref');
  });

  it('explains a missing merge base in a shallow clone', async () => {
    const origin = await gitRepo();
    await writeFile(join(origin, 'a.sh'), 'echo 1\n');
    await commitAll(origin, 'one');
    await writeFile(join(origin, 'a.sh'), 'echo 2\n');
    await commitAll(origin, 'two');
    await git(origin, 'checkout', '-q', '-b', 'feature');
    await writeFile(join(origin, 'a.sh'), 'echo 3\n');
    await commitAll(origin, 'three');
    await git(origin, 'checkout', '-q', 'main');
    await writeFile(join(origin, 'b.sh'), 'echo 4\n');
    await commitAll(origin, 'four');
    const clone = await mkdtemp(join(tmpdir(), 'shellward-shallow-'));
    await git(tmpdir(), 'clone', '-q', '--depth', '1', '--no-single-branch', `file://${origin}`, clone);
    await git(clone, 'checkout', '-q', 'feature');
    await expect(changedFiles({ cwd: clone, base: 'origin/main' })).rejects.toThrow(/no merge base of "origin\/main" and "HEAD" .*fetch-depth: 0/);
  });

  it('fails outside a work tree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-nogit-'));
    const env = process.env.GIT_CEILING_DIRECTORIES;
    process.env.GIT_CEILING_DIRECTORIES = tmpdir();
    try {
      await expect(changedFiles({ cwd: dir, base: 'main' })).rejects.toThrow('not inside a git work tree');
    } finally {
      if (env === undefined) delete process.env.GIT_CEILING_DIRECTORIES;
      else process.env.GIT_CEILING_DIRECTORIES = env;
    }
  });
});

describe('defaultBase', () => {
  it("prefers origin/HEAD's target, then main, then master", async () => {
    const dir = await gitRepo('master');
    await writeFile(join(dir, 'a.sh'), 'echo\n');
    await commitAll(dir, 'init');
    expect(await defaultBase(dir)).toBe('master');
    await git(dir, 'branch', 'main');
    expect(await defaultBase(dir)).toBe('main');
    await git(dir, 'update-ref', 'refs/remotes/origin/trunk', 'HEAD');
    await git(dir, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/trunk');
    expect(await defaultBase(dir)).toBe('origin/trunk');
    const empty = await gitRepo('dev');
    expect(await defaultBase(empty)).toBeUndefined();
  });
});

describe('parsers', () => {
  it('reads hunk headers, with and without counts, and skips deleted files and `+++` content lines', () => {
    const patch = [
      'diff --git a/x.sh b/x.sh',
      'index 1..2 100644',
      '--- a/x.sh',
      '+++ b/x.sh',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      '@@ -5,0 +6,2 @@',
      '+++ c',
      '+d',
      '@@ -9,2 +10,0 @@',
      '-e',
      '-f',
      'diff --git a/gone.sh b/gone.sh',
      'deleted file mode 100644',
      '--- a/gone.sh',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-x',
      'diff --git "a/sp ace\\303\\274.sh" "b/sp ace\\303\\274.sh"',
      '--- "a/sp ace\\303\\274.sh"',
      '+++ "b/sp ace\\303\\274.sh"',
      '@@ -0,0 +1,3 @@',
      '+1',
      '+2',
      '+3',
      'diff --git a/s p.sh b/s p.sh',
      '--- a/s p.sh\t',
      '+++ b/s p.sh\t',
      '@@ -2 +2 @@',
      '-1',
      '+1',
      '',
    ].join('\n');
    expect(Object.fromEntries(parseUnifiedZero(patch))).toEqual({
      'x.sh': [
        [1, 1],
        [6, 7],
      ],
      'sp aceü.sh': [[1, 3]],
      's p.sh': [[2, 2]],
    });
  });

  it('unquotes C-quoted paths', () => {
    expect(unquoteGitPath('"a\\tb\\"c\\\\d\\303\\274"')).toBe('a\tb"c\\dü');
    expect(unquoteGitPath('plain')).toBe('plain');
  });

  it('finds binary files in numstat -z output, renames included', () => {
    expect(binaryFromNumstat('1\t2\ta.sh\0-\t-\tb.bin\0-\t-\t\0old.bin\0new.bin\0' + '3\t0\t\0o.sh\0n.sh\0')).toEqual(['b.bin', 'new.bin']);
  });
});

describe('onChangedLines', () => {
  const changed = new Map<string, Array<[number, number]>>([
    ['a.sh', [[3, 4], [10, 10]]],
    ['empty.sh', []],
  ]);

  it('keeps diagnostics whose lines overlap a changed range of their file', () => {
    const ds = [diag('a.sh', 2), diag('a.sh', 3), diag('a.sh', 4), diag('a.sh', 5), diag('a.sh', 8, 10), diag('a.sh', 11), diag('a.sh', 1, 3)];
    expect(onChangedLines(ds, changed).map((d) => d.range.start.line)).toEqual([3, 4, 8, 1]);
  });

  it('treats an end at column 1 of the next line as ending on the line before', () => {
    expect(onChangedLines([diag('a.sh', 2, 3, 1)], changed)).toEqual([]);
    expect(onChangedLines([diag('a.sh', 2, 3, 2)], changed)).toHaveLength(1);
  });

  it('keeps nothing of files without changed lines, and can look up another name', () => {
    expect(onChangedLines([diag('empty.sh', 1)], changed)).toEqual([]);
    expect(onChangedLines([diag('other.sh', 3)], changed)).toEqual([]);
    expect(onChangedLines([diag('/abs/a.sh', 3)], changed, 'a.sh')).toHaveLength(1);
  });
});

/** A new repository for these tests. */
function gitRepo(branch = 'main'): Promise<string> {
  return newRepo(branch, 'shellward-changed-');
}
