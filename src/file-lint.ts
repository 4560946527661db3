/**
 * The lint of one file of a text kind (scripts, Makefiles, workflows …) whose bytes are already
 * read: decode, extract the kind's units, analyse each, apply the file's suppression comments,
 * fingerprint, and (when asked) judge each command unit. The run over many files
 * (src/runner.ts) calls it in the main thread or, through the worker pool (src/lint-pool.ts), in
 * worker threads (src/lint-worker.ts): both run exactly this code, so their results are equal.
 */
import { dirname, resolve } from 'node:path';
import type { Parser } from 'web-tree-sitter';
import { FILE_SKIPPED, INTERNAL_ERROR, INVALID_UTF8 } from './checks/input/input-rules.js';
import { ruleByName, ruleMeta, rulesCitingShellcheck } from './checks/index.js';
import { lineHash } from './core/fingerprint.js';
import { LineIndex } from './core/positions.js';
import type { CommandUnit, Diagnostic, Profile, Span } from './core/types.js';
import { finishFile, type Linter, type PendingDiagnostic } from './lint.js';
import type { FileResult } from './report/index.js';
import type { TextKind } from './sources/kind.js';
import { decodeText } from './sources/script.js';
import { applySuppressions, mayHaveDirectives, parseDirectives } from './suppress.js';
import { statementVerdicts, unitVerdict, type VerdictMemo } from './unit-verdicts.js';

/** A file of a text kind, read: what {@link lintTextFile} lints. */
export interface TextFile {
  /** Absolute path (the default working directory of its commands is its directory). */
  readonly path: string;
  /** The path shown to the user (src/sources/discover.ts `displayPath`). */
  readonly file: string;
  /** Named on the command line (then a file its kind rejects is reported, not left out). */
  readonly explicit: boolean;
  /** The whole content, at most `MAX_FILE_BYTES` (src/runner.ts). */
  readonly data: Uint8Array;
}

/** What is fixed for one run's text files: the same in every thread. */
export interface TextRunSettings {
  /** Directory shellward lints from (`RunOptions.cwd`): added to each unit's working directories. */
  readonly cwd: string;
  /** Also judge every command unit (`FileResult.verdicts`). */
  readonly verdicts: boolean;
}

/** A file's result and the bytes it counts for in the run's totals. */
export interface FileOutcome {
  readonly result: FileResult;
  readonly bytes: number;
}

/** A `file-skipped` note at `line`:`column` (1-based) of `file`. */
export function skipped(file: string, reason: string, line = 1, column = 1): Diagnostic {
  return {
    ruleId: FILE_SKIPPED.id,
    severity: 'note',
    message: `File skipped: ${reason}.`,
    file,
    range: { start: { line, column }, end: { line, column: column + 1 } },
    fingerprint: `${lineHash(FILE_SKIPPED.id, reason)}:1`,
  };
}

/**
 * The result of a file whose lint failed as a whole (an exception outside the per-unit guard of
 * `Linter.analyse`, or the worker thread linting it died): one `internal-error` at line 1 saying
 * `reason`, at the rule's severity for `profile` (an error when the rule is configured off, as
 * `Linter.analyse` does, so that the failure is never silent). The fingerprint does not depend on
 * `reason`, so a baseline that recorded the failure still matches when the wording changes.
 */
export function failedFile(linter: Linter, file: string, profile: Profile, reason: string): FileResult {
  const severity = linter.severityFor(INTERNAL_ERROR.id, { profile }) ?? 'error';
  const message = `The lint of this file failed (${reason}); it was not checked.`;
  return {
    file,
    diagnostics: [{ ruleId: INTERNAL_ERROR.id, severity, message, file, range: { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } }, fingerprint: `${lineHash(INTERNAL_ERROR.id, 'file')}:1` }],
  };
}

/** 1-based line and byte column of byte `offset` in `bytes`. */
function bytePosition(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Lints one read file of text kind `kind` in `profile`: `undefined` when the kind turns out not
 * to claim it and it was not named explicitly (left out of the run), else its result (a
 * `file-skipped` note when it is not valid text or not of its kind after all). With
 * `settings.verdicts`, each script's top-level statements and each other unit are judged, through
 * `memo` when given (it must be of the same `linter`). Never throws: an exception becomes the
 * file's {@link failedFile} result.
 */
export function lintTextFile(linter: Linter, parser: Parser, f: TextFile, kind: TextKind, profile: Profile, settings: TextRunSettings, memo?: VerdictMemo): FileOutcome | undefined {
  try {
    return lintTextFileOrThrow(linter, parser, f, kind, profile, settings, memo);
  } catch (err) {
    return { result: failedFile(linter, f.file, profile, err instanceof Error ? err.message : String(err)), bytes: f.data.length };
  }
}

function lintTextFileOrThrow(linter: Linter, parser: Parser, f: TextFile, kind: TextKind, profile: Profile, settings: TextRunSettings, memo?: VerdictMemo): FileOutcome | undefined {
  const { data, file } = f;
  const decoded = decodeText(data);
  if (!decoded.ok) {
    const pos = bytePosition(data, decoded.offset);
    return { result: { file, diagnostics: [skipped(file, `${decoded.reason} at byte ${decoded.offset}`, pos.line, pos.column)] }, bytes: data.length };
  }
  const text = decoded.text.startsWith('\uFEFF') ? decoded.text.slice(1) : decoded.text;
  const extraction = kind.extract(text, { file, profile });
  if (extraction.notThisKind !== undefined) return f.explicit ? { result: { file, diagnostics: [skipped(file, `${extraction.notThisKind}`)] }, bytes: 0 } : undefined;
  const units = extraction.units.map((u) => ({ ...u, unit: withProjectRoot(u.unit, settings.cwd) }));
  const index = new LineIndex(text);
  const found: PendingDiagnostic[] = [...encodingNote(linter, file, text, decoded.invalidAt, profile)];
  for (const n of extraction.notes) {
    const severity = linter.severityFor(n.ruleId, { profile });
    if (severity) found.push({ ruleId: n.ruleId, severity, message: n.message, file, range: { start: index.position(n.span.start), end: index.position(Math.max(n.span.end, n.span.start + 1)) }, ...(n.data ? { data: n.data } : {}) });
  }
  // The views of each unit's parse are kept so that the suppression comments and the
  // per-statement verdicts read that parse instead of parsing the text again.
  // A whole script's statements are judged from its own analysis, started in its directory.
  const defaultCwd = resolve(dirname(f.path));
  const analysed = units.map((u) => {
    const judge = settings.verdicts && u.unit.granularity === 'script';
    const a = linter.analyse(u.unit, undefined, judge ? { statements: { cwd: u.unit.context?.cwd ?? defaultCwd, ...(u.unit.context?.home !== undefined ? { home: u.unit.context.home } : {}) } } : {});
    found.push(...a.diagnostics);
    return a;
  });
  const whole = units.length === 1 && units[0]!.unit.text === text && units[0]!.unit.sourceMap.toHost(0) === 0 ? analysed[0]?.views?.comments : undefined;
  let result: FileResult = { file, diagnostics: finishFile(text, withSuppressions(linter, file, text, found, profile, kind, parser, whole)) };
  if (settings.verdicts) {
    const verdicts = units.flatMap((u, i) =>
      u.unit.granularity === 'script' ? statementVerdicts(u.unit, u.kind, analysed[i]!, { index }) : [unitVerdict(linter, u.unit, u.kind, { index, defaultCwd, ...(memo ? { memo } : {}) })],
    );
    result = { ...result, verdicts };
  }
  return { result, bytes: data.length };
}

/**
 * The `invalid-utf8` note of a file decoded with replacement characters (`invalidAt` = byte offset
 * of the first invalid byte), placed at the first U+FFFD of `text`; none when the file was valid
 * UTF-8 or the rule is off.
 */
function encodingNote(linter: Linter, file: string, text: string, invalidAt: number | undefined, profile: Profile): PendingDiagnostic[] {
  if (invalidAt === undefined) return [];
  const severity = linter.severityFor(INVALID_UTF8.id, { profile });
  if (!severity) return [];
  const at = Math.max(0, text.indexOf('\uFFFD'));
  const index = new LineIndex(text);
  const message = `Not valid UTF-8 at byte ${invalidAt}: invalid bytes were read as U+FFFD and the file was checked.`;
  return [{ ruleId: INVALID_UTF8.id, severity, message, file, range: { start: index.position(at), end: index.position(Math.min(at + 1, text.length)) } }];
}

/**
 * A script or Makefile unit with the directory shellward lints from (`RunOptions.cwd`, made
 * absolute) as an additional working directory: path checks treat writes anywhere in the project
 * as inside, whatever directory the script itself is in.
 */
function withProjectRoot(unit: CommandUnit, root: string): CommandUnit {
  const dirs = [...(unit.context?.additionalDirectories ?? []), resolve(root)];
  return { ...unit, context: { ...unit.context, additionalDirectories: dirs } };
}

/**
 * Applies the inline suppression directives of a file (src/suppress.ts) to its diagnostics,
 * before fingerprinting, when its kind has directives: the kind names the comment spans they are
 * read from (a script's comment nodes, so heredoc bodies and strings never count; a Makefile's
 * comment lines). Files that do not contain the marker are not parsed again; `parsedComments` are
 * the comment spans of the lint's own parse of the whole file, when it has one (then nothing is
 * parsed again).
 */
function withSuppressions(linter: Linter, file: string, text: string, pending: readonly PendingDiagnostic[], profile: Profile, kind: TextKind, parser: Parser, parsedComments?: readonly Span[]): PendingDiagnostic[] {
  if (!kind.directiveComments || !mayHaveDirectives(text)) return [...pending];
  const comments = kind.directiveComments(text, parser, parsedComments);
  return applySuppressions(file, pending, parseDirectives(text, comments), {
    known: (id) => ruleMeta(id) !== undefined,
    severity: (id) => linter.severityFor(id, { profile }),
    resolve: (name) => ruleByName(name)?.id,
    shellcheck: rulesCitingShellcheck,
  });
}
