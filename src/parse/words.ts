/**
 * Static resolution of shell words (cf. ShellCheck's `getLiteralString`): what a word expands
 * to when it contains no expansion, and a part-by-part view when it does.
 */
import type { Language, Node } from 'web-tree-sitter';
import type { Span } from '../core/types.js';
import type { TableView } from './node-table.js';

/** One piece of a word after quote removal. */
export type WordPart =
  /** Literal text; `quoted` when it came from inside quotes (so glob characters are inert). */
  | { readonly kind: 'literal'; readonly value: string; readonly quoted: boolean }
  /**
   * A parameter expansion `$NAME` / `${NAME…}`. `guarded` when the expansion cannot be empty
   * or aborts when empty: `${NAME:?…}`, `${NAME?…}`, `${NAME:-word}`/`${NAME:=word}` with a
   * non-empty word.
   */
  | {
      readonly kind: 'parameter';
      readonly name: string;
      readonly guarded: boolean;
      readonly quoted: boolean;
      /** True for `$NAME` and `${NAME}` alone: the value itself, no operator (`${x:-d}`, `${x@P}`, `${!x}` …). */
      readonly plain?: boolean;
    }
  /** Anything whose value cannot be known statically: command/arithmetic/process substitution. */
  | { readonly kind: 'dynamic'; readonly node: string; readonly quoted: boolean };

/** A shell word (an argument, command name, redirection target or assignment value). */
export interface Word {
  /** The word's source text. */
  readonly raw: string;
  /** Where the word is in the unit's text. */
  readonly span: Span;
  /** The word after quote removal when it contains no expansion; otherwise `undefined`. */
  readonly value: string | undefined;
  /** The word's pieces in order, after quote removal. */
  readonly parts: readonly WordPart[];
  /** True when any part of the word is quoted or escaped. */
  readonly quoted: boolean;
}

const BACKSLASH_IN_DOUBLE = /\\([$`"\\\n])/g;

function unescapeUnquoted(text: string): string {
  // Outside quotes a backslash quotes the next character; backslash-newline disappears.
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) {
      const n = text[i + 1];
      i++;
      if (n !== '\n') out += n;
    } else {
      out += c;
    }
  }
  return out;
}

/** True when unquoted word text `text` has a `*`, `?` or `[` that no backslash escapes. */
function hasBareGlobChar(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '*' || c === '?' || c === '[') return true;
  }
  return false;
}

/**
 * Appends unquoted word text `text` to `out` as literal parts after quote removal: each
 * backslash-escaped character in a quoted part, the runs between them in unquoted parts (bash
 * manual, "Escape Character"; backslash-newline disappears).
 */
function splitEscapes(text: string, out: WordPart[]): void {
  let run = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      const n = text[++i]!;
      if (run !== '') out.push({ kind: 'literal', value: run, quoted: false });
      run = '';
      if (n !== '\n') out.push({ kind: 'literal', value: n, quoted: true });
    } else run += c;
  }
  if (run !== '') out.push({ kind: 'literal', value: run, quoted: false });
}

const ANSI_C_SIMPLE: Readonly<Record<string, string>> = {
  a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v',
  '\\': '\\', "'": "'", '"': '"', '?': '?',
};

/** Decodes the body of a bash `$'…'` string (escapes as in the bash manual, QUOTING). */
export function decodeAnsiC(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const n = body[++i]!;
    const simple = ANSI_C_SIMPLE[n];
    if (simple !== undefined) {
      out += simple;
    } else if (n >= '0' && n <= '7') {
      const m = /^[0-7]{1,3}/.exec(body.slice(i, i + 3))![0];
      out += String.fromCharCode(parseInt(m, 8) & 0xff);
      i += m.length - 1;
    } else if (n === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(body.slice(i + 1, i + 3));
      if (m) {
        out += String.fromCharCode(parseInt(m[0], 16));
        i += m[0].length;
      } else out += '\\x';
    } else if (n === 'u' || n === 'U') {
      const m = (n === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(body.slice(i + 1, i + 9));
      const cp = m ? parseInt(m[0], 16) : NaN;
      if (m && cp <= 0x10ffff) {
        out += String.fromCodePoint(cp);
        i += m[0].length;
      } else out += '\\' + n;
    } else if (n === 'c' && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f);
    } else {
      out += '\\' + n;
    }
  }
  return out;
}

const GUARDED_EXPANSION = /^\$\{#?[A-Za-z_0-9@*#?$!-]+(?::?\?|:?[-=]\s*[^\s}])/;

let namedLanguage: Language | undefined;
let namedById: (boolean | undefined)[] = [];

/**
 * The type of `node` and whether it is named, from one call into the parser's wasm memory
 * (`Node.type` and `Node.isNamed` are one call each): named-ness is a property of the node's
 * symbol, cached per symbol id of the language. Same answers as `node.type` / `node.isNamed`.
 */
export function nodeKind(node: Node): { readonly type: string; readonly named: boolean } {
  const typeId = node.typeId;
  const language = node.tree.language;
  if (language !== namedLanguage) {
    namedLanguage = language;
    namedById = [];
  }
  let named = namedById[typeId];
  if (named === undefined) {
    named = node.isNamed;
    namedById[typeId] = named;
  }
  return { type: language.types[typeId] || 'ERROR', named };
}

/** Source text of `[start, end)` in the unit (see {@link toWord}). */
type TextOf = (start: number, end: number) => string;

function parameterPart(node: Node, type: string, start: number, end: number, quoted: boolean, sub: TextOf): WordPart {
  let name = '';
  for (const c of node.namedChildren) {
    if (c === null) continue;
    const t = c.type;
    if (t === 'variable_name' || t === 'special_variable_name') {
      name = sub(c.startIndex, c.endIndex);
      break;
    }
  }
  const text = sub(start, end);
  // `${#x}` (length) is never empty.
  const guarded = type === 'expansion' && (GUARDED_EXPANSION.test(text) || text.startsWith('${#'));
  const plain = type === 'simple_expansion' || text === `\${${name}}`;
  return { kind: 'parameter', name, guarded, quoted, ...(plain ? { plain: true } : {}) };
}

/**
 * Appends the parts of `node` (of type `type`, extent `[start, end)`) to `out`. Every property
 * of a tree-sitter node but its start is a call into the parser's wasm memory, so the type and
 * extent are read once per node and text is sliced from the source.
 */
function collectParts(node: Node, type: string, start: number, end: number, quoted: boolean, out: WordPart[], sub: TextOf): void {
  switch (type) {
    case 'word':
    case 'number': {
      // A backslash-escaped character is quoted; the part is marked quoted as a whole, unless
      // the word also holds an unescaped glob character (`\\-*`): then it is split into escaped
      // and unescaped pieces, so the `*` stays a wildcard while the `-` is fixed text.
      const text = sub(start, end);
      if (!quoted && text.includes('\\') && hasBareGlobChar(text)) splitEscapes(text, out);
      else out.push({ kind: 'literal', value: quoted ? text : unescapeUnquoted(text), quoted: quoted || text.includes('\\') });
      return;
    }
    case 'raw_string':
      out.push({ kind: 'literal', value: sub(start, end).slice(1, -1), quoted: true });
      return;
    case 'ansi_c_string':
      out.push({ kind: 'literal', value: decodeAnsiC(sub(start, end).slice(2, -1)), quoted: true });
      return;
    case 'string_content':
      out.push({ kind: 'literal', value: sub(start, end).replace(BACKSLASH_IN_DOUBLE, (_m, c: string) => (c === '\n' ? '' : c)), quoted: true });
      return;
    case 'string':
    case 'translated_string': {
      // Children are string_content and expansions; literal text between them (not covered by
      // a named child) is kept too, e.g. a lone `$` at the end of a string.
      const inner = type === 'translated_string' ? node.namedChildren[0] : node;
      if (!inner) return;
      // `"$\⏎HOME"`: bash joins the `$` with what follows the line break; the parser does not.
      if (/\$(?:\\\n)+/.test(sub(start, end))) {
        out.push({ kind: 'dynamic', node: type, quoted: true });
        return;
      }
      const innerStart = inner === node ? start : inner.startIndex;
      const innerEnd = inner === node ? end : inner.endIndex;
      const last = innerEnd - 1;
      let pos = innerStart + 1;
      for (const child of inner.namedChildren) {
        if (!child) continue;
        const cs = child.startIndex;
        const ce = child.endIndex;
        if (cs > pos) out.push({ kind: 'literal', value: sub(pos, cs), quoted: true });
        collectParts(child, child.type, cs, ce, true, out, sub);
        pos = ce;
      }
      if (last > pos) out.push({ kind: 'literal', value: sub(pos, last), quoted: true });
      return;
    }
    case 'concatenation': {
      let pos = start;
      const children = node.children;
      for (let k = 0; k < children.length; k++) {
        const child = children[k];
        if (!child) continue;
        const cs = child.startIndex;
        const ce = child.endIndex;
        if (cs > pos) out.push({ kind: 'literal', value: unescapeUnquoted(sub(pos, cs)), quoted: false });
        const kind = nodeKind(child);
        if (kind.named) collectParts(child, kind.type, cs, ce, quoted, out, sub);
        else if (!isTranslationMarker(kind.type, ce, children[k + 1])) out.push({ kind: 'literal', value: sub(cs, ce), quoted });
        pos = ce;
      }
      if (end > pos) out.push({ kind: 'literal', value: sub(pos, end), quoted });
      return;
    }
    case 'simple_expansion':
    case 'expansion':
      out.push(parameterPart(node, type, start, end, quoted, sub));
      return;
    default:
      out.push({ kind: 'dynamic', node: type, quoted });
  }
}

/**
 * True when an anonymous child of type `type` ending at `end` is the `$` of a locale string
 * `$"…"` inside a word (`r$""m`, `cu$"r"l`): tree-sitter-bash gives that `$` as a token of its own
 * before the `string` node. In the C and POSIX locales, or with no translation, bash drops the `$`
 * and the word is the string's text (bash manual, "Locale-Specific Translation",
 * https://www.gnu.org/software/bash/manual/html_node/Locale-Translation.html); a translation
 * catalogue could change the text, which no check here models (nor for a word that starts with `$"…"`).
 */
function isTranslationMarker(type: string, end: number, next: Node | null | undefined): boolean {
  return type === '$' && next != null && next.startIndex === end && next.type === 'string';
}

/** {@link isTranslationMarker} for node `c` of a node table, ending at `end`. */
function isTranslationMarkerAt(v: TableView, c: number, end: number): boolean {
  if (v.type(c) !== '$') return false;
  const next = v.next(c);
  return next !== -1 && v.table.start[next] === end && v.type(next) === 'string';
}

/**
 * The word of an anonymous `$` token that tree-sitter-bash gives as a command argument of its own
 * (`-de$""lete`, `-O$"cmd"`, `x$`): the token's text is what precedes the `$` in the word and the
 * `$` itself. `raw` is that text, `span` its extent; `beforeString` is true when a `string` node
 * touches its end, so the `$` is the marker of a locale string `$"…"` (dropped, see
 * {@link isTranslationMarker}); otherwise the `$` is a literal character. The word is joined with
 * the touching words after it by {@link joinTouching}. Never throws.
 */
export function dollarTokenWord(raw: string, span: Span, beforeString: boolean): Word {
  const text = beforeString && raw.endsWith('$') ? raw.slice(0, -1) : raw;
  const value = unescapeUnquoted(text);
  const quoted = text.includes('\\');
  return { raw, span, value, parts: value === '' ? [] : [{ kind: 'literal', value, quoted }], quoted };
}

/**
 * True when `source` between the UTF-16 offsets `end` and `start` (`end` ≤ `start`) holds
 * nothing, or only backslash-newline pairs: bash removes an unquoted backslash-newline before it
 * splits words (bash manual, "Escape Character"), so words on both sides are one word
 * (`-de\⏎lete` is `-delete`), while tree-sitter-bash gives two.
 */
export function adjoins(source: string, end: number, start: number): boolean {
  if (end === start) return true;
  if (end < 0 || start < end || (start - end) % 2 !== 0) return false;
  for (let i = end; i < start; i += 2) if (source.charCodeAt(i) !== 0x5c || source.charCodeAt(i + 1) !== 0x0a) return false;
  return true;
}

/** Merges adjacent literal parts of equal quoting, so part lists stay short and predictable. */
function mergeLiterals(parts: WordPart[]): WordPart[] {
  const out: WordPart[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (p.kind === 'literal' && last?.kind === 'literal' && last.quoted === p.quoted) {
      out[out.length - 1] = { kind: 'literal', value: last.value + p.value, quoted: p.quoted };
    } else if (!(p.kind === 'literal' && p.value === '' && out.length > 0)) {
      out.push(p);
    }
  }
  return out;
}

/**
 * Builds the {@link Word} view of a tree-sitter word-like node (`word`, `string`, `raw_string`,
 * `concatenation`, expansions …). `source`, when given, is the whole text the tree was parsed
 * from (offsets are read from it instead of asking the tree for each node's text; the result is
 * the same). `type`, when given, is `node.type` (saves reading it again). Never throws; unknown
 * node types become `dynamic` parts.
 */
export function toWord(node: Node, source?: string, type?: string): Word {
  const start = node.startIndex;
  const end = node.endIndex;
  const raw = source !== undefined ? source.slice(start, end) : node.text;
  const sub: TextOf = source !== undefined ? (s, e) => source.slice(s, e) : (s, e) => raw.slice(s - start, e - start);
  const parts: WordPart[] = [];
  collectParts(node, type ?? node.type, start, end, false, parts, sub);
  const merged = mergeLiterals(parts);
  const isStatic = merged.every((p) => p.kind === 'literal');
  return {
    raw,
    span: { start, end },
    value: isStatic ? merged.map((p) => (p.kind === 'literal' ? p.value : '')).join('') : undefined,
    parts: merged,
    // From the parts, not a scan of `raw`: a word holding nested `$(…)` would make that
    // quadratic in the nesting depth (each level's raw text contains all deeper levels).
    quoted: merged.some((p) => p.quoted),
  };
}

/** {@link parameterPart} over a node table. */
function parameterPartAt(v: TableView, i: number, type: string, start: number, end: number, quoted: boolean, src: string): WordPart {
  let name = '';
  for (let c = v.firstChild(i); c !== -1; c = v.next(c)) {
    if (!v.named(c)) continue;
    const t = v.type(c);
    if (t === 'variable_name' || t === 'special_variable_name') {
      name = src.slice(v.table.start[c], v.table.end[c]);
      break;
    }
  }
  const text = src.slice(start, end);
  const guarded = type === 'expansion' && (GUARDED_EXPANSION.test(text) || text.startsWith('${#'));
  const plain = type === 'simple_expansion' || text === `\${${name}}`;
  return { kind: 'parameter', name, guarded, quoted, ...(plain ? { plain: true } : {}) };
}

/** {@link collectParts} over a node table: the same parts for the same node. */
function collectPartsAt(v: TableView, i: number, type: string, start: number, end: number, quoted: boolean, out: WordPart[], src: string): void {
  switch (type) {
    case 'word':
    case 'number': {
      const text = src.slice(start, end);
      if (!quoted && text.includes('\\') && hasBareGlobChar(text)) splitEscapes(text, out);
      else out.push({ kind: 'literal', value: quoted ? text : unescapeUnquoted(text), quoted: quoted || text.includes('\\') });
      return;
    }
    case 'raw_string':
      out.push({ kind: 'literal', value: src.slice(start, end).slice(1, -1), quoted: true });
      return;
    case 'ansi_c_string':
      out.push({ kind: 'literal', value: decodeAnsiC(src.slice(start, end).slice(2, -1)), quoted: true });
      return;
    case 'string_content':
      out.push({ kind: 'literal', value: src.slice(start, end).replace(BACKSLASH_IN_DOUBLE, (_m, c: string) => (c === '\n' ? '' : c)), quoted: true });
      return;
    case 'string':
    case 'translated_string': {
      const inner = type === 'translated_string' ? v.firstNamedChild(i) : i;
      if (inner === -1) return;
      // `"$\⏎HOME"`: bash joins the `$` with what follows the line break; the parser does not.
      if (src.slice(start, end).includes('$\\\n')) {
        out.push({ kind: 'dynamic', node: type, quoted: true });
        return;
      }
      const innerStart = inner === i ? start : v.table.start[inner]!;
      const innerEnd = inner === i ? end : v.table.end[inner]!;
      const last = innerEnd - 1;
      let pos = innerStart + 1;
      for (let c = v.firstChild(inner); c !== -1; c = v.next(c)) {
        if (!v.named(c)) continue;
        const cs = v.table.start[c]!;
        const ce = v.table.end[c]!;
        if (cs > pos) out.push({ kind: 'literal', value: src.slice(pos, cs), quoted: true });
        collectPartsAt(v, c, v.type(c), cs, ce, true, out, src);
        pos = ce;
      }
      if (last > pos) out.push({ kind: 'literal', value: src.slice(pos, last), quoted: true });
      return;
    }
    case 'concatenation': {
      let pos = start;
      for (let c = v.firstChild(i); c !== -1; c = v.next(c)) {
        const cs = v.table.start[c]!;
        const ce = v.table.end[c]!;
        if (cs > pos) out.push({ kind: 'literal', value: unescapeUnquoted(src.slice(pos, cs)), quoted: false });
        if (v.named(c)) collectPartsAt(v, c, v.type(c), cs, ce, quoted, out, src);
        else if (!isTranslationMarkerAt(v, c, ce)) out.push({ kind: 'literal', value: src.slice(cs, ce), quoted });
        pos = ce;
      }
      if (end > pos) out.push({ kind: 'literal', value: src.slice(pos, end), quoted });
      return;
    }
    case 'simple_expansion':
    case 'expansion':
      out.push(parameterPartAt(v, i, type, start, end, quoted, src));
      return;
    default:
      out.push({ kind: 'dynamic', node: type, quoted });
  }
}

/**
 * {@link toWord} of node `i` of a node table (src/parse/node-table.ts): the same word, read from
 * the table instead of web-tree-sitter `Node` objects. `src` is the text the tree was parsed from
 * (UTF-16 offsets); `type` is the node's type when the caller has it. Never throws.
 */
export function wordAt(v: TableView, i: number, src: string, type: string = v.type(i)): Word {
  const start = v.table.start[i]!;
  const end = v.table.end[i]!;
  const parts: WordPart[] = [];
  collectPartsAt(v, i, type, start, end, false, parts, src);
  const merged = mergeLiterals(parts);
  const isStatic = merged.every((p) => p.kind === 'literal');
  return {
    raw: src.slice(start, end),
    span: { start, end },
    value: isStatic ? merged.map((p) => (p.kind === 'literal' ? p.value : '')).join('') : undefined,
    parts: merged,
    quoted: merged.some((p) => p.quoted),
  };
}

/**
 * The one word bash reads where tree-sitter-bash gives two that touch (`first` ends at the UTF-16
 * offset where `second` starts, no blank between, or only backslash-newline pairs between, see
 * {@link adjoins}): the grammar sometimes ends a word before a
 * backquote or `$(…)` substitution (`dir/\`basename $i\``, `r\`true\`m`, `x=a\`b\`c`) or
 * between two process substitutions (`<(a)<(b)`), while bash ends a word only at an unquoted
 * metacharacter (bash manual, "Definitions": blank, `|`, `&`, `;`, `(`, `)`, `<`, `>`).
 * `source` is the unit's text both spans point into. Returns a new word: the raw text of both,
 * the parts of both in order (adjacent literals of equal quoting merged), static only when both
 * are. Never throws.
 */
export function joinWords(first: Word, second: Word, source: string): Word {
  const parts = mergeLiterals([...first.parts, ...second.parts]);
  const isStatic = first.value !== undefined && second.value !== undefined;
  return {
    raw: source.slice(first.span.start, second.span.end),
    span: { start: first.span.start, end: second.span.end },
    value: isStatic ? first.value + second.value : undefined,
    parts,
    quoted: first.quoted || second.quoted,
  };
}

/**
 * `words` (in document order) with every run of touching words joined into one
 * ({@link joinWords}; words separated only by backslash-newline pairs touch, see
 * {@link adjoins}); the same array when no two touch.
 */
export function joinTouching(words: readonly Word[], source: string): readonly Word[] {
  let out: Word[] | undefined;
  for (let i = 1; i < words.length; i++) {
    if (!adjoins(source, words[i - 1]!.span.end, words[i]!.span.start)) continue;
    out = [];
    for (const w of words) {
      const last = out[out.length - 1];
      if (last !== undefined && adjoins(source, last.span.end, w.span.start)) out[out.length - 1] = joinWords(last, w, source);
      else out.push(w);
    }
    return out;
  }
  return words;
}

/** True when the word has an unquoted glob character (`*`, `?`, `[`) in a literal part. */
export function hasUnquotedGlob(word: Word): boolean {
  return word.parts.some((p) => p.kind === 'literal' && !p.quoted && /[*?[]/.test(p.value));
}
