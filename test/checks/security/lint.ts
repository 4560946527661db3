/**
 * Test helpers for the security checks: lint one string as an in-memory unit (by default one
 * agent command, as a transcript tool call) and look at the diagnostics of one rule.
 */
import { expect } from 'vitest';
import type { Dialect, Diagnostic, Profile } from '../../../src/core/types.js';
import { Linter, finishFile } from '../../../src/lint.js';
import { IdentityMap } from '../../../src/core/source-map.js';

let linter: Linter | undefined;

/** Options of {@link lint}. */
export interface LintOptions {
  readonly profile?: Profile;
  readonly granularity?: 'script' | 'command';
  readonly dialect?: Dialect;
}

/** Lints `text` as one unit (default: `agent` profile, `command` granularity); sorted diagnostics. */
export async function lint(text: string, options: LintOptions = {}): Promise<Diagnostic[]> {
  linter ??= await Linter.create();
  const granularity = options.granularity ?? 'command';
  const unit = {
    text,
    hostText: text,
    dialect: options.dialect ?? 'bash',
    granularity,
    profile: options.profile ?? 'agent',
    origin: { file: granularity === 'command' ? 'command' : 'test.sh', kind: granularity === 'command' ? ('command' as const) : ('script' as const) },
    sourceMap: new IdentityMap(),
  };
  return finishFile(text, linter.lintUnit(unit));
}

/** `line:col` of every diagnostic of rule `id`. */
export function positions(ds: readonly Diagnostic[], id: string): string[] {
  return ds.filter((d) => d.ruleId === id).map((d) => `${d.range.start.line}:${d.range.start.column}`);
}

/** Asserts that `text` yields exactly one diagnostic of `id`, at `at` (`line:col`); returns it. */
export async function expectOne(id: string, text: string, at: string, options?: LintOptions): Promise<Diagnostic> {
  const ds = await lint(text, options);
  const own = ds.filter((d) => d.ruleId === id);
  expect(positions(ds, id), `${JSON.stringify(text)}: ${ds.map((d) => `${d.range.start.line}:${d.range.start.column} ${d.ruleId}`).join(', ')}`).toEqual([at]);
  return own[0]!;
}

/** Asserts that `text` yields no diagnostic of `id`. */
export async function expectNone(id: string, text: string, options?: LintOptions): Promise<void> {
  const ds = await lint(text, options);
  expect(positions(ds, id), `${JSON.stringify(text)}: ${ds.filter((d) => d.ruleId === id).map((d) => d.message).join(' | ')}`).toEqual([]);
}
