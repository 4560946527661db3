/**
 * The git index reader lists what `git ls-files` lists, for index versions 2, 3 (with an
 * extended entry) and 4, and refuses bytes that are not an index.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexPaths } from '../../src/analyses/git-index.js';
import { trackedProtectedFiles } from '../../src/analyses/git-tracked.js';
import { LOCAL_PATH_HOST } from '../../src/cli/config-options.js';

let root: string;
let dir: string;
const git = (...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd: dir,
    env: { ...process.env, HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    stdio: ['ignore', 'pipe', 'pipe'],
  }).toString();

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'shellward-index-')));
  dir = join(root, 'r');
  mkdirSync(join(dir, 'src/a/very/long/directory/name/for/prefix/compression'), { recursive: true });
  git('init', '-q');
  const files = ['README.md', 'Makefile', 'src/a/x.ts', 'src/a/y.ts', 'src/a/very/long/directory/name/for/prefix/compression/z.ts', 'src/é.ts', '.claude/settings.json'];
  for (const f of files) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), 'x\n');
  }
  git('add', '.');
  git('commit', '-qm', 'one');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const listed = (): string[] => git('-c', 'core.quotePath=false', 'ls-files').trim().split('\n');
const read = (): Uint8Array => readFileSync(join(dir, '.git/index'));

describe('indexPaths', () => {
  it.each(['2', '3', '4'])('lists what git ls-files lists in index version %s', (version) => {
    git('update-index', '--index-version', version);
    if (version === '3') {
      writeFileSync(join(dir, 'new.ts'), 'n\n');
      git('add', '-N', 'new.ts');
    }
    expect(indexPaths(read())).toEqual(listed());
  });

  it('refuses bytes that are not an index, and a truncated one', () => {
    expect(indexPaths(new TextEncoder().encode('not an index at all'))).toBeUndefined();
    const bytes = read();
    expect(indexPaths(bytes.subarray(0, 40))).toBeUndefined();
    const bad = Uint8Array.from(bytes);
    bad[7] = 9;
    expect(indexPaths(bad)).toBeUndefined();
  });
});

describe('trackedProtectedFiles', () => {
  it('names the protected files the repository of a directory tracks', () => {
    const t = trackedProtectedFiles(join(dir, 'src/a'), LOCAL_PATH_HOST);
    expect(t).toEqual({ kind: 'known', top: dir, files: ['.claude/settings.json', 'Makefile'] });
  });

  it('no repository, and a host without the file system', () => {
    expect(trackedProtectedFiles(root, LOCAL_PATH_HOST).kind).toBe('none');
    expect(trackedProtectedFiles(dir, { home: '/h' }).kind).toBe('unknown');
  });
});
