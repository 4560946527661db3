/**
 * Verdicts for the command units of linted files (`lint --format json`): each top-level
 * statement of a script, each Makefile unit, each transcript tool call gets the verdict
 * `shellward check` would give its text (`verdictFor`, unchanged), plus the unit's place in its
 * host file. Pure apart from the parser's wasm memory.
 */
import { LineIndex } from './core/positions.js';
import { isAnalysedShell, shellDisplayName, type CommandUnit, type Range } from './core/types.js';
import type { Linter } from './lint.js';
import { buildViews, type Statement } from './parse/nodes.js';
import { parseBash, parseBudgetMs } from './parse/parser.js';
import type { UnitVerdict, UnitVerdictKind } from './report/types.js';
import { IdentityMap } from './core/source-map.js';
import { verdictFor, type Verdict } from './verdict.js';
import type { Parser } from 'web-tree-sitter';

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
 * The verdict of `unit` as one command: `verdictFor(unit.text, {cwd, home}, linter)` where `cwd`
 * is the recorded working directory (transcripts) or `defaultCwd` and `home` the session's home;
 * a command recorded in a shell shellward does not parse gets {@link notAnalysedVerdict}.
 */
export function unitVerdict(linter: Linter, unit: CommandUnit, kind: UnitVerdictKind, options: { lineShift?: number; defaultCwd?: string; index?: LineIndex } = {}): UnitVerdict {
  const index = options.index ?? new LineIndex(unit.hostText);
  const cwd = unit.context?.cwd ?? options.defaultCwd;
  // The project root the runner adds for path checks is not a recorded fact: keep it out of reports.
  const { additionalDirectories: _dirs, ...context } = unit.context ?? {};
  const home = unit.context?.home;
  return {
    kind,
    command: unit.text,
    range: unitRange(unit, index, options.lineShift ?? 0),
    ...(Object.keys(context).length > 0 ? { context } : {}),
    verdict: isAnalysedShell(unit.context)
      ? verdictFor(unit.text, { ...(cwd !== undefined ? { cwd } : {}), ...(home !== undefined ? { home } : {}) }, linter)
      : notAnalysedVerdict(unit.context?.shell ?? 'unknown'),
  };
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

/**
 * The top-level statements of a whole-script unit as units of their own (text = the statement's
 * source, identity map at its offset), in document order. `statements` are those of a parse of
 * `unit.text` the caller already has (`UnitAnalysis.views`); without them the text is parsed. A
 * script that does not parse in time yields the script itself as one unit.
 */
export function statementUnits(parser: Parser, unit: CommandUnit, statements?: readonly Statement[]): CommandUnit[] {
  const toUnits = (list: readonly Statement[]): CommandUnit[] =>
    list.map((s) => ({
      ...unit,
      text: unit.text.slice(s.span.start, s.span.end),
      granularity: 'command' as const,
      sourceMap: new IdentityMap(unit.sourceMap.toHost(s.span.start)),
    }));
  if (statements) return toUnits(statements);
  const tree = parseBash(parser, unit.text, parseBudgetMs(unit.text.length));
  if (!tree) return [unit];
  try {
    return toUnits(buildViews(tree, unit.text).statements);
  } finally {
    tree.delete();
  }
}
