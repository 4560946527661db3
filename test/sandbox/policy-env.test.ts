import { describe, expect, it } from 'vitest';
import { DEFAULT_PATH, ENV_ALLOWLIST, sandboxEnv } from '../../src/sandbox/env.js';
import { clearanceFromVerdict, refusalOf, type SandboxClearance } from '../../src/sandbox/policy.js';

describe('policy gate', () => {
  it('allows only the decision allow', () => {
    expect(refusalOf({ decision: 'allow', reason: 'Bash(ls)', readOnly: true })).toBeUndefined();
    expect(refusalOf({ decision: 'ask', reason: 'no-matching-rule', readOnly: false })).toBe('the policy decision is ask: no-matching-rule');
    expect(refusalOf({ decision: 'deny', reason: 'Bash(rm:*)', readOnly: false })).toBe('the policy decision is deny: Bash(rm:*)');
  });

  it('refuses values outside the type from untyped callers', () => {
    for (const d of ['ALLOW', 'passthrough', '', undefined, null, true]) {
      expect(refusalOf({ decision: d, reason: 'x', readOnly: false } as unknown as SandboxClearance)).toMatch(/^the policy decision is not allow/);
    }
  });

  it('takes decision, reason and read-only classification from a verdict', () => {
    expect(clearanceFromVerdict({ decision: 'ask', reason: 'no-matching-rule', readOnly: false })).toEqual({ decision: 'ask', reason: 'no-matching-rule', readOnly: false });
  });
});

describe('sandbox environment', () => {
  it('keeps only allowlisted variables, sorted, with fixed values winning', () => {
    const env = sandboxEnv(
      { PATH: '/bin', HOME: '/home/u', LANG: 'C.UTF-8', GITHUB_TOKEN: 'secret', LD_PRELOAD: '/x.so', AWS_SECRET_ACCESS_KEY: 'k', TERM: 'xterm', TMPDIR: '/var/t' },
      { TMPDIR: '/tmp' },
    );
    expect(env).toEqual({ HOME: '/home/u', LANG: 'C.UTF-8', PATH: '/bin', TERM: 'xterm', TMPDIR: '/tmp' });
    expect(Object.keys(env)).toEqual(Object.keys(env).sort());
  });

  it('defaults PATH and drops values with NUL', () => {
    expect(sandboxEnv({ HOME: 'a\0b' })).toEqual({ PATH: DEFAULT_PATH });
  });

  it('lists no credential-looking names', () => {
    for (const n of ENV_ALLOWLIST) expect(n).not.toMatch(/TOKEN|SECRET|KEY|PASS|PROXY|PRELOAD/);
  });
});
