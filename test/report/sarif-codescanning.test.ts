/**
 * SARIF for GitHub code scanning: the category (`run.automationDetails.id`), the documented
 * limits ("SARIF results exceed limit" and "SARIF file is too large" in GitHub's code scanning
 * docs) with deterministic truncation, rule metadata code scanning reads, and fingerprints that
 * survive lines moving.
 */
import { existsSync } from 'node:fs';
import type * as Sarif from 'sarif';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/checks/index.js';
import type { Diagnostic, Severity } from '../../src/core/types.js';
import type { FileResult, ReportInput } from '../../src/report/index.js';
import { automationId, buildSarif, CODE_SCANNING_LIMITS, formatSarif, sarifOmitted, TRUNCATED_NOTIFICATION_ID } from '../../src/report/sarif.js';
import { lintText } from '../helpers.js';
import { diag, INPUT_FIXTURE, RULES_FIXTURE } from './fixtures.js';
import { codeScanningViolations } from './code-scanning.js';
import { validateSarif } from './sarif-schema.js';

function parse(out: string): Sarif.Log {
  return JSON.parse(out) as Sarif.Log;
}

const SEVERITIES: readonly Severity[] = ['note', 'warning', 'error'];

/** `n` diagnostics spread over 10 files; severities cycle note, warning, error. */
function many(n: number, message = 'A finding with a message of a realistic length: `rm -rf "$dir"` removes files without asking.'): ReportInput {
  const byFile = new Map<string, Diagnostic[]>();
  for (let i = 0; i < n; i++) {
    const file = `scripts/dir ${i % 10}/script-${i % 10}.sh`;
    const severity = SEVERITIES[i % 3]!;
    const ruleId = severity === 'error' ? 'path-dangerous-removal' : severity === 'warning' ? 'rm-recursive-force' : 'file-skipped';
    const list = byFile.get(file) ?? [];
    list.push(diag(file, ruleId, severity, message, Math.floor(i / 10) + 1, 1, 9, { fingerprint: `${i.toString(16).padStart(16, '0')}:1` }));
    byFile.set(file, list);
  }
  const results: FileResult[] = [...byFile.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([file, diagnostics]) => ({ file, diagnostics }));
  return { results, rules: RULES_FIXTURE, toolVersion: '1.2.3', filesAnalysed: results.length };
}

describe('category (run.automationDetails.id)', () => {
  it('is absent without a category', () => {
    expect('automationDetails' in buildSarif(INPUT_FIXTURE).runs[0]!).toBe(false);
    expect('automationDetails' in buildSarif(INPUT_FIXTURE, { category: '' }).runs[0]!).toBe(false);
  });

  it('becomes automationDetails.id with a trailing slash, as upload-sarif does with its category', () => {
    const log = parse(formatSarif(INPUT_FIXTURE, { category: 'shellward' }));
    expect(log.runs[0]!.automationDetails).toEqual({ id: 'shellward/' });
    expect(validateSarif(log)).toEqual([]);
    expect(buildSarif(INPUT_FIXTURE, { category: 'lint/scripts/' }).runs[0]!.automationDetails).toEqual({ id: 'lint/scripts/' });
    expect(automationId('a/b')).toBe('a/b/');
    expect(automationId('  ')).toBeUndefined();
  });
});

describe("code scanning's result limit", () => {
  it('keeps everything within the limit, without a notification', () => {
    const log = buildSarif(INPUT_FIXTURE, { maxResults: 5 });
    expect(log.runs[0]!.results).toHaveLength(5);
    expect('invocations' in log.runs[0]!).toBe(false);
    expect(sarifOmitted(INPUT_FIXTURE, 5)).toBe(0);
  });

  it('keeps the most severe results, then by file and line, in input order, and says how many were left out', () => {
    // Fixture order: error (outside file), error, warning, warning, note.
    const log = parse(formatSarif(INPUT_FIXTURE, { maxResults: 3 }));
    expect(validateSarif(log)).toEqual([]);
    const run = log.runs[0]!;
    // Both errors; of the two warnings on `a dir/deploy #1.sh` the one on line 3 beats line 7.
    expect(run.results!.map((r) => `${r.level} ${r.ruleId} ${r.locations![0]!.physicalLocation!.region!.startLine}`)).toEqual([
      'error unicode-whitespace 12',
      'error path-dangerous-removal 3',
      'warning rm-recursive-force 3',
    ]);
    expect(run.invocations).toEqual([
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          {
            level: 'warning',
            descriptor: { id: TRUNCATED_NOTIFICATION_ID },
            message: { text: "2 of 5 results were left out to stay within 3 results per run (code scanning's limit); the most severe were kept." },
          },
        ],
      },
    ]);
    expect(sarifOmitted(INPUT_FIXTURE, 3)).toBe(2);
  });

  it('is deterministic whatever order equal-severity results come in', () => {
    const input = many(60);
    const reversed: ReportInput = { ...input, results: [...input.results].reverse().map((r) => ({ ...r, diagnostics: [...r.diagnostics].reverse() })) };
    const keys = (log: Sarif.Log): string[] =>
      log.runs[0]!.results!.map((r) => `${r.locations![0]!.physicalLocation!.artifactLocation!.uri}:${r.locations![0]!.physicalLocation!.region!.startLine}:${r.ruleId}`).sort();
    const a = buildSarif(input, { maxResults: 25 });
    const b = buildSarif(reversed, { maxResults: 25 });
    expect(keys(a)).toEqual(keys(b));
    // 20 errors exist; the 5 remaining places go to warnings (2 per file) of the first files.
    expect(a.runs[0]!.results!.filter((r) => r.level === 'error')).toHaveLength(20);
    expect(a.runs[0]!.results!.filter((r) => r.level === 'warning')).toHaveLength(5);
    expect(a.runs[0]!.results!.filter((r) => r.level === 'warning').map((r) => r.locations![0]!.physicalLocation!.artifactLocation!.uri)).toEqual([
      'scripts/dir%200/script-0.sh',
      'scripts/dir%200/script-0.sh',
      'scripts/dir%201/script-1.sh',
      'scripts/dir%201/script-1.sh',
      'scripts/dir%202/script-2.sh',
    ]);
  });

  it('truncates to 25,000 results by default and stays under the other documented limits, gzip size included', () => {
    const input = many(CODE_SCANNING_LIMITS.resultsPerRun + 7);
    const text = formatSarif({ ...input, rules: RULES });
    const log = parse(text);
    expect(log.runs[0]!.results).toHaveLength(CODE_SCANNING_LIMITS.resultsPerRun);
    expect(log.runs[0]!.invocations![0]!.toolExecutionNotifications![0]!.message.text).toMatch(/^7 of 25007 results were left out/);
    // Every error is kept (8,336 of them), notes go first.
    expect(log.runs[0]!.results!.filter((r) => r.level === 'error')).toHaveLength(Math.floor((CODE_SCANNING_LIMITS.resultsPerRun + 7 + 0) / 3));
    expect(codeScanningViolations(log, text)).toEqual([]);
    expect(validateSarif(log)).toEqual([]);
  }, 60_000);
});

describe('rules as code scanning reads them', () => {
  const log = buildSarif({ results: [], rules: RULES, toolVersion: '0.0.0', filesAnalysed: 0 });
  const rules = log.runs[0]!.tool.driver.rules!;

  it('are within the limits (rules per run, tags per rule)', () => {
    expect(codeScanningViolations(log, JSON.stringify(log))).toEqual([]);
    for (const r of rules) expect((r.properties!.tags as string[]).length).toBeLessThanOrEqual(CODE_SCANNING_LIMITS.tagsPerRule);
  });

  it('have help text and a helpUri naming the rule reference page in docs/rules/', () => {
    for (const r of rules) {
      expect(r.help?.text, r.id).toBeTruthy();
      expect(r.help?.markdown, r.id).toBeTruthy();
      expect(r.helpUri).toBe(`https://github.com/shellward/shellward/blob/main/docs/rules/${r.id}.md`);
      expect(existsSync(new URL(`../../docs/rules/${r.id}.md`, import.meta.url)), `docs/rules/${r.id}.md`).toBe(true);
    }
  });

  it('score security and destructive rules with a security-severity between 0.0 and 10.0', () => {
    for (const meta of RULES) {
      const r = rules.find((x) => x.id === meta.id)!;
      const score = r.properties!['security-severity'] as string | undefined;
      const loud = Object.values(meta.severity).some((s) => s !== 'off');
      if ((meta.category === 'security' || meta.category === 'destructive') && loud) expect(score, meta.id).toMatch(/^\d+\.\d$/);
      if (score !== undefined) expect(Number(score)).toBeGreaterThan(0);
      if (score !== undefined) expect(Number(score)).toBeLessThanOrEqual(10);
      if (!['security', 'destructive', 'paths', 'workflow'].includes(meta.category)) expect(score, meta.id).toBeUndefined();
    }
  });
});

describe('locations and fingerprints', () => {
  it('are URIs relative to %SRCROOT% (the repository root), one location per result', () => {
    const run = buildSarif({ ...INPUT_FIXTURE, results: [{ file: 'scripts/deploy.sh', diagnostics: [diag('scripts/deploy.sh', 'parse-error', 'warning', 'm', 1, 1, 2)] }] }).runs[0]!;
    expect(run.originalUriBaseIds!['%SRCROOT%']).toBeDefined();
    expect(run.results![0]!.locations).toEqual([
      { physicalLocation: { artifactLocation: { uri: 'scripts/deploy.sh', uriBaseId: '%SRCROOT%' }, region: { startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 } } },
    ]);
  });

  it("keep shellward's fingerprint and code scanning's line hash when lines are inserted above a finding", async () => {
    const before = '#!/bin/sh\nset -e\nrm -rf "$HOME/build"\ngit reset --hard\n';
    // Code scanning's hash reads the 100 characters from the start of the line on (not counting
    // blanks), so only lines above move.
    const after = '#!/bin/sh\n# a new comment\necho start\n\nset -e\nrm -rf "$HOME/build"\ngit reset --hard\n';
    const hashes = async (text: string): Promise<{ lines: number[]; hashes: string[] }> => {
      const ds = await lintText(text, 'script', 'deploy.sh');
      const run = buildSarif({ results: [{ file: 'deploy.sh', diagnostics: ds }], rules: RULES, toolVersion: '0.0.0', filesAnalysed: 1 }, { fileText: () => text }).runs[0]!;
      for (const r of run.results!) expect(r.partialFingerprints!.primaryLocationLineHash).toMatch(/^[0-9a-f]+:1$/);
      return {
        lines: run.results!.map((r) => r.locations![0]!.physicalLocation!.region!.startLine!),
        hashes: run.results!.map((r) => `${r.ruleId} ${r.partialFingerprints!['shellward/v1']} ${r.partialFingerprints!.primaryLocationLineHash}`),
      };
    };
    const a = await hashes(before);
    const b = await hashes(after);
    expect(a.hashes.length).toBeGreaterThanOrEqual(2);
    expect(b.lines).not.toEqual(a.lines);
    expect(b.hashes).toEqual(a.hashes);
  });
});
