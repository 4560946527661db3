import { readFileSync } from 'node:fs';
import ajvModule from 'ajv';
import { describe, expect, it } from 'vitest';
import { buildJsonReport, formatJson, JSON_REPORT_VERSION, type JsonReport, type ReportInput } from '../../src/report/index.js';
import { toJsonData } from '../../src/report/json.js';
import { diag, EMPTY_INPUT, INPUT_FIXTURE, RULES_FIXTURE, SPACED } from './fixtures.js';

const Ajv = ajvModule.default;
const schema = JSON.parse(readFileSync(new URL('../../schemas/shellward-report.schema.json', import.meta.url), 'utf8')) as object;
const validateReport = new Ajv({ allErrors: true }).compile(schema);

function parse(out: string): JsonReport {
  return JSON.parse(out) as JsonReport;
}

describe('formatJson', () => {
  it('has the documented top-level shape', () => {
    const report = parse(formatJson(INPUT_FIXTURE));
    expect(Object.keys(report)).toEqual(['version', 'tool', 'summary', 'results']);
    expect(report.version).toBe(JSON_REPORT_VERSION);
    expect(report.version).toBe(1);
    expect(report.tool).toEqual({ name: 'shellward', version: '1.2.3' });
    expect(report.summary).toEqual({ files: 4, errors: 2, warnings: 2, notes: 1 });
    expect(report.results.map((r) => r.file)).toEqual(INPUT_FIXTURE.results.map((r) => r.file));
    expect(report.results.map((r) => r.diagnostics.length)).toEqual([1, 3, 0, 1]);
  });

  it('gives each diagnostic its documented fields, without the duplicate file', () => {
    const d = parse(formatJson(INPUT_FIXTURE)).results[1]!.diagnostics[0]!;
    expect(d).toEqual({
      ruleId: 'path-dangerous-removal',
      severity: 'error',
      message: 'Removes `/`: the whole file system.',
      range: { start: { line: 3, column: 1 }, end: { line: 3, column: 9 } },
      fingerprint: 'fedcba9876543210:1',
      data: { recursive: true, target: '/' },
    });
    expect(Object.keys(d)).toEqual(['ruleId', 'severity', 'message', 'range', 'fingerprint', 'data']);
    expect('data' in parse(formatJson(INPUT_FIXTURE)).results[1]!.diagnostics[1]!).toBe(false);
  });

  it('is pretty-printed with 2 spaces and ends with a newline', () => {
    const out = formatJson(INPUT_FIXTURE);
    expect(out.startsWith('{\n  "version": 1,\n  "tool": {\n    "name": "shellward",')).toBe(true);
    expect(out.endsWith('}\n')).toBe(true);
    expect(out.endsWith('\n\n')).toBe(false);
  });

  it('keeps non-ASCII text verbatim', () => {
    const out = formatJson(INPUT_FIXTURE);
    expect(out).toContain('"src/ünïcode.sh"');
    expect(out).toContain('日本語 😀');
  });

  it('validates against schemas/shellward-report.schema.json', () => {
    for (const input of [INPUT_FIXTURE, EMPTY_INPUT]) {
      const ok = validateReport(parse(formatJson(input)));
      expect(validateReport.errors ?? []).toEqual([]);
      expect(ok).toBe(true);
    }
  });

  it('matches the golden file', async () => {
    await expect(formatJson(INPUT_FIXTURE)).toMatchFileSnapshot('golden/report.json');
  });

  it('reports zero counts when nothing was found', () => {
    expect(parse(formatJson(EMPTY_INPUT)).summary).toEqual({ files: 2, errors: 0, warnings: 0, notes: 0 });
  });
});

describe('determinism of data', () => {
  function withData(data: Record<string, unknown>): ReportInput {
    return {
      results: [{ file: SPACED, diagnostics: [diag(SPACED, 'parse-error', 'warning', 'm', 1, 1, 2, { data })] }],
      rules: RULES_FIXTURE,
      toolVersion: '1.2.3',
      filesAnalysed: 1,
    };
  }

  it('does not depend on the insertion order of data keys', () => {
    const a = formatJson(withData({ b: 1, a: { y: [1, { d: 1, c: 2 }], x: 'x' } }));
    const b = formatJson(withData({ a: { x: 'x', y: [1, { c: 2, d: 1 }] }, b: 1 }));
    expect(a).toBe(b);
  });

  it('turns data JSON cannot hold into plain values instead of throwing', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const data = { big: 10n ** 20n, nan: Number.NaN, inf: -Infinity, fn: () => 1, undef: undefined, arr: [undefined, 1], cyclic, when: new Date(0) };
    const report = buildJsonReport(withData(data));
    expect(report.results[0]!.diagnostics[0]!.data).toEqual({
      arr: [null, 1],
      big: '100000000000000000000',
      cyclic: { name: 'loop', self: '[Circular]' },
      inf: null,
      nan: null,
      when: '1970-01-01T00:00:00.000Z',
    });
    expect(() => formatJson(withData(data))).not.toThrow();
  });

  it('keeps shared (non-cyclic) references', () => {
    const shared = { v: 1 };
    expect(toJsonData({ a: shared, b: shared })).toEqual({ a: { v: 1 }, b: { v: 1 } });
  });
});

describe('formatJsonChunks', () => {
  it('streams exactly the text of formatJson, one chunk per diagnostic and verdict', async () => {
    const { formatJsonChunks } = await import('../../src/report/json.js');
    const withVerdicts: ReportInput = {
      ...INPUT_FIXTURE,
      results: INPUT_FIXTURE.results.map((r, i) => ({
        ...r,
        ...(i === 1 ? { verdicts: [{ decision: 'ask', reason: 'x\ny "q"', nested: { a: [1, { b: [] }], e: {} } }, { decision: 'deny' }] as never } : {}),
      })),
    };
    for (const input of [INPUT_FIXTURE, EMPTY_INPUT, withVerdicts]) {
      const chunks = [...formatJsonChunks(input)];
      expect(chunks.join('')).toBe(formatJson(input));
    }
    const chunks = [...formatJsonChunks(withVerdicts)];
    expect(chunks.length).toBeGreaterThan(INPUT_FIXTURE.results.reduce((n, r) => n + r.diagnostics.length, 0) + 2);
  });
});
