/**
 * The machine-readable format: a stable, versioned JSON document for scripts and dashboards.
 * The shape is {@link JsonReport}; `schemas/shellward-report.schema.json` is its JSON Schema.
 * Any incompatible change bumps {@link JSON_REPORT_VERSION}. Pure: returns a string.
 */
import type { Diagnostic, Severity } from '../core/types.js';
import { countSeverities } from './summary.js';
import type { ReportInput, UnitVerdict } from './types.js';

/** Version of the JSON shape; bumped only on incompatible changes. */
export const JSON_REPORT_VERSION = 1;

/** A 1-based line and column (UTF-16 code units), as in `Diagnostic.range`. */
export interface JsonPosition {
  readonly line: number;
  readonly column: number;
}

/** One finding. `range.end` is exclusive: the position just after the last character. */
export interface JsonDiagnostic {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly message: string;
  readonly range: { readonly start: JsonPosition; readonly end: JsonPosition };
  /** Stable identity across line moves (`hash:n`); the same value SARIF calls `primaryLocationLineHash`. */
  readonly fingerprint: string;
  /** Rule-specific details, object keys sorted; absent when the rule gave none. */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** The findings of one file, in the order the report was given them. */
export interface JsonFileResult {
  /** Path as shown to the user (POSIX separators, repository-relative when inside it). */
  readonly file: string;
  readonly diagnostics: readonly JsonDiagnostic[];
  /**
   * The verdict of every command unit of the file in host order (script top-level statements,
   * Makefile recipe lines and `$(shell …)`s, transcript tool calls), each with its host range and,
   * for tool calls, what the transcript recorded; a script statement's verdict is its decision in
   * its script (see {@link UnitVerdict}). Absent when the run did not compute verdicts.
   */
  readonly verdicts?: readonly UnitVerdict[];
}

/** The whole document written by `--format json`. */
export interface JsonReport {
  readonly version: typeof JSON_REPORT_VERSION;
  readonly tool: { readonly name: 'shellward'; readonly version: string };
  /** `files` is the number of files analysed; the others count findings by severity. */
  readonly summary: { readonly files: number; readonly errors: number; readonly warnings: number; readonly notes: number };
  /** One entry per analysed file, files without findings included. */
  readonly results: readonly JsonFileResult[];
}

/**
 * Turns an arbitrary value into plain JSON data that `JSON.stringify` renders the same way every
 * time and cannot throw on: object keys sorted, `bigint` as a decimal string, `toJSON` honoured,
 * `undefined`/functions/symbols dropped (`null` inside arrays), non-finite numbers `null`, and a
 * cycle replaced by the string `"[Circular]"`.
 */
export function toJsonData(value: unknown, ancestors: readonly object[] = []): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return null;
  const obj = value as object;
  if (ancestors.includes(obj)) return '[Circular]';
  const toJSON = (obj as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return toJsonData(toJSON.call(obj), [...ancestors, obj]);
  const inner = [...ancestors, obj];
  if (Array.isArray(obj)) return obj.map((v) => toJsonData(v, inner) ?? null);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj).sort()) {
    const v = toJsonData((obj as Record<string, unknown>)[key], inner);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

function jsonDiagnostic(d: Diagnostic): JsonDiagnostic {
  const { start, end } = d.range;
  return {
    ruleId: d.ruleId,
    severity: d.severity,
    message: d.message,
    range: { start: { line: start.line, column: start.column }, end: { line: end.line, column: end.column } },
    fingerprint: d.fingerprint,
    ...(d.data !== undefined ? { data: toJsonData(d.data) as Record<string, unknown> } : {}),
  };
}

/** Builds the {@link JsonReport} object for `input` (results in input order). */
export function buildJsonReport(input: ReportInput): JsonReport {
  const c = countSeverities(input.results);
  return {
    version: JSON_REPORT_VERSION,
    tool: { name: 'shellward', version: input.toolVersion },
    summary: { files: input.filesAnalysed, errors: c.errors, warnings: c.warnings, notes: c.notes },
    results: input.results.map((r) => ({
      file: r.file,
      diagnostics: r.diagnostics.map(jsonDiagnostic),
      ...(r.verdicts !== undefined ? { verdicts: r.verdicts } : {}),
    })),
  };
}

/** Renders {@link buildJsonReport} as JSON indented by 2 spaces, with a trailing newline. */
export function formatJson(input: ReportInput): string {
  return JSON.stringify(buildJsonReport(input), null, 2) + '\n';
}

/** `value` as `JSON.stringify(value, null, 2)` would render it at nesting `depth` (continuation lines indented). */
function leaf(value: unknown, depth: number): string {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  // JSON text has no raw newlines inside strings, so every newline starts an indented line.
  return depth === 0 ? text : text.replaceAll('\n', '\n' + '  '.repeat(depth));
}

/**
 * Streams `value` (plain JSON data: no `toJSON`, no cycles) as the chunks of
 * `JSON.stringify(value, null, 2)`: arrays and objects down to `maxDepth` levels are written item
 * by item, deeper values in one piece each. Concatenated, the chunks equal that call's result.
 */
function* streamJson(value: unknown, depth: number, maxDepth: number): Generator<string> {
  if (depth >= maxDepth || value === null || typeof value !== 'object') {
    yield leaf(value, depth);
    return;
  }
  const pad = '  '.repeat(depth + 1);
  const entries: [string | undefined, unknown][] = Array.isArray(value)
    ? value.map((v) => [undefined, v === undefined || typeof v === 'function' || typeof v === 'symbol' ? null : v])
    : Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function' && typeof v !== 'symbol');
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    yield open + close;
    return;
  }
  yield open;
  for (let i = 0; i < entries.length; i++) {
    const [key, v] = entries[i]!;
    yield `${i > 0 ? ',' : ''}\n${pad}${key !== undefined ? `${JSON.stringify(key)}: ` : ''}`;
    yield* streamJson(v, depth + 1, maxDepth);
  }
  yield `\n${'  '.repeat(depth)}${close}`;
}

/**
 * {@link formatJson} as a sequence of chunks, for reports too large to be one string (a file
 * with hundreds of thousands of verdicts): each diagnostic and each verdict is its own chunk.
 * The concatenation of the chunks is exactly `formatJson(input)`.
 */
export function* formatJsonChunks(input: ReportInput): Generator<string> {
  yield* streamJson(buildJsonReport(input), 0, 4);
  yield '\n';
}
