/** The Action's pure parts: the event's base commit, the changed-only filter, annotations plan, summary. */
import { describe, expect, it } from 'vitest';
import type { Diagnostic, Severity } from '../../src/core/types.js';
import type { FileResult } from '../../src/report/index.js';
import { eventBase, repoPath, scopeResults } from '../../action/scope.js';
import { inlineHtml, planAnnotations, plural, rankedFindings, renderSummary } from '../../action/summary.js';

const SHA = 'a'.repeat(40);

function diag(line: number, severity: Severity = 'error', ruleId = 'rm-recursive-force', endLine = line, message = 'm'): Diagnostic {
  return { ruleId, severity, message, file: 'x', range: { start: { line, column: 1 }, end: { line: endLine, column: 5 } }, fingerprint: `f${line}` };
}

describe('eventBase', () => {
  it('reads the base of pull_request, pull_request_target, merge_group and push', () => {
    expect(eventBase('pull_request', { pull_request: { base: { sha: SHA } } })).toEqual({ base: SHA, source: 'pull_request.base.sha', pullRequest: { head: undefined } });
    expect(eventBase('pull_request', { pull_request: { base: { sha: SHA }, head: { sha: 'f'.repeat(40) } } })?.pullRequest).toEqual({ head: 'f'.repeat(40) });
    expect(eventBase('pull_request_target', { pull_request: { base: { sha: SHA } } })?.base).toBe(SHA);
    expect(eventBase('merge_group', { merge_group: { base_sha: SHA } })?.base).toBe(SHA);
    expect(eventBase('push', { before: SHA })?.base).toBe(SHA);
  });

  it('gives nothing for a new branch, another event, or a malformed payload', () => {
    expect(eventBase('push', { before: '0'.repeat(40) })).toBeUndefined();
    expect(eventBase('workflow_dispatch', { before: SHA })).toBeUndefined();
    expect(eventBase('pull_request', { pull_request: { base: { sha: '--output=x' } } })).toBeUndefined();
    expect(eventBase('pull_request', null)).toBeUndefined();
  });
});

describe('scopeResults', () => {
  const results: FileResult[] = [
    { file: 'a.sh', diagnostics: [diag(1), diag(5), diag(9, 'error', 'x', 12)] },
    { file: 'b.sh', diagnostics: [diag(1)] },
    { file: 'logs/t.jsonl', diagnostics: [diag(3)] },
  ];

  it('keeps changed files, findings on changed lines, and the kept files whole', () => {
    const lines = new Map([['sub/a.sh', [[5, 5], [11, 11]] as Array<[number, number]>]]);
    const r = scopeResults(results, { prefix: 'sub', files: new Set(['sub/a.sh']), lines, keep: new Set(['logs/t.jsonl']) });
    expect(r.results.map((x) => [x.file, x.diagnostics.map((d) => d.range.start.line)])).toEqual([
      ['a.sh', [5, 9]],
      ['logs/t.jsonl', [3]],
    ]);
    expect(r).toMatchObject({ droppedFiles: 1, droppedLines: 1 });
  });

  it('keeps every finding of a changed file without lines (all-lines)', () => {
    const r = scopeResults(results, { prefix: '', files: new Set(['a.sh']) });
    expect(r.results.map((x) => x.file)).toEqual(['a.sh']);
    expect(r.results[0]!.diagnostics).toHaveLength(3);
  });

  it('maps displayed paths into the repository', () => {
    expect(repoPath('a.sh', '')).toBe('a.sh');
    expect(repoPath('a.sh', 'pkg/')).toBe('pkg/a.sh');
    expect(repoPath('/tmp/t.jsonl', 'pkg')).toBeUndefined();
  });
});

describe('annotations and summary', () => {
  it('keeps at most the limit per level, most severe first', () => {
    const results: FileResult[] = [{ file: 'a.sh', diagnostics: [diag(1, 'note'), diag(2, 'warning'), diag(3), diag(4), diag(5, 'warning')] }];
    const plan = planAnnotations(rankedFindings(results), 1);
    expect(plan.shown.map((f) => `${f.d.severity}:${f.d.range.start.line}`)).toEqual(['error:3', 'warning:2', 'note:1']);
    expect(plan.omitted).toEqual({ error: 1, warning: 1, note: 0 });
  });

  it('escapes file names and messages (they quote attacker-controlled text)', () => {
    const results: FileResult[] = [{ file: '<img src=x>.sh', diagnostics: [diag(1, 'error', 'rm-recursive-force', 1, '`rm -rf "<script>"` & co')] }];
    const s = renderSummary({ results, filesAnalysed: 1, sarifFile: 'out.sarif', omitted: { error: 0, warning: 0, note: 0 }, blobUrl: 'https://github.com/o/r/blob/abc/' });
    expect(s).not.toContain('<img');
    expect(s).not.toContain('<script>');
    expect(s).toContain('&lt;script&gt;');
    expect(s).toContain('<td><code>rm -rf &quot;&lt;script&gt;&quot;</code> &amp; co</td>');
    expect(s).toContain('href="https://github.com/o/r/blob/abc/%3Cimg%20src%3Dx%3E.sh#L1"');
  });

  it('renders code spans of messages as <code> (no Markdown inside HTML tables), escaped', () => {
    expect(inlineHtml('Use `"${V:?}"` instead of `$V`.')).toBe('Use <code>&quot;${V:?}&quot;</code> instead of <code>$V</code>.');
    expect(inlineHtml('a `lone backtick <b>')).toBe('a `lone backtick &lt;b&gt;');
    expect(inlineHtml('``')).toBe('``');
    expect(inlineHtml('no code')).toBe('no code');
  });

  it('pluralises, and counts the files with findings and the files checked in the headline', () => {
    expect([plural(0, 'error'), plural(1, 'error'), plural(2, 'error')]).toEqual(['0 errors', '1 error', '2 errors']);
    const results: FileResult[] = [
      { file: '.claude/settings.json', diagnostics: [diag(1, 'warning')] },
      { file: 'a.sh', diagnostics: [diag(1)] },
    ];
    const s = renderSummary({ results, filesAnalysed: 1, sarifFile: 's' });
    expect(s).toContain('**2 problems** (1 error, 1 warning, 0 notes) in 2 files; 1 file checked.');
    const one = renderSummary({ results: [{ file: 'a.sh', diagnostics: [diag(1)] }], filesAnalysed: 5, sarifFile: 's' });
    expect(one).toContain('**1 problem** (1 error, 0 warnings, 0 notes) in 1 file; 5 files checked.');
  });

  it('says when there is nothing', () => {
    expect(renderSummary({ results: [], filesAnalysed: 0, sarifFile: 's' })).toBe('## shellward\n\nNo problems found; 0 files checked.\n');
  });
});

describe('summary order, titles and the changed-only scope', () => {
  it('sorts files naturally (f2 before f10) and gives each rule its title', () => {
    const results: FileResult[] = ['f10.sh', 'f1.sh', 'f2.sh'].map((file) => ({ file, diagnostics: [diag(1)] }));
    expect(rankedFindings(results).map((f) => f.file)).toEqual(['f1.sh', 'f2.sh', 'f10.sh']);
    const s = renderSummary({ results, filesAnalysed: 3, sarifFile: 's' });
    expect(s).toContain('<tr><th>Rule</th><th>Title</th><th>Severity</th><th>Findings</th></tr>');
    expect(s).toMatch(/<code>rm-recursive-force<\/code><\/a><\/td><td>[^<]+<\/td><td>error<\/td><td>3<\/td>/);
    const top = s.slice(s.indexOf('### Findings\n'));
    expect(top.indexOf('f2.sh:1')).toBeLessThan(top.indexOf('f10.sh:1'));
    expect(top.indexOf('f1.sh:1')).toBeLessThan(top.indexOf('f2.sh:1'));
  });

  it('says what was compared, or why every file was linted', () => {
    const scoped = renderSummary({
      results: [],
      filesAnalysed: 1,
      sarifFile: 's',
      scope: { base: SHA, compared: 'HEAD^1 aaaaaaa (the base branch) with HEAD bbbbbbb', files: 1, droppedLines: 0, allLines: false },
    });
    expect(scoped).toContain('Compared HEAD^1 aaaaaaa (the base branch) with HEAD bbbbbbb.');
    const all = renderSummary({ results: [], filesAnalysed: 4, sarifFile: 's', unscoped: 'no merge base of `x` and HEAD' });
    expect(all).toContain('Every file was linted: changed-only could not tell what changed (no merge base of <code>x</code> and HEAD).');
  });
});
