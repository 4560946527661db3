/**
 * Shared set-up of the attack-review batteries (test/rules/attack-review-*.test.ts): one linter
 * with a fixed home directory, a `check` of one command in `/work/proj` under given rules, and the
 * assertion every battery makes — a command is never allowed with no rules, with a `Bash(rm:*)`
 * deny rule, or with allow-all `Bash` beside that deny rule.
 */
import { beforeAll, expect } from 'vitest';
import { Linter } from '../../src/lint.js';
import { type Verdict, verdictFor } from '../../src/verdict.js';

/** Claude Code permission mode a check assumes. */
export type Mode = 'default' | 'acceptEdits';

/** What `bypassHarness` returns. */
export interface BypassHarness {
  /** The verdict for `command` run in `/work/proj` (home `/home/u`) under the given rules and mode. */
  check(command: string, allow?: string[], deny?: string[], mode?: Mode): Verdict;
  /** Asserts `command` is not allowed with no rules, under `Bash(rm:*)` deny, nor with allow-all `Bash` beside it. */
  neverAllowed(command: string): void;
}

/** Registers a `beforeAll` that creates the linter (call at module level of a test file). */
export function bypassHarness(): BypassHarness {
  let linter: Linter;
  beforeAll(async () => {
    linter = await Linter.create({ pathHost: { home: '/home/u' } });
  });
  const check = (command: string, allow: string[] = [], deny: string[] = [], mode: Mode = 'default'): Verdict =>
    verdictFor(command, { cwd: '/work/proj', mode, permissions: { allow, deny, ask: [] } }, linter);
  const neverAllowed = (command: string): void => {
    expect(check(command).decision, command).not.toBe('allow');
    expect(check(command, [], ['Bash(rm:*)']).decision, command).not.toBe('allow');
    expect(check(command, ['Bash'], ['Bash(rm:*)']).decision, command).not.toBe('allow');
  };
  return { check, neverAllowed };
}
