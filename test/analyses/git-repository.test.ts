/**
 * git is read-only only where the repository's own config cannot name programs git runs, and a
 * bare repository in any parent is seen.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitConfigHazard, gitRepositoryHazard } from '../../src/analyses/git-repository.js';
import { LOCAL_PATH_HOST } from '../../src/cli/config-options.js';
import { Linter } from '../../src/lint.js';
import { verdictFor } from '../../src/verdict.js';

let root: string;
let linter: Linter;
const repo = (name: string, config: string): string => {
  const dir = join(root, name);
  mkdirSync(join(dir, '.git/objects'), { recursive: true });
  mkdirSync(join(dir, '.git/refs'), { recursive: true });
  writeFileSync(join(dir, '.git/HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(dir, '.git/config'), config);
  mkdirSync(join(dir, 'sub'), { recursive: true });
  return dir;
};

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'shellward-gitrepo-')));
  repo('plain', '[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = false\n');
  repo('fsmonitor', '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch /tmp/pwned"\n');
  repo('textconv', '[diff "x"]\n\ttextconv = sh -c id\n');
  repo('pager', '[pager]\n\tlog = sh\n');
  // A bare repository two levels above the cwd.
  const bare = join(root, 'bare');
  mkdirSync(join(bare, 'objects'), { recursive: true });
  mkdirSync(join(bare, 'refs'), { recursive: true });
  mkdirSync(join(bare, 'a/b'), { recursive: true });
  writeFileSync(join(bare, 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(bare, 'config'), '[core]\n\tbare = true\n');
  linter = await Linter.create({ pathHost: LOCAL_PATH_HOST });
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('gitConfigHazard', () => {
  it('names keys that run programs', () => {
    expect(gitConfigHazard('[core]\n  fsmonitor = x\n')).toBe('core.fsmonitor');
    expect(gitConfigHazard('[diff "bin"]\n  textconv = hexdump\n')).toBe('diff.bin.textconv');
    expect(gitConfigHazard('[include]\n  path = ../x\n')).toBe('include.path');
    expect(gitConfigHazard('[core] pager = less\n')).toBe('core.pager');
    expect(gitConfigHazard('[core]\n  fsmonitor = false\n  bare = false\n[remote "origin"]\n  url = x\n')).toBeUndefined();
  });
});

describe('git read-only under the repository config', () => {
  const check = (cwd: string, command: string, deny: string[] = []) => verdictFor(command, { cwd, permissions: { allow: [], deny, ask: [] } }, linter);
  it('a plain repository: git status is read-only', () => {
    expect(check(join(root, 'plain'), 'git status').decision).toBe('allow');
  });
  it.each(['fsmonitor', 'textconv', 'pager'])('a repository with %s in its config: git status/diff/log ask', (name) => {
    for (const c of ['git status', 'git diff', 'git log']) {
      expect(check(join(root, name), c).decision, c).toBe('ask');
      expect(check(join(root, name, 'sub'), c, ['Bash(rm:*)']).decision, c).toBe('ask');
    }
    expect(gitRepositoryHazard(join(root, name, 'sub'), LOCAL_PATH_HOST)).toContain('config sets');
  });
  it('a bare repository in a parent is seen', () => {
    expect(gitRepositoryHazard(join(root, 'bare/a/b'), LOCAL_PATH_HOST)).toContain('bare repository');
    expect(check(join(root, 'bare/a/b'), 'git status').decision).toBe('ask');
  });
});
