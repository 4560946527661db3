/**
 * Positions inside JSON text (RFC 8259), for pointing a finding at the exact column of a command
 * string inside a transcript line. `JSON.parse` gives values without positions; these helpers walk
 * the raw text to the value at a path and decode a string literal while remembering, for every
 * decoded UTF-16 code unit, the offset of the (possibly escaped) text it came from.
 *
 * Offsets are UTF-16 code units, 0-based. Pure; nothing here throws: malformed JSON yields
 * `undefined`.
 */
import { MappedText } from '../mapped-text.js';

function skipWs(s: string, i: number): number {
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    i++;
  }
  return i;
}

/** Index just after the string literal whose opening quote is at `i`, or -1. */
function skipString(s: string, i: number): number {
  let k = i + 1;
  for (;;) {
    const q = s.indexOf('"', k);
    if (q === -1) return -1;
    // the quote is escaped when an odd number of backslashes precede it
    let b = q - 1;
    while (b > i && s.charCodeAt(b) === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    k = q + 1;
  }
}

/** Index just after the JSON value starting at `i` (after whitespace), or -1 when malformed. */
function skipValue(s: string, i: number): number {
  i = skipWs(s, i);
  const c = s[i];
  if (c === '"') return skipString(s, i);
  if (c === '{' || c === '[') {
    // scan brackets, skipping strings
    let depth = 0;
    for (let k = i; k < s.length; k++) {
      const d = s[k];
      if (d === '"') {
        k = skipString(s, k) - 1;
        if (k < 0) return -1;
      } else if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return k + 1;
      }
    }
    return -1;
  }
  let k = i;
  while (k < s.length && !',]} \t\r\n'.includes(s[k]!)) k++;
  return k > i ? k : -1;
}

/**
 * Offset of the first character of the value at `path` (object keys and array indices) in the
 * JSON text `s`, or `undefined` when the path does not exist or the text is malformed. A key that
 * occurs twice resolves to its last occurrence, as `JSON.parse` does.
 */
export function locateValue(s: string, path: readonly (string | number)[]): number | undefined {
  let i = skipWs(s, 0);
  for (const step of path) {
    const open = s[i];
    if (typeof step === 'string') {
      if (open !== '{') return undefined;
      let k = skipWs(s, i + 1);
      let found: number | undefined;
      while (k < s.length && s[k] !== '}') {
        if (s[k] !== '"') return undefined;
        const keyEnd = skipString(s, k);
        if (keyEnd === -1) return undefined;
        let key: unknown;
        try {
          key = JSON.parse(s.slice(k, keyEnd));
        } catch {
          return undefined;
        }
        k = skipWs(s, keyEnd);
        if (s[k] !== ':') return undefined;
        const vStart = skipWs(s, k + 1);
        if (key === step) found = vStart;
        const vEnd = skipValue(s, vStart);
        if (vEnd === -1) return undefined;
        k = skipWs(s, vEnd);
        if (s[k] === ',') k = skipWs(s, k + 1);
      }
      if (found === undefined) return undefined;
      i = found;
    } else {
      if (open !== '[') return undefined;
      let k = skipWs(s, i + 1);
      let n = 0;
      let found: number | undefined;
      while (k < s.length && s[k] !== ']') {
        if (n === step) {
          found = k;
          break;
        }
        const vEnd = skipValue(s, k);
        if (vEnd === -1) return undefined;
        k = skipWs(s, vEnd);
        if (s[k] === ',') k = skipWs(s, k + 1);
        n++;
      }
      if (found === undefined) return undefined;
      i = found;
    }
  }
  return i;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Decodes the JSON string literal whose opening quote is character `quote` of `src`. Each decoded
 * code unit maps to the host offset of the first character of its source text (the backslash of
 * an escape). Returns the decoded text and the index in `src` just after the closing quote, or
 * `undefined` when `src` has no well-formed string literal there.
 */
export function decodeStringAt(src: MappedText | string, quote: number): { value: MappedText; end: number } | undefined {
  const text = typeof src === 'string' ? src : src.text;
  const hostOf = (i: number): number => (typeof src === 'string' ? i : (src.hostAt(i) ?? 0));
  if (text[quote] !== '"') return undefined;
  const out = new MappedText();
  for (let i = quote + 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') return { value: out, end: i + 1 };
    if (c !== '\\') {
      out.push(c, hostOf(i));
      continue;
    }
    const e = text[i + 1];
    if (e === undefined) return undefined;
    if (e === 'u') {
      const hex = text.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) return undefined;
      out.push(String.fromCharCode(parseInt(hex, 16)), hostOf(i));
      i += 5;
      continue;
    }
    const simple = SIMPLE_ESCAPES[e];
    if (simple === undefined) return undefined;
    out.push(simple, hostOf(i));
    i++;
  }
  return undefined;
}

/**
 * The decoded string at `path` in the JSON text `src`, mapped to host offsets (see
 * {@link decodeStringAt}), or `undefined` when the path does not lead to a string.
 */
export function stringAt(src: MappedText | string, path: readonly (string | number)[]): MappedText | undefined {
  const text = typeof src === 'string' ? src : src.text;
  const at = locateValue(text, path);
  if (at === undefined) return undefined;
  return decodeStringAt(src, at)?.value;
}
