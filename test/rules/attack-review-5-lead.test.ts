/**
 * Fifth attack review, the lead's share: project files that make a build tool, a version-control
 * system, a task runner or a CI system run a program later are protected like the Makefile and
 * `.github/` (never written without approval, in acceptEdits mode too, nor under allow-all beside
 * a deny rule); reading them stays allowed.
 */
import { describe, expect, it } from 'vitest';
import { bypassHarness } from './bypass-harness.js';

const { check } = bypassHarness();

describe('build, VCS, task-runner and CI configs that name programs are protected', () => {
  const FILES = ['.cargo/config.toml', '.cargo/config', '.hg/hgrc', '.jj/repo/config.toml', '.sl/config', 'justfile', 'Justfile', '.justfile', 'Taskfile.yml', 'taskfile.yaml', 'mise.toml', '.mise.toml', '.gitlab-ci.yml', '.gitlab/ci/build.yml', '.circleci/config.yml', '.buildkite/pipeline.yml', '.travis.yml', '.cirrus.yml', 'bitbucket-pipelines.yml', 'azure-pipelines.yml', 'Jenkinsfile', 'sub/.cargo/config.toml'];
  it.each(FILES)('writing %s is not auto-allowed', (file) => {
    for (const command of [`cp a.txt ${file}`, `sed -i 's/a/b/' ${file}`, `mv a.txt ${file}`, `rm ${file}`]) {
      expect(check(command, [], [], 'acceptEdits').decision, command).not.toBe('allow');
      expect(check(command, ['Bash'], ['Bash(rm:*)']).decision, command).not.toBe('allow');
    }
  });
  it('reading them, and writing ordinary files beside them, stays allowed', () => {
    expect(check('cat .cargo/config.toml').decision).toBe('allow');
    expect(check('cat justfile .gitlab-ci.yml').decision).toBe('allow');
    expect(check('cp a.txt b.txt', [], [], 'acceptEdits').decision).toBe('allow');
    expect(check('cp a.txt src/just.txt', [], [], 'acceptEdits').decision).toBe('allow');
  });
});

describe('reads named in option values, name lists and scripts are path facts under allow rules', () => {
  const ALL = ['Bash'];
  const DENY = ['Bash(rm:*)'];
  it.each([
    'tar -cf x.tar --add-file=/etc/passwd',
    'tar -cf x.tar --add-file /etc/passwd',
    'tar -cf x.tar -T list',
    'tar -czTf list x.tgz',
    'tar -cf x.tar --files-from=list',
    'rsync --files-from=list . dest/',
    "sed -n '1r /etc/passwd' a.txt",
    "sed -n -e '$R /etc/shadow' a.txt",
    "sed '1r ~/.ssh/id_rsa' a.txt",
    `awk 'BEGIN{while((getline l < "/etc/passwd")>0) print l}'`,
    `awk 'BEGIN{getline < "/etc/shadow"; print}'`,
    "awk '{print}' /etc/passwd",
    'gawk -E p.awk /etc/shadow',
  ])('%s is not allowed by allow-all beside a deny rule', (command) => {
    expect(check(command, ALL, DENY).decision, command).not.toBe('allow');
  });
  it('the same programs on project files pass', () => {
    for (const command of ['tar -cf x.tar a.txt', "sed -n '1r b.txt' a.txt", 'awk -f prog.awk a.txt', "awk -v x=1 'BEGIN{print x}'"]) {
      expect(check(command, ALL, DENY).decision, command).toBe('allow');
    }
  });
});

describe("git subcommands that delete or revert the files their pathspec names keep protected files", () => {
  it.each(['git clean -fX -- .claude/settings.local.json', 'git clean -f .claude/settings.json', 'git stash push -- .claude/settings.json', 'git stash push -u -- .claude/settings.local.json', 'git clean -fx -- shellward.config.json'])('%s is not allowed by allow-all beside a deny rule', (command) => {
    expect(check(command, ['Bash'], ['Bash(rm:*)']).decision, command).not.toBe('allow');
  });
  it('other pathspecs pass', () => {
    // (`git stash` rewrites the whole tree: it is judged by what the index lists, see attack-review-5-precision.)
    for (const command of ['git clean -f -- build/', 'git clean -n']) expect(check(command, ['Bash'], ['Bash(rm:*)']).decision, command).toBe('allow');
  });
});

describe("a Read() deny rule reaches git's copies of the file when the command names it", () => {
  const READ_DENY = ['Read(./.env)'];
  it.each(['git show :.env', 'git show :0:.env', 'git show HEAD:.env', 'git show HEAD~2:./.env', 'git cat-file -p HEAD:.env', 'git blame .env', 'git annotate .env', 'git log -p -- .env', 'git show HEAD -- .env'])('%s is denied', (command) => {
    expect(check(command, [], READ_DENY).decision, command).toBe('deny');
  });
  it('other files and commands that name none stay allowed', () => {
    for (const command of ['git show HEAD:src/a.ts', 'git log --oneline -5', 'git blame -L 1,5 src/a.ts', 'git show HEAD', 'git log -- src']) expect(check(command, [], READ_DENY).decision, command).toBe('allow');
  });
});
