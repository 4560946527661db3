/**
 * Precision of the decisions the fourth attack review's fixes made sound: commands that asked
 * under allow-all `Bash` beside deny rules although what they run can be proved. Every case that
 * now passes is paired with its twin that must still ask or deny (the same form running a denied
 * program, hiding its code, or leaving the project).
 */
import { describe, expect, it } from 'vitest';
import { bypassHarness } from './bypass-harness.js';

const { check } = bypassHarness();

/** The review's policy: allow-all beside three deny rules. */
const DENY = ['Bash(rm:*)', 'Bash(curl:*)', 'Bash(git push:*)'];

/** The decision under allow-all + {@link DENY}. */
function allowAll(command: string, mode: 'default' | 'acceptEdits' = 'default'): string {
  return check(command, ['Bash'], DENY, mode).decision;
}

describe('an exec option whose value is parsed shell code is judged on that code', () => {
  it.each([
    'git rebase --exec cat HEAD~2',
    'git rebase -x "make test" HEAD~3',
    'git rebase --exec=cat HEAD~2',
    'git rebase -i -x "npm test" main',
    'git filter-branch --msg-filter cat',
    "git filter-branch --msg-filter 'sed s/foo/bar/' -- --all",
    'find . -name "*.ts" -exec cat {} +',
    'find . -type f -exec wc -l {} \\;',
  ])('%s is allowed under allow-all + deny', (command) => {
    expect(allowAll(command), command).toBe('allow');
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
    expect(check('git rebase --exec "npm test" HEAD~1', ['Bash'], ['Bash(npm publish:*)']).decision).toBe('allow');
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
