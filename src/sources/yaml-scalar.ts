/**
 * The value of a YAML string scalar with, for every character, the offset in the YAML file it came
 * from: what lets a finding in a workflow's `run:` script point at its exact line and column.
 * Decodes the scalar's source token as the YAML 1.2.2 spec reads it (https://yaml.org/spec/1.2.2/
 * §6.5 line folding, §7.3 flow scalars, §8.1 block scalars: `|` literal, `>` folded, chomping
 * `-`/`+`, indentation indicators), then checks the result against the value the `yaml` package
 * parsed: when the two differ (a corner of the spec this decoder does not follow), every character
 * maps to the scalar's first character instead, so positions get coarser but the text analysed is
 * always the parsed value. Offsets are UTF-16 code units, 0-based. Pure.
 */
import type { Scalar } from 'yaml';
import { MappedText } from './mapped-text.js';

/** The source token the `yaml` package keeps with `keepSourceTokens: true` (the fields used here). */
interface Token {
  readonly type: string;
  readonly offset: number;
  readonly indent: number;
  readonly source: string;
  readonly props?: readonly { readonly type: string; readonly offset: number; readonly source: string }[];
}

/**
 * The mapped value of `node`, a scalar whose value is a string, parsed with `keepSourceTokens`.
 * `text` is the whole YAML file. Returns `undefined` when the node's value is not a string.
 */
export function mappedScalar(node: Scalar, text: string): MappedText | undefined {
  if (typeof node.value !== 'string') return undefined;
  const value = node.value;
  const tok = node.srcToken as Token | undefined;
  let decoded: MappedText | undefined;
  if (tok) {
    if (tok.type === 'block-scalar') decoded = blockScalar(tok, text);
    else if (tok.type === 'scalar') decoded = flowScalar(tok.source, tok.offset, 'plain');
    else if (tok.type === 'single-quoted-scalar') decoded = flowScalar(tok.source.slice(1, -1), tok.offset + 1, 'single');
    else if (tok.type === 'double-quoted-scalar') decoded = flowScalar(tok.source.slice(1, -1), tok.offset + 1, 'double');
  }
  if (decoded && decoded.text === value) return decoded;
  // Not decoded the way the parser did: keep the parsed value, placed at the scalar's start.
  const at = node.range?.[0] ?? tok?.offset ?? 0;
  const out = new MappedText();
  out.replace(value, at, 1);
  return out;
}

/** One physical line of a token's source: `[start, end)` host offsets without the line break. */
interface Line {
  readonly start: number;
  readonly end: number;
  /** Host offset of the line break after the line (`end` when the text ends there). */
  readonly br: number;
  readonly last: boolean;
}

function splitLines(source: string, base: number): Line[] {
  const out: Line[] = [];
  let s = 0;
  for (;;) {
    const nl = source.indexOf('\n', s);
    const rawEnd = nl === -1 ? source.length : nl;
    const end = rawEnd > s && source[rawEnd - 1] === '\r' ? rawEnd - 1 : rawEnd;
    out.push({ start: base + s, end: base + end, br: base + end, last: nl === -1 });
    if (nl === -1) break;
    s = nl + 1;
  }
  return out;
}

/** Block scalars: literal `|` and folded `>` with chomping and indentation indicators. */
function blockScalar(tok: Token, text: string): MappedText | undefined {
  const header = tok.props?.find((p) => p.type === 'block-scalar-header');
  const nl = tok.props?.find((p) => p.type === 'newline');
  if (!header || !nl) return undefined;
  const m = /^([|>])(?:([1-9])([-+]?)|([-+]?)([1-9])?)$/.exec(header.source);
  if (!m) return undefined;
  const folded = m[1] === '>';
  const digit = m[2] ?? m[5];
  const chomp = m[3] || m[4] || '';
  const bodyStart = nl.offset + nl.source.length;
  const body = text.slice(bodyStart, bodyStart + tok.source.length);
  if (body !== tok.source) return undefined;
  const lines = splitLines(body, bodyStart);
  if (lines.length > 0 && lines[lines.length - 1]!.start === lines[lines.length - 1]!.end && lines[lines.length - 1]!.last) lines.pop();
  let indent: number;
  if (digit !== undefined) indent = Math.max(tok.indent, 0) + Number(digit);
  else {
    const first = lines.find((l) => text.slice(l.start, l.end).trim() !== '');
    if (!first) indent = 0;
    else indent = /^ */.exec(text.slice(first.start, first.end))![0].length;
  }
  // Content of each line after the indentation; `undefined` for an empty line.
  const content = lines.map((l) => {
    const s = text.slice(l.start, l.end);
    if (s.length <= indent && s.trim() === '') return undefined;
    if (s.slice(0, indent).trim() !== '') return null; // less indented: not part of the scalar
    return { start: l.start + indent, end: l.end, br: l.br };
  });
  if (content.some((c) => c === null)) return undefined;
  const out = new MappedText();
  let lastContent = -1;
  for (let i = content.length - 1; i >= 0; i--) if (content[i]) { lastContent = i; break; }
  const isMore = (i: number): boolean => {
    const c = content[i];
    return !!c && (text[c.start] === ' ' || text[c.start] === '\t');
  };
  for (let i = 0; i <= lastContent; i++) {
    const c = content[i];
    if (c) out.copy(text, c.start, c.end);
    if (i === lastContent) break;
    const br = c ? c.br : lines[i]!.br;
    if (!folded) {
      out.push('\n', br);
      continue;
    }
    // Folding: a break between two normal lines becomes a space; with empty lines between, the
    // first break is dropped and each empty line gives one; more-indented lines keep theirs.
    if (!c) {
      out.push('\n', br);
      continue;
    }
    let j = i + 1;
    while (j <= lastContent && !content[j]) j++;
    if (j === i + 1) out.push(isMore(i) || isMore(j) ? '\n' : ' ', br);
    else if (isMore(i) || isMore(j)) out.push('\n', br);
  }
  // Chomping of the final line break and trailing empty lines.
  if (lastContent >= 0 && chomp !== '-') {
    const end = content[lastContent]!;
    if (!lines[lastContent]!.last || end.br < bodyStart + body.length) out.push('\n', end.br);
    if (chomp === '+') for (let i = lastContent + 1; i < lines.length; i++) out.push('\n', lines[i]!.br);
  } else if (lastContent < 0 && chomp === '+') {
    for (const l of lines) out.push('\n', l.br);
  }
  return out;
}

const DOUBLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ',
  '"': '"', '/': '/', '\\': '\\', N: '\u0085', _: '\u00a0', L: '\u2028', P: '\u2029',
};

/**
 * Plain and quoted (flow) scalars: `source` is the text between the quotes (all of it for a plain
 * scalar), starting at host offset `base`. Line breaks fold: one break between text becomes a
 * space, n breaks n−1 newlines; blanks around a break are dropped; `''` is `'` in single quotes;
 * double quotes decode escapes, and an escaped break joins the lines.
 */
function flowScalar(source: string, base: number, style: 'plain' | 'single' | 'double'): MappedText | undefined {
  const out = new MappedText();
  const n = source.length;
  let i = 0;
  // Blanks at the end of a line are dropped at a fold; keep them pending until the line goes on.
  let pending: { ch: string; at: number }[] = [];
  const flush = (): void => {
    for (const p of pending) out.push(p.ch, p.at);
    pending = [];
  };
  while (i < n) {
    const c = source[i]!;
    if (c === '\r' && source[i + 1] === '\n') {
      i++;
      continue;
    }
    if (c === '\n') {
      // A fold: drop the blanks before it, count the empty lines, skip the next line's indentation.
      pending = [];
      const at = base + i;
      let breaks = 0;
      let k = i;
      while (k < n) {
        if (source[k] === '\n') {
          breaks++;
          k++;
        } else if (source[k] === ' ' || source[k] === '\t' || source[k] === '\r') k++;
        else break;
      }
      if (breaks === 1) out.push(' ', at);
      else for (let b = 1; b < breaks; b++) out.push('\n', at);
      i = k;
      continue;
    }
    if (c === ' ' || c === '\t') {
      pending.push({ ch: c, at: base + i });
      i++;
      continue;
    }
    flush();
    if (style === 'single' && c === "'" && source[i + 1] === "'") {
      out.push("'", base + i);
      i += 2;
      continue;
    }
    if (style === 'double' && c === '\\') {
      const e = source[i + 1];
      if (e === undefined) return undefined;
      if (e === '\n' || (e === '\r' && source[i + 2] === '\n')) {
        // Escaped line break: the lines join without a space; the next line's blanks are dropped.
        let k = i + (e === '\r' ? 3 : 2);
        while (k < n && (source[k] === ' ' || source[k] === '\t')) k++;
        i = k;
        continue;
      }
      const hexLen = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (hexLen > 0) {
        const hex = source.slice(i + 2, i + 2 + hexLen);
        if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== hexLen) return undefined;
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff) return undefined;
        for (const ch of String.fromCodePoint(cp)) out.push(ch, base + i);
        i += 2 + hexLen;
        continue;
      }
      const simple = DOUBLE_ESCAPES[e];
      if (simple === undefined) return undefined;
      out.push(simple, base + i);
      i += 2;
      continue;
    }
    out.push(c, base + i);
    i++;
  }
  // Trailing blanks: kept inside quotes, dropped after a plain scalar.
  if (style !== 'plain') flush();
  return out;
}
