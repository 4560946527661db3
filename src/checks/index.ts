/**
 * The explicit, sorted registry of checks (STYLE.md §9.4 item 2). No directory scanning: a
 * check that is not listed here does not run, and the meta test fails for it.
 */
import type { Check, RuleMeta } from './define.js';
import destructiveCommand from './destructive/destructive-command.js';
import { INPUT_RULES } from './input/input-rules.js';
import parseError from './parse/parse-error.js';
import pathDangerousRemoval from './paths/path-dangerous-removal.js';

/** Every check, sorted by name. */
export const CHECKS: readonly Check[] = [destructiveCommand, parseError, pathDangerousRemoval];

/** Every rule shellward can report, sorted by id. */
export const RULES: readonly RuleMeta[] = [...CHECKS.flatMap((c) => c.rules), ...INPUT_RULES].sort((a, b) =>
  a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
);

const BY_ID = new Map(RULES.map((r) => [r.id, r]));

/** Metadata of rule `id`, or `undefined` for an unknown id. */
export function ruleMeta(id: string): RuleMeta | undefined {
  return BY_ID.get(id);
}
