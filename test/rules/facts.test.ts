/** The permission-engine facts in rules/permissions.json and the allow-safe wrapper forms (claude-code-reference.md §2.9, §3.1, §3.2). */
import { describe, expect, it } from 'vitest';
import facts from '../../rules/permissions.json' with { type: 'json' };
import table from '../../rules/commands/wrappers.json' with { type: 'json' };
import { SAFE_ENV_VARS } from '../../src/rules/match.js';

describe('rules/permissions.json', () => {
  it('has exactly the 32 SAFE_ENV_VARS of claude-code-reference.md §3.1', () => {
    expect(SAFE_ENV_VARS.size).toBe(32);
    for (const n of ['GOOS', 'RUST_LOG', 'NODE_ENV', 'PYTHONUNBUFFERED', 'PYTEST_DEBUG', 'ANTHROPIC_API_KEY', 'LC_ALL', 'TZ', 'GCC_COLORS', 'BLOCKSIZE']) {
      expect(SAFE_ENV_VARS.has(n), n).toBe(true);
    }
  });

  it('never lists a must-never-be-added name as safe (a trailing * is a prefix)', () => {
    for (const bad of facts.neverSafeEnvVars) {
      const hit = bad.endsWith('*') ? [...SAFE_ENV_VARS].filter((n) => n.startsWith(bad.slice(0, -1))) : SAFE_ENV_VARS.has(bad) ? [bad] : [];
      expect(hit, bad).toEqual([]);
    }
    // Names of the internal-only extension are not shipped behaviour.
    for (const n of ['KUBECONFIG', 'DOCKER_HOST', 'AWS_PROFILE', 'CI', 'GH_TOKEN']) expect(SAFE_ENV_VARS.has(n), n).toBe(false);
  });

  it('has the 21 BARE_SHELL_PREFIXES and the code-execution list of claude-code-reference.md §2.9', () => {
    expect(facts.bareShellPrefixes).toHaveLength(21);
    expect(facts.codeExecutionPrefixes).toEqual(expect.arrayContaining(['python', 'node', 'npx', 'npm run', 'bash', 'sh', 'eval', 'exec', 'env', 'xargs', 'sudo']));
  });
});

describe('allow-safe wrappers (rules/commands/wrappers.json allowRule)', () => {
  it('are exactly the text-level table of §3.2 plus command, builtin, noglob (§2.10) and bare xargs', () => {
    const safe = Object.entries(table.wrappers).filter(([, w]) => 'allowRule' in w).map(([n]) => n).sort();
    expect(safe).toEqual(['builtin', 'command', 'nice', 'noglob', 'nohup', 'stdbuf', 'time', 'timeout', 'xargs']);
  });
  it('every exec wrapper that prefix rules never approve is a wrapper of the table', () => {
    for (const w of facts.execWrappersNeverPrefixAllowed) expect(Object.keys(table.wrappers)).toContain(w);
  });
});
