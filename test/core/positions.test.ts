import { describe, expect, it } from 'vitest';
import { LineIndex, spanToRange } from '../../src/core/positions.js';
import { IdentityMap, SegmentMap } from '../../src/core/source-map.js';

describe('LineIndex', () => {
  it('maps offsets to 1-based lines and UTF-16 columns', () => {
    const text = 'ab\né😀x\r\nlast';
    const idx = new LineIndex(text);
    expect(idx.position(0)).toEqual({ line: 1, column: 1 });
    expect(idx.position(2)).toEqual({ line: 1, column: 3 });
    expect(idx.position(3)).toEqual({ line: 2, column: 1 });
    // é is one code unit, 😀 two: x is at column 4.
    expect(idx.position(text.indexOf('x'))).toEqual({ line: 2, column: 4 });
    expect(idx.position(text.indexOf('last'))).toEqual({ line: 3, column: 1 });
    expect(idx.lineCount).toBe(3);
  });
  it('clamps offsets outside the text', () => {
    const idx = new LineIndex('abc');
    expect(idx.position(-5)).toEqual({ line: 1, column: 1 });
    expect(idx.position(99)).toEqual({ line: 1, column: 4 });
  });
  it('handles an empty text and a trailing newline', () => {
    expect(new LineIndex('').position(0)).toEqual({ line: 1, column: 1 });
    const idx = new LineIndex('a\n');
    expect(idx.lineCount).toBe(2);
    expect(idx.position(2)).toEqual({ line: 2, column: 1 });
  });
});

describe('spanToRange', () => {
  it('gives an exclusive end and widens empty spans to one character', () => {
    const idx = new LineIndex('echo hi\n');
    expect(spanToRange({ start: 5, end: 7 }, new IdentityMap(), idx)).toEqual({ start: { line: 1, column: 6 }, end: { line: 1, column: 8 } });
    expect(spanToRange({ start: 5, end: 5 }, new IdentityMap(), idx)).toEqual({ start: { line: 1, column: 6 }, end: { line: 1, column: 7 } });
  });
  it('maps through a segment map to the host file', () => {
    // Unit "rm -rf x" was assembled from host offsets 10..13 ("rm ") and 20..25 ("-rf x").
    const host = '0123456789rm 4567890-rf x';
    const map = new SegmentMap([
      { unitStart: 0, hostStart: 10, length: 3 },
      { unitStart: 3, hostStart: 20, length: 5 },
    ]);
    expect(map.toHost(0)).toBe(10);
    expect(map.toHost(3)).toBe(20);
    expect(map.toHost(7)).toBe(24);
    const r = spanToRange({ start: 3, end: 6 }, map, new LineIndex(host));
    expect(r).toEqual({ start: { line: 1, column: 21 }, end: { line: 1, column: 24 } });
    expect(() => new SegmentMap([])).toThrow();
  });
});
