/**
 * shellward's public API. The core (parse, checks, report) is pure; `lintFiles` and
 * `discover` are the I/O edge used by the CLI and the Action.
 */
export { Linter, finishFile, compareDiagnostics, type LinterOptions, type PendingDiagnostic } from './lint.js';
export { RULES, CHECKS, ruleMeta } from './checks/index.js';
export type { Check, CheckContext, RuleMeta, Category } from './checks/define.js';
export type * from './core/types.js';
export { LineIndex, spanToRange } from './core/positions.js';
export { IdentityMap, SegmentMap, type MapSegment } from './sources/source-map.js';
export { scriptUnit, detectShellScript, decodeText } from './sources/script.js';
export { discover, displayPath, type Candidate, type Discovery } from './sources/discover.js';
export { lintFiles, type RunOptions, type RunResult } from './runner.js';
export { formatReport, OUTPUT_FORMATS, type OutputFormat, type FileResult, type ReportInput } from './report/index.js';
export { matchDestructive, DESTRUCTIVE_RULES, type DestructiveRule } from './analyses/destructive.js';
export { dangerousRemovals, type DangerousRemoval } from './analyses/dangerous-removal.js';
