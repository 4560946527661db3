/**
 * The port of code scanning's line hash against the values github/codeql-action's own tests
 * expect (src/fingerprints.test.ts there), and against a direct BigInt restatement of the
 * algorithm on random inputs (windows that wrap, long lines, CR/LF mixes, non-ASCII).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { githubLineHashes } from '../../src/report/line-hash.js';

/** The algorithm written the slow, obvious way: each line's 100-unit window hashed from scratch. */
function reference(text: string): string[] {
  const units: number[] = [];
  const starts: number[] = [];
  let lineStart = true;
  let prevCR = false;
  const take = (c: number): void => {
    if (c === 32 || c === 9 || (prevCR && c === 10)) {
      prevCR = false;
      return;
    }
    prevCR = c === 13;
    if (c === 13) c = 10;
    if (lineStart) {
      lineStart = false;
      starts.push(units.length);
    }
    if (c === 10) lineStart = true;
    units.push(c);
  };
  for (let i = 0; i < text.length; i++) take(text.charCodeAt(i));
  take(0xffff);
  const counts = new Map<string, number>();
  return starts.map((p) => {
    let h = 0n;
    for (let k = 0; k < 100; k++) h = (h * 37n + BigInt(units[p + k] ?? 0)) & 0xffff_ffff_ffff_ffffn;
    const hex = h.toString(16);
    const n = (counts.get(hex) ?? 0) + 1;
    counts.set(hex, n);
    return `${hex}:${n}`;
  });
}

describe('githubLineHashes', () => {
  it("gives codeql-action's expected values", () => {
    expect(githubLineHashes('')).toEqual(['c129715d7a2bc9a3:1']);
    expect(githubLineHashes(' a\nb\n  \t\tc\n d')).toEqual(['271789c17abda88f:1', '54703d4cd895b18:1', '180aee12dab6264:1', 'a23a3dc5e078b07b:1']);
    expect(githubLineHashes(' hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End')).toEqual([
      '8b7cf3e952e7aeb2:1',
      'b1ae1287ec4718d9:1',
      'bff680108adb0fcc:1',
      'c6805c5e1288b612:1',
      'b86d3392aea1be30:1',
      'e6ceba753e1a442:1',
    ]);
    const withFinalNewline = ['e9496ae3ebfced30:1', 'fb7c023a8b9ccb3f:1', 'ce8ba1a563dcdaca:1', 'e20e36e16fcb0cc8:1', 'b3edc88f2938467e:1', 'c8e28b0b4002a3a0:1', 'c129715d7a2bc9a3:1'];
    for (const text of [
      ' hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n',
      ' hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r',
      ' hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n',
      ' hello; \t\nworld!!!\r\n\n\r  \t\tGreetings\r End\r\n',
    ]) {
      expect(githubLineHashes(text)).toEqual(withFinalNewline);
    }
    expect(githubLineHashes('Lorem ipsum dolor sit amet.\n'.repeat(10))).toEqual([
      'a7f2ff13bc495cf2:1',
      'a7f2ff13bc495cf2:2',
      'a7f2ff13bc495cf2:3',
      'a7f2ff13bc495cf2:4',
      'a7f2ff13bc495cf2:5',
      'a7f2ff13bc495cf2:6',
      'a7f2ff1481e87703:1',
      'a9cf91f7bbf1862b:1',
      '55ec222b86bcae53:1',
      'cc97dc7b1d7d8f7b:1',
      'c129715d7a2bc9a3:1',
    ]);
    expect(githubLineHashes('x = 2\nx = 1\nprint(x)\nx = 3\nprint(x)\nx = 4\nprint(x)\n')).toEqual([
      'e54938cc54b302f1:1',
      'bb609acbe9138d60:1',
      '1131fd5871777f34:1',
      '5c482a0f8b35ea28:1',
      '54517377da7028d2:1',
      '2c644846cb18d53e:1',
      'f1b89f20de0d133:1',
      'c129715d7a2bc9a3:1',
    ]);
  });

  it('equals the from-scratch restatement on random texts', () => {
    const unit = fc.constantFrom('a', 'Z', ' ', '\t', '\n', '\r', '\r\n', 'é', '\u{1F600}', '\uFEFF', '$', '"', '\uFFFF');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 400 }).map((a) => a.join('')), (text) => {
        expect(githubLineHashes(text)).toEqual(reference(text));
      }),
      { numRuns: 300 },
    );
    const long = 'rm -rf "$dir" # '.repeat(40) + '\n' + 'x\n'.repeat(150);
    expect(githubLineHashes(long)).toEqual(reference(long));
  });

  it('has one hash per line, the line after a final newline included', () => {
    expect(githubLineHashes('a\nb')).toHaveLength(2);
    expect(githubLineHashes('a\nb\n')).toHaveLength(3);
    expect(githubLineHashes('a\r\nb\r\n')).toHaveLength(3);
  });
});
