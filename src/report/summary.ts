/** Counting shared by the formats: findings per severity over a whole report. */
import type { Severity } from '../core/types.js';
import type { FileResult } from './types.js';

/** Number of findings per severity, plus their total. */
export interface SeverityCounts {
  readonly errors: number;
  readonly warnings: number;
  readonly notes: number;
  /** `errors + warnings + notes`. */
  readonly total: number;
}

/** Counts the diagnostics of `results` by severity. */
export function countSeverities(results: readonly FileResult[]): SeverityCounts {
  const n: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  for (const r of results) for (const d of r.diagnostics) n[d.severity]++;
  return { errors: n.error, warnings: n.warning, notes: n.note, total: n.error + n.warning + n.note };
}

/** Number of distinct files (by displayed path) with at least one finding. */
export function countFilesWithFindings(results: readonly FileResult[]): number {
  const files = new Set<string>();
  for (const r of results) if (r.diagnostics.length > 0) files.add(r.file);
  return files.size;
}
