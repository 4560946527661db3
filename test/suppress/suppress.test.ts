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

describe('codes, the same-line form and ShellCheck directives', () => {
  const rules = {
    ...RULES,
    resolve: (name: string): string | undefined => ({ D311: 'rm-recursive-force', D301: 'git-reset-hard' })[name.toUpperCase()] ?? name,
    shellcheck: (code: string): readonly string[] => (code === 'SC2115' ? ['rm-recursive-force'] : []),
  };

  it('accepts the code shellward rules prints in place of the id', () => {
    const text = '# shellward-disable-next-line D311 -- build dir\nrm -rf build\n';
    expect(applySuppressions('f.sh', [diag('rm-recursive-force', 2)], directives(text), rules)).toEqual([]);
    // An unknown code is still reported, as written.
    const bad = applySuppressions('f.sh', [], directives('# shellward-disable-next-line D999 -- x\n'), rules);
    expect(bad.map((d) => d.message)).toEqual(['Unknown rule id `D999` in `shellward-disable-next-line`.']);
  });

  it('silences its own line with shellward-disable-line, and says when it silences nothing', () => {
    const text = 'rm -rf build # shellward-disable-line rm-recursive-force -- build dir\necho\n';
    const spans = [{ start: text.indexOf('#'), end: text.indexOf('\n') }];
    const ds = parseDirectives(text, spans);
    expect(ds.map((d) => [d.kind, d.line])).toEqual([['line', 1]]);
    expect(applySuppressions('f.sh', [diag('rm-recursive-force', 1), diag('rm-recursive-force', 2)], ds, rules).map((d) => d.range.start.line)).toEqual([2]);
    const unused = applySuppressions('f.sh', [diag('rm-recursive-force', 2)], ds, rules);
    expect(unused.map((d) => d.ruleId)).toEqual(['rm-recursive-force', 'suppression-unused']);
    expect(unused[1]!.message).toContain('on line 1');
  });

  it('honours `# shellcheck disable=SC2115` for the rules citing SC2115 (alone: the next line; trailing: its own line), never reporting it', () => {
    const text = '# shellcheck disable=SC2086,2115\nrm -rf "$A/"\nrm -rf "$B/" # shellcheck disable=SC2115\nrm -rf "$C/"\n# shellcheck disable=SC1000\n';
    const ds = directives(text);
    expect(ds.map((d) => [d.kind, d.ruleIds])).toEqual([['shellcheck', ['SC2086', 'SC2115']], ['shellcheck', ['SC1000']]]);
    const spans = [{ start: text.indexOf('# shellcheck disable=SC2115'), end: text.indexOf('\n', text.indexOf('# shellcheck disable=SC2115')) }];
    const all = [...ds, ...parseDirectives(text, spans)];
    const kept = applySuppressions('f.sh', [diag('rm-recursive-force', 2), diag('rm-recursive-force', 3), diag('rm-recursive-force', 4), diag('git-reset-hard', 2)], all, rules);
    expect(kept.map((d) => `${d.ruleId}:${d.range.start.line}`)).toEqual(['rm-recursive-force:4', 'git-reset-hard:2']);
  });
});
