/** Baselines: the pure build, parse and filter functions (src/baseline.ts). */
import { describe, expect, it } from 'vitest';
import { BaselineError, createBaseline, filterBaseline, formatBaseline, parseBaseline } from '../../src/baseline.js';
import type { Diagnostic } from '../../src/core/types.js';
import type { FileResult } from '../../src/report/index.js';

function diag(ruleId: string, fingerprint: string): Diagnostic {
  return { ruleId, severity: 'warning', message: 'm', file: 'x', range: { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } }, fingerprint };
}

const RESULTS: FileResult[] = [
  { file: 'b.sh', diagnostics: [diag('rm-recursive-force', 'h1:1'), diag('rm-recursive-force', 'h1:1')] },
  { file: 'a.sh', diagnostics: [diag('git-reset-hard', 'h2:1')] },
];

describe('baseline', () => {
  it('records every finding once, sorted, and round-trips through its file format', () => {
    const b = createBaseline(RESULTS, '1.2.3');
    expect(b).toEqual({
      version: 1,
      toolVersion: '1.2.3',
      entries: [
        { file: 'a.sh', ruleId: 'git-reset-hard', fingerprint: 'h2:1' },
        { file: 'b.sh', ruleId: 'rm-recursive-force', fingerprint: 'h1:1' },
      ],
    });
    expect(parseBaseline(formatBaseline(b))).toEqual(b);
  });

  it('removes only findings with the same file, rule id and fingerprint', () => {
    const b = parseBaseline(JSON.stringify({ version: 1, entries: [{ file: 'a.sh', ruleId: 'git-reset-hard', fingerprint: 'h2:1' }, { file: 'a.sh', ruleId: 'rm-recursive-force', fingerprint: 'h1:1' }] }));
    const { results, matched } = filterBaseline(RESULTS, b);
    expect(matched).toBe(1);
    expect(results.map((r) => [r.file, r.diagnostics.length])).toEqual([
      ['b.sh', 2],
      ['a.sh', 0],
    ]);
  });

  it.each([
    ['{', /^not valid JSON/],
    ['[]', /expected a JSON object/],
    ['{"version":2,"entries":[]}', /unsupported baseline version 2/],
    ['{"version":1}', /`entries` is not an array/],
    ['{"version":1,"entries":[{"file":"a"}]}', /entries\[0\] needs/],
  ])('rejects %s with a one-line message', (text, message) => {
    expect(() => parseBaseline(text)).toThrow(BaselineError);
    expect(() => parseBaseline(text)).toThrow(message);
    try {
      parseBaseline(text);
    } catch (err) {
      expect((err as Error).message).not.toContain('\n');
    }
  });
});
