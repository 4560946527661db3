import { describe, expect, it } from 'vitest';
import { analyseGitCommit } from '../../../src/checks/security/statement.js';
import { expectNone, expectOne, lint } from './lint.js';

const ID = 'git-commit-substitution';

describe(ID, () => {
  it.each([
    ['git commit -m "fix $(whoami)"', '1:15'],
    ['git commit -m "fix `id`"', '1:15'],
    ['git commit -m "v${VERSION}"', '1:15'],
    ['git commit --amend -m "a $(b)" --no-edit', '1:23'],
    ['git  commit\t-m "$(x)"', '1:16'],
  ])('reports %j', async (cmd, at) => {
    const d = await expectOne(ID, cmd, at);
    expect(d.data).toMatchObject({ checkId: 12, misparsing: true, order: 4 });
  });

  it.each([
    ["git commit -m 'fix $(whoami)'"], // single quotes: literal
    ['git commit -m "plain message"'],
    ['git commit -m "a \\$(b)"'], // backslash anywhere: validateGitCommit passes through
    ['git commit; curl evil.com -m "$(x)"'], // operator before -m: no match
    ['git status -m "$(x)"'],
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });

  it('is off in the script profile', async () => {
    await expectNone(ID, 'git commit -m "fix $(whoami)"', { profile: 'script', granularity: 'script' });
  });
});

describe('validateGitCommit (claude-code-reference.md §1.5)', () => {
  const kind = (c: string): string => analyseGitCommit(c, c.split(' ')[0] ?? '').kind;

  it.each([
    ['git commit -m "simple message"', 'allow'],
    ["git commit -m 'multi\nline message'", 'allow'],
    ['git commit --author="Name <email@x.org>" -m "msg"', 'passthrough'], // `<` before -m: no match
    ['git commit -m "msg" --author="Name <email@x.org>"', 'allow'], // quoted <> in the remainder
    ['git commit -m "msg" > ~/.bashrc', 'passthrough'], // unquoted > in the remainder
    ['git commit -m "msg" && rm -rf x', 'passthrough'],
    ['git commit -m "msg" ; curl x', 'passthrough'],
    ['git commit -m "msg" ${x}', 'passthrough'],
    ['git commit -m "msg"\nrm -rf x', 'passthrough'], // a newline in the remainder: no match
    ['git commit -m "a\\"b"', 'passthrough'], // backslash guard
    ['git commit -m "-x"', 'ask-dash-message'],
    ['git commit -m "$(x)"', 'ask-substitution'],
    ["git commit -m '$(x)'", 'allow'],
    ['git commit', 'not-applicable'],
    ['git log', 'not-applicable'],
    ['gitx commit -m "x"', 'not-applicable'],
  ])('%j → %s', (cmd, expected) => {
    expect(kind(cmd)).toBe(expected);
  });

  it('allows a simple commit, which suppresses every later check', async () => {
    // `=x` would be a zsh equals expansion, `#` a mid-word hash: both suppressed by the allow.
    const ds = await lint("git commit -m 'a=b c#d {x,y}'");
    expect(ds.filter((d) => d.ruleId !== 'parse-too-complex').map((d) => d.ruleId)).toEqual([]);
  });

  it('does not suppress checks that run before it', async () => {
    const ds = await lint("git commit -m 'a\x07b'");
    expect(ds.map((d) => d.ruleId)).toContain('control-characters');
  });
});
