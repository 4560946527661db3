/**
 * Words and substitutions that bash reads differently from tree-sitter-bash: a backslash-newline
 * inside a word, a locale string `$"…"` inside a word, nested backquotes, backquotes and
 * continued lines in here-document bodies and double quotes, a here-document delimiter spelled
 * with `$`. Each command's effect was checked with bash 5.2 in a throwaway directory (the program
 * named here ran: a file was removed or written, a tree deleted).
 */
import { describe, expect, it } from 'vitest';
import { bypassHarness } from './bypass-harness.js';

const { check, neverAllowed } = bypassHarness();
const ALL = ['Bash'];
const DENY = ['Bash(rm:*)', 'Bash(curl:*)', 'Bash(git push:*)'];

/** Not allowed with no rules, nor under the deny rules alone; under allow-all beside them: `expected`. */
function caught(command: string, expected: 'deny' | 'ask' = 'deny'): void {
  expect(check(command).decision, command).not.toBe('allow');
  expect(check(command, [], DENY).decision, command).not.toBe('allow');
  expect(check(command, ALL, DENY).decision, command).toBe(expected);
}

describe('backslash-newline inside an argument word is removed before options are read', () => {
  it.each([
    ['find . -de\\\nlete', 'deny'],
    ['find . -maxdepth 0 -ex\\\nec rm {} +', 'deny'],
    [`git grep -\\\nO'rm victim' x`, 'ask'],
    ['git diff --out\\\nput=/tmp/C3', 'ask'],
  ] as const)('%j', (command, expected) => {
    caught(command, expected);
    neverAllowed(command);
  });

  it('a prefix allow rule does not admit the joined option', () => {
    expect(check('git diff --out\\\nput=/tmp/C3', ['Bash(git diff:*)']).decision).not.toBe('allow');
    expect(check('find . -de\\\nlete', ['Bash(find:*)']).decision).not.toBe('allow');
  });

  it('with no rules the joined read-only forms stay allowed', () => {
    expect(check('ls -\\\nla').decision).toBe('allow');
    expect(check('grep -\\\nn x README').decision).toBe('allow');
  });
});

describe('a locale string $"…" inside a word is its text', () => {
  it.each([
    ['r$""m victim', 'deny'],
    ['r$"m" victim', 'deny'],
    ['cu$"r"l x', 'deny'],
    ['git p$""ush', 'deny'],
    ['find . -de$""lete', 'deny'],
    ['find . -$"delete"', 'deny'],
    ['find . -ex$""ec rm {} +', 'deny'],
    ['git grep -O$"rm v2" x', 'ask'],
    [`git grep -$""O'touch x' x`, 'ask'],
    ['git diff --out$""put=/tmp/X', 'ask'],
  ] as const)('%j', (command, expected) => {
    caught(command, expected);
  });

  it('the removal commands are never allowed under the `rm` deny rule of the shared harness', () => {
    for (const command of ['r$""m victim', 'find . -de$""lete', 'find . -ex$""ec rm {} +']) neverAllowed(command);
  });

  it('with no rules a read-only command with such a word stays allowed', () => {
    expect(check('echo x$ $"a"b').decision).toBe('allow');
  });
});

describe('command substitutions the parser reads as text', () => {
  it.each([
    'echo `echo \\`rm victim\\``',
    'x=`echo \\`rm victim\\``',
    'echo "`echo \\`rm victim\\``"',
    'echo `echo \\`echo \\\\\\`rm victim\\\\\\`\\``',
    'cat <<E\n`rm victim`\nE',
    'cat <<-E\n\t`rm victim`\n\tE',
    'cat <<E\n`echo \\`rm victim\\``\nE',
    'cat <<$x\n$(rm victim)\n$x',
    'cat <<${x}\n$(rm victim)\n${x}',
    'cat <<E\n$\\\n(rm victim)\nE',
    'cat <<E\n`\\\nrm victim`\nE',
    'echo "$\\\n(rm victim)"',
    'echo ${x:-$\\\n(rm victim)}',
  ])('%j runs the denied program', (command) => {
    caught(command, 'deny');
    neverAllowed(command);
    expect(check(command, ['Bash(echo:*)', 'Bash(cat:*)']).decision, command).not.toBe('allow');
  });

  it.each(['echo `: \\`touch /tmp/PWN\\``', 'wc -l <<E\n`touch /tmp/HD2`\nE'])('%j writes outside the project: asks', (command) => {
    expect(check(command).decision, command).toBe('ask');
    expect(check(command, ALL, DENY).decision, command).toBe('ask');
  });

  it('quoted here-documents stay literal and plain substitutions stay read-only', () => {
    expect(check("cat <<'E'\n`rm victim`\nE").decision).toBe('allow');
    expect(check('cat <<E\n$(ls)\nE').decision).toBe('allow');
    expect(check('echo `ls`').decision).toBe('allow');
    expect(check('echo "a\\\nb"').decision).toBe('allow');
  });
});
