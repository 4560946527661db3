/**
 * Fourth attack review, globs and git: a glob whose expansion can begin with `-` (however the
 * `-` is quoted: `\-*`, `'-'*`, `"-"*`, `[-]*`) may expand to option words — a repository can
 * ship files named `--compress-program=sh`, `-delete`, `-Osh`, `--output=.bashrc` — so it is
 * never judged a harmless operand. Each command is checked with no rules, with a deny rule
 * `Bash(rm:*)`, and with allow-all `Bash` beside it, and under the program's own prefix rule.
 */
import { describe, expect, it } from 'vitest';
import { bypassHarness } from './bypass-harness.js';

const { check, neverAllowed } = bypassHarness();

describe('a glob whose expansion can begin with `-` may be an option word', () => {
  const DASH_GLOBS = ['\\-*', "'-'*", '"-"*', '[-]*', '\\-?', '\\-[a-z]*', '""*', '?*', '\\--*'];
  const COMMANDS = ['sort G', 'sort a.txt G', 'git grep G', 'find . G', 'git diff G', 'grep x G', 'grep -r x . G', 'rg x G', 'tree G', 'du G', 'wc G', 'file G', 'git log G', 'diff G'];
  const cases = COMMANDS.flatMap((c) => DASH_GLOBS.map((g) => c.replace('G', g)));
  it.each(cases)('%s is not allowed with no rules', (command) => {
    expect(check(command).decision, command).not.toBe('allow');
    expect(check(command, [], ['Bash(rm:*)']).decision, command).not.toBe('allow');
  });

  it.each([
    ['find . \\-*', 'Bash(find:*)'],
    ['sort \\-*', 'Bash(sort:*)'],
    ['git diff \\-*', 'Bash(git diff:*)'],
    ['git grep \\-*', 'Bash(git grep:*)'],
    ['npm test \\-*', 'Bash(npm test:*)'],
    ['rg x \\-*', 'Bash(rg:*)'],
  ])('%s is not allowed by the prefix rule %s', (command, rule) => {
    expect(check(command, [rule], ['Bash(rm:*)']).decision, command).not.toBe('allow');
  });

  it.each(['find . \\-*', 'sort \\-*', 'git grep \\-*', 'git diff \\-*'])('%s is not allowed beside a deny rule', (command) => neverAllowed(command));

  it('an escaped glob character is plain text, and `--` ends the options', () => {
    expect(check('echo \\-\\*').decision).toBe('allow');
    expect(check('cat \\*.txt').decision).toBe('allow');
    expect(check('sort -- \\-*').decision).toBe('allow');
    expect(check('ls \\-*').decision).toBe('allow');
    expect(check('grep x -- \\-*').decision).toBe('allow');
  });
});

describe('git: subcommands and spellings that run code or push', () => {
  const PUSH_DENY = ['Bash(rm:*)', 'Bash(git push:*)'];

  it.each([
    "git filter-branch -f --tree-filter 'rm victim' HEAD",
    "git filter-branch -f --msg-filter 'rm victim' HEAD",
    "git filter-branch --env-filter 'rm victim' HEAD",
    "git filter-branch --commit-filter 'rm victim' HEAD",
    "git filter-branch --index-filter 'rm victim' HEAD",
    'git difftool',
    'git mergetool',
    'git instaweb',
    "git ls-remote --exec='rm victim; git-upload-pack' .",
    "git ls-remote --exe='rm victim; git-upload-pack' .",
    "git fetch-pack --upload-pack='rm victim; git-upload-pack' . HEAD",
    "git fetch-pack --exec='rm victim; git-upload-pack' . HEAD",
    "git send-pack --receive-pack='rm victim' . HEAD",
    "git send-pack --exec='rm victim; git-receive-pack' . HEAD",
    "/usr/lib/git-core/git-filter-branch --tree-filter 'rm victim' HEAD",
    "/usr/lib/git-core/git-fetch-pack --exec='rm victim' . HEAD",
    "npm exec -- rimraf victim",
  ])('%s is not allowed beside a deny rule', (command) => neverAllowed(command));

  it.each([
    ["git filter-branch --tree-filter 'rm victim' HEAD", 'Bash(git filter-branch:*)'],
    ["git filter-branch --tree-filter 'rm victim' HEAD", 'Bash(git:*)'],
    ["git send-pack --receive-pack='rm victim' . HEAD", 'Bash(git send-pack:*)'],
  ])('%s is not allowed by the prefix rule %s', (command, rule) => {
    expect(check(command, [rule], ['Bash(rm:*)']).decision, command).not.toBe('allow');
  });

  it.each([
    'git send-pack origin HEAD:refs/heads/main',
    'git send-pack --force /tmp/remote.git HEAD:refs/heads/main',
    'git -C . send-pack origin main',
    'git subtree push --prefix=src origin main',
    'git subtree -P src push origin main',
    'git http-push https://example.invalid/x main',
    '/usr/lib/git-core/git-push origin main',
    '/usr/lib/git-core/git-send-pack origin HEAD:refs/heads/main',
    'git-push origin main',
  ])('%s is denied by `Bash(git push:*)`', (command) => {
    expect(check(command, ['Bash'], PUSH_DENY).decision, command).toBe('deny');
    expect(check(command, [], PUSH_DENY).decision, command).toBe('deny');
  });

  it('keeps what the rules cover: the project own code under allow-all, other git commands', () => {
    for (const command of ['npm run build', 'npm install', 'go run .', 'git status', 'git subtree split -P src', 'git fetch origin', 'git log --oneline']) {
      expect(check(command, ['Bash'], PUSH_DENY).decision, command).toBe('allow');
    }
    expect(check('git filter-branch --tree-filter true HEAD', ['Bash'], []).decision).toBe('allow');
    expect(check('/usr/lib/git-core/git-status', ['Bash'], PUSH_DENY).decision).toBe('allow');
  });
});

describe("other agents' and editors' settings that run commands are protected like .claude/", () => {
  const FILES = ['.gemini/settings.json', '.codex/hooks.json', '.codex/config.toml', '.cursor/mcp.json', '.devcontainer/devcontainer.json', '.devcontainer.json', '.zed/settings.json', '.continue/config.json', '.windsurf/mcp.json', '.amazonq/mcp.json', '.roo/mcp.json', 'opencode.json', '.aider.conf.yml', '.gemini/extensions/x/gemini-extension.json'];
  it.each(FILES)('writing %s asks in acceptEdits and under allow-all', (file) => {
    for (const command of [`cp a.txt ${file}`, `sed -i 's/shellward hook/true/' ${file}`, `rm ${file}`]) {
      expect(check(command, [], [], 'acceptEdits').decision, command).not.toBe('allow');
      expect(check(command, ['Bash'], ['Bash(rm:*)']).decision, command).not.toBe('allow');
    }
  });
  it('removing the whole directory asks too', () => {
    for (const command of ['rm -rf .gemini', 'rm -rf .codex', 'mv .codex old']) expect(check(command, [], [], 'acceptEdits').decision, command).not.toBe('allow');
  });
  it('reading them stays allowed', () => {
    expect(check('cat .gemini/settings.json').decision).toBe('allow');
  });
});

describe("npm's -C is --prefix", () => {
  it.each(['npm test -C /tmp/other', 'npm test -C/tmp/other', 'npm run build -C ../other', 'npm test --logs-dir=/tmp/l', 'npm test --prefix /tmp/other'])('%s is not allowed by `Bash(npm test:*)` or `Bash(npm run:*)`', (command) => {
    expect(check(command, ['Bash(npm test:*)', 'Bash(npm run:*)'], ['Bash(rm:*)']).decision, command).not.toBe('allow');
  });
  it('inside the project it still passes', () => {
    expect(check('npm test -C sub', ['Bash(npm test:*)'], ['Bash(rm:*)']).decision).toBe('allow');
  });
});

describe('options that follow symbolic links while walking a tree may read outside', () => {
  it.each(['grep -R root .', 'grep --dereference-recursive root .', 'grep -Rn root .', 'find -L . -name passwd', 'find . -follow -name shadow', 'find -H . -name x', 'du -aL', 'du -L .', 'rg -L root', 'rg --follow root', 'diff -r a b', 'diff -ru a b'])('%s is not auto-allowed', (command) => {
    expect(check(command).decision, command).not.toBe('allow');
    expect(check(command, [], ['Bash(rm:*)']).decision, command).not.toBe('allow');
    expect(check(command, ['Bash'], ['Bash(rm:*)']).decision, command).not.toBe('allow');
  });
  it('walking without following links stays read-only', () => {
    for (const command of ['grep -r root .', 'find . -name x', 'du -a', 'rg root', 'diff a b']) expect(check(command).decision, command).toBe('allow');
  });
});
