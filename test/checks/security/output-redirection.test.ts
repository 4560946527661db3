import { describe, expect, it } from 'vitest';
import { expectNone, expectOne, lint, positions } from './lint.js';

const ID = 'output-redirection';

describe(ID, () => {
  it.each([
    ['echo hi > out.txt', '1:9'],
    ['ls >> log.txt', '1:4'],
    ['echo hi > /dev/nullo', '1:9'], // the boundary rule of claude-code-reference.md §1.3
    ['ls 2>&1x', '1:5'],
    ['git commit -m "x" > ~/.bashrc', '1:19'],
  ])('reports %j', async (cmd, at) => {
    const d = await expectOne(ID, cmd, at);
    expect(d.data).toMatchObject({ checkId: 10, misparsing: false, order: 18 });
  });

  it.each([
    ['ls > /dev/null'],
    ['ls 2>/dev/null'],
    ['ls >/dev/null 2>&1'],
    ['ls 2 >& 1 | cat'],
    ['cat < /dev/null > /dev/null'],
    ['echo "a > b"'],
    ['ls 3>/dev/null'], // `[012]?` is optional: `>/dev/null` is stripped and `3` stays
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });

  it('is reported alongside input-redirection (deviation: Claude Code names only the input one)', async () => {
    const ds = await lint('sort < in.txt > out.txt');
    expect(positions(ds, 'input-redirection')).toEqual(['1:6']);
    expect(positions(ds, ID)).toEqual(['1:15']);
  });

  it('claude-code-reference.md §1.4 deferral example: the redirection is reported; the escaped `;` is one word for the parse', async () => {
    const ds = await lint('cat safe.txt \\; echo /etc/passwd > ./out');
    expect(positions(ds, ID)).toEqual(['1:34']);
    expect(ds.find((d) => d.ruleId === ID)?.data).toMatchObject({ misparsing: false });
  });
});
