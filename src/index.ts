/**
 * shellward's public API. The core (parse, checks, report) is pure; `runProject` (one lint run
 * over a project, as the CLI and the Action do it), `lintFiles`, `discover` and `loadConfig` are
 * the I/O edge.
 */
export { Linter, finishFile, compareDiagnostics, type LinterOptions, type PendingDiagnostic } from './lint.js';
export { RULES, CHECKS, ruleMeta } from './checks/index.js';
export type { Check, CheckContext, RuleMeta, Category } from './checks/define.js';
export type * from './core/types.js';
export { LineIndex, spanToRange } from './core/positions.js';
export { IdentityMap, SegmentMap, type MapSegment } from './core/source-map.js';
export { scriptUnit, detectShellScript, decodeText } from './sources/script.js';
export { discover, displayPath, type Candidate, type Discovery } from './sources/discover.js';
export { lintFiles, type RunOptions, type RunResult } from './runner.js';
export { runProject, linterOptionsFor, type ProjectOptions, type ProjectRun } from './project.js';
export { INPUT_KINDS, identifyKind, kindByName } from './sources/registry.js';
export type { InputKind, TextKind, StreamKind, KindId, Extraction, ExtractedUnit, SourceNote } from './sources/kind.js';
export { formatReport, OUTPUT_FORMATS, type OutputFormat, type FileResult, type ReportInput } from './report/index.js';
export { matchDestructive, DESTRUCTIVE_RULES, type DestructiveRule } from './analyses/destructive.js';
export { dangerousRemovals, type DangerousRemoval } from './analyses/dangerous-removal.js';
export { parseRule, splitRuleString, formatBashRule, RuleSyntaxError, type PermissionRule, type BashMatcher, type RuleBehavior, type RuleOrigin } from './rules/parse.js';
export { policyFrom, mergePolicies, EMPTY_POLICY, type PermissionPolicy, type PermissionLists, type PolicyDirectory } from './rules/policy.js';
export { decide, MAX_SUBCOMMANDS, type PermissionDecision, type PermissionBehavior, type DecisionReason, type DecisionContext } from './rules/decide.js';
export { suggestionForExactCommand, simpleCommandPrefix } from './rules/suggest.js';
export { loadConfig, type LoadOptions } from './config/load.js';
export { ConfigError, formatResolvedConfig, type ShellwardConfig, type ResolvedConfig, type PolicySource } from './config/config.js';
export { validateConfig } from './config/validate.js';
