/**
 * The analysis pipeline for command units: parse → checks → diagnostics in host coordinates.
 * Pure apart from the parser's wasm memory; no file system, no processes, no environment.
 */
import { RULES, CHECKS, ruleMeta } from './checks/index.js';
import { INTERNAL_ERROR } from './checks/input/input-rules.js';
import type { CheckContext } from './checks/define.js';
import { lineHash, numberFingerprints } from './core/fingerprint.js';
import { LineIndex, spanToRange } from './core/positions.js';
import type { CommandUnit, Diagnostic, Finding, Range, Severity, SeverityLevel } from './core/types.js';
import { SEVERITY_RANK } from './core/types.js';
import { buildViews } from './parse/nodes.js';
import { DEFAULT_PARSE_TIMEOUT_MS, initParser, parseBash, type ParserInit } from './parse/parser.js';
import type { Parser } from 'web-tree-sitter';

/** Options of a {@link Linter}. */
export interface LinterOptions {
  /** Per-rule severity overrides (`off` silences a rule); unknown ids are ignored here. */
  readonly severity?: Readonly<Record<string, SeverityLevel>>;
  /** Parse time-out per unit in milliseconds (default 10 000). */
  readonly parseTimeoutMs?: number;
  readonly parser?: ParserInit;
}

/** A diagnostic before its fingerprint is known (fingerprints need the whole file). */
export type PendingDiagnostic = Omit<Diagnostic, 'fingerprint'>;

/**
 * Runs every registered check over command units. Create it with {@link Linter.create} (which
 * loads the parser once); `lintUnit` is then synchronous.
 */
export class Linter {
  private readonly indexByText = new Map<string, LineIndex>();

  private constructor(
    private readonly parser: Parser,
    private readonly options: LinterOptions,
  ) {}

  /** Loads the parser (once per process) and returns a linter. Rejects if the wasm cannot load. */
  static async create(options: LinterOptions = {}): Promise<Linter> {
    return new Linter(await initParser(options.parser), options);
  }

  /** Effective severity of `ruleId` for `unit`, or `undefined` when the rule is off. */
  severityFor(ruleId: string, unit: Pick<CommandUnit, 'profile'>, requested?: Severity): Severity | undefined {
    const override = this.options.severity?.[ruleId];
    const level = override ?? requested ?? ruleMeta(ruleId)?.severity[unit.profile] ?? 'warning';
    return level === 'off' ? undefined : level;
  }

  private lineIndex(hostText: string): LineIndex {
    let idx = this.indexByText.get(hostText);
    if (!idx) {
      idx = new LineIndex(hostText);
      // Keep only the last host text: units of one file arrive together.
      this.indexByText.clear();
      this.indexByText.set(hostText, idx);
    }
    return idx;
  }

  /**
   * Analyses one unit and returns its diagnostics in host-file coordinates, in no particular
   * order and without fingerprints (see {@link finishFile}). Never throws: a failing check
   * becomes an `internal-error` diagnostic and the other checks still run.
   */
  lintUnit(unit: CommandUnit): PendingDiagnostic[] {
    const out: PendingDiagnostic[] = [];
    const index = this.lineIndex(unit.hostText);
    const place = (f: Finding): void => {
      const severity = this.severityFor(f.ruleId, unit, f.severity);
      if (!severity) return;
      const range: Range = spanToRange(f.span, unit.sourceMap, index);
      out.push({ ruleId: f.ruleId, severity, message: f.message, file: unit.origin.file, range, ...(f.data ? { data: f.data } : {}) });
    };
    const tree = parseBash(this.parser, unit.text, this.options.parseTimeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS);
    if (!tree) {
      place({
        ruleId: INTERNAL_ERROR.id,
        message: `Parsing took longer than ${this.options.parseTimeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS} ms and was stopped; this code was not analysed.`,
        span: { start: 0, end: Math.min(unit.text.length, 1) },
      });
      return out;
    }
    try {
      const parsed = buildViews(tree, unit.text);
      const ctx: CheckContext = { unit, parsed, report: place };
      for (const check of CHECKS) {
        try {
          check.run(ctx);
        } catch (err) {
          place({
            ruleId: INTERNAL_ERROR.id,
            message: `Check \`${check.name}\` failed: ${err instanceof Error ? err.message : String(err)}`,
            span: { start: 0, end: Math.min(unit.text.length, 1) },
          });
        }
      }
    } finally {
      tree.delete();
    }
    return out;
  }
}

/** Orders diagnostics: line, column, severity (most severe first), rule id, message. */
export function compareDiagnostics(a: PendingDiagnostic, b: PendingDiagnostic): number {
  return (
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.range.start.line - b.range.start.line ||
    a.range.start.column - b.range.start.column ||
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

/**
 * Sorts the diagnostics of one host file and gives each its fingerprint. `hostText` is the
 * file's text (used for the line content the fingerprint hashes).
 */
export function finishFile(hostText: string, pending: readonly PendingDiagnostic[]): Diagnostic[] {
  const sorted = [...pending].sort(compareDiagnostics);
  const index = new LineIndex(hostText);
  const hashes = sorted.map((d) => {
    const start = index.lineStart(d.range.start.line);
    const end = index.lineStart(d.range.start.line + 1);
    const line = d.range.start.line < index.lineCount ? hostText.slice(start, end) : hostText.slice(start);
    return lineHash(d.ruleId, line);
  });
  const fps = numberFingerprints(hashes);
  return sorted.map((d, i) => ({ ...d, fingerprint: fps[i]! }));
}

export { RULES };
