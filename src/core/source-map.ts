/**
 * Source maps from a unit's text to its host file (architecture.md §3, architecture.md §9.4 item 7).
 * All offsets are UTF-16 code units, 0-based.
 */
import type { SourceMap } from './types.js';

/** The map of a unit that is its whole host file, possibly at a fixed offset. */
export class IdentityMap implements SourceMap {
  /** @param base host offset of unit offset 0 */
  constructor(private readonly base = 0) {}
  toHost(offset: number): number {
    return this.base + offset;
  }
}

/** One contiguous piece of unit text copied from the host at `hostStart`. */
export interface MapSegment {
  readonly unitStart: number;
  readonly hostStart: number;
  readonly length: number;
}

/**
 * A piecewise map built from segments in unit order (as extraction appends text). An offset
 * that falls between segments (text the extractor inserted) maps to the end of the previous
 * segment.
 */
export class SegmentMap implements SourceMap {
  private readonly segments: MapSegment[];

  /** @param segments non-overlapping, sorted by `unitStart`; at least one. Throws on none. */
  constructor(segments: MapSegment[]) {
    if (segments.length === 0) throw new Error('SegmentMap needs at least one segment');
    this.segments = segments;
  }

  toHost(offset: number): number {
    const segs = this.segments;
    let lo = 0;
    let hi = segs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((segs[mid]?.unitStart ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    const s = segs[lo]!;
    const delta = offset - s.unitStart;
    if (delta < 0) return s.hostStart;
    return s.hostStart + Math.min(delta, s.length);
  }
}
