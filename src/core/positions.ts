/**
 * The one place where offsets become lines and columns (architecture.md §9.4 item 6).
 *
 * Input offsets are UTF-16 code-unit indices into a host file's text (0-based); output
 * positions are 1-based lines and 1-based columns counted in UTF-16 code units, which is
 * SARIF 2.1.0's default `columnKind` (`utf16CodeUnits`) and what GitHub annotations expect.
 * Lines end at `\n`; a `\r` before it belongs to the line's last column.
 */
import type { Position, Range, SourceMap, Span } from './types.js';

/** Precomputed line starts of one text, for O(log n) offset → position lookups. */
export class LineIndex {
  private readonly starts: number[];
  private readonly length: number;

  /** Builds the index of `text` in one linear pass. */
  constructor(text: string) {
    const starts = [0];
    let i = text.indexOf('\n');
    while (i !== -1) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    this.starts = starts;
    this.length = text.length;
  }

  /** Number of lines (a trailing newline starts an empty last line). */
  get lineCount(): number {
    return this.starts.length;
  }

  /** Offset of the first character of 1-based `line`; clamps to the text. */
  lineStart(line: number): number {
    const i = Math.min(Math.max(line, 1), this.starts.length) - 1;
    return this.starts[i] ?? 0;
  }

  /** 1-based line and column of a 0-based UTF-16 offset; offsets outside the text are clamped. */
  position(offset: number): Position {
    const off = Math.min(Math.max(offset, 0), this.length);
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= off) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: off - (this.starts[lo] ?? 0) + 1 };
  }
}

/**
 * Converts a span in a unit's text to a range in its host file: unit offsets go through the
 * unit's source map, then through the host's line index. An empty span becomes a one-character
 * range so every output format can show it.
 */
export function spanToRange(span: Span, map: SourceMap, index: LineIndex): Range {
  const hostStart = map.toHost(span.start);
  let hostEnd = span.end > span.start ? map.toHost(span.end - 1) + 1 : hostStart + 1;
  if (hostEnd < hostStart) hostEnd = hostStart + 1;
  return { start: index.position(hostStart), end: index.position(hostEnd) };
}
