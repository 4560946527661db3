/**
 * Verdicts for the command units of linted files (`lint --format json`), each with the unit's
 * place in its host file:
 * - each top-level statement of a script (and of any other whole-script unit) gets the decision
 *   for that statement where the script runs it, in the context the statements before it leave
 *   (working directory after `cd`, variables, functions), judged from the one analysis of the
 *   whole script (`Linter.analyse` with `statements`, {@link statementVerdicts});
 * - each Makefile unit and each transcript tool call is its own command: the verdict
 *   `shellward check` gives its text (`verdictFor`).
 * Pure apart from the parser's wasm memory.
 */
import { LineIndex } from './core/positions.js';
import { isAnalysedShell, shellDisplayName, type CommandUnit, type Range } from './core/types.js';
import type { Linter, UnitAnalysis } from './lint.js';
import type { UnitVerdict, UnitVerdictKind } from './report/types.js';
import { IdentityMap } from './core/source-map.js';
import { statementVerdict, verdictFor, type Verdict } from './verdict.js';

/**
 * The host range of a whole unit: from its first character to just after its last (an empty
 * unit: one character at its start), moved down by `lineShift` lines (see `TranscriptCall`).
 * `index` is the line index of `unit.hostText`.
 */
export function unitRange(unit: CommandUnit, index: LineIndex, lineShift = 0): Range {
  const start = unit.sourceMap.toHost(0);
  const end = unit.text.length > 0 ? unit.sourceMap.toHost(unit.text.length - 1) + 1 : start + 1;
  const s = index.position(start);
  const e = index.position(Math.max(end, start + 1));
  return { start: { line: s.line + lineShift, column: s.column }, end: { line: e.line + lineShift, column: e.column } };
}

/**
 * Verdicts already computed in one run, keyed by command text, working directory and home, so
 * that a statement repeated across a run (`set -e`, `exit 0`, the same line 40,000 times in a
 * generated script) is analysed once. `verdictFor` is a function of exactly those three and the
 * linter (its policy and settings, fixed for a run; the file system it reads for symlinks and git
 * repositories is taken as unchanged during the run), so a remembered verdict is the one the
 * analysis would give again. Holds at most {@link VerdictMemo.maxChars} UTF-16 code units of
 * command text; when full it is emptied and starts again.
 */
export class VerdictMemo {
  /** Upper bound of the command text kept, in UTF-16 code units. */
  static readonly maxChars = 8 * 1024 * 1024;
  private readonly byKey = new Map<string, Verdict>();
  private chars = 0;

  constructor(private readonly linter: Linter) {}

  /** `verdictFor(command, request, linter)`, computed once per distinct command, cwd and home. */
  verdict(command: string, request: { readonly cwd?: string; readonly home?: string | null }): Verdict {
    const key = `${request.cwd === undefined ? '-' : `+${request.cwd}`}\0${request.home === undefined ? '-' : request.home === null ? '0' : `+${request.home}`}\0${command}`;
    const known = this.byKey.get(key);
    if (known) return known;
    const verdict = verdictFor(command, request, this.linter);
    if (this.chars + key.length > VerdictMemo.maxChars) {
      this.byKey.clear();
      this.chars = 0;
    }
    this.byKey.set(key, verdict);
    this.chars += key.length;
    return verdict;
  }
}

/**
 * The verdict of `unit` as one command: `verdictFor(unit.text, {cwd, home}, linter)` where `cwd`
 * is the recorded working directory (transcripts) or `defaultCwd` and `home` the session's home;
 * a command recorded in a shell shellward does not parse gets {@link notAnalysedVerdict}. With
 * `memo` (which must be of the same `linter`), a command already judged in the run is not
 * analysed again.
 */
export function unitVerdict(linter: Linter, unit: CommandUnit, kind: UnitVerdictKind, options: { lineShift?: number; defaultCwd?: string; index?: LineIndex; memo?: VerdictMemo } = {}): UnitVerdict {
  const index = options.index ?? new LineIndex(unit.hostText);
  const cwd = unit.context?.cwd ?? options.defaultCwd;
  // The project root the runner adds for path checks is not a recorded fact: keep it out of reports.
  const { additionalDirectories: _dirs, ...context } = unit.context ?? {};
  const home = unit.context?.home;
  const request = { ...(cwd !== undefined ? { cwd } : {}), ...(home !== undefined ? { home } : {}) };
  return {
    kind,
    command: unit.text,
    range: unitRange(unit, index, options.lineShift ?? 0),
    ...(Object.keys(context).length > 0 ? { context } : {}),
    verdict: isAnalysedShell(unit.context)
      ? (options.memo?.verdict(unit.text, request) ?? verdictFor(unit.text, request, linter))
      : notAnalysedVerdict(unit.context?.shell ?? 'unknown'),
  };
}

/**
 * The verdicts of the top-level statements of the whole-script `unit`, from `analysis`, the
 * unit's own analysis made with `statements` (src/lint.ts {@link Linter.analyse}): one per
 * statement, in document order, each {@link statementVerdict}. When the script was not parsed
 * into statements (a parse time-out, an oversized or unparsable text, a failed analysis), the
 * whole script is one entry whose verdict is `ask`, `internal-error: …` with the analysis's own
 * reason: nothing in it was judged. A script in a shell shellward does not parse gets
 * {@link notAnalysedVerdict}.
 */
export function statementVerdicts(unit: CommandUnit, kind: UnitVerdictKind, analysis: UnitAnalysis, options: { index?: LineIndex } = {}): UnitVerdict[] {
  const index = options.index ?? new LineIndex(unit.hostText);
  const { additionalDirectories: _dirs, ...context } = unit.context ?? {};
  const entry = (u: CommandUnit, verdict: Verdict): UnitVerdict => ({
    kind,
    command: u.text,
    range: unitRange(u, index),
    ...(Object.keys(context).length > 0 ? { context } : {}),
    verdict,
  });
  if (!isAnalysedShell(unit.context)) return [entry(unit, notAnalysedVerdict(unit.context?.shell ?? 'unknown'))];
  const judged = analysis.statementJudgements?.();
  if (!judged) {
    const why = analysis.diagnostics.find((d) => d.ruleId === 'internal-error')?.message;
    return [entry(unit, { ...notAnalysedVerdict('bash'), reason: `internal-error: ${why ?? 'the script was not parsed into statements, so none of them was judged'}` })];
  }
  return judged.map((j) =>
    entry(
      { ...unit, text: unit.text.slice(j.span.start, j.span.end), granularity: 'command', sourceMap: new IdentityMap(unit.sourceMap.toHost(j.span.start)) },
      statementVerdict(j),
    ),
  );
}

/** Reason code of the verdict of a command in a shell shellward does not parse (PowerShell, cmd.exe). */
export const NOT_ANALYSED = 'not-analysed';

/**
 * The verdict of a recorded command in a shell shellward does not parse: `ask` (nothing about
 * it is proven), reason `not-analysed: …` naming the shell, no findings, suggestions or paths.
 */
export function notAnalysedVerdict(shell: string): Verdict {
  return {
    decision: 'ask',
    reason: `${NOT_ANALYSED}: the command is ${shellDisplayName(shell)}, which shellward does not parse; nothing about it is known`,
    readOnly: false,
    destructive: [],
    outsideCwd: false,
    findings: [],
    suggestions: [],
    matchedRule: null,
    paths: [],
  };
}
