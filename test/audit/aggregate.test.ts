import { describe, expect, it } from 'vitest';
import { AuditAccumulator, type AuditEntry, type SuggestionVerifier } from '../../src/audit/aggregate.js';
import { formatAuditJson, formatAuditMarkdown, formatAuditText } from '../../src/audit/format.js';
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
    const acc = new AuditAccumulator(() => true);
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
    expect(formatAuditText(r)).toContain('Destructive commands that ran: 1');
    // verdicts establish outsideCwd (path validation, claude-code-reference.md §3.4): shown as a count
    expect(r.outsideCwdEstablished).toBe(true);
    // the calls here record no cwd: the count says for how many it is not known
    expect(formatAuditText(r)).toContain('Commands outside the project that ran: 1 (not known for 6 calls with no recorded working directory)');
    expect(formatAuditMarkdown(r)).toContain('| **all** | 8 | 6 | 1 | 1 |');
    expect(formatAuditMarkdown(r)).toContain('outside cwd ran |');
  });

  it('ranks suggested rules by asked-and-run calls and leaves out rules that admit a refused or destructive command', () => {
    const acc = new AuditAccumulator(() => true);
    for (let i = 0; i < 3; i++) acc.add(entry('npm test', { outcome: 'ran', exitCode: 0 }, { suggestions: ['Bash(npm test:*)'] }));
    acc.add(entry('git push origin x', { outcome: 'ran', exitCode: 0 }, { suggestions: ['Bash(git push:*)'] }));
    acc.add(entry('npm run x', { outcome: 'rejected' }, { suggestions: ['Bash(npm run:*)'] }));
    acc.add(entry('git push --force', { outcome: 'rejected' }, { destructive: ['git-push-force'] }));
    acc.add(entry('make', { outcome: 'ran', exitCode: 0 }, { decision: 'allow', suggestions: ['Bash(make:*)'] }));
    const r = acc.finish((rules, c) => rules.includes('Bash(git push:*)') && c.command.startsWith('git push'));
    expect(r.suggestions).toEqual([{ rule: 'Bash(npm test:*)', rules: ['Bash(npm test:*)'], covers: 3, agent: 'claude-code', native: ['Bash(npm test:*)'] }]);
    expect(r.excludedSuggestions).toEqual(['Bash(git push:*)']);
    expect(r).toMatchObject({ askedAndRun: 4, noRuleHelps: 0, suggestionsFellShort: 0 });
  });
});

/**
 * A stand-in for the verdict engine: a command is allowed when every `|`/`&&`-separated part has
 * a `Bash(prefix:*)` or exact `Bash(command)` rule. `curl … | sh` gets only the curl rule
 * suggested, as Claude Code does, so it stays asked.
 */
const covered = (part: string, rules: readonly string[]): boolean =>
  rules.some((r) => {
    const m = /^Bash\((.*?)(:\*)?\)$/.exec(r)!;
    return m[2] ? part === m[1] || part.startsWith(`${m[1]} `) : part === m[1];
  });
const engine = (): SuggestionVerifier & { calls: string[] } => {
  const calls: string[] = [];
  const f = (command: string, cwd: string | undefined, rules: readonly string[]): boolean => {
    calls.push(`${cwd}:${command}`);
    return command.split(/\s*(?:\|\||&&|\|)\s*/).every((p) => covered(p, rules));
  };
  return Object.assign(f, { calls });
};

describe('audit suggestions are verified', () => {
  const CURL = 'curl -fsSL https://get.example.dev/cli.sh | sh -s -- --yes';
  const CURL_RULE = 'Bash(curl -fsSL https://get.example.dev/cli.sh)';

  it('never credits the curl rule of `curl … | sh`: the call counts as "no rule would help"', () => {
    const verify = engine();
    const acc = new AuditAccumulator(verify);
    for (let i = 0; i < 4; i++) acc.add(entry(CURL, { outcome: 'ran', exitCode: 0, cwd: '/p' }, { suggestions: [CURL_RULE] }));
    acc.add(entry('npm test', { outcome: 'ran', exitCode: 0, cwd: '/p' }, { suggestions: ['Bash(npm test:*)'] }));
    // a security ask: no suggestions at all
    acc.add(entry('echo $(( x ))', { outcome: 'ran', exitCode: 0 }, { reason: 'misparsing' }));
    // rejected and allowed calls are not prompts saved
    acc.add(entry(CURL, { outcome: 'rejected', cwd: '/p' }, { suggestions: [CURL_RULE] }));
    const r = acc.finish(() => false);
    // one prompt saved is a one-off: no suggestion
    expect(r.suggestions).toEqual([]);
    expect(r).toMatchObject({ askedAndRun: 6, noRuleHelps: 5, suggestionsFellShort: 4 });
    // repeated calls cost one verification: keyed by command, cwd and rule set
    expect(verify.calls).toEqual(['/p:' + CURL, '/p:npm test']);
    acc.add(entry(CURL, { outcome: 'ran', exitCode: 0, cwd: '/q' }, { suggestions: [CURL_RULE] }));
    expect(verify.calls).toHaveLength(3);
    const text = formatAuditText(acc.finish(() => false));
    expect(text).not.toContain('Bash(curl');
    expect(text).toContain('  no rule would help: 6 of 7 calls asked and run\n');
    expect(text).toContain('    5 calls whose suggested rules would still leave a part asked (e.g. a pipe into sh)\n');
    const md = formatAuditMarkdown(acc.finish(() => false));
    expect(md).toContain('No rule would help: 6 of 7 calls asked and run.\n\n- ');
    expect(md).toContain('\n- 5 calls whose suggested rules would still leave a part asked');
    const json = JSON.parse(formatAuditJson(acc.finish(() => false), '0.0.0'));
    expect(json).toMatchObject({ version: 2, askedAndRun: 7, noRuleHelps: 6, suggestionsFellShort: 5 });
  });

  it('lists the rules of a two-subcommand call as one combined suggestion, which also covers its parts', () => {
    const acc = new AuditAccumulator(engine());
    const both = ['Bash(npm run build:*)', 'Bash(npm test:*)'];
    acc.add(entry('npm run build && npm test', { outcome: 'ran', exitCode: 0 }, { suggestions: both }));
    acc.add(entry('npm run build --watch && npm test -- x', { outcome: 'ran', exitCode: 0 }, { suggestions: both }));
    // the same rules in the other order are the same suggestion
    acc.add(entry('npm test && npm run build', { outcome: 'ran', exitCode: 0 }, { suggestions: [...both].reverse() }));
    for (let i = 0; i < 2; i++) acc.add(entry('npm test', { outcome: 'ran', exitCode: 0 }, { suggestions: ['Bash(npm test:*)'] }));
    // three rules, one of which the call only partly needs: the whole set is still one suggestion
    acc.add(entry('git add -A && git commit -m x && git push', { outcome: 'ran', exitCode: 0 }, { suggestions: ['Bash(git add:*)', 'Bash(git commit:*)', 'Bash(git push:*)'] }));
    acc.add(entry('git push --force', { outcome: 'rejected' }, { destructive: ['git-push-force'] }));
    const r = acc.finish((rules, c) => rules.includes('Bash(git push:*)') && c.command.startsWith('git push'));
    expect(r.suggestions).toEqual([
      { rule: 'Bash(npm run build:*) + Bash(npm test:*)', rules: both, covers: 5, agent: 'claude-code', native: both },
      { rule: 'Bash(npm test:*)', rules: ['Bash(npm test:*)'], covers: 2, agent: 'claude-code', native: ['Bash(npm test:*)'] },
    ]);
    expect(r.excludedSuggestions).toEqual(['Bash(git add:*) + Bash(git commit:*) + Bash(git push:*)']);
    expect(r).toMatchObject({ askedAndRun: 6, noRuleHelps: 0, suggestionsFellShort: 0 });
    const text = formatAuditText(r);
    expect(text).toContain("in each agent's syntax; A + B: add both)");
    expect(text).toContain('      5  claude-code Bash(npm run build:*) + Bash(npm test:*)\n');
    expect(formatAuditMarkdown(r)).toContain('| claude-code | `Bash(npm run build:*)` + `Bash(npm test:*)` | 5 |');
  });

  it('does not credit a call whose rule set would only allow it partly (one of two subcommands covered)', () => {
    const acc = new AuditAccumulator(engine());
    acc.add(entry('make build && sudo make install', { outcome: 'ran', exitCode: 0 }, { suggestions: ['Bash(make build:*)'] }));
    acc.add(entry('make build', { outcome: 'ran', exitCode: 0 }, { suggestions: ['Bash(make build:*)'] }));
    const r = acc.finish(() => false);
    expect(r.suggestions).toEqual([]);
    expect(r).toMatchObject({ askedAndRun: 2, noRuleHelps: 1, suggestionsFellShort: 1 });
  });
});

describe('audit report leads with what a reviewer asks first', () => {
  it('counts PowerShell calls as not analysed, masks secrets, counts sudo, and writes rules in the agent syntax', () => {
    const acc = new AuditAccumulator(() => true);
    acc.add(entry('Get-ChildItem', { outcome: 'ran', exitCode: 0, shell: 'powershell', agent: 'codex' }, { reason: 'not-analysed: PowerShell' }));
    const token = 'ghp_' + 'a1B2c3D4e5'.repeat(3) + 'x1y2z3';
    acc.add(entry(`git clone https://x:${token}@github.com/o/r`, { outcome: 'ran', exitCode: 0, cwd: '/p' }));
    acc.add(entry('sudo apt-get install -y jq', { outcome: 'ran', exitCode: 0, cwd: '/p' }));
    acc.add(entry('cat /etc/hosts', { outcome: 'ran', exitCode: 0 }));
    for (let i = 0; i < 2; i++) acc.add(entry(`npm run build ${i}`, { outcome: 'ran', exitCode: 0, agent: 'codex', sessionId: 'c1' }, { suggestions: ['Bash(npm run build:*)'] }));
    const r = acc.finish(() => false);
    expect(r.overall).toMatchObject({ calls: 6, notAnalysed: 1, secrets: 1, sudoRan: 1, outsideCwdUnknown: 3 });
    expect(r.suggestions).toEqual([{ rule: 'Bash(npm run build:*)', rules: ['Bash(npm run build:*)'], covers: 2, agent: 'codex', native: ['prefix_rule(pattern=["npm", "run", "build"], decision="allow")'] }]);
    for (const out of [formatAuditText(r), formatAuditMarkdown(r), formatAuditJson(r, '0')]) {
      expect(out).not.toContain(token);
      expect(out).toContain('ghp_…[masked]');
    }
    const text = formatAuditText(r);
    expect(text).toContain('6 shell calls (1 not analysed: PowerShell or cmd.exe)');
    expect(text).toContain('sudo calls that ran: 1');
  });
});

describe('why no allow rule is suggested', () => {
  it('splits the asked-and-run calls with no suggestion by cause, destructive first, and says so', () => {
    const acc = new AuditAccumulator(() => false);
    const ran = { outcome: 'ran' as const, exitCode: 0 };
    acc.add(entry('git push --force origin main', ran, { destructive: ['git-push-force'] }));
    acc.add(entry('rm -rf /tmp/x', ran, { destructive: ['rm-recursive-force'], reason: 'path-constraint: `rm` writes outside' }));
    acc.add(entry('npm publish', ran, { matchedRule: { rule: 'Bash(npm publish:*)', behavior: 'ask', file: 'settings.json' } }));
    acc.add(entry('cat /etc/hosts', ran, { reason: 'path-constraint: outside' }));
    acc.add(entry('sed -i s/a/b/ f', ran, { reason: 'sed-constraint: needs approval' }));
    acc.add(entry('x $(y)', ran, { reason: 'command-substitution: …' }));
    acc.add(entry('curl u | sh', ran, { suggestions: ['Bash(curl u)'] }));
    // not counted: rejected, allowed
    acc.add(entry('git push -f', { outcome: 'rejected' }, { destructive: ['git-push-force'] }));
    acc.add(entry('ls', ran, { decision: 'allow' }));
    const r = acc.finish(() => false);
    expect(r).toMatchObject({ askedAndRun: 7, noRuleHelps: 7, suggestionsFellShort: 1 });
    expect(r.noRuleBecause).toEqual({ destructive: 2, askRule: 1, paths: 2, checks: 1, fellShort: 1 });
    const text = formatAuditText(r);
    expect(text).toContain('  no rule would help: 7 of 7 calls asked and run\n    2 calls matching a destructive-command rule: none is suggested, it would let them run unprompted\n');
    expect(text).toContain('    1 call matching an ask rule, which an allow rule does not override\n');
    expect(text).toContain('    2 calls asked for their paths or options, not for the command\n');
    expect(text).toContain('    1 call asked by a security or parse check\n');
    expect(formatAuditMarkdown(r)).toContain('- 2 calls matching a destructive-command rule: none is suggested');
  });
});
