/**
 * Physical lines of a host file, the first step of the readers that join continued lines
 * themselves (Makefiles, Dockerfiles). Pure.
 */

/** One physical line: `[start, end)` in UTF-16 code units, 0-based, `end` before `\r?\n`. */
export interface PhysLine {
  readonly start: number;
  /** Offset of the line's end, before its `\r?\n` (a lone `\r` elsewhere stays in the line). */
  readonly end: number;
}

/**
 * The physical lines of `text`, split at `\n` with a `\r` before it dropped. A text ending in
 * `\n` has an empty last line; the empty text has one empty line. Never throws.
 */
export function physicalLines(text: string): PhysLine[] {
  const out: PhysLine[] = [];
  let start = 0;
  while (start <= text.length) {
    let nl = text.indexOf('\n', start);
    if (nl === -1) nl = text.length;
    const end = nl > start && text[nl - 1] === '\r' ? nl - 1 : nl;
    out.push({ start, end });
    if (nl === text.length) break;
    start = nl + 1;
  }
  return out;
}
