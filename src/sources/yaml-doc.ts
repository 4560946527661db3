/**
 * Small helpers over the `yaml` package's document model, shared by the YAML input kinds
 * (GitHub Actions, GitLab CI, pre-commit): parsing with source tokens kept, reading keys of a
 * mapping, and a syntax error as a host-located note. Pure.
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from 'yaml';
import { NOTE_RULE_IDS, type SourceNote } from './kind.js';

const SOURCE_PARSE_ERROR_ID = NOTE_RULE_IDS.parseError;

/** A parsed YAML file, or the note of its first syntax error. */
export type ParsedYaml = { readonly doc: Document.Parsed; readonly error?: undefined } | { readonly doc?: undefined; readonly error: SourceNote };

/**
 * Parses `text` as one YAML document with its source tokens and node ranges (so scalars can be
 * mapped back to columns). A syntax error yields a `source-parse-error` note at its place, naming
 * `what` ("workflow"); a file with more than one document is read by its first.
 */
export function parseYaml(text: string, what: string): ParsedYaml {
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { keepSourceTokens: true, prettyErrors: false, uniqueKeys: false, strict: false });
  } catch (err) {
    return { error: { ruleId: SOURCE_PARSE_ERROR_ID, message: `The ${what} cannot be parsed as YAML (${err instanceof Error ? err.message : String(err)}); its shell code was not checked.`, span: { start: 0, end: Math.min(1, text.length) } } };
  }
  const e = doc.errors[0];
  if (e) {
    const [start, end] = e.pos;
    const first = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return {
      error: {
        ruleId: SOURCE_PARSE_ERROR_ID,
        message: `The ${what} cannot be parsed as YAML (${first}); its shell code was not checked.`,
        span: { start: Math.min(start, text.length), end: Math.max(Math.min(end, text.length), Math.min(start + 1, text.length)) },
      },
    };
  }
  return { doc };
}

/** `node` with an alias resolved to the node it names (`undefined` stays `undefined`). */
export function resolved(doc: Document, node: unknown): Node | undefined {
  if (isAlias(node)) return (node.resolve(doc) as Node | undefined) ?? undefined;
  return (node as Node | undefined) ?? undefined;
}

/** The mapping `node` is (after aliases), or `undefined`. */
export function asMap(doc: Document, node: unknown): YAMLMap | undefined {
  const n = resolved(doc, node);
  return isMap(n) ? n : undefined;
}

/** The sequence `node` is (after aliases), or `undefined`. */
export function asSeq(doc: Document, node: unknown): YAMLSeq | undefined {
  const n = resolved(doc, node);
  return isSeq(n) ? n : undefined;
}

/** The scalar `node` is (after aliases), or `undefined`. */
export function asScalar(doc: Document, node: unknown): Scalar | undefined {
  const n = resolved(doc, node);
  return isScalar(n) ? n : undefined;
}

/** The pair of `map` whose key is the scalar `key` (the last one when repeated), or `undefined`. */
export function pairOf(map: YAMLMap | undefined, key: string): Pair | undefined {
  if (!map) return undefined;
  let found: Pair | undefined;
  for (const p of map.items) if (isScalar(p.key) && p.key.value === key) found = p;
  return found;
}

/** The value node of `key` in `map`, aliases resolved. */
export function mapValue(doc: Document, map: YAMLMap | undefined, key: string): Node | undefined {
  return resolved(doc, pairOf(map, key)?.value);
}

/** The string value of `key` in `map` when it is a scalar (numbers and booleans as written), else `undefined`. */
export function stringOf(doc: Document, map: YAMLMap | undefined, key: string): string | undefined {
  const s = asScalar(doc, pairOf(map, key)?.value);
  if (!s || s.value === null || s.value === undefined) return undefined;
  return typeof s.value === 'string' ? s.value : String(s.value);
}

/** Host span of a node (its value part), or of `fallback` when it has no range. */
export function spanOf(node: { range?: readonly number[] | null } | undefined, fallback = 0): { start: number; end: number } {
  const r = node?.range;
  if (!r) return { start: fallback, end: fallback + 1 };
  return { start: r[0]!, end: Math.max(r[1]!, r[0]! + 1) };
}

/** The entries of a mapping as `[key, value]` with string keys (other keys are left out). */
export function entries(doc: Document, map: YAMLMap | undefined): [string, Node | undefined, Pair][] {
  if (!map) return [];
  const out: [string, Node | undefined, Pair][] = [];
  for (const p of map.items) {
    if (isScalar(p.key) && typeof p.key.value === 'string') out.push([p.key.value, resolved(doc, p.value), p]);
  }
  return out;
}
