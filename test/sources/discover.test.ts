import { execa } from 'execa';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { discover, displayPath } from '../../src/sources/discover.js';

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'shellward-discover-'));
  await mkdir(join(root, 'repo/sub'), { recursive: true });
  await mkdir(join(root, 'repo/node_modules/x'), { recursive: true });
  await mkdir(join(root, 'plain/deep'), { recursive: true });
  await writeFile(join(root, 'repo/tracked.sh'), 'echo a\n');
  await writeFile(join(root, 'repo/sub/untracked.sh'), 'echo b\n');
  await writeFile(join(root, 'repo/ignored.sh'), 'echo c\n');
  await writeFile(join(root, 'repo/.gitignore'), 'ignored.sh\nnode_modules/\n');
  await writeFile(join(root, 'repo/node_modules/x/dep.sh'), 'echo d\n');
  await writeFile(join(root, 'plain/a.sh'), 'echo e\n');
  await writeFile(join(root, 'plain/deep/b.bash'), 'echo f\n');
  const git = (...args: string[]) => execa('git', args, { cwd: join(root, 'repo') });
  await git('init', '-q');
  await git('add', 'tracked.sh', '.gitignore');
});

const rel = (paths: readonly { path: string }[]) => paths.map((c) => displayPath(c.path, root));

describe('discover', () => {
  it('expands a directory in a git work tree to files git knows, respecting .gitignore', async () => {
    const d = await discover(['repo'], root);
    expect(rel(d.candidates)).toEqual(['repo/.gitignore', 'repo/sub/untracked.sh', 'repo/tracked.sh']);
    expect(d.candidates.every((c) => !c.explicit)).toBe(true);
    expect(d.errors).toEqual([]);
  });
  it('walks a directory outside git, skipping node_modules and .git', async () => {
    const d = await discover(['plain'], root);
    expect(rel(d.candidates)).toEqual(['plain/a.sh', 'plain/deep/b.bash']);
  });
  it('expands globs and marks named files explicit', async () => {
    const d = await discover(['plain/**/*.bash', 'repo/ignored.sh'], root);
    expect(rel(d.candidates)).toEqual(['plain/deep/b.bash', 'repo/ignored.sh']);
    expect(d.candidates.map((c) => c.explicit)).toEqual([false, true]);
  });
  it('reports arguments that match nothing and keeps going', async () => {
    const d = await discover(['nope.sh', 'plain/*.zsh', 'plain/a.sh'], root);
    expect(d.errors).toEqual([
      { arg: 'nope.sh', message: 'no such file or directory' },
      { arg: 'plain/*.zsh', message: 'no files match this pattern' },
    ]);
    expect(rel(d.candidates)).toEqual(['plain/a.sh']);
  });
  it('shows paths outside the working directory as absolute', () => {
    expect(displayPath('/etc/profile', '/home/u')).toBe('/etc/profile');
    expect(displayPath('/home/u/x/y.sh', '/home/u')).toBe('x/y.sh');
  });
});
