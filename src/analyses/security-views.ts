/**
 * Quote-aware text views of one command string, as Claude Code's bashSecurity validators see it
 * (claude-code-reference.md §1.3), plus an emulation of the `shell-quote` tokenizer that two of those
 * validators consult.
 *
 * Every view keeps a map from its own indices back to offsets in the command string, so a
 * finding on a view points at the right character of the source. All offsets are UTF-16 code
 * units, 0-based, end exclusive. Every function here runs in time linear in the length of its
 * input: no regular expression with nested or overlapping quantifiers is used; the few regular
 * expressions left test single characters.
 */
import type { Span } from '../core/types.js';

/** A quoted heredoc whose body is inert text, located in the command string (claude-code-reference.md §1.3). */
export interface InertHeredoc {
  /** Offset of the `<<` operator. */
  readonly opStart: number;
  /** Offset just after the delimiter word (`<<'EOF'` ends here). */
  readonly opEnd: number;
  /** Offset of the newline that ends the heredoc's command line (the body starts after it). */
  readonly contentStart: number;
  /** Offset just after the closing delimiter line (its newline is not included). */
  readonly contentEnd: number;
}

/**
 * A derived text with a map back to the command string. `origin(i)` is the command-string
 * offset of the view's character `i`; `origin(text.length)` is the offset just after the last
 * mapped character.
 */
export class View {
  /**
   * @param text the view's text
   * @param map command-string offset of every view index, plus one end sentinel (length
   *   `text.length + 1`); `undefined` when the view is the command string itself
   */
  constructor(
    readonly text: string,
    private readonly map: ArrayLike<number> | undefined,
  ) {}

  /** Command-string offset of view index `i` (clamped to `[0, text.length]`). */
  origin(i: number): number {
    const j = Math.min(Math.max(i, 0), this.text.length);
    if (!this.map) return j;
    return this.map[j] ?? 0;
  }

  /** The command-string span covering view indices `[start, end)` (at least one character). */
  span(start: number, end: number): Span {
    const s = this.origin(start);
    const e = end > start ? this.origin(end - 1) + 1 : s + 1;
    return { start: s, end: Math.max(e, s + 1) };
  }
}

/** Builds a {@link View} incrementally: characters with their origins, in typed arrays. */
class ViewBuilder {
  private codes: Uint16Array;
  private map: Int32Array;
  private n = 0;

  /** @param capacity expected length (the arrays grow when needed) */
  constructor(capacity: number) {
    this.codes = new Uint16Array(Math.max(capacity, 16));
    this.map = new Int32Array(Math.max(capacity, 16) + 1);
  }

  private grow(): void {
    const codes = new Uint16Array(this.codes.length * 2);
    codes.set(this.codes);
    const map = new Int32Array(this.codes.length * 2 + 1);
    map.set(this.map);
    this.codes = codes;
    this.map = map;
  }

  /** Appends the UTF-16 code unit `code`, which maps to command offset `at`. */
  push(code: number, at: number): void {
    if (this.n === this.codes.length) this.grow();
    this.codes[this.n] = code;
    this.map[this.n] = at;
    this.n++;
  }

  /** Appends `text[from, to)` of a view whose offsets map through `v`. */
  copy(v: View, from: number, to: number): void {
    for (let i = from; i < to; i++) this.push(v.text.charCodeAt(i), v.origin(i));
  }

  /** Appends a string whose every character maps to `at`. */
  text(s: string, at: number): void {
    for (let i = 0; i < s.length; i++) this.push(s.charCodeAt(i), at);
  }

  /** Finishes the view; `end` is the origin of the end sentinel. */
  build(end: number): View {
    if (this.n === this.codes.length) this.grow();
    this.map[this.n] = end;
    let text = '';
    const CHUNK = 8192;
    for (let i = 0; i < this.n; i += CHUNK) {
      // fromCharCode keeps lone surrogates as they are (a text decoder would replace them).
      const part = this.codes.subarray(i, Math.min(i + CHUNK, this.n)) as unknown as number[];
      text += String.fromCharCode.apply(null, part);
    }
    return new View(text, this.map.subarray(0, this.n + 1));
  }
}

/**
 * True when the UTF-16 code unit `c` is matched by JavaScript's `\s` (ASCII whitespace, NBSP,
 * the Unicode space separators, LS, PS and BOM). Claude Code's regular expressions use `\s`,
 * so the views and checks use exactly this set where they mirror one.
 */
export function isJsSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** True for JavaScript's line terminators (what `.` does not match): LF, CR, LS, PS. */
export function isLineTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

/** True for `[A-Za-z0-9_]` (JavaScript's `\w`). */
export function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

/** The views of claude-code-reference.md §1.3 for one command string. */
export interface SecurityViews {
  /** The raw command string, unchanged. */
  readonly originalCommand: string;
  /** Text before the first ASCII space of the raw command (no trimming). */
  readonly baseCommand: string;
  /** The command with quoted-heredoc bodies replaced by placeholders (Claude Code's `processedCommand`). */
  readonly processed: View;
  /** Single-quoted content removed, double-quoted content kept, quote characters dropped (kept for `jq`). */
  readonly unquotedContent: View;
  /** All quoted content and quote characters removed; unquoted text and escapes kept. */
  readonly fullyUnquotedPreStrip: View;
  /** `fullyUnquotedPreStrip` after safe-redirection stripping. */
  readonly fullyUnquotedContent: View;
  /** Like `fullyUnquotedPreStrip` but the quote delimiters stay (`'x'#` → `''#`). */
  readonly unquotedKeepQuoteChars: View;
}

/**
 * Replaces each inert heredoc by a placeholder, as Claude Code's
 * `extractHeredocs(command, {quotedOnly: true})` does: the operator and delimiter become
 * `__HEREDOC_n__`, text on the rest of the operator's line stays, and the body through the
 * closing delimiter line disappears. `heredocs` must be sorted and non-overlapping.
 */
export function replaceInertHeredocs(command: string, heredocs: readonly InertHeredoc[]): View {
  const source = new View(command, undefined);
  if (heredocs.length === 0) return source;
  const b = new ViewBuilder(command.length);
  let pos = 0;
  heredocs.forEach((h, n) => {
    b.copy(source, pos, h.opStart);
    b.text(`__HEREDOC_${n}__`, h.opStart);
    b.copy(source, h.opEnd, h.contentStart);
    pos = h.contentEnd;
  });
  b.copy(source, pos, command.length);
  return b.build(command.length);
}

/**
 * Claude Code's `extractQuotedContent` (bashSecurity.ts) over `processed`: one linear walk that
 * tracks single quotes, double quotes and backslash escapes (a backslash escapes only outside
 * single quotes) and returns the three quote views. With `isJq` the double-quote characters are
 * kept in `unquotedContent` (and, as in Claude Code, a closing one also lands in the two
 * fully-unquoted views).
 */
export function extractQuotedViews(
  processed: View,
  isJq: boolean,
): { unquotedContent: View; fullyUnquoted: View; unquotedKeepQuoteChars: View } {
  const t = processed.text;
  // Without quotes or backslashes every view is the text itself.
  if (!/['"\\]/.test(t)) return { unquotedContent: processed, fullyUnquoted: processed, unquotedKeepQuoteChars: processed };
  const o = (i: number): number => processed.origin(i);
  const wdq = new ViewBuilder(t.length);
  const fu = new ViewBuilder(t.length);
  const kq = new ViewBuilder(t.length);
  let inSingle = false;
  let inDouble = false;
  let escaped = false;
  for (let i = 0; i < t.length; i++) {
    const code = t.charCodeAt(i);
    const at = o(i);
    if (escaped) {
      escaped = false;
      if (!inSingle) wdq.push(code, at);
      if (!inSingle && !inDouble) {
        fu.push(code, at);
        kq.push(code, at);
      }
      continue;
    }
    if (code === 0x5c /* \ */ && !inSingle) {
      escaped = true;
      wdq.push(code, at);
      if (!inDouble) {
        fu.push(code, at);
        kq.push(code, at);
      }
      continue;
    }
    if (code === 0x27 /* ' */ && !inDouble) {
      inSingle = !inSingle;
      kq.push(code, at);
      continue;
    }
    if (code === 0x22 /* " */ && !inSingle) {
      inDouble = !inDouble;
      kq.push(code, at);
      if (!isJq) continue;
    }
    if (!inSingle) wdq.push(code, at);
    if (!inSingle && !inDouble) {
      fu.push(code, at);
      kq.push(code, at);
    }
  }
  const end = o(t.length);
  return { unquotedContent: wdq.build(end), fullyUnquoted: fu.build(end), unquotedKeepQuoteChars: kq.build(end) };
}

/** Index after `\s*` from `i`. */
function skipSpaces(t: string, i: number): number {
  while (i < t.length && isJsSpace(t.charCodeAt(i))) i++;
  return i;
}

/** True when `i` is the end of `t` or `t[i]` is `\s` (the `(?=\s|$)` boundary). */
function atBoundary(t: string, i: number): boolean {
  return i >= t.length || isJsSpace(t.charCodeAt(i));
}

/** End of `\s*` `/dev/null` `(?=\s|$)` starting at `i`, or -1. */
function devNullTail(t: string, i: number): number {
  const k = skipSpaces(t, i);
  if (!t.startsWith('/dev/null', k)) return -1;
  return atBoundary(t, k + 9) ? k + 9 : -1;
}

/**
 * One pass of a `String.replace(/…/g, '')` whose matches begin with `\s*` or at a fixed
 * character: `tail(i)` returns the end of a match that starts at `i` after the optional
 * whitespace has been consumed, or -1. `atChar(i)` returns the end of a match starting at a
 * non-space character `i`, or -1. Leftmost-first semantics are kept: a whitespace run either
 * starts a match at its first character or at none of its characters.
 */
function removeMatches(
  v: View,
  leadingSpace: 'none' | 'one-or-more' | 'any',
  tail: (i: number) => number,
  atChar: (i: number) => number,
): View {
  const t = v.text;
  const b = new ViewBuilder(t.length);
  let i = 0;
  while (i < t.length) {
    if (leadingSpace !== 'none' && isJsSpace(t.charCodeAt(i))) {
      const r = skipSpaces(t, i);
      const m = tail(r);
      if (m >= 0) {
        i = m;
        continue;
      }
      b.copy(v, i, r);
      i = r;
      continue;
    }
    const m = atChar(i);
    if (m >= 0) {
      i = m;
      continue;
    }
    b.push(t.charCodeAt(i), v.origin(i));
    i++;
  }
  return b.build(v.origin(t.length));
}

/**
 * Claude Code's `stripSafeRedirections`: removes, in three successive passes, ` 2>&1` (spaces
 * allowed around `>&`), `[012]>/dev/null` and `</dev/null`, each only when followed by
 * whitespace or the end (so `> /dev/nullo` stays).
 */
export function stripSafeRedirections(v: View): View {
  // Every match needs a `>` (passes 1 and 2) or a `<` (pass 3): skip the passes that cannot match.
  const hasGt = v.text.includes('>');
  if (!hasGt && !v.text.includes('<')) return v;
  if (!hasGt) return stripInputNull(v);
  // Pass 1: \s+2\s*>&\s*1(?=\s|$)
  const pass1 = removeMatches(
    v,
    'one-or-more',
    (r) => {
      const t = v.text;
      if (t[r] !== '2') return -1;
      let k = skipSpaces(t, r + 1);
      if (t[k] !== '>' || t[k + 1] !== '&') return -1;
      k = skipSpaces(t, k + 2);
      if (t[k] !== '1') return -1;
      return atBoundary(t, k + 1) ? k + 1 : -1;
    },
    () => -1,
  );
  // Pass 2: [012]?\s*>\s*\/dev\/null(?=\s|$)
  const t2 = pass1.text;
  const gtTail = (k: number): number => (t2[k] === '>' ? devNullTail(t2, k + 1) : -1);
  const pass2 = removeMatches(pass1, 'any', gtTail, (i) => {
    const c = t2[i];
    if (c === '0' || c === '1' || c === '2') return gtTail(skipSpaces(t2, i + 1));
    return gtTail(i);
  });
  return pass2.text.includes('<') ? stripInputNull(pass2) : pass2;
}

/** Pass 3 of {@link stripSafeRedirections}: `\s*<\s*\/dev\/null(?=\s|$)`. */
function stripInputNull(v: View): View {
  const t = v.text;
  const ltTail = (k: number): number => (t[k] === '<' ? devNullTail(t, k + 1) : -1);
  return removeMatches(v, 'any', ltTail, ltTail);
}

/**
 * Claude Code's continuation join for the mid-word-hash check: every run of backslashes
 * directly before a LF loses one backslash and the LF when the run is odd; even runs stay.
 */
export function joinContinuations(v: View): View {
  const t = v.text;
  if (!t.includes('\\\n')) return v;
  const b = new ViewBuilder(t.length);
  let i = 0;
  while (i < t.length) {
    if (t[i] !== '\\') {
      b.push(t.charCodeAt(i), v.origin(i));
      i++;
      continue;
    }
    let r = i;
    while (r < t.length && t[r] === '\\') r++;
    if (t[r] === '\n' && (r - i) % 2 === 1) {
      b.copy(v, i, r - 1);
      i = r + 1;
    } else {
      b.copy(v, i, r);
      i = r;
    }
  }
  return b.build(v.origin(t.length));
}

/**
 * Builds every view of claude-code-reference.md §1.3 for `command`, treating the bodies of `inert` heredocs as
 * inert text. Linear in the command's length. Mirrors the view construction at the start of
 * Claude Code's `bashCommandIsSafe_DEPRECATED`. `inert` may be a function, called at most once,
 * when the heredocs are costly to find: the views other than `originalCommand` and `baseCommand`
 * are built on first use (most command strings meet no check that reads them), and each only once.
 */
export function buildSecurityViews(command: string, inert: readonly InertHeredoc[] | (() => readonly InertHeredoc[])): SecurityViews {
  return new LazyViews(command, inert);
}

/** The {@link SecurityViews} of one command string, each view built when first read. */
class LazyViews implements SecurityViews {
  readonly baseCommand: string;
  private processedView: View | undefined;
  private quoted: ReturnType<typeof extractQuotedViews> | undefined;
  private stripped: View | undefined;

  constructor(
    readonly originalCommand: string,
    private inert: readonly InertHeredoc[] | (() => readonly InertHeredoc[]),
  ) {
    const space = originalCommand.indexOf(' ');
    this.baseCommand = space === -1 ? originalCommand : originalCommand.slice(0, space);
  }

  get processed(): View {
    if (!this.processedView) {
      const inert = typeof this.inert === 'function' ? this.inert() : this.inert;
      this.inert = [];
      this.processedView = replaceInertHeredocs(this.originalCommand, inert);
    }
    return this.processedView;
  }

  private get views(): ReturnType<typeof extractQuotedViews> {
    this.quoted ??= extractQuotedViews(this.processed, this.baseCommand === 'jq');
    return this.quoted;
  }

  get unquotedContent(): View {
    return this.views.unquotedContent;
  }

  get fullyUnquotedPreStrip(): View {
    return this.views.fullyUnquoted;
  }

  get fullyUnquotedContent(): View {
    this.stripped ??= stripSafeRedirections(this.views.fullyUnquoted);
    return this.stripped;
  }

  get unquotedKeepQuoteChars(): View {
    return this.views.unquotedKeepQuoteChars;
  }
}

// ---------------------------------------------------------------------------------------------
// shell-quote emulation
// ---------------------------------------------------------------------------------------------

/** One entry of the `shell-quote` parse of a command, with where it came from. */
export type ShellQuoteEntry =
  | { readonly kind: 'string'; readonly value: string; readonly span: Span }
  | { readonly kind: 'op'; readonly op: string; readonly span: Span }
  | { readonly kind: 'glob'; readonly pattern: string; readonly span: Span }
  | { readonly kind: 'comment'; readonly span: Span };

/** shell-quote's control operators, in its alternation order. */
const CONTROL_OPS = ['||', '&&', ';;', '|&', '<(', '<<<', '>>', '>&', '<&'] as const;
const CONTROL_SINGLE = '&;()|<>';
/** Characters that end a bare word (besides `\s`): shell-quote's META plus both quotes. */
const BAREWORD_STOP = '|&;()<>\'"';
/** Characters a backslash may escape inside a bare word chunk: quotes, META, space, tab. */
const BAREWORD_ESCAPABLE = '\'"|&;()<> \t';

function controlAt(s: string, i: number): string | undefined {
  for (const op of CONTROL_OPS) if (s.startsWith(op, i)) return op;
  const c = s[i];
  return c !== undefined && CONTROL_SINGLE.includes(c) ? c : undefined;
}

/** End of shell-quote's lazy `q((\\q|[^q])*?)q` from the opening quote at `k`, or -1. */
function quotedEnd(s: string, k: number, q: string): number {
  let lastEscapedQuote = -1;
  for (let j = k + 1; j < s.length; j++) {
    const c = s[j];
    if (c === q) return j + 1;
    if (c === '\\' && s[j + 1] === q) {
      lastEscapedQuote = j;
      j++;
    }
  }
  // No plain closing quote: the regex backtracks to the last `\q`, reads the backslash as an
  // ordinary character and closes at that quote.
  return lastEscapedQuote >= 0 ? lastEscapedQuote + 2 : -1;
}

/** End of a `(BAREWORD|SQ|DQ)+` chunk starting at `p`, or `p` when none starts there. */
function chunkEnd(s: string, p: number): number {
  let k = p;
  while (k < s.length) {
    const c = s[k]!;
    if (c === "'" || c === '"') {
      const e = quotedEnd(s, k, c);
      if (e < 0) break;
      k = e;
      continue;
    }
    if (c === '\\' && k + 1 < s.length && BAREWORD_ESCAPABLE.includes(s[k + 1]!)) {
      k += 2;
      continue;
    }
    if (!isJsSpace(s.charCodeAt(k)) && !BAREWORD_STOP.includes(c)) {
      k++;
      continue;
    }
    break;
  }
  return k;
}

class BadSubstitution extends Error {}

/**
 * Emulates `parse(command)` of the `shell-quote` package (v1.8, no environment: every variable
 * expands to the empty string, a lone `$` stays), which Claude Code's legacy path uses to split
 * commands. Returns `undefined` where shell-quote throws (`Bad substitution`). Reproduced
 * quirks: an unmatched quote is dropped, `\'` ends a quoted chunk differently from the
 * character scanner, an unquoted `#` anywhere starts a comment that swallows the rest, `$x`
 * skips one extra character after a special parameter. Linear in the command's length.
 */
export function shellQuoteParse(command: string): ShellQuoteEntry[] | undefined {
  const out: ShellQuoteEntry[] = [];
  let pos = 0;
  try {
    while (pos < command.length) {
      const op = controlAt(command, pos);
      if (op !== undefined) {
        out.push({ kind: 'op', op, span: { start: pos, end: pos + op.length } });
        pos += op.length;
        continue;
      }
      const end = chunkEnd(command, pos);
      if (end === pos) {
        pos++;
        continue;
      }
      const commented = scanChunk(command, pos, end, out);
      if (commented) return out;
      pos = end;
    }
  } catch (err) {
    if (err instanceof BadSubstitution) return undefined;
    throw err;
  }
  return out;
}

/** shell-quote's `parseEnvVar` at the `$` at `i` of chunk `[p, e)`: [value, index of last consumed char]. */
function parseEnvVar(s: string, i: number, e: number): [string, number] {
  i += 1;
  const c = i < e ? s[i]! : '';
  let name: string;
  if (c === '{') {
    i += 1;
    if (i < e && s[i] === '}') throw new BadSubstitution();
    const close = s.indexOf('}', i);
    if (close < 0 || close >= e) throw new BadSubstitution();
    name = s.slice(i, close);
    i = close;
  } else if (c !== '' && '*@#?$!_-'.includes(c)) {
    name = c;
    i += 1; // shell-quote's loop then skips one more character
  } else {
    let k = i;
    while (k < e && isWordChar(s.charCodeAt(k))) k++;
    name = s.slice(i, k);
    i = k === e ? e : k - 1;
  }
  return [name === '' ? '$' : '', i];
}

/** Scans one chunk `[p, e)` like shell-quote's per-match scanner; returns true when a comment started. */
function scanChunk(s: string, p: number, e: number, out: ShellQuoteEntry[]): boolean {
  let quote = '';
  let esc = false;
  let value = '';
  let isGlob = false;
  for (let i = p; i < e; i++) {
    let c = s[i]!;
    isGlob = isGlob || (quote === '' && (c === '*' || c === '?'));
    if (esc) {
      value += c;
      esc = false;
    } else if (quote !== '') {
      if (c === quote) quote = '';
      else if (quote === "'") value += c;
      else if (c === '\\') {
        i += 1;
        c = i < e ? s[i]! : '';
        value += c === '"' || c === '\\' || c === '$' ? c : '\\' + c;
      } else if (c === '$') {
        const [v, j] = parseEnvVar(s, i, e);
        value += v;
        i = j;
      } else value += c;
    } else if (c === '"' || c === "'") quote = c;
    else if (CONTROL_SINGLE.includes(c)) {
      out.push({ kind: 'op', op: s.slice(p, e), span: { start: p, end: e } });
      return false;
    } else if (c === '#') {
      if (value.length > 0) out.push({ kind: 'string', value, span: { start: p, end: i } });
      out.push({ kind: 'comment', span: { start: i, end: s.length } });
      return true;
    } else if (c === '\\') esc = true;
    else if (c === '$') {
      const [v, j] = parseEnvVar(s, i, e);
      value += v;
      i = j;
    } else value += c;
  }
  const span = { start: p, end: e };
  out.push(isGlob ? { kind: 'glob', pattern: value, span } : { kind: 'string', value, span });
  return false;
}

/**
 * Where Claude Code's `hasMalformedTokens` (utils/bash/shellQuote.ts) finds a problem, or
 * `undefined`: an odd number of unescaped `"` or `'` in the raw command under bash quote rules
 * (reported at the last unmatched quote), or a string entry with unbalanced `{}`, `()`, `[]`, or
 * an odd number of `"` / `'` not preceded by a backslash (reported at the entry).
 */
export function malformedTokenAt(command: string, entries: readonly ShellQuoteEntry[]): Span | undefined {
  let inSingle = false;
  let inDouble = false;
  let doubles = 0;
  let singles = 0;
  let lastOpen = -1;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === '\\' && !inSingle) {
      i++;
      continue;
    }
    if (c === '"' && !inSingle) {
      doubles++;
      inDouble = !inDouble;
      if (inDouble) lastOpen = i;
    } else if (c === "'" && !inDouble) {
      singles++;
      inSingle = !inSingle;
      if (inSingle) lastOpen = i;
    }
  }
  if (doubles % 2 !== 0 || singles % 2 !== 0) {
    const at = Math.max(lastOpen, 0);
    return { start: at, end: at + 1 };
  }
  for (const entry of entries) {
    if (entry.kind !== 'string') continue;
    const v = entry.value;
    let braces = 0;
    let parens = 0;
    let brackets = 0;
    let dq = 0;
    let sq = 0;
    for (let i = 0; i < v.length; i++) {
      const c = v[i];
      if (c === '{') braces++;
      else if (c === '}') braces--;
      else if (c === '(') parens++;
      else if (c === ')') parens--;
      else if (c === '[') brackets++;
      else if (c === ']') brackets--;
      else if (c === '"' && v[i - 1] !== '\\') dq++;
      else if (c === "'" && v[i - 1] !== '\\') sq++;
    }
    if (braces !== 0 || parens !== 0 || brackets !== 0 || dq % 2 !== 0 || sq % 2 !== 0) return entry.span;
  }
  return undefined;
}

/** A span of a command string that a quote scan jumps over when it meets it unquoted. */
export interface SkippedSpan {
  readonly contentStart: number;
  readonly contentEnd: number;
}

/**
 * Walks `text` with the quote rules of Claude Code's `extractQuotedContent` (single and double
 * quotes; a backslash escapes the next character outside single quotes) and calls `visit` for
 * every character that is not quote syntax — not a quote that opens or closes, not an escaping
 * backslash, not an escaped character — with the quote state it is in. `skip` spans (quoted
 * heredoc bodies, sorted) are jumped over when the scan meets them unquoted. `visit` returns
 * `undefined` to go on, an index to go on from, or `false` to stop. Linear in `text`.
 */
export function scanQuoted(
  text: string,
  skip: readonly SkippedSpan[],
  visit: (i: number, inSingle: boolean, inDouble: boolean) => number | false | undefined,
): void {
  let b = 0;
  let inSingle = false;
  let inDouble = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    while (b < skip.length && skip[b]!.contentEnd <= i) b++;
    const body = skip[b];
    if (body && i >= body.contentStart && !inSingle && !inDouble && !escaped) {
      i = body.contentEnd - 1;
      continue;
    }
    const c = text[i];
    if (escaped) {
      escaped = false;
      continue;
    }
    if (c === '\\' && !inSingle) {
      escaped = true;
      continue;
    }
    if (c === "'" && !inDouble) {
      inSingle = !inSingle;
      continue;
    }
    if (c === '"' && !inSingle) {
      inDouble = !inDouble;
      continue;
    }
    const next = visit(i, inSingle, inDouble);
    if (next === false) return;
    if (next !== undefined) i = next - 1;
  }
}
