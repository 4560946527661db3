import { describe, expect, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'unicode-whitespace';

describe(ID, () => {
  // claude-code-reference.md §1.6 ID 18: every listed character, anywhere, quotes included.
  const chars = [0xa0, 0x1680, 0x2000, 0x2005, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff];
  it.each(chars.map((c) => [c.toString(16), c] as const))('reports U+%s', async (_hex, c) => {
    const d = await expectOne(ID, `echo "a${String.fromCharCode(c)}b"`, '1:8');
    expect(d.data).toMatchObject({ codePoint: c });
  });

  it('reports unquoted ones and points at the first', async () => {
    await expectOne(ID, 'rm\u00a0-rf x\u3000y', '1:3');
    await expectOne(ID, '\ufeffls', '1:1');
  });

  it.each([['echo "héllo wörld"'], ['ls -la'], ['echo "\u200b"']])('does not report %j', async (cmd) => {
    // U+200B (zero-width space) is not in Claude Code's list.
    await expectNone(ID, cmd);
  });
});
