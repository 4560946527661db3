/**
 * The run-wide verdict memo (src/unit-verdicts.ts `VerdictMemo`): a remembered verdict is the one
 * `verdictFor` gives, and commands that differ in text, working directory or home are judged apart.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../../src/lint.js';
import { VerdictMemo } from '../../src/unit-verdicts.js';
import { verdictFor } from '../../src/verdict.js';
import { policyFrom } from '../../src/rules/policy.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create({ policy: policyFrom({ deny: ['Bash(rm:*)'], allow: ['Bash(ls:*)'] }, 'settings.json') });
});

describe('VerdictMemo', () => {
  it('gives the verdict verdictFor gives, once per distinct request', () => {
    const memo = new VerdictMemo(linter);
    for (const command of ['ls -la', 'rm -rf build', 'cat ../secret', 'echo $(id)']) {
      for (const request of [{}, { cwd: '/work/p' }, { cwd: '/work/p', home: null }, { cwd: '/work/q', home: '/home/u' }]) {
        const first = memo.verdict(command, request);
        expect(first).toEqual(verdictFor(command, request, linter));
        expect(memo.verdict(command, request)).toBe(first);
      }
    }
  });

  it('keeps commands in different working directories apart', () => {
    const memo = new VerdictMemo(linter);
    const inside = memo.verdict('cat ../x', { cwd: '/work/p/sub' });
    const outside = memo.verdict('cat ../x', { cwd: '/work/p' });
    expect(inside.paths[0]?.resolved).toBe('/work/p/x');
    expect(outside.paths[0]?.resolved).toBe('/work/x');
  });

  it('keeps an unknown home apart from the local one', () => {
    const memo = new VerdictMemo(linter);
    const unknown = memo.verdict('cat ~/notes', { cwd: '/work/p', home: null });
    const known = memo.verdict('cat ~/notes', { cwd: '/work/p', home: '/home/u' });
    expect(unknown.paths[0]?.resolved).toBeNull();
    expect(known.paths[0]?.resolved).toBe('/home/u/notes');
  });
});
