/**
 * Credentials in command text, recognised by their shape (rules/secrets.json): GitHub tokens
 * (`ghp_…`, `github_pat_…`), AWS access key ids (`AKIA…`), Google API keys (`AIza…`), `sk-…`
 * secret keys, private key blocks (the header and the base64 body after it, through the END line)
 * and passwords in URLs (`https://user:pw@host`). A command line
 * is written to the agent's transcript, shell history and process list, so a secret in it has
 * leaked. Every output of shellward shows such text through {@link maskSecrets}. Pure.
 */
import table from '../../rules/secrets.json' with { type: 'json' };
import type { Span } from '../core/types.js';

/** One secret found: where (UTF-16 offsets into the text, end exclusive) and what kind. */
export interface SecretMatch {
  /** Span of the secret itself (for a URL, the password only). */
  readonly span: Span;
  /** Pattern id, e.g. `github-token`. */
  readonly kind: string;
  /** Readable kind, e.g. `GitHub token`. */
  readonly label: string;
  /** The secret as every output shows it: its public prefix, then `…` and `[masked]`. */
  readonly masked: string;
}

interface Pattern {
  readonly id: string;
  readonly label: string;
  readonly re: RegExp;
  readonly secret: number;
  readonly keep: number;
}

const PATTERNS: readonly Pattern[] = table.patterns.map((p) => ({ id: p.id, label: p.label, re: new RegExp(p.pattern, 'gd'), secret: p.secret, keep: p.keep }));

/** Texts longer than this are scanned in their first part only (bounded work per input). */
const MAX_SCAN = 1 << 20;

function maskOne(secret: string, keep: number): string {
  return `${secret.slice(0, Math.min(keep, secret.length))}…[masked]`;
}

/**
 * A cheap pre-test: false when `text` certainly holds none of the secrets of {@link findSecrets}
 * (none of their fixed parts occurs), true when it may.
 */
export function mayHoldSecret(text: string): boolean {
  return /AKIA|ASIA|AIza|gh[pousr]_|github_pat_|sk-|PRIVATE KEY|:\/\//.test(text);
}

/** Every secret in `text`, sorted by start, overlapping matches dropped (the earliest, longest wins). */
export function findSecrets(text: string): SecretMatch[] {
  const scanned = text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text;
  if (!mayHoldSecret(scanned)) return [];
  const found: SecretMatch[] = [];
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    for (let m = p.re.exec(scanned); m; m = p.re.exec(scanned)) {
      const at = m.indices?.[p.secret];
      const value = m[p.secret];
      if (!at || value === undefined || value === '') continue;
      found.push({ span: { start: at[0], end: at[1] }, kind: p.id, label: p.label, masked: maskOne(value, p.keep) });
    }
  }
  found.sort((a, b) => a.span.start - b.span.start || b.span.end - a.span.end);
  const out: SecretMatch[] = [];
  for (const f of found) if (out.length === 0 || f.span.start >= out[out.length - 1]!.span.end) out.push(f);
  return out;
}

/** `text` with every secret of {@link findSecrets} replaced by its masked form. */
export function maskSecrets(text: string): string {
  const found = findSecrets(text);
  if (found.length === 0) return text;
  let out = '';
  let at = 0;
  for (const f of found) {
    out += text.slice(at, f.span.start) + f.masked;
    at = f.span.end;
  }
  return out + text.slice(at);
}

/**
 * `text` masked as {@link maskSecrets} does, with a map of offsets: `map(o, side)` takes a
 * UTF-16 offset into `text` (0 ≤ o ≤ length) to the matching offset into the masked text. An
 * offset inside a secret goes to the start of its masked form (`side` `start`) or to its end
 * (`side` `end`), so a span that covers part of a secret covers all of its mask.
 */
export function maskWithOffsets(text: string): { text: string; map: (offset: number, side: 'start' | 'end') => number } {
  const found = findSecrets(text);
  if (found.length === 0) return { text, map: (o) => o };
  let out = '';
  let at = 0;
  const moved: { start: number; end: number; newStart: number; newEnd: number }[] = [];
  for (const f of found) {
    out += text.slice(at, f.span.start);
    const newStart = out.length;
    out += f.masked;
    moved.push({ start: f.span.start, end: f.span.end, newStart, newEnd: out.length });
    at = f.span.end;
  }
  out += text.slice(at);
  const map = (offset: number, side: 'start' | 'end'): number => {
    let delta = 0;
    for (const m of moved) {
      if (offset <= m.start) break;
      if (offset < m.end) return side === 'start' ? m.newStart : m.newEnd;
      delta = m.newEnd - m.end;
    }
    return offset + delta;
  };
  return { text: out, map };
}

/**
 * A copy of `value` (plain JSON-like data: objects, arrays, strings, numbers …) with every string
 * masked by {@link maskSecrets}; other values are kept. Nesting deeper than 32 is kept as is.
 */
export function maskDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return maskSecrets(value) as T;
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = maskDeep(v, depth + 1);
  return out as T;
}
