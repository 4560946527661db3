/**
 * Where a value sits in a JSON document: the span of the value at a key path, so that findings
 * about a rule string point at that string in `.claude/settings.json`. Pure; never throws.
 */
import type { Span } from '../core/types.js';

/** A key path: object keys and array indices, e.g. `['permissions', 'allow', 3]`. */
export type JsonPath = readonly (string | number)[];

/** Deepest nesting followed; deeper documents are not located (settings files are shallow). */
const MAX_DEPTH = 64;

/**
 * The span (UTF-16 offsets, end exclusive) of the value at `path` in the JSON text `text`, quotes
 * included for a string; `undefined` when the text is not valid JSON along the way or the path
 * does not exist. Duplicate keys: the last one wins, as in `JSON.parse`.
 */
export function locateJsonValue(text: string, path: JsonPath): Span | undefined {
  let i = 0;
  let found: Span | undefined;
  const ws = (): void => {
    while (i < text.length && ' \t\r\n\uFEFF'.includes(text[i]!)) i++;
  };
  const str = (): string | undefined => {
    if (text[i] !== '"') return undefined;
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) return undefined;
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return undefined;
    }
  };
  /** Parses one value; `depth` is the index in `path` this value is at when `onPath`. Returns false on a syntax error. */
  const value = (depth: number, onPath: boolean): boolean => {
    if (depth > MAX_DEPTH) return false;
    ws();
    const start = i;
    const c = text[i];
    let ok: boolean;
    if (c === '{') {
      i++;
      ws();
      ok = true;
      if (text[i] === '}') i++;
      else {
        for (;;) {
          ws();
          const key = str();
          if (key === undefined) return false;
          ws();
          if (text[i] !== ':') return false;
          i++;
          if (!value(depth + 1, onPath && depth < path.length && path[depth] === key)) return false;
          ws();
          if (text[i] === ',') {
            i++;
            continue;
          }
          if (text[i] === '}') {
            i++;
            break;
          }
          return false;
        }
      }
    } else if (c === '[') {
      i++;
      ws();
      ok = true;
      if (text[i] === ']') i++;
      else {
        for (let n = 0; ; n++) {
          if (!value(depth + 1, onPath && depth < path.length && path[depth] === n)) return false;
          ws();
          if (text[i] === ',') {
            i++;
            continue;
          }
          if (text[i] === ']') {
            i++;
            break;
          }
          return false;
        }
      }
    } else if (c === '"') {
      ok = str() !== undefined;
    } else {
      const m = /^(?:true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)/.exec(text.slice(i, i + 64));
      ok = m !== null;
      if (m) i += m[0].length;
    }
    if (ok && onPath && depth === path.length) found = { start, end: i };
    return ok;
  };
  return value(0, true) ? found : undefined;
}

/** A key that appears twice in one JSON object. */
export interface DuplicateKey {
  /** The key path of the object holding it, then the key, e.g. `['permissions', 'deny']`. */
  readonly path: JsonPath;
  /** 1-based line and column of the second occurrence (columns in UTF-16 code units). */
  readonly line: number;
  readonly column: number;
}

/**
 * The first key that occurs twice in one object of the JSON text `text` (`JSON.parse` silently
 * keeps the last, so a second `"deny"` would drop the first list of deny rules), or `undefined`
 * when there is none or the text is not valid JSON (the caller's JSON.parse reports that).
 * Iterative (no recursion depth limit); linear in the text. Never throws.
 */
export function findDuplicateKey(text: string): DuplicateKey | undefined {
  let i = 0;
  const n = text.length;
  const ws = (): void => {
    while (i < n && ' \t\r\n\uFEFF'.includes(text[i]!)) i++;
  };
  const str = (): string | undefined => {
    const start = i++;
    while (i < n && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= n) return undefined;
    i++;
    try {
      return JSON.parse(text.slice(start, i)) as string;
    } catch {
      return undefined;
    }
  };
  // Stack of open containers: objects carry their seen keys, arrays their index.
  type Frame = { readonly kind: 'object'; readonly seen: Set<string>; key: string | number } | { readonly kind: 'array'; key: number };
  const stack: Frame[] = [];
  const pathOf = (): (string | number)[] => stack.map((f) => f.key);
  while (i < n) {
    ws();
    const c = text[i];
    if (c === undefined) break;
    if (c === '{') {
      stack.push({ kind: 'object', seen: new Set(), key: '' });
      i++;
      ws();
      if (text[i] === '}') {
        stack.pop();
        i++;
        continue;
      }
      // The first key follows.
      if (text[i] !== '"') return undefined;
    }
    if (c === '[') {
      stack.push({ kind: 'array', key: 0 });
      i++;
      ws();
      if (text[i] === ']') {
        stack.pop();
        i++;
      }
      continue;
    }
    if (c === '}' || c === ']') {
      stack.pop();
      i++;
      continue;
    }
    if (c === ',') {
      i++;
      const t = stack[stack.length - 1];
      if (t?.kind === 'array') {
        t.key++;
        continue;
      }
      ws();
    }
    const t = stack[stack.length - 1];
    if (t?.kind === 'object' && text[i] === '"' && (c === '{' || c === ',')) {
      const at = i;
      const key = str();
      if (key === undefined) return undefined;
      if (t.seen.has(key)) {
        const before = text.slice(0, at);
        const line = before.split('\n').length;
        const column = at - before.lastIndexOf('\n');
        return { path: [...pathOf().slice(0, -1), key], line, column };
      }
      t.seen.add(key);
      t.key = key;
      ws();
      if (text[i] !== ':') return undefined;
      i++;
      continue;
    }
    if (text[i] === '"') {
      if (str() === undefined) return undefined;
      continue;
    }
    // A number, true, false or null.
    const start = i;
    while (i < n && !' \t\r\n,]}'.includes(text[i]!)) i++;
    if (i === start) return undefined;
  }
  return undefined;
}
