/**
 * JSON input files with positions (package.json, devcontainer.json, Claude Code settings): the
 * text is parsed with `JSON.parse` after comments and trailing commas are blanked out (JSONC, as
 * devcontainer.json and VS Code allow), which keeps every offset; strings are then located and
 * decoded with their source map (src/sources/transcript/json-text.ts). Pure.
 */
import { NOTE_RULE_IDS, type SourceNote } from './kind.js';
import type { MappedText } from './mapped-text.js';
import { stringAt } from './transcript/json-text.js';

/** A parsed JSON file: its value and the blanked text string positions are read from. */
export type ParsedJson = { readonly value: unknown; readonly text: string; readonly error?: undefined } | { readonly error: SourceNote };

/**
 * `text` with `//` and `/* … *\/` comments and trailing commas (before `}` or `]`) replaced by
 * spaces (line breaks kept): same length, so offsets do not move. Strings are left alone.
 */
export function blankJsonc(text: string): string {
  const out = text.split('');
  let i = 0;
  const n = text.length;
  let lastComma = -1;
  while (i < n) {
    const c = text[i]!;
    if (c === '"') {
      lastComma = -1;
      i++;
      while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < n && text[i] !== '\n') out[i++] = ' ';
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      for (; i < stop; i++) if (text[i] !== '\n' && text[i] !== '\r') out[i] = ' ';
      continue;
    }
    if (c === ',') lastComma = i;
    else if ((c === '}' || c === ']') && lastComma !== -1) {
      out[lastComma] = ' ';
      lastComma = -1;
    } else if (!/\s/.test(c)) lastComma = -1;
    i++;
  }
  return out.join('');
}

/**
 * Parses a JSON (or, with `jsonc`, JSON-with-comments) file. A syntax error yields a
 * `source-parse-error` note at the place `JSON.parse` names, mentioning `what`.
 */
export function parseJson(text: string, what: string, jsonc: boolean): ParsedJson {
  const src = jsonc ? blankJsonc(text) : text;
  try {
    return { value: JSON.parse(src) as unknown, text: src };
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    const pos = /position (\d+)/.exec(msg);
    const at = pos ? Math.min(Number(pos[1]), Math.max(text.length - 1, 0)) : 0;
    return { error: { ruleId: NOTE_RULE_IDS.parseError, message: `The ${what} cannot be parsed as JSON (${msg.replace(/ in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, '')}); its shell code was not checked.`, span: { start: at, end: Math.min(at + 1, text.length) } } };
  }
}

/** The mapped string at `path` of a parsed file, or `undefined` when there is none. */
export function jsonString(parsed: { readonly text: string }, path: readonly (string | number)[]): MappedText | undefined {
  return stringAt(parsed.text, path);
}

/** `v` as a plain object, or `undefined`. */
export function object(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}
