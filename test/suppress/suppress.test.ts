/** Inline suppressions: the pure parser and applier (src/suppress.ts). */
import { describe, expect, it } from 'vitest';
import type { Severity } from '../../src/core/types.js';
import type { PendingDiagnostic } from '../../src/lint.js';
import { applySuppressions, makefileCommentSpans, parseDirectives } from '../../src/suppress.js';

const RULES = {
  known: (id: string): boolean => ['rm-recursive-force', 'git-reset-hard', 'suppression-invalid', 'suppression-unused', 'quiet-rule'].includes(id),
  severity: (id: string): Severity | undefined => (id === 'quiet-rule' ? undefined : 'warning'),
};

function diag(ruleId: string, line: number): PendingDiagnostic {
  return { ruleId, severity: 'warning', message: 'm', file: 'f.sh', range: { start: { line, column: 1 }, end: { line, column: 2 } } };
}

/** Directives of `text`, taking every line that starts with `#` as a comment. */
function directives(text: string) {
  return parseDirectives(text, makefileCommentSpans(text));
}

describe('parseDirectives', () => {
  it('reads the kind, ids, reason and line of each directive and ignores other comments', () => {
    const text = '# hello\n# shellward-disable-next-line a,b c -- why not\n\t# shellward-disable-file x --\n# shellward-disable-nextline a -- r\n';
    const ds = directives(text);
    expect(ds.map((d) => [d.kind, d.ruleIds, d.reason, d.line])).toEqual([
      ['next-line', ['a', 'b', 'c'], 'why not', 2],
      ['file', ['x'], '', 3],
      [undefined, ['a'], 'r', 4],
    ]);
    expect(ds[1]!.range.start).toEqual({ line: 3, column: 2 });
  });

  it('keeps ` -- ` inside the reason and does not split ids on hyphens', () => {
    const [d] = directives('# shellward-disable-next-line rm-recursive-force -- a -- b\n');
    expect(d!.ruleIds).toEqual(['rm-recursive-force']);
    expect(d!.reason).toBe('a -- b');
  });
});

describe('applySuppressions', () => {
  it('drops next-line and file-wide findings and reports nothing else', () => {
    const text = '# shellward-disable-file git-reset-hard -- scratch checkout\ngit reset --hard\n# shellward-disable-next-line rm-recursive-force -- generated\nrm -rf build\nrm -rf dist\n';
    const out = applySuppressions('f.sh', [diag('git-reset-hard', 2), diag('rm-recursive-force', 4), diag('rm-recursive-force', 5), diag('git-reset-hard', 5)], directives(text), RULES);
    expect(out.map((d) => [d.ruleId, d.range.start.line])).toEqual([['rm-recursive-force', 5]]);
  });

  it('reports a directive without a reason and does not apply it', () => {
    const out = applySuppressions('f.sh', [diag('rm-recursive-force', 2)], directives('# shellward-disable-next-line rm-recursive-force\nrm -rf x\n'), RULES);
    expect(out.map((d) => [d.ruleId, d.range.start.line])).toEqual([
      ['rm-recursive-force', 2],
      ['suppression-invalid', 1],
    ]);
    expect(out[1]!.message).toContain('no reason');
  });

  it('reports an unknown id and still applies the known ones of the same directive', () => {
    const out = applySuppressions('f.sh', [diag('rm-recursive-force', 2)], directives('# shellward-disable-next-line rm-recursive-forse,rm-recursive-force -- ok\nrm -rf x\n'), RULES);
    expect(out.map((d) => d.ruleId)).toEqual(['suppression-invalid']);
    expect(out[0]!.message).toContain('`rm-recursive-forse`');
  });

  it('reports ids that suppress nothing, unless their rule is off', () => {
    const text = '# shellward-disable-next-line rm-recursive-force,quiet-rule -- ok\necho hi\n# shellward-disable-file git-reset-hard -- ok\n';
    const out = applySuppressions('f.sh', [], directives(text), RULES);
    expect(out.map((d) => [d.ruleId, d.range.start.line])).toEqual([
      ['suppression-unused', 1],
      ['suppression-unused', 3],
    ]);
  });

  it('refuses to suppress the suppression rules and reports directives with no ids', () => {
    const text = '# shellward-disable-file suppression-unused -- no\n# shellward-disable-file -- nothing named\n';
    const out = applySuppressions('f.sh', [], directives(text), RULES);
    expect(out.map((d) => d.message)).toEqual(['`suppression-unused` cannot be suppressed.', expect.stringContaining('names no rule id')]);
  });

  it('reports with the configured severity and not at all when the rule is off', () => {
    const out = applySuppressions('f.sh', [], directives('# shellward-disable-next-line x\n'), { ...RULES, severity: (id) => (id === 'suppression-invalid' ? 'error' : undefined) });
    expect(out.map((d) => d.severity)).toEqual(['error']);
    expect(applySuppressions('f.sh', [], directives('# shellward-disable-next-line x\n'), { ...RULES, severity: () => undefined })).toEqual([]);
  });
});
