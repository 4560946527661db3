/**
 * A line splitter whose memory is bounded: a line longer than the limit is not accumulated but
 * counted and reported as oversized, so one enormous JSON Lines record (a 100 MB request or
 * transcript line) costs neither a 100 MB string nor a `JSON.parse` of it, and the lines after it
 * are still read. Lines end at `\n`; a `\r` before it is dropped (as `readline` with
 * `crlfDelay: Infinity` does); a last line without a newline is a line too. Pure.
 */

/** One line from a {@link BoundedLineSplitter}. */
export type BoundedLine =
  /** A line of at most `maxChars` UTF-16 code units, without its line ending. */
  | { readonly oversized: false; readonly text: string }
  /** A longer line: only its length (UTF-16 code units, without the line ending) was kept. */
  | { readonly oversized: true; readonly length: number };

/** Splits decoded text chunks into lines of at most `maxChars` UTF-16 code units each. */
export class BoundedLineSplitter {
  private parts: string[] = [];
  private partsLength = 0;
  /** Length of the current line when it is already known to be oversized, else -1. */
  private skipped = -1;

  /** `maxChars`: the longest line kept, in UTF-16 code units (a positive integer). */
  constructor(readonly maxChars: number) {}

  /** Feeds one chunk of text; returns the lines it completed, in order. */
  push(chunk: string): BoundedLine[] {
    const out: BoundedLine[] = [];
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', from);
      if (nl < 0) {
        this.append(chunk, from, chunk.length);
        return out;
      }
      this.append(chunk, from, nl);
      out.push(this.take());
      from = nl + 1;
    }
  }

  /** Ends the input; returns the last line when the text did not end with a newline. */
  end(): BoundedLine[] {
    if (this.skipped < 0 && this.partsLength === 0) return [];
    return [this.take()];
  }

  private append(chunk: string, from: number, to: number): void {
    if (to <= from) return;
    if (this.skipped >= 0) {
      this.skipped += to - from;
      return;
    }
    if (this.partsLength + (to - from) > this.maxChars + 1) {
      // +1: a `\r` that ends up before the newline does not count.
      this.skipped = this.partsLength + (to - from);
      this.parts = [];
      this.partsLength = 0;
      return;
    }
    this.parts.push(chunk.slice(from, to));
    this.partsLength += to - from;
  }

  private take(): BoundedLine {
    if (this.skipped >= 0) {
      const length = this.skipped;
      this.skipped = -1;
      return { oversized: true, length };
    }
    let text = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.partsLength = 0;
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.length > this.maxChars) return { oversized: true, length: text.length };
    return { oversized: false, text };
  }
}
