import { describe, expect, it } from 'vitest';
import {
  formatJson,
  formatReport,
  formatSarif,
  formatText,
  isOutputFormat,
  OUTPUT_FORMATS,
  sortFileResults,
  type OutputFormat,
} from '../../src/report/index.js';
import { INPUT_FIXTURE, RESULTS_FIXTURE } from './fixtures.js';

describe('formatReport', () => {
  it('lists text (the default) first, then json, sarif and github', () => {
    expect(OUTPUT_FORMATS).toEqual(['text', 'json', 'sarif', 'github']);
  });

  it('dispatches to the format functions', () => {
    expect(formatReport('text', INPUT_FIXTURE, { color: false })).toBe(formatText(INPUT_FIXTURE, { color: false }));
    expect(formatReport('text', INPUT_FIXTURE, { color: true })).toBe(formatText(INPUT_FIXTURE, { color: true }));
    expect(formatReport('json', INPUT_FIXTURE, { color: true })).toBe(formatJson(INPUT_FIXTURE));
    expect(formatReport('sarif', INPUT_FIXTURE, { color: true })).toBe(formatSarif(INPUT_FIXTURE));
  });

  it('ignores colour for machine formats and always ends with a newline', () => {
    for (const f of OUTPUT_FORMATS) {
      const out = formatReport(f, INPUT_FIXTURE, { color: f !== 'text' });
      expect(out.endsWith('\n')).toBe(true);
      expect(out).not.toContain('\u001b');
    }
  });

  it('rejects an unknown format at run time', () => {
    expect(() => formatReport('xml' as OutputFormat, INPUT_FIXTURE, { color: false })).toThrow(/Unknown output format: xml/);
  });

  it('recognises format names', () => {
    expect(isOutputFormat('sarif')).toBe(true);
    expect(isOutputFormat('SARIF')).toBe(false);
    expect(isOutputFormat('github')).toBe(true);
    expect(isOutputFormat('xml')).toBe(false);
  });
});

describe('sortFileResults', () => {
  it('sorts by path in code-unit order without touching the input', () => {
    const shuffled = [RESULTS_FIXTURE[2]!, RESULTS_FIXTURE[0]!, RESULTS_FIXTURE[3]!, RESULTS_FIXTURE[1]!];
    expect(sortFileResults(shuffled)).toEqual(RESULTS_FIXTURE);
    expect(shuffled[0]).toBe(RESULTS_FIXTURE[2]);
    // Upper case sorts before lower case; '/' before letters.
    expect(sortFileResults([{ file: 'b', diagnostics: [] }, { file: 'B', diagnostics: [] }, { file: '/a', diagnostics: [] }]).map((r) => r.file)).toEqual([
      '/a',
      'B',
      'b',
    ]);
  });
});
