/**
 * A linear pre-scan for the one input shape whose parse the time budget cannot stop: many
 * here-document operators (`<<`) on one line. tree-sitter-bash keeps every pending here-document
 * in its external scanner, and its cost grows with the square of their number (measured with
 * web-tree-sitter 0.25.10: 1,000 `<<` on one line 125 ms, 2,000 578 ms, 8,000 4.4 s, 32,000 52 s);
 * that time is spent inside the scanner, where the parser never calls its progress callback, so a
 * 1 MB line of `<<` ran 51 s past a 10 s budget. Bash itself reads each pending here-document
 * body after the line; no real script has hundreds of them on one line. Pure.
 */
import type { Span } from '../core/types.js';

/** Most here-document operators one line may hold before the text is refused unparsed. */
export const MAX_HEREDOCS_PER_LINE = 500;

/**
 * The span (UTF-16 code units of `text`, end exclusive) of the first line holding more than
 * {@link MAX_HEREDOCS_PER_LINE} here-document operators, or `undefined`. Counts from the raw
 * text, without knowing quotes or comments: a run of `n` `<` characters counts as `⌊n / 2⌋`
 * operators, except a run of exactly three (`<<<`, a here-string), which counts none. This
 * over-counts (a quoted `<<` counts too), never under-counts; refusing is always sound, since the
 * refused text is reported as too complex and never judged better than `ask`. Linear in the length.
 */
export function crowdedHeredocLine(text: string): Span | undefined {
  let lineStart = 0;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      lineStart = i + 1;
      count = 0;
    } else if (c === 0x3c) {
      let j = i;
      while (j < text.length && text.charCodeAt(j) === 0x3c) j++;
      const run = j - i;
      if (run !== 3) count += Math.floor(run / 2);
      i = j - 1;
      if (count > MAX_HEREDOCS_PER_LINE) {
        const end = text.indexOf('\n', i);
        return { start: lineStart, end: end === -1 ? text.length : end };
      }
    }
  }
  return undefined;
}
