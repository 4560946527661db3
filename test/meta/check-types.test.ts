/**
 * Typed contracts of src/checks/define.ts. The `@ts-expect-error` lines are the test proper:
 * `npm run typecheck` fails when reporting an undeclared rule id stops being a type error.
 */
import { describe, expect, it } from 'vitest';
import { defineCheck, type CheckContext, type RuleMeta } from '../../src/checks/define.js';

const META = {
  id: 'toy-rule',
  code: 'F499',
  title: 'A toy rule',
  category: 'paths',
  severity: { agent: 'warning', script: 'warning' },
  docs: { rationale: 'For the type test.', fix: 'None.' },
  sources: [],
  examples: { valid: [], invalid: [] },
} as const satisfies RuleMeta;

describe('defineCheck', () => {
  it('lets a check report only the rule id it declared', () => {
    const reported: string[] = [];
    const check = defineCheck(META, (ctx) => {
      ctx.report({ ruleId: 'toy-rule', message: 'declared', span: { start: 0, end: 1 } });
      // @ts-expect-error a rule id the check did not declare
      ctx.report({ ruleId: 'path-outside-workdir', message: 'undeclared', span: { start: 0, end: 1 } });
    });
    const ctx = { report: (f: { ruleId: string }) => reported.push(f.ruleId) } as unknown as CheckContext;
    check.run(ctx);
    expect(check.rules.map((r) => r.id)).toEqual(['toy-rule']);
    // At run time nothing filters: the type is the guard.
    expect(reported).toEqual(['toy-rule', 'path-outside-workdir']);
  });
});
