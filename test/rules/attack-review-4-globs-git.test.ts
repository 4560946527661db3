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
