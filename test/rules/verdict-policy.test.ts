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
    // A parser differential gates (backslash-escaped whitespace: one word to bash, not to shell-quote).
    // `ls $'-la'` no longer does: the parse knows the ANSI-C value exactly, so the model decides it.
    const cmd = 'ls a\\ b';
    const asked = v(cmd, { allow: ['Bash(ls:*)'] });
    expect(asked.decision).toBe('ask');
    expect(asked.findings.length).toBeGreaterThan(0);
    expect(asked.suggestions).toEqual([]);
    expect(v(cmd, { allow: [`Bash(${cmd})`] })).toMatchObject({ decision: 'allow', matchedRule: { rule: `Bash(${cmd})` } });
  });

  it('too-complex commands ask without suggestions unless exactly allowed, and deny still denies', () => {
    // A substitution is decided by what its commands do (src/rules/decide.ts): `date` is read-only, so
    // `echo $(date)` is allowed by the echo rule; one whose command no rule allows still asks, without suggestions.
    expect(v('echo $(date)', { allow: ['Bash(echo:*)'] })).toMatchObject({ decision: 'allow', suggestions: [] });
    expect(v('echo $(curl x)', { allow: ['Bash(echo:*)'] }).decision).toBe('ask');
    expect(v('ls a\\ b', { allow: ['Bash(ls:*)'] })).toMatchObject({ decision: 'ask', suggestions: [] });
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

  it('an output redirection outside the project blocks a per-subcommand allow', () => {
    // The output-redirection shape check no longer gates; the write's path check asks instead.
    const r = v('echo x > /etc/passwd', { allow: ['Bash(echo:*)'] });
    expect(r.decision).toBe('ask');
    expect(code(r.reason)).toBe('path-constraint');
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
