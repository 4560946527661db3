import { describe, expect, it } from 'vitest';
import { AuditAccumulator, type AuditEntry } from '../../src/audit/aggregate.js';
import { formatAuditMarkdown, formatAuditText } from '../../src/audit/format.js';
import type { UnitContext } from '../../src/core/types.js';
import type { Verdict } from '../../src/verdict.js';

const verdict = (v: Partial<Verdict> = {}): Verdict => ({
  decision: 'ask', reason: 'no-matching-rule', readOnly: false, destructive: [], outsideCwd: false, findings: [], suggestions: [], matchedRule: null,
  ...v,
}) as Verdict;

const entry = (command: string, context: UnitContext, v: Partial<Verdict> = {}, line = 1): AuditEntry => ({
  file: 't.jsonl', range: { start: { line, column: 1 }, end: { line, column: 2 } }, command, context: { agent: 'claude-code', sessionId: 's1', ...context }, verdict: verdict(v),
});

describe('audit aggregation', () => {
  it('counts outcomes, decisions, destructive runs and failures with exit-code semantics', () => {
    const acc = new AuditAccumulator();
    acc.add(entry('grep x f', { outcome: 'ran', exitCode: 1 }));
    acc.add(entry('npm test', { outcome: 'ran', exitCode: 1 }));
    acc.add(entry('npm test | grep FAIL', { outcome: 'ran', exitCode: 1 }));
    acc.add(entry('rm -rf build', { outcome: 'ran', exitCode: 0 }, { destructive: ['rm-recursive-force'] }));
    acc.add(entry('git push --force', { outcome: 'rejected' }, { destructive: ['git-push-force'] }));
    acc.add(entry('ls /', { outcome: 'denied' }, { decision: 'deny' }));
    acc.add(entry('x', { outcome: 'ran', failed: true, sessionId: 's2' }));
    acc.add(entry('cp a /etc/b', { outcome: 'interrupted' }, { outsideCwd: true }));
    const r = acc.finish(() => false);
    expect(r.overall).toMatchObject({
      calls: 8, ran: 6, rejected: 1, denied: 1, interrupted: 1, destructiveRan: 1, outsideCwdRan: 1, failed: 2, benignNonZero: 2,
      decisions: { allow: 0, ask: 7, deny: 1 },
    });
    expect(r.sessions.map((s) => [s.sessionId, s.counts.calls])).toEqual([['s1', 7], ['s2', 1]]);
    expect(r.sessions[0]!.rejected.map((x) => x.detail)).toEqual(['git-push-force']);
    expect(formatAuditText(r)).toContain('destructive commands that ran: 1');
    // verdicts establish outsideCwd (path validation, SPEC §3.4): shown as a count
    expect(r.outsideCwdEstablished).toBe(true);
    expect(formatAuditText(r)).toContain('commands outside the working directory that ran: 1');
    expect(formatAuditMarkdown(r)).toContain('| **all** | 8 | 6 | 1 | 1 |');
    expect(formatAuditMarkdown(r)).toContain('outside cwd ran |');
  });

  it('ranks suggested rules by asked-and-run calls and leaves out rules that admit a refused or destructive command', () => {
    const acc = new AuditAccumulator();
    for (let i = 0; i < 3; i++) acc.add(entry('npm test', { outcome: 'ran', exitCode: 0 }, { suggestions: ['Bash(npm test:*)'] }));
    acc.add(entry('git push origin x', { outcome: 'ran', exitCode: 0 }, { suggestions: ['Bash(git push:*)'] }));
    acc.add(entry('npm run x', { outcome: 'rejected' }, { suggestions: ['Bash(npm run:*)'] }));
    acc.add(entry('git push --force', { outcome: 'rejected' }, { destructive: ['git-push-force'] }));
    acc.add(entry('make', { outcome: 'ran', exitCode: 0 }, { decision: 'allow', suggestions: ['Bash(make:*)'] }));
    const r = acc.finish((rule, c) => rule === 'Bash(git push:*)' && c.command.startsWith('git push'));
    expect(r.suggestions).toEqual([{ rule: 'Bash(npm test:*)', covers: 3 }]);
    expect(r.excludedSuggestions).toEqual(['Bash(git push:*)']);
  });
});
