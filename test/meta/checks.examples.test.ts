/**
 * Runs every rule's in-file examples (architecture.md §9.3 layer 1, §9.4 item 3): each
 * `examples.invalid` entry must yield exactly one diagnostic of its rule id, each
 * `examples.valid` entry none. Examples run as one agent command (the unit the reference pages
 * render, see src/docs/rule-docs.ts), one `it` per example so a failure names it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { RULES, ruleMeta } from '../../src/checks/index.js';
import type { Diagnostic } from '../../src/core/types.js';
import { exampleLinter, exampleUnit, type ExampleLinter } from '../../src/docs/rule-docs.js';
import { Linter } from '../../src/lint.js';
import type { PermissionLists } from '../../src/rules/policy.js';

let lint: ExampleLinter;

beforeAll(async () => {
  lint = exampleLinter(await Linter.create());
});

/** `line:col rule-id message` for failure messages. */
function show(ds: readonly Diagnostic[]): string {
  return ds.map((d) => `${d.range.start.line}:${d.range.start.column} [${d.ruleId}] ${d.message}`).join('\n') || '(none)';
}

function check(source: string, policy?: PermissionLists): Diagnostic[] {
  const ds = [...lint(source, policy)];
  // Every finding names a known rule, and no check crashed on the example.
  for (const d of ds) expect(ruleMeta(d.ruleId), `unknown rule id ${d.ruleId}`).toBeDefined();
  expect(ds.filter((d) => d.ruleId === 'internal-error'), show(ds)).toEqual([]);
  return ds;
}

it('runs examples as one agent command', () => {
  const u = exampleUnit('true');
  expect(u).toMatchObject({ profile: 'agent', granularity: 'command', origin: { kind: 'command' } });
  expect(u.sourceMap.toHost(3)).toBe(3);
});

const withExamples = RULES.filter((r) => r.examples.invalid.length + r.examples.valid.length > 0);

describe.each(withExamples.map((r) => [r.id, r] as const))('%s', (id, r) => {
  if (r.examples.invalid.length > 0) describe('invalid', () => {
    it.each(r.examples.invalid.map((ex) => [JSON.stringify(ex), ex] as const))('%s yields exactly one diagnostic', (_label, ex) => {
      const ds = check(ex, r.examplePolicy);
      const own = ds.filter((d) => d.ruleId === id);
      expect(own.length, `expected exactly one [${id}] for ${JSON.stringify(ex)}, got:\n${show(ds)}`).toBe(1);
    });
  });

  if (r.examples.valid.length > 0) describe('valid', () => {
    it.each(r.examples.valid.map((ex) => [JSON.stringify(ex), ex] as const))('%s yields none', (_label, ex) => {
      const ds = check(ex, r.examplePolicy);
      const own = ds.filter((d) => d.ruleId === id);
      expect(own, `expected no [${id}] for ${JSON.stringify(ex)}, got:\n${show(ds)}`).toEqual([]);
    });
  });
});
