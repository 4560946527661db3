/**
 * The formats on real diagnostics: lint a script with the actual pipeline (parser, checks,
 * finishFile) and render it, so the report's input types stay joined to what lint.ts produces.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { RULES } from '../../src/checks/index.js';
import type { CommandUnit } from '../../src/core/types.js';
import { finishFile, Linter } from '../../src/lint.js';
import { formatReport, type FileResult, type ReportInput } from '../../src/report/index.js';
import { IdentityMap } from '../../src/core/source-map.js';
import { validateSarif } from './sarif-schema.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create();
});

function lintScript(file: string, text: string): FileResult {
  const unit: CommandUnit = {
    text,
    dialect: 'bash',
    granularity: 'script',
    profile: 'script',
    origin: { file, kind: 'script' },
    sourceMap: new IdentityMap(),
    hostText: text,
  };
  return { file, diagnostics: finishFile(text, linter.lintUnit(unit)) };
}

describe('report of a real lint run', () => {
  it('renders every format, and the SARIF validates', () => {
    const results = [
      lintScript('deploy dir/#run.sh', '#!/bin/bash\necho "héllo → 日本"\nrm -rf /\ngit push --force origin main\n'),
      lintScript('clean.sh', 'echo ok\n'),
    ].sort((a, b) => (a.file < b.file ? -1 : 1));
    const input: ReportInput = { results, rules: RULES, toolVersion: '0.1.0', filesAnalysed: results.length };
    expect(results[1]!.diagnostics.length).toBeGreaterThan(0);

    const text = formatReport('text', input, { color: false });
    const lines = text.trimEnd().split('\n');
    const n = results.reduce((k, r) => k + r.diagnostics.length, 0);
    const ruleIds = new Set(results.flatMap((r) => r.diagnostics.map((d) => d.ruleId)));
    // Findings, a blank line, "For more information:" and one link per rule, a blank line, the summary.
    expect(lines).toHaveLength(n + 1 + 1 + ruleIds.size + 1 + 1);
    for (const line of lines.slice(0, n)) expect(line).toMatch(/^deploy dir\/#run\.sh:\d+:\d+: (error|warning|note): .+ \[[a-z0-9-]+\]$/);
    expect(lines[n + 1]).toBe('For more information:');
    for (const line of lines.slice(n + 2, n + 2 + ruleIds.size)) expect(line).toMatch(/^ {2}https:\/\/github\.com\/shellward\/shellward\/blob\/main\/docs\/rules\/[a-z0-9-]+\.md -- .+$/);
    // The summary counts the files with findings (clean.sh has none), then the files checked.
    expect(lines.at(-1)).toMatch(/^\d+ problems? \(.*\) in 1 file; 2 files checked$/);

    const json = JSON.parse(formatReport('json', input, { color: false })) as { summary: { files: number } };
    expect(json.summary.files).toBe(2);

    const sarif = JSON.parse(formatReport('sarif', input, { color: false })) as { runs: { results: unknown[] }[] };
    expect(validateSarif(sarif)).toEqual([]);
    expect(sarif.runs[0]!.results).toHaveLength(n);
  });
});
