import { describe, expect, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'control-characters';

describe(ID, () => {
  // claude-code-reference.md §1.4 step 1: 0x00–0x08, 0x0B, 0x0C, 0x0E–0x1F, 0x7F; tab, LF and CR excluded.
  const controls = [0x00, 0x01, 0x07, 0x08, 0x0b, 0x0c, 0x0e, 0x1b, 0x1f, 0x7f];
  it.each(controls.map((c) => [c.toString(16), c] as const))('reports U+%s', async (_hex, c) => {
    await expectOne(ID, `echo a${String.fromCharCode(c)}b`, '1:7');
  });

  it('reports the first one, at its position', async () => {
    await expectOne(ID, 'echo safe\x00; rm -rf /tmp/x', '1:10');
    await expectOne(ID, 'ls\nfoo\x01\x02', '2:4');
  });

  it.each([['tab', 'echo "a\tb"'], ['LF', 'echo a\necho b'], ['CR', 'echo "a\rb"'], ['plain', 'ls -la']])('does not report %s', async (_n, cmd) => {
    await expectNone(ID, cmd);
  });

  it('is a warning in the script profile (a literal ESC in an old colour string is common)', async () => {
    const d = await expectOne(ID, 'RED="\x1b[31m"\necho "${RED}hi"', '1:6', { profile: 'script', granularity: 'script' });
    expect(d.severity).toBe('warning');
    expect(d.message).not.toContain('drops');
  });
});
