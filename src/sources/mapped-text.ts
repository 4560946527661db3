/**
 * Text assembled piece by piece from a host file, remembering for every character where it came
 * from: the building block the extracting readers (Makefiles, transcripts) use to produce a unit's
 * text together with its {@link SegmentMap}. Offsets are UTF-16 code units, 0-based. Pure.
 */
import { SegmentMap, type MapSegment } from '../core/source-map.js';

/**
 * A string plus, for each of its characters, the host-file offset it maps to. Characters copied
 * from the host map to their own offset; characters the reader inserted or rewrote (a Make
 * variable's value, a decoded JSON escape) map into the host text they stand for.
 */
export class MappedText {
  private readonly chars: string[] = [];
  private readonly hosts: number[] = [];

  /** Length of the text so far, in UTF-16 code units. */
  get length(): number {
    return this.chars.length;
  }

  /** The text so far. */
  get text(): string {
    return this.chars.join('');
  }

  /** The host offset of character `i` (0 ≤ i < length); `undefined` outside. */
  hostAt(i: number): number | undefined {
    return this.hosts[i];
  }

  /** Appends one UTF-16 code unit `ch` that maps to host offset `host`. */
  push(ch: string, host: number): void {
    this.chars.push(ch);
    this.hosts.push(host);
  }

  /** Appends `host.slice(start, end)` copied verbatim (each character maps to itself). */
  copy(hostText: string, start: number, end: number): void {
    for (let i = start; i < end; i++) this.push(hostText[i]!, i);
  }

  /**
   * Appends `value`, which stands for the host region `[hostStart, hostStart + hostLength)`:
   * character j maps to `hostStart + min(j, hostLength - 1)`, so a finding anywhere in the value
   * points into the region it replaced.
   */
  replace(value: string, hostStart: number, hostLength: number): void {
    const last = Math.max(hostLength - 1, 0);
    for (let j = 0; j < value.length; j++) this.push(value[j]!, hostStart + Math.min(j, last));
  }

  /** Drops the characters from `length` on (no-op when `length` ≥ the current length). */
  truncate(length: number): void {
    this.chars.length = Math.min(this.chars.length, Math.max(length, 0));
    this.hosts.length = this.chars.length;
  }

  /** Appends character `i` of `other` with its host offset (for re-slicing a mapped text). */
  pushFrom(other: MappedText, i: number): void {
    this.push(other.chars[i]!, other.hosts[i]!);
  }

  /** A new mapped text holding characters `[start, end)` of this one. */
  slice(start: number, end: number): MappedText {
    const out = new MappedText();
    for (let i = Math.max(start, 0); i < Math.min(end, this.length); i++) out.pushFrom(this, i);
    return out;
  }

  /**
   * The source map of the text: runs of characters whose host offsets increase by one become one
   * segment each. `emptyHost` is the host offset an empty text maps to.
   */
  toSourceMap(emptyHost = 0): SegmentMap {
    const segs: MapSegment[] = [];
    let cur: { unitStart: number; hostStart: number; length: number } | undefined;
    for (let i = 0; i < this.hosts.length; i++) {
      const h = this.hosts[i]!;
      if (cur && h === cur.hostStart + cur.length) {
        cur.length++;
      } else {
        if (cur) segs.push(cur);
        cur = { unitStart: i, hostStart: h, length: 1 };
      }
    }
    if (cur) segs.push(cur);
    if (segs.length === 0) segs.push({ unitStart: 0, hostStart: emptyHost, length: 0 });
    return new SegmentMap(segs);
  }
}
