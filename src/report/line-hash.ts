/**
 * GitHub code scanning's `primaryLocationLineHash`, computed the way github/codeql-action's
 * `upload-sarif` computes it (the `hash` function of its src/fingerprints.ts,
 * https://github.com/github/codeql-action/blob/main/src/fingerprints.ts), so the uploader finds
 * the value it would have written and logs no "inconsistent fingerprint" warning.
 *
 * The algorithm, restated: the file's text is read as UTF-16 code units; spaces and tabs are
 * dropped everywhere; CR, LF and CRLF each become one LF; the code unit 0xFFFF is appended as an
 * end-of-file marker, then as many 0s as needed. The hash of line n is the polynomial hash, base
 * 37, modulo 2^64, of the 100 code units of that stream that start at line n's first kept code
 * unit, written in lower-case hex without leading zeros; it is followed by `:k`, where k counts
 * the lines so far (including this one) with the same hash. The line after a final newline
 * gets a hash too, as in the original. Pure.
 */

/** Code units in the window of one line's hash. */
const BLOCK_SIZE = 100;

/** The end-of-file marker the original appends (its `EOF` constant, 65535). */
const EOF = 0xffff;

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

const TWO_32 = 0x1_0000_0000;

/**
 * 37^100 mod 2^64 as `[high, low]` 32-bit halves: the weight of the code unit that leaves the
 * window. Computed once.
 */
const FIRST_MOD: readonly [number, number] = (() => {
  let v = 1n;
  for (let i = 0; i < BLOCK_SIZE; i++) v = (v * 37n) & 0xffff_ffff_ffff_ffffn;
  return [Number(v >> 32n), Number(v & 0xffff_ffffn)];
})();

/**
 * The code units the hash reads: `text` without spaces and tabs, line ends as single LFs, then
 * {@link EOF}; and the index in it where each line starts (index i = line i + 1).
 */
function normalise(text: string): { units: Uint16Array; lineStarts: number[] } {
  const units = new Uint16Array(text.length + 1);
  const lineStarts: number[] = [];
  let n = 0;
  let lineStart = true;
  let prevCR = false;
  const take = (c: number): void => {
    if (c === SPACE || c === TAB || (prevCR && c === LF)) {
      prevCR = false;
      return;
    }
    if (c === CR) {
      c = LF;
      prevCR = true;
    } else {
      prevCR = false;
    }
    if (lineStart) {
      lineStart = false;
      lineStarts.push(n);
    }
    if (c === LF) lineStart = true;
    units[n++] = c;
  };
  for (let i = 0; i < text.length; i++) take(text.charCodeAt(i));
  take(EOF);
  return { units: units.subarray(0, n), lineStarts };
}

/**
 * The `primaryLocationLineHash` of every line of `text` (a file's whole content, as Node decodes
 * it from UTF-8: a byte-order mark is kept as U+FEFF, invalid bytes become U+FFFD), in line
 * order: element i is line i + 1's `hash:occurrence`. Lines are those the original counts (CR,
 * LF and CRLF end a line; an empty text has one line; a final line end starts one more line).
 * Linear in the length of `text`.
 */
export function githubLineHashes(text: string): string[] {
  const { units, lineStarts } = normalise(text);
  // The rolling hash in two unsigned 32-bit halves (64-bit wrapping arithmetic, like the
  // original's Long): after reading units[0..i], it is the hash of the last BLOCK_SIZE units.
  let hi = 0;
  let lo = 0;
  const hashAt: string[] = [];
  const snapshot = (): string => {
    if (hi === 0) return lo.toString(16);
    return hi.toString(16) + lo.toString(16).padStart(8, '0');
  };
  const total = units.length + BLOCK_SIZE;
  let next = 0; // next line whose hash is due
  for (let i = 0; i < total && next < lineStarts.length; i++) {
    const current = i < units.length ? units[i]! : 0;
    const leaving = i >= BLOCK_SIZE && i - BLOCK_SIZE < units.length ? units[i - BLOCK_SIZE]! : 0;
    // h = 37·h + current − 37^100·leaving  (mod 2^64)
    let l = lo * 37;
    let h = hi * 37 + Math.floor(l / TWO_32);
    l = (l % TWO_32) + current;
    h += Math.floor(l / TWO_32);
    l %= TWO_32;
    if (leaving !== 0) {
      const pl = FIRST_MOD[1] * leaving;
      const ph = FIRST_MOD[0] * leaving + Math.floor(pl / TWO_32);
      l -= pl % TWO_32;
      h -= ph % TWO_32;
      if (l < 0) {
        l += TWO_32;
        h -= 1;
      }
    }
    h %= TWO_32;
    if (h < 0) h += TWO_32;
    hi = h;
    lo = l;
    // The window now holds units[i-99..i]: the hash of a line starting at i-99 is due.
    while (next < lineStarts.length && lineStarts[next]! === i - (BLOCK_SIZE - 1)) {
      hashAt.push(snapshot());
      next++;
    }
  }
  const seen = new Map<string, number>();
  return hashAt.map((h) => {
    const k = (seen.get(h) ?? 0) + 1;
    seen.set(h, k);
    return `${h}:${k}`;
  });
}
