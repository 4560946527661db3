/**
 * The linter options of a resolved configuration. A module of its own so that `check` and
 * `hook`, which need only this of the project run, do not load the input-kind registry and its
 * parsers (YAML, workflows) with project.ts.
 */
import type { ResolvedConfig } from './config/config.js';
import type { LinterOptions } from './lint.js';
import type { PermissionMode } from './rules/decide.js';

/**
 * The linter options a configuration gives: its severities and policy, and `acceptEdits` when
 * `mode` (else the settings files' `permissions.defaultMode`) says so.
 */
export function linterOptionsFor(config: ResolvedConfig, mode?: PermissionMode): LinterOptions {
  return {
    severity: config.severity,
    policy: config.policy,
    ...(config.packs ? { packs: config.packs } : {}),
    ...((mode ?? config.permissionMode) === 'acceptEdits' ? { mode: 'acceptEdits' as const } : {}),
  };
}
