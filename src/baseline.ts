/**
 * Baselines (pure): the findings a repository already has, recorded so that only new ones are
 * reported (`shellward lint --write-baseline FILE`, then `--baseline FILE`). A finding is
 * matched by its displayed file, rule id and fingerprint (`Diagnostic.fingerprint`, which survives
 * lines moving). Reading and writing the file is the CLI's job (src/cli/lint-command.ts).
 */
import type { FileResult } from './report/index.js';

/** Format version of the baseline file. */
export const BASELINE_VERSION = 1;

/** One recorded finding. */
export interface BaselineEntry {
  /** The path as reported (`FileResult.file`). */
  readonly file: string;
  readonly ruleId: string;
  readonly fingerprint: string;
}

/** The content of a baseline file. */
export interface Baseline {
  readonly version: typeof BASELINE_VERSION;
  /** The shellward version that wrote it (informational). */
  readonly toolVersion: string;
  /** Sorted by file, rule id, fingerprint; no duplicates. */
  readonly entries: readonly BaselineEntry[];
}

function key(e: BaselineEntry): string {
  return `${e.file}\0${e.ruleId}\0${e.fingerprint}`;
}

/** The baseline of a run's results: every finding of every file. */
export function createBaseline(results: readonly FileResult[], toolVersion: string): Baseline {
  const seen = new Map<string, BaselineEntry>();
  for (const r of results) {
    for (const d of r.diagnostics) {
      const e = { file: r.file, ruleId: d.ruleId, fingerprint: d.fingerprint };
      seen.set(key(e), e);
    }
  }
  const entries = [...seen.values()].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return { version: BASELINE_VERSION, toolVersion, entries };
}

/** A baseline as the text of its file: pretty JSON with a final newline. */
export function formatBaseline(baseline: Baseline): string {
  return `${JSON.stringify(baseline, null, 2)}\n`;
}

/** Thrown by {@link parseBaseline} for text that is not a baseline; the message is one line. */
export class BaselineError extends Error {}

/** Parses the text of a baseline file; throws {@link BaselineError} (one-line message) if malformed. */
export function parseBaseline(text: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new BaselineError(`not valid JSON (${(err instanceof Error ? err.message : String(err)).split('\n')[0]})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new BaselineError('not a shellward baseline (expected a JSON object)');
  const obj = data as Record<string, unknown>;
  if (obj.version !== BASELINE_VERSION) throw new BaselineError(`unsupported baseline version ${JSON.stringify(obj.version)} (expected ${BASELINE_VERSION})`);
  if (!Array.isArray(obj.entries)) throw new BaselineError('not a shellward baseline (`entries` is not an array)');
  const entries: BaselineEntry[] = [];
  obj.entries.forEach((e: unknown, i: number) => {
    const r = e as Record<string, unknown> | null;
    if (typeof r !== 'object' || r === null || typeof r.file !== 'string' || typeof r.ruleId !== 'string' || typeof r.fingerprint !== 'string') {
      throw new BaselineError(`entries[${i}] needs string \`file\`, \`ruleId\` and \`fingerprint\``);
    }
    entries.push({ file: r.file, ruleId: r.ruleId, fingerprint: r.fingerprint });
  });
  return { version: BASELINE_VERSION, toolVersion: typeof obj.toolVersion === 'string' ? obj.toolVersion : '', entries };
}

/** What {@link filterBaseline} returns. */
export interface BaselineFiltered {
  /** The results with baseline findings removed (files keep their place, even when left empty). */
  readonly results: FileResult[];
  /** How many findings the baseline matched. */
  readonly matched: number;
}

/** Removes from `results` every finding recorded in `baseline` (same file, rule id and fingerprint). */
export function filterBaseline(results: readonly FileResult[], baseline: Baseline): BaselineFiltered {
  const known = new Set(baseline.entries.map(key));
  let matched = 0;
  const out = results.map((r) => {
    const diagnostics = r.diagnostics.filter((d) => {
      const hit = known.has(key({ file: r.file, ruleId: d.ruleId, fingerprint: d.fingerprint }));
      if (hit) matched++;
      return !hit;
    });
    return diagnostics.length === r.diagnostics.length ? r : { ...r, diagnostics };
  });
  return { results: out, matched };
}
