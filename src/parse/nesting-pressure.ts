/**
 * A linear pre-scan for nesting no real script has and whose parse and analysis cost grows faster
 * than its length: substitutions opened hundreds of times without being closed (`$(` or `${`
 * repeated), and `[[` conditionals opened hundreds of times without their `]]`. Measured with
 * web-tree-sitter 0.25.10 on this code base: 20 KB of nested `$(` exhausted the call stack of the
 * analysis after 3 s; 40 KB of `[[ ` repeated cost 3.8 s, 100 KB more than 40 s (error recovery
 * leaves every `[[` open, and region scans of the text then go quadratic); 100 KB of unclosed `${`
 * took the parser alone 25 s; 1 MB of nested brace lists cost 10 s and 850 MB. Bash's own scripts nest substitutions a few levels deep, and bash
 * does not nest `[[` at all. Pure.
 */
import type { Span } from '../core/types.js';

/** Deepest nesting of unclosed `$(` and `${` (together) the scan lets through. */
export const MAX_SUBSTITUTION_DEPTH = 200;

/** Most `[[` conditionals open at once (opened without their `]]`) the scan lets through. */
export const MAX_OPEN_CONDITIONALS = 200;

/**
 * Deepest nesting of braces (`{`, of a brace expansion `{a,{b,…}}`, a group `{ …; }` or a `${`)
 * the scan lets through. 1 MB of nested brace lists (`cat {a,{a,…}}`) cost 10 s of CPU and 850 MB
 * in the analysis of its brace expansions.
 */
export const MAX_BRACE_DEPTH = 200;

/** What {@link deepNesting} found: the construct (`substitution`, `conditional` or `brace`) and where the limit was passed. */
export interface DeepNesting {
  readonly construct: 'substitution' | 'conditional' | 'brace';
  /** From the opener that passed the limit to the end of its line (UTF-16 code units, end exclusive). */
  readonly span: Span;
}

/** Whether UTF-16 code `c` may stand before a `[[` reserved word: start of a command (blank, newline, `;`, `&`, `|`, `(`, `!`). */
function beforeWord(c: number | undefined): boolean {
  return c === undefined || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x3b || c === 0x26 || c === 0x7c || c === 0x28 || c === 0x21;
}

/** Whether UTF-16 code `c` may follow a `[[` or `]]` reserved word (blank, newline, end, or for `]]` an operator). */
function afterWord(c: number | undefined): boolean {
  return c === undefined || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x3b || c === 0x26 || c === 0x7c || c === 0x29;
}

/**
 * The first place in `text` where `$(`/`${` are nested more than {@link MAX_SUBSTITUTION_DEPTH}
 * deep, or more than {@link MAX_OPEN_CONDITIONALS} `[[` are open, or braces are nested more than
 * {@link MAX_BRACE_DEPTH} deep, or `undefined`. Counts from the raw text, without knowing quotes,
 * comments or here-document bodies: `$(` and `${` open, every `)` and `}` closes (never below
 * zero); a `[[` standing as a word opens, a `]]` standing as a word closes; every `{` (that of a
 * `${` too) opens a brace and every `}` closes one (never below zero). Quoted openers count too, and closers that close nothing bash would count (a `)`
 * of a `case` pattern) make the count lower: the scan may refuse text bash would accept or let
 * deep text through, but refusing is always sound (the text is reported as too complex and never
 * judged better than `ask`), and what it lets through is still bounded by the parse budget.
 * Linear in the length.
 */
export function deepNesting(text: string): DeepNesting | undefined {
  let depth = 0;
  let open = 0;
  let braces = 0;
  const found = (construct: DeepNesting['construct'], at: number): DeepNesting => {
    const end = text.indexOf('\n', at);
    return { construct, span: { start: at, end: end === -1 ? text.length : end } };
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x24) {
      const n = text.charCodeAt(i + 1);
      if (n === 0x28 || n === 0x7b) {
        if (++depth > MAX_SUBSTITUTION_DEPTH) return found('substitution', i);
        if (n === 0x7b && ++braces > MAX_BRACE_DEPTH) return found('brace', i + 1);
        i++;
      }
    } else if (c === 0x7b) {
      if (++braces > MAX_BRACE_DEPTH) return found('brace', i);
    } else if (c === 0x29 || c === 0x7d) {
      if (depth > 0) depth--;
      if (c === 0x7d && braces > 0) braces--;
    } else if (c === 0x5b) {
      if (text.charCodeAt(i + 1) === 0x5b && beforeWord(i === 0 ? undefined : text.charCodeAt(i - 1)) && afterWord(i + 2 < text.length ? text.charCodeAt(i + 2) : undefined)) {
        if (++open > MAX_OPEN_CONDITIONALS) return found('conditional', i);
        i++;
      }
    } else if (c === 0x5d) {
      if (text.charCodeAt(i + 1) === 0x5d && afterWord(i + 2 < text.length ? text.charCodeAt(i + 2) : undefined)) {
        if (open > 0) open--;
        i++;
      }
    }
  }
  return undefined;
}
