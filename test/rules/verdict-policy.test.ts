/**
 * The verdict with permission rules (claude-code-reference.md §2.6, §2.9): how rule decisions combine with
 * the security checks, the parse complexity and the dangerous-removal limit.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../../src/lint.js';
import { policyFrom } from '../../src/rules/policy.js';
import { verdictFor, type PermissionRules } from '../../src/verdict.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create();
});
const v = (command: string, permissions: PermissionRules) => verdictFor(command, { cwd: '/repo', permissions }, linter);
const code = (reason: string) => reason.split(': ')[0];

describe('gates and the exact allow of the whole command (§2.6 items 0, 5, 11)', () => {
  it('a misparsing security ask blocks prefix allows; an exact allow of the whole command wins', () => {
    const cmd = 'ls $\'-la\'';
    const asked = v(cmd, { allow: ['Bash(ls:*)'] });
    expect(asked.decision).toBe('ask');
    expect(asked.findings.length).toBeGreaterThan(0);
    expect(asked.suggestions).toEqual([]);
    expect(v(cmd, { allow: [`Bash(${cmd})`] })).toMatchObject({ decision: 'allow', matchedRule: { rule: `Bash(${cmd})` } });
  });

  it('too-complex commands ask without suggestions unless exactly allowed, and deny still denies', () => {
    expect(v('echo $(date)', { allow: ['Bash(echo:*)'] })).toMatchObject({ decision: 'ask', suggestions: [] });
    // The misparsing command-substitution ask names the reason before the complexity (§1.4).
    expect(['command-substitution', 'parse-too-complex']).toContain(code(v('echo $(date)', { allow: ['Bash(echo:*)'] }).reason));
    expect(v('echo $(date)', { allow: ['Bash(echo $\\(date\\))'] }).decision).toBe('allow');
    expect(v('echo $(curl x)', { allow: ['Bash(echo $\\(curl x\\))'], deny: ['Bash(curl:*)'] }).decision).toBe('deny');
  });

  it('the dangerous-removal limit is not overridden by any allow rule (§2.8: path checks before allow rules)', () => {
    for (const allow of ['Bash(rm:*)', 'Bash(rm -rf /)', 'Bash(*)']) {
      const r = v('rm -rf /', { allow: [allow] });
      expect(r.decision, allow).toBe('ask');
      expect(code(r.reason)).toBe('path-dangerous-removal');
      expect(r.suggestions).toEqual([]);
    }
  });

  it('a deny rule beats the dangerous-removal ask', () => {
    expect(v('rm -rf /', { deny: ['Bash(rm:*)'] }).decision).toBe('deny');
  });

  it('a deferred security ask (output redirection) blocks a per-subcommand allow', () => {
    expect(code(v('echo x > /etc/passwd', { allow: ['Bash(echo:*)'] }).reason)).toBe('output-redirection');
  });
});

describe('suggestions in the verdict (§2.9)', () => {
  it('are offered only for no-matching-rule', () => {
    expect(v('npm run build', {})).toMatchObject({ decision: 'ask', reason: 'no-matching-rule', suggestions: ['Bash(npm run:*)'] });
    expect(v('git push', { ask: ['Bash(git push)'] }).suggestions).toEqual([]);
    expect(v('cd a && cd b', {}).suggestions).toEqual([]);
  });
});

describe('the linter\'s configured policy', () => {
  it('is merged with the request\'s rules, configured rules first', async () => {
    const configured = await Linter.create({ policy: policyFrom({ deny: ['Bash(curl:*)'], allow: ['Bash(make)'] }, '.claude/settings.json') });
    expect(verdictFor('make', {}, configured)).toMatchObject({ decision: 'allow', matchedRule: { file: '.claude/settings.json' } });
    expect(verdictFor('curl x', { permissions: { allow: ['Bash(curl:*)'] } }, configured)).toMatchObject({ decision: 'deny', matchedRule: { file: '.claude/settings.json' } });
  });

  it('a malformed request rule is an internal-error ask, never a throw', () => {
    const r = v('ls', { allow: ['Bash(ls'] });
    expect(r.decision).toBe('ask');
    expect(r.reason).toMatch(/^internal-error: <request> \(permissions\.allow\[0\]\): invalid permission rule "Bash\(ls"/);
  });
});
