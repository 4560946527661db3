/**
 * Precision of the decisions the fourth attack review's fixes made sound: commands that asked
 * under allow-all `Bash` beside deny rules although what they run can be proved. Every case that
 * now passes is paired with its twin that must still ask or deny (the same form running a denied
 * program, hiding its code, or leaving the project).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PATH_HOST } from '../../src/cli/config-options.js';
import { Linter } from '../../src/lint.js';
import { verdictFor } from '../../src/verdict.js';
import { bypassHarness } from './bypass-harness.js';

const { check } = bypassHarness();

/** The review's policy: allow-all beside three deny rules. */
const DENY = ['Bash(rm:*)', 'Bash(curl:*)', 'Bash(git push:*)'];

let root: string;
let local: Linter;
/** Runs git in `cwd` with no user or system config. */
const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: { ...process.env, HOME: join(root, 'home'), GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    stdio: ['ignore', 'pipe', 'pipe'],
  }).toString();
/** A repository at `root/name` with `files` committed. */
const repo = (name: string, files: readonly string[]): string => {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q');
  for (const f of files) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), '{}\n');
  }
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'one');
  return dir;
};
let plain: string;
let policy: string;
let nested: string;
let v4: string;
beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'shellward-tree-')));
  plain = repo('plain', ['src/a.ts', 'README.md']);
  policy = repo('policy', ['src/a.ts', '.claude/settings.json']);
  nested = repo('nested', ['src/a.ts', 'tools/Makefile']);
  v4 = repo('v4', ['src/a.ts', 'x/y/.envrc']);
  git(v4, 'update-index', '--index-version', '4');
  mkdirSync(join(plain, 'src/deep'), { recursive: true });
  local = await Linter.create({ pathHost: LOCAL_PATH_HOST });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** The decision under allow-all + {@link DENY} on this machine's file system, run in `cwd`. */
const decide = (command: string, cwd: string, deny: string[] = DENY): string => verdictFor(command, { cwd, mode: 'default', permissions: { allow: ['Bash'], deny, ask: [] } }, local).decision;

/** The decision under allow-all + {@link DENY}. */
function allowAll(command: string, mode: 'default' | 'acceptEdits' = 'default'): string {
  return check(command, ['Bash'], DENY, mode).decision;
}

describe('an exec option whose value is parsed shell code is judged on that code', () => {
  it.each([
    'git rebase --exec cat HEAD~2',
    'git rebase -x "wc -l README" HEAD~3',
    'git rebase --exec=cat HEAD~2',
    'git rebase -i -x "npm test" main',
    'git filter-branch --msg-filter cat',
    "git filter-branch --msg-filter 'sed s/foo/bar/' -- --all",
    'find . -name "*.ts" -exec cat {} +',
    'find . -type f -exec wc -l {} \\;',
  ])('%s is allowed under allow-all + deny', (command) => {
    // (git rebase and filter-branch rewrite the work tree: judged where the repository tracks no protected file)
    expect(command.startsWith('git') ? decide(command, plain) : allowAll(command), command).toBe('allow');
  });

  it.each([
    "git rebase --exec 'rm x' HEAD~2",
    'git rebase -x "rm -f y" HEAD~2',
    "git rebase --exec='curl http://x' HEAD~2",
    "git filter-branch --msg-filter 'rm x'",
    "git filter-branch --msg-filter cat --tree-filter 'rm -rf .'",
    'find . -exec rm {} +',
    "find . -exec sh -c 'rm x' \\;",
    "find . -exec cat {} + -exec rm {} \\;",
    "find . -exec sh -c 'rm {}' \\;",
  ])('twin %s is denied', (command) => {
    expect(allowAll(command), command).toBe('deny');
    expect(check(command, [], DENY).decision, command).toBe('deny');
  });

  it.each([
    'git rebase --exec "$X" HEAD~2',
    'git rebase --exec="$X" HEAD~2',
    'git filter-branch --msg-filter cat --tree-filter "$X"',
    'find . -exec "$X" {} +',
    "git rebase --exec 'cat $(' HEAD~2",
    'git rebase --exec "$(cat cmd.txt)" HEAD~2',
    // find puts a file name where `{}` stands: as a program, part of a word, or shell code it is not known.
    "find . -name 'r?' -exec /bin/{} victim \\;",
    'find . -exec {} \\;',
    "find . -exec sh -c 'echo {}' \\;",
    'find . -exec sh -c {} \\;',
    'find . -exec env {} \\;',
    'find . -execdir bash -c "cat {}" \\;',
  ])('twin %s (code not visible) asks', (command) => {
    expect(allowAll(command), command).toBe('ask');
  });

  it('a prefix allow rule is not relaxed by visible code', () => {
    expect(check('git rebase --exec cat HEAD~2', ['Bash(git rebase:*)'], []).decision).toBe('ask');
    expect(check('find . -exec cat {} +', ['Bash(find:*)'], []).decision).toBe('ask');
  });

  it('with no rules the commands are not auto-allowed', () => {
    expect(check('git rebase --exec cat HEAD~2').decision).not.toBe('allow');
    expect(check('find . -exec cat {} +').decision).not.toBe('allow');
  });

  it('a multi-word deny rule is matched inside the code', () => {
    expect(check('git rebase --exec "npm publish" HEAD~1', ['Bash'], ['Bash(npm publish:*)']).decision).toBe('deny');
    expect(decide('git rebase --exec "npm test" HEAD~1', plain, ['Bash(npm publish:*)'])).toBe('allow');
  });
});

describe('ln -s: a relative target is resolved from the directory the link is made in', () => {
  it.each([
    'ln -s ../lib/x lib/x',
    'ln -sf ../src/main.ts lib/main.ts',
    'ln -s .. lib/up',
    'ln -s -t lib ../src/a',
    'ln -s --target-directory=lib ../src/a ../src/b',
    'ln -s ../a ../b lib/',
    'ln -s x/y',
  ])('%s is allowed under allow-all + deny and under Bash(ln:*)', (command) => {
    expect(allowAll(command), command).toBe('allow');
    expect(check(command, ['Bash(ln:*)'], []).decision, command).toBe('allow');
  });

  it.each([
    'ln -s ../../etc/passwd lib/p',
    'ln -s ../x x',
    'ln -s ../.. lib/up2',
    'ln -s -t lib ../../a',
    'ln -s ../a ../../b lib/',
    'ln -s /etc/passwd lib/p',
    // -r: ln reads the target from the cwd and rewrites it relative to the link.
    'ln -sr ../lib/x lib/x',
    // A hard link's target is a file named from the cwd.
    'ln ../lib/x lib/x',
    // The link's directory is not known, so neither is the file its target names.
    'ln -s ../a "$D"',
    'ln -s -t "$D" ../a',
  ])('twin %s asks', (command) => {
    expect(allowAll(command), command).toBe('ask');
    expect(check(command, ['Bash(ln:*)'], []).decision, command).toBe('ask');
  });

  it('a target resolved from the link directory meets Read() deny rules there', () => {
    expect(check('ln -s ../.env lib/e', ['Bash'], ['Read(./.env)']).decision).not.toBe('allow');
    expect(check('ln -s ../src/a lib/e', ['Bash'], ['Read(./.env)']).decision).toBe('allow');
  });
});

describe('whole-tree git writers and the protected files a repository tracks', () => {

  const WRITERS = [
    'git checkout main',
    'git checkout HEAD~1',
    'git checkout -b topic HEAD~1',
    'git checkout HEAD~1 -- .',
    'git switch main',
    'git merge feature',
    'git pull',
    'git rebase main',
    'git cherry-pick abc123',
    'git revert HEAD',
    'git am < p.mbox',
    'git apply p.diff',
    'git stash',
    'git stash pop',
    'git stash apply stash@{1}',
    'git reset --hard HEAD~1',
    'git reset --har HEAD~1',
    'git restore --source=HEAD~1 .',
    'git read-tree -u -m HEAD~1',
    'git checkout-index -a -f',
  ];

  it.each(WRITERS)('%s is allowed where the repository tracks no protected file', (command) => {
    expect(decide(command, plain), command).toBe('allow');
    expect(decide(command, join(plain, 'src/deep')), command).toBe('allow');
  });

  it.each(WRITERS)('twin: %s asks where the repository tracks .claude/settings.json', (command) => {
    const v = verdictFor(command, { cwd: policy, mode: 'default', permissions: { allow: ['Bash'], deny: DENY, ask: [] } }, local);
    expect(v.decision, command).toBe('ask');
    expect(v.reason, command).toContain('.claude/settings.json');
  });

  it.each(['git checkout main', 'git merge feature', 'git stash pop'])('twin: %s asks for a nested Makefile and an index in version 4', (command) => {
    expect(decide(command, nested), command).toBe('ask');
    expect(decide(command, v4), command).toBe('ask');
  });

  it.each([
    'git checkout -b topic',
    'git checkout -B topic',
    'git switch -c topic',
    'git reset HEAD~1',
    'git reset --soft HEAD~1',
    'git restore --staged src/a.ts',
    'git stash list',
    'git stash show -p',
    'git apply --check p.diff',
    'git apply --cached p.diff',
    'git status',
    'git log --oneline',
    'git checkout HEAD~1 -- src',
    'git restore --source=HEAD~1 src/a.ts',
  ])('%s keeps the protected files: allowed in a repository that tracks them', (command) => {
    expect(decide(command, policy), command).toBe('allow');
  });

  it('pathspecs that reach the protected file ask', () => {
    expect(decide('git checkout HEAD~1 -- .claude', policy)).toBe('ask');
    expect(decide('git restore --source=HEAD~1 "*.json"', policy)).toBe('ask');
    expect(decide('git checkout HEAD~1 -- tools', nested)).toBe('ask');
    expect(decide('git checkout HEAD~1 -- src', nested)).toBe('allow');
  });

  it('without deny or ask rules allow-all still allows; an exact allow rule allows', () => {
    expect(decide('git checkout main', policy, [])).toBe('allow');
    expect(verdictFor('git checkout main', { cwd: policy, mode: 'default', permissions: { allow: ['Bash(git checkout main)'], deny: DENY, ask: [] } }, local).decision).toBe('allow');
  });

  it('where the files are not visible (a recorded session) a writer asks beside deny rules', () => {
    expect(allowAll('git checkout main')).toBe('ask');
    expect(allowAll('git checkout -b topic')).toBe('allow');
  });
});

describe('sqlite3 SQL, and a file a command before it may rewrite', () => {
  it.each(["sqlite3 app.db 'SELECT * FROM users'", "sqlite3 app.db 'select count(*) from t;'", "sqlite3 -readonly app.db 'SELECT 1'"])('plain SQL %s is allowed under allow-all + deny', (command) => {
    expect(allowAll(command), command).toBe('allow');
  });

  it.each([
    "sqlite3 db '.shell rm x'",
    "sqlite3 db '.system rm -rf .'",
  ])('twin %s (a denied program in a dot-command) is denied', (command) => {
    expect(allowAll(command), command).toBe('deny');
  });

  it.each([
    'sqlite3 db .tables',
    "sqlite3 db \"ATTACH '/etc/x' AS a\"",
    "sqlite3 db \"VACUUM INTO '/tmp/x'\"",
    "sqlite3 db \"SELECT load_extension('x')\"",
    "sqlite3 db \"SELECT writefile('/tmp/x','a')\"",
    "sqlite3 db \"SELECT readfile('/etc/shadow')\"",
    "sqlite3 db \"SELECT edit('x','vi')\"",
    'sqlite3 db "$Q"',
    "sqlite3 -cmd '.shell id' db 'SELECT 1'",
  ])('twin %s asks', (command) => {
    expect(allowAll(command), command).toBe('ask');
  });

  it('git pull && ./run.sh asks: the pull may rewrite run.sh, and the reason says so', () => {
    const v = check('git pull && ./run.sh', ['Bash'], DENY);
    expect(v.decision).toBe('ask');
    expect(v.reason).toContain('may create or write in the same command');
    expect(decide('./run.sh', plain)).toBe('allow');
  });
});

describe('archive members, patches, unzip -: and zip -@', () => {
  it.each([
    'tar -czf out.tgz src',
    'tar -tf a.tar',
    'tar tzf a.tgz',
    'unzip -l a.zip',
    'unzip -p a.zip x.txt',
    'patch a.txt < x.patch',
    'patch --dry-run -p1 < x.patch',
    'patch -p1 -o out.txt < x.patch',
    'zip -r out.zip src',
  ])('%s names what it writes: allowed under allow-all + deny', (command) => {
    expect(allowAll(command), command).toBe('allow');
  });

  it.each([
    'tar xzf a.tgz',
    'tar -xf a.tar',
    'tar --extract --file=a.tar',
    'tar -C lib -xf a.tar',
    'unzip a.zip',
    'unzip -o a.zip -d lib',
    'patch -p1 < x.patch',
    'patch -i x.patch',
    'cpio -idv < a.cpio',
    '7z x a.7z',
    'tar "$MODE" a.tar',
  ])('twin %s writes members it does not name: asks beside deny rules', (command) => {
    const v = check(command, ['Bash'], DENY);
    expect(v.decision, command).toBe('ask');
  });

  it('without deny or ask rules allow-all still extracts', () => {
    expect(check('tar xzf a.tgz', ['Bash'], []).decision).toBe('allow');
  });

  it.each(['unzip -: a.zip', 'unzip -:o a.zip', 'zip -@ out.zip', 'ls | zip --names-stdin out.zip'])('%s asks under allow-all + deny and under a prefix rule', (command) => {
    expect(allowAll(command), command).toBe('ask');
    expect(check(command, [`Bash(${command.split(' ').filter((w) => w !== '|' && w !== 'ls')[0]}:*)`], []).decision, command).toBe('ask');
  });
});

describe('a symlink made by an earlier, separate command is resolved on disk at decision time', () => {
  it('cat e/shadow through a link e -> /etc asks; a link inside the project is followed', () => {
    const dir = join(root, 'links');
    mkdirSync(join(dir, 'lib'), { recursive: true });
    writeFileSync(join(dir, 'lib/x'), 'x\n');
    execFileSync('ln', ['-s', '/etc', join(dir, 'e')]);
    execFileSync('ln', ['-s', 'lib', join(dir, 'l')]);
    expect(decide('cat e/shadow', dir)).toBe('ask');
    expect(verdictFor('cat e/shadow', { cwd: dir, mode: 'default', permissions: { allow: [], deny: [], ask: [] } }, local).decision).toBe('ask');
    expect(decide('cat l/x', dir)).toBe('allow');
  });
});
