/**
 * A linear pre-scan for the input shapes whose parse the time budget cannot stop: many
 * here-document operators (`<<`) on one line, and many here-document operators that start a
 * command (`<<a` on a line of its own, repeated). tree-sitter-bash keeps every pending here-document
 * in its external scanner, and its cost grows with the square of their number (measured with
 * web-tree-sitter 0.25.10: 1,000 `<<` on one line 125 ms, 2,000 578 ms, 8,000 4.4 s, 32,000 52 s);
 * that time is spent inside the scanner, where the parser never calls its progress callback, so a
 * 1 MB line of `<<` ran 51 s past a 10 s budget. Bash itself reads each pending here-document
 * body after the line; no real script has hundreds of them on one line. A here-document operator
 * that stands first in a command (no command word before it: `<<a`, `3<<a`, `(<<a`, `x | <<a`)
 * sends tree-sitter-bash into error recovery that costs about 0.4 ms each whatever the line
 * (measured: 5 KB of `<<a` lines 0.85 s, 20 KB 3.5 s, again without a progress callback to stop
 * it); bash reads such a line as a redirection with no command, which real scripts write rarely
 * and never by the hundred. Pure.
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

/** Most here-document operators standing first in a command (see {@link leadingHeredocs}) a text may hold before it is refused unparsed. */
export const MAX_LEADING_HEREDOCS = 200;

/** Whether UTF-16 code `c` ends what comes before a command: start of text, newline, `;`, `&`, `|`, `(`, `` ` ``. */
function beforeCommand(c: number | undefined): boolean {
  return c === undefined || c === 0x0a || c === 0x3b || c === 0x26 || c === 0x7c || c === 0x28 || c === 0x60;
}

/**
 * The span (UTF-16 code units of `text`, end exclusive) of the line holding the here-document
 * operator that makes more than {@link MAX_LEADING_HEREDOCS} of them standing first in a command,
 * or `undefined`. From the raw text, without knowing quotes, comments or here-document bodies: a
 * run of `<` other than a here-string's three counts once when what precedes it, past blanks and a
 * file-descriptor number, is the start of the text, a newline, `;`, `&`, `|`, `(` or a backquote
 * (a number right after `(` or `|` is taken for an arithmetic shift, `$((1<<n))`, and not counted).
 * It over-counts (an operator in a quoted string counts too), which is sound: refused text is
 * reported as too complex and never judged better than `ask`. Linear in the length.
 */
export function leadingHeredocs(text: string): Span | undefined {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 0x3c) continue;
    let j = i;
    while (j < text.length && text.charCodeAt(j) === 0x3c) j++;
    if (j - i >= 2 && j - i !== 3) {
      // Back over a file-descriptor number, then blanks (never past the previous `<`, so linear).
      let k = i - 1;
      while (k >= 0 && text.charCodeAt(k) >= 0x30 && text.charCodeAt(k) <= 0x39) k--;
      // A number right after `(` or `|` is an arithmetic shift (`$((1<<n))`, `$((f|1<<3))`), not an fd.
      const number = k < i - 1;
      const afterNumber = k < 0 ? undefined : text.charCodeAt(k);
      while (k >= 0 && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09)) k--;
      const shift = number && (afterNumber === 0x28 || afterNumber === 0x7c);
      if (!shift && beforeCommand(k < 0 ? undefined : text.charCodeAt(k)) && ++count > MAX_LEADING_HEREDOCS) {
        const start = text.lastIndexOf('\n', i) + 1;
        const end = text.indexOf('\n', i);
        return { start, end: end === -1 ? text.length : end };
      }
    }
    i = j - 1;
  }
  return undefined;
}

/** What {@link heredocPressure} found: which shape, and the line (UTF-16 code units, end exclusive) where it passed its limit. */
export interface HeredocPressure {
  /** `crowded-line`: {@link crowdedHeredocLine}; `leading`: {@link leadingHeredocs}. */
  readonly shape: 'crowded-line' | 'leading';
  readonly span: Span;
}

/**
 * The first of the two here-document shapes the parser cannot be stopped in that `text` holds
 * ({@link crowdedHeredocLine}, then {@link leadingHeredocs}), or `undefined`. Linear in the length.
 */
export function heredocPressure(text: string): HeredocPressure | undefined {
  const crowded = crowdedHeredocLine(text);
  if (crowded) return { shape: 'crowded-line', span: crowded };
  const leading = leadingHeredocs(text);
  return leading ? { shape: 'leading', span: leading } : undefined;
}
