/**
 * git is read-only only where the repository's own config cannot name programs git runs, and a
 * bare repository in any parent is seen.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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
  buildGitRepos();
  linter = await Linter.create({ pathHost: LOCAL_PATH_HOST });
});

/** Runs git in `cwd` with a fake HOME and no system config, so the user's own config plays no part. */
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', '-c', 'protocol.file.allow=always', ...args], {
    cwd,
    env: { ...process.env, HOME: join(root, 'home'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    stdio: ['ignore', 'pipe', 'pipe'],
  }).toString();

/** A repository made by `git init` with one commit, at `root/name`. */
const gitRepo = (name: string): string => {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'hi\n');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-qm', 'one');
  return dir;
};

function buildGitRepos(): void {
  mkdirSync(join(root, 'home'), { recursive: true });
  mkdirSync(join(root, 'outside'), { recursive: true });
  // Per-worktree config of the main worktree.
  const wt = gitRepo('wtconfig');
  git(wt, 'config', 'core.repositoryformatversion', '1');
  git(wt, 'config', 'extensions.worktreeConfig', 'true');
  writeFileSync(join(wt, '.git/config.worktree'), '[core]\n\tfsmonitor = "touch PWN; false"\n');
  // A linked worktree with a per-worktree config of its own; and a plain linked worktree.
  const main = gitRepo('mainrepo');
  git(main, 'worktree', 'add', '-q', join(root, 'linked'));
  git(main, 'worktree', 'add', '-q', join(root, 'linkedplain'));
  git(main, 'config', 'extensions.worktreeConfig', 'true');
  writeFileSync(join(main, '.git/worktrees/linked/config.worktree'), '[core]\n\tfsmonitor = "touch PWN; false"\n');
  // `commondir` inside a `.git` directory: git reads the config there.
  const cd = gitRepo('commondir');
  mkdirSync(join(cd, '.git/cdir'));
  for (const x of ['objects', 'refs']) mkdirSync(join(cd, '.git/cdir', x));
  writeFileSync(join(cd, '.git/cdir/HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(cd, '.git/cdir/config'), '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch PWN; false"\n');
  writeFileSync(join(cd, '.git/commondir'), 'cdir\n');
  // Remote keys.
  const up = gitRepo('uploadpack');
  git(up, 'config', 'remote.origin.url', join(root, 'mainrepo'));
  git(up, 'config', 'remote.origin.uploadpack', 'touch PWN; git-upload-pack');
  const ext = gitRepo('exturl');
  git(ext, 'config', 'protocol.ext.allow', 'always');
  const ext2 = gitRepo('exturl2');
  git(ext2, 'config', 'remote.origin.url', 'ext::sh -c touch% PWN');
  const io = gitRepo('insteadof');
  git(io, 'config', 'remote.origin.url', 'https://example.invalid/x');
  git(io, 'config', 'url.ext::sh -c touch% PWN.insteadOf', 'https://example.invalid/x');
  const cw = gitRepo('coreworktree');
  git(cw, 'config', 'core.worktree', join(root, 'outside'));
  const plainRemote = gitRepo('plainremote');
  git(plainRemote, 'config', 'remote.origin.url', 'https://example.invalid/x.git');
  git(plainRemote, 'config', 'url.git@example.invalid:.insteadOf', 'https://example.invalid/');
  // A submodule: its git directory is .git/modules/s, with core.worktree pointing back at it.
  gitRepo('subsrc');
  const sup = gitRepo('super');
  git(sup, 'submodule', '-q', 'add', join(root, 'subsrc'), 's');
  // A submodule whose own config names a program: git status runs git in it.
  const supm = gitRepo('supermod');
  git(supm, 'submodule', '-q', 'add', join(root, 'subsrc'), 's');
  git(supm, 'config', '-f', '.git/modules/s/config', 'core.fsmonitor', 'touch PWN; false');
  // A config over the 64 KiB the host reads: not known to be inert.
  const big = gitRepo('bigconfig');
  writeFileSync(join(big, '.git/config'), `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch PWN; false"\n${'# padding ..................................................\n'.repeat(1200)}`);
  // A repository that ships an embedded "bare" repository whose objects and refs are executable files.
  const emb = gitRepo('embedded');
  mkdirSync(join(emb, 'evil'));
  writeFileSync(join(emb, 'evil/HEAD'), 'ref: refs/heads/main\n');
  for (const x of ['objects', 'refs']) {
    writeFileSync(join(emb, 'evil', x), '#!/bin/sh\n');
    chmodSync(join(emb, 'evil', x), 0o755);
  }
  writeFileSync(join(emb, 'evil/config'), '[core]\n\tbare = false\n\tworktree = ..\n\tfsmonitor = "touch PWN; false"\n');
  // An empty `.git` directory below a bare repository: git skips it and finds the bare one.
  mkdirSync(join(root, 'bare/a/.git'), { recursive: true });
}
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
  it('names the remote and transport keys git ls-remote and git remote show use', () => {
    expect(gitConfigHazard('[remote "origin"]\n  url = /x\n  uploadpack = touch p; git-upload-pack\n')).toBe('remote.origin.uploadpack');
    expect(gitConfigHazard('[remote "o"]\n  receivepack = x\n')).toBe('remote.o.receivepack');
    expect(gitConfigHazard('[remote "o"]\n  url = "ext::sh -c touch% p"\n')).toBe('remote.o.url');
    expect(gitConfigHazard('[remote "o"]\n  pushurl = ext::sh\n')).toBe('remote.o.pushurl');
    expect(gitConfigHazard('[remote "o"]\n  url = -oProxyCommand=x\n')).toBe('remote.o.url');
    expect(gitConfigHazard('[url "ext::sh -c touch% p"]\n  insteadOf = https://x/\n')).toBe('url.ext::sh -c touch% p.insteadof');
    expect(gitConfigHazard('[url "fd::0"]\n  pushInsteadOf = https://x/\n')).toBe('url.fd::0.pushinsteadof');
    expect(gitConfigHazard('[protocol "ext"]\n  allow = always\n')).toBe('protocol.ext.allow');
    expect(gitConfigHazard('[protocol]\n  allow = always\n')).toBe('protocol.allow');
    expect(gitConfigHazard('[remote "o"]\n  vcs = x\n')).toBe('remote.o.vcs');
  });
  it('names the other keys git-config(1) documents as programs or files git reads', () => {
    const keys: [string, string][] = [
      ['[core]\n editor = x\n', 'core.editor'],
      ['[core]\n sshCommand = x\n', 'core.sshcommand'],
      ['[credential]\n helper = x\n', 'credential.helper'],
      ['[credential "https://x"]\n helper = x\n', 'credential.https://x.helper'],
      ['[gpg]\n program = x\n', 'gpg.program'],
      ['[gpg "ssh"]\n program = x\n', 'gpg.ssh.program'],
      ['[sequence]\n editor = x\n', 'sequence.editor'],
      ['[diff "x"]\n command = x\n', 'diff.x.command'],
      ['[merge "x"]\n driver = x\n', 'merge.x.driver'],
      ['[filter "x"]\n process = x\n', 'filter.x.process'],
      ['[includeIf "gitdir:/x"]\n path = /x\n', 'includeif.gitdir:/x.path'],
      ['[tar "tgz"]\n command = x\n', 'tar.tgz.command'],
      ['[mailmap]\n file = /etc/x\n', 'mailmap.file'],
      ['[blame]\n ignoreRevsFile = ../../x\n', 'blame.ignorerevsfile'],
      ['[difftool "x"]\n cmd = x\n', 'difftool.x.cmd'],
      ['[submodule "x"]\n update = !x\n', 'submodule.x.update'],
      ['[pager]\n log = x\n', 'pager.log'],
    ];
    for (const [text, key] of keys) expect(gitConfigHazard(text), text).toBe(key);
    // The old `[section.sub]` header form names the subsection.
    expect(gitConfigHazard('[remote.origin]\n uploadpack = x\n')).toBe('remote.origin.uploadpack');
  });
  it('plain remotes and a plain insteadOf are no hazard', () => {
    expect(gitConfigHazard('[remote "origin"]\n  url = https://github.com/x/y.git\n  pushurl = git@github.com:x/y.git\n  fetch = +refs/heads/*:refs/remotes/origin/*\n')).toBeUndefined();
    expect(gitConfigHazard('[url "git@github.com:"]\n  insteadOf = https://github.com/\n')).toBeUndefined();
    expect(gitConfigHazard('[remote "o"]\n  url = ../other\n')).toBeUndefined();
    // husky's hooks path, a blame ignore file in the repository, the file protocol allowed: no program runs for read-only git.
    expect(gitConfigHazard('[core]\n  hooksPath = .husky/_\n[blame]\n  ignoreRevsFile = .git-blame-ignore-revs\n[protocol "file"]\n  allow = always\n')).toBeUndefined();
    expect(gitConfigHazard('[protocol "ext"]\n  allow = never\n')).toBeUndefined();
    expect(gitConfigHazard('[submodule "x"]\n  update = rebase\n')).toBeUndefined();
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
  it.each([
    ['wtconfig', "config.worktree"],
    ['linked', "config.worktree"],
    ['commondir', "config sets"],
    ['uploadpack', 'remote.origin.uploadpack'],
    ['exturl', 'protocol.ext.allow'],
    ['exturl2', 'remote.origin.url'],
    ['insteadof', 'insteadof'],
    ['coreworktree', 'core.worktree'],
    ['supermod', 'submodule s'],
    ['bigconfig', 'cannot be read in full'],
  ])('a repository made with git, %s: read-only git asks', (name, phrase) => {
    const dir = join(root, name);
    expect(gitRepositoryHazard(dir, LOCAL_PATH_HOST)).toContain(phrase);
    for (const c of ['git status', 'git log', 'git ls-remote origin', 'git remote show origin']) {
      expect(check(dir, c).decision, c).toBe('ask');
      expect(check(dir, c, ['Bash(rm:*)']).decision, c).toBe('ask');
    }
  });
  it.each(['mainrepo', 'linkedplain', 'plainremote', 'super', 'super/s'])('a plain repository made with git, %s: git status is read-only', (name) => {
    expect(gitRepositoryHazard(join(root, name), LOCAL_PATH_HOST)).toBeUndefined();
    expect(check(join(root, name), 'git status').decision).toBe('allow');
  });
  it('an embedded bare repository whose objects and refs are executable files is seen', () => {
    expect(gitRepositoryHazard(join(root, 'embedded/evil'), LOCAL_PATH_HOST)).toContain('bare repository');
    expect(check(join(root, 'embedded/evil'), 'git status').decision).toBe('ask');
    expect(check(join(root, 'embedded'), 'git status').decision).toBe('allow');
  });
  it('a .git directory that is not a git directory is skipped, as git skips it', () => {
    expect(gitRepositoryHazard(join(root, 'bare/a'), LOCAL_PATH_HOST)).toContain('bare repository');
  });
  it('a bare repository in a parent is seen', () => {
    expect(gitRepositoryHazard(join(root, 'bare/a/b'), LOCAL_PATH_HOST)).toContain('bare repository');
    expect(check(join(root, 'bare/a/b'), 'git status').decision).toBe('ask');
  });
});
