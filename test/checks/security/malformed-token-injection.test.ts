import { describe, expect, it } from 'vitest';
import { shellQuoteParse } from '../../../src/analyses/security-views.js';
import { expectNone, expectOne } from './lint.js';

const ID = 'malformed-token-injection';

describe(ID, () => {
  it.each([
    ['echo {a && ls', '1:6'], // unbalanced brace in a token
    ['echo (a; ls'.replace('(', '\\('), '1:6'], // escaped paren stays in the token
    ['echo a] || ls', '1:6'],
    ['echo "hi;evil | cat', '1:6'], // unterminated quote (odd parity under bash rules)
    ['echo "it\'s" && ls', '1:6'], // a double-quoted apostrophe: odd quotes in the token
    ["echo '[' ; ls", '1:6'],
  ])('reports %j', async (cmd, at) => {
    await expectOne(ID, cmd, at);
  });

  it.each([
    ['echo {"hi":"hi;evil"}'], // Claude Code's motivating example: one balanced token, no separator
    ['echo a && echo b'],
    ['cat x; ls'],
    ['echo "{a}" && ls'],
    ['echo {a | cat'], // a pipe is not a separator here
    ['echo ${x y} && ls'.replace('${x y}', '${x')], // shell-quote throws (bad substitution): passes
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });
});

describe('shell-quote emulation', () => {
  const show = (s: string): unknown =>
    shellQuoteParse(s)?.map((e) => (e.kind === 'string' ? e.value : e.kind === 'op' ? { op: e.op } : e.kind === 'glob' ? { glob: e.pattern } : { comment: true }));

  it.each([
    ['echo hi', ['echo', 'hi']],
    ['a && b || c; d', ['a', { op: '&&' }, 'b', { op: '||' }, 'c', { op: ';' }, 'd']],
    ['echo "a b" \'c d\'', ['echo', 'a b', 'c d']],
    ['echo {"hi":"hi;evil"}', ['echo', '{hi:hi;evil}']],
    ['echo $HOME x', ['echo', '', 'x']],
    ['echo $ x', ['echo', '$', 'x']],
    ['echo a#b c', ['echo', 'a', { comment: true }]], // a mid-word # starts a comment
    ['echo "hi;evil | cat', ['echo', 'hi', { op: ';' }, 'evil', { op: '|' }, 'cat']], // unmatched quote dropped
    ["git ls-remote 'safe\\\\' '--upload-pack=evil' 'repo'", ['git', 'ls-remote', 'safe\\\\ --upload-pack=evil repo']],
    ['ls *.ts', ['ls', { glob: '*.ts' }]],
    ['a\rb', ['a', 'b']], // CR splits words
    ['cat <(ls) >> f 2>&1', ['cat', { op: '<(' }, 'ls', { op: ')' }, { op: '>>' }, 'f', '2', { op: '>&' }, '1']],
  ])('%j', (input, expected) => {
    expect(show(input)).toEqual(expected);
  });

  it('fails where shell-quote throws', () => {
    expect(shellQuoteParse('echo ${}')).toBeUndefined();
    expect(shellQuoteParse('echo ${x')).toBeUndefined();
  });

  it.each([
    ['escaped quotes', "'\\'".repeat(100_000), 1],
    ['an odd run of double quotes', '"'.repeat(200_001), 1],
    ['unclosed ${', '${'.repeat(100_000), undefined],
    ['backslashes then a quote', '\\'.repeat(300_000) + "'", 1],
  ])('parses %s like shell-quote (entries, or undefined where it throws)', (_name, s, entries) => {
    // Its time on these shapes is measured by `npm run bench`.
    expect(shellQuoteParse(s)?.length).toBe(entries);
  });
});
