/** The working-directory copy: copy, snapshot, diff, limits (real files in a temporary directory, no processes but mkfifo). */
import { execa } from 'execa';
import { chmod, mkdir, mkdtemp, readFile, readlink, realpath, rm, stat, symlink, unlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyTree, diffSnapshots, removeTree, snapshotTree, TreeTooLargeError } from '../../src/sandbox/tree.js';

let dir: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'sw-tree-')));
  await mkdir(join(dir, 'src/sub'), { recursive: true });
  await writeFile(join(dir, 'a.txt'), 'alpha\n');
  await writeFile(join(dir, 'src/b.sh'), '#!/bin/sh\n', { mode: 0o755 });
  await writeFile(join(dir, 'src/sub/c'), 'c');
  await symlink('a.txt', join(dir, 'link'));
  await symlink('/etc/hostname', join(dir, 'abs-link'));
});

afterEach(async () => {
  await removeTree(dir);
});

describe('copyTree', () => {
  it('copies files, modes, modification times, directories and symlinks (not followed)', async () => {
    const dest = join(dir, '..', `${dir.split('/').pop()}-copy`);
    try {
      expect(await copyTree(dir, dest)).toEqual({ skipped: [] });
      expect(await readFile(join(dest, 'a.txt'), 'utf8')).toBe('alpha\n');
      expect((await stat(join(dest, 'src/b.sh'))).mode & 0o777).toBe(0o755);
      // utimes takes seconds as a double: the copy keeps the time to well under a millisecond.
      expect(Math.abs((await stat(join(dest, 'a.txt'))).mtimeMs - (await stat(join(dir, 'a.txt'))).mtimeMs)).toBeLessThan(1);
      expect(await readlink(join(dest, 'link'))).toBe('a.txt');
      expect(await readlink(join(dest, 'abs-link'))).toBe('/etc/hostname');
      const [a, b] = [await snapshotTree(dir), await snapshotTree(dest)];
      expect(diffSnapshots(a, b).filter((c) => c.change !== 'changed' || c.aspects?.some((x) => x !== 'mtime'))).toEqual([]);
    } finally {
      await removeTree(dest);
    }
  });

  it('refuses a directory over the entry or byte limit before copying anything', async () => {
    const dest = join(dir, '..', `${dir.split('/').pop()}-big`);
    await expect(copyTree(dir, dest, { maxEntries: 3, maxBytes: 1e9 })).rejects.toThrow(TreeTooLargeError);
    await expect(copyTree(dir, dest, { maxEntries: 3, maxBytes: 1e9 })).rejects.toThrow(/too large to copy.*more than 3 entries/);
    await expect(copyTree(dir, dest, { maxEntries: 100, maxBytes: 5 })).rejects.toThrow(/more than 5 bytes/);
    await expect(stat(dest)).rejects.toThrow(/ENOENT/);
  });

  it('skips and lists FIFOs', async () => {
    await execa('mkfifo', [join(dir, 'pipe')]);
    const dest = join(dir, '..', `${dir.split('/').pop()}-fifo`);
    try {
      expect(await copyTree(dir, dest)).toEqual({ skipped: ['pipe'] });
    } finally {
      await removeTree(dest);
    }
  });
});

describe('diffSnapshots', () => {
  it('reports created, changed (content, mode, mtime, target, type) and deleted entries, sorted by path', async () => {
    const before = await snapshotTree(dir);
    await writeFile(join(dir, 'new.txt'), 'n');
    await mkdir(join(dir, 'newdir'));
    await writeFile(join(dir, 'a.txt'), 'ALPHA\n');
    await chmod(join(dir, 'src/b.sh'), 0o644);
    await utimes(join(dir, 'src/sub/c'), 1_000_000, 1_000_000);
    await unlink(join(dir, 'link'));
    await symlink('src', join(dir, 'link'));
    await rm(join(dir, 'abs-link'));
    await mkdir(join(dir, 'abs-link'));
    await rm(join(dir, 'src/sub/c'));
    await writeFile(join(dir, 'src/sub/c'), 'c');
    await utimes(join(dir, 'src/sub/c'), 1_000_000, 1_000_000);
    const after = await snapshotTree(dir);
    expect(diffSnapshots(before, after)).toEqual([
      { path: 'a.txt', change: 'changed', type: 'file', aspects: ['content', 'mtime'] },
      { path: 'abs-link', change: 'changed', type: 'dir', aspects: ['type'] },
      { path: 'link', change: 'changed', type: 'symlink', aspects: ['target'] },
      { path: 'new.txt', change: 'created', type: 'file' },
      { path: 'newdir', change: 'created', type: 'dir' },
      { path: 'src/b.sh', change: 'changed', type: 'file', aspects: ['mode'] },
      { path: 'src/sub/c', change: 'changed', type: 'file', aspects: ['mtime'] },
    ]);
  });

  it('reports deletions, and ignores directory modification times and reads', async () => {
    const before = await snapshotTree(dir);
    await readFile(join(dir, 'a.txt'));
    await rm(join(dir, 'src'), { recursive: true });
    expect(diffSnapshots(before, await snapshotTree(dir))).toEqual([
      { path: 'src', change: 'deleted', type: 'dir' },
      { path: 'src/b.sh', change: 'deleted', type: 'file' },
      { path: 'src/sub', change: 'deleted', type: 'dir' },
      { path: 'src/sub/c', change: 'deleted', type: 'file' },
    ]);
  });

  it('marks a snapshot over the limits as truncated instead of failing', async () => {
    const s = await snapshotTree(dir, { maxEntries: 2, maxBytes: 1e9 });
    expect(s.truncated).toBe(true);
    expect((await snapshotTree(dir)).truncated).toBe(false);
  });

  it('does not report as deleted what a truncated snapshot never reached', async () => {
    const before = await snapshotTree(dir);
    await writeFile(join(dir, 'a.txt'), 'changed\n');
    // Entries in walk order: a.txt, abs-link, link, src, then src's: the walk stops inside the root.
    const after = await snapshotTree(dir, { maxEntries: 2, maxBytes: 1e9 });
    expect(after.truncated).toBe(true);
    expect(diffSnapshots(before, after)).toEqual([{ path: 'a.txt', change: 'changed', type: 'file', aspects: ['content', 'mtime'] }]);
    // A directory listed completely still reports its deletions.
    await rm(join(dir, 'src/sub/c'));
    const whole = await snapshotTree(dir, { maxEntries: 100, maxBytes: 1e9 });
    expect(diffSnapshots(before, whole).filter((c) => c.change === 'deleted')).toEqual([{ path: 'src/sub/c', change: 'deleted', type: 'file' }]);
  });
});

/** A chain of directories whose full path is longer than Linux's PATH_MAX (4096 bytes), made with relative steps as a command would. */
async function deepChain(root: string): Promise<void> {
  const step = 'd'.repeat(200);
  await execa(process.execPath, ['-e', `const fs=require('fs');process.chdir(${JSON.stringify(root)});for(let i=0;i<30;i++){fs.mkdirSync(${JSON.stringify(step)});process.chdir(${JSON.stringify(step)})}fs.writeFileSync('f','x')`]);
}

describe('trees deeper than PATH_MAX', () => {
  it('are snapshotted as truncated instead of failing, and removed', async () => {
    const t = join(dir, 'deep');
    await mkdir(t);
    await deepChain(t);
    await expect(rm(t, { recursive: true })).rejects.toThrow(/ENAMETOOLONG/);
    const s = await snapshotTree(t);
    expect(s.truncated).toBe(true);
    expect(s.entries.size).toBeGreaterThan(10);
    await removeTree(t);
    await expect(stat(t)).rejects.toThrow(/ENOENT/);
  });
});

describe('removeTree', () => {
  it('removes a tree whose directories lost their permissions', async () => {
    const t = join(dir, 'locked');
    await mkdir(join(t, 'inner'), { recursive: true });
    await writeFile(join(t, 'inner/f'), 'x');
    await chmod(join(t, 'inner'), 0);
    await chmod(t, 0o500);
    await removeTree(t);
    await expect(stat(t)).rejects.toThrow(/ENOENT/);
  });
});
