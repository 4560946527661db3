/**
 * The lint run over files (I/O edge shared by the CLI, the Action, the library API and the
 * benchmark): reads each candidate, finds its input kind in the registry (src/sources/registry.ts),
 * lints the units the kind yields, and collects per-file results. Unreadable, binary and non-UTF-8
 * files become `file-skipped` notes, never a crash.
 */
import { open, readFile, stat } from 'node:fs/promises';
import picomatch from 'picomatch';
import type { Parser } from 'web-tree-sitter';
import { FILE_SKIPPED, INVALID_UTF8 } from './checks/input/input-rules.js';
import { lineHash } from './core/fingerprint.js';
import type { CommandUnit, Diagnostic, Profile, Span } from './core/types.js';
import { finishFile, type Linter, type PendingDiagnostic } from './lint.js';
import type { FileResult } from './report/index.js';
import { displayPath, type Candidate } from './sources/discover.js';
import type { InputKind, KindOptions, ProfileKey, TextKind } from './sources/kind.js';
import { identifyKind, kindByName, kindTitles, needsSniffing, SNIFF_CHARS } from './sources/registry.js';
import { decodeText } from './sources/script.js';
import { detectTranscript, mayBeTranscript, type SeenIds, type TranscriptCall } from './sources/transcript/index.js';
import { lintTranscriptFile } from './transcript-runner.js';
import { statementUnits, unitVerdict, VerdictMemo } from './unit-verdicts.js';
import { LineIndex } from './core/positions.js';
import { initParser } from './parse/parser.js';
import { ruleByName, ruleMeta, rulesCitingShellcheck } from './checks/index.js';
import { applySuppressions, mayHaveDirectives, parseDirectives } from './suppress.js';
import type { UnitVerdict } from './report/index.js';
import { dirname, resolve } from 'node:path';

/** Options of {@link lintFiles}. */
export interface RunOptions {
  /** Directory that displayed paths are relative to. */
  readonly cwd: string;
  /** Profile for scripts and Makefiles (default `script`). */
  readonly profile?: Profile;
  /**
   * Also compute the verdict of every command unit (`FileResult.verdicts`): script top-level
   * statements, Makefile units, transcript tool calls. Default false (it analyses each unit twice).
   */
  readonly verdicts?: boolean;
  /** Profile of Makefile recipe lines (config `profile.makefile`; default: {@link profile}). */
  readonly makefileProfile?: Profile;
  /** Profile of agent transcript tool calls (config `profile.transcript`; default `agent`). */
  readonly transcriptProfile?: Profile;
  /** More Makefile names (config `makefiles`): globs matched against a file's base name. */
  readonly makefileNames?: readonly string[];
  /** Called after each file, e.g. for progress. */
  readonly onFile?: (result: FileResult, bytes: number) => void;
  /**
   * Called before each candidate and once after the last: `done` candidates of `total` are
   * finished (skipped ones included), `bytes` of file content read so far. For a progress line.
   */
  readonly onProgress?: (done: number, total: number, bytes: number) => void;
}

/** Totals of a run. */
export interface RunResult {
  readonly results: FileResult[];
  /** Files of a kind shellward reads (analysed or skipped with a note), plus files named explicitly that were skipped. */
  readonly filesAnalysed: number;
  /** Bytes of text analysed. */
  readonly bytes: number;
}

async function readHead(path: string, size = 512): Promise<Uint8Array | undefined> {
  let fh: import('node:fs/promises').FileHandle | undefined;
  try {
    fh = await open(path, 'r');
    const buf = new Uint8Array(size);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}

/**
 * Largest shell script or Makefile analysed, in bytes. Analysis holds the whole parse tree in
 * memory (about 150 bytes per input byte with web-tree-sitter), so larger files are skipped with
 * a `file-skipped` note rather than risking the machine. Transcripts are streamed and not capped.
 */
export const MAX_FILE_BYTES = 16 * 1024 * 1024;

function skipped(file: string, reason: string, line = 1, column = 1): Diagnostic {
  return {
    ruleId: FILE_SKIPPED.id,
    severity: 'note',
    message: `File skipped: ${reason}.`,
    file,
    range: { start: { line, column }, end: { line, column: column + 1 } },
    fingerprint: `${lineHash(FILE_SKIPPED.id, reason)}:1`,
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
 * Lints `candidates` one by one (the parser is single-threaded wasm). Each candidate's kind comes
 * from the input-kind registry (src/sources/registry.ts): by name, else by content (a shebang, a
 * transcript's first record). A text kind's file is read whole and split into units, each linted,
 * plus the notes the kind reports about the file; a stream kind (agent transcripts) is streamed
 * through its reader. A file found in a directory that no kind claims is left out silently; one
 * named explicitly is reported with a `file-skipped` note saying why (an explicit file without
 * an extension and without a shebang is read as a bash script, as a shell would run it).
 */
export async function lintFiles(linter: Linter, candidates: readonly Candidate[], options: RunOptions): Promise<RunResult> {
  const results: FileResult[] = [];
  let filesAnalysed = 0;
  let bytes = 0;
  const profile = options.profile ?? 'script';
  const profiles: Readonly<Record<ProfileKey, Profile>> = {
    script: profile,
    makefile: options.makefileProfile ?? profile,
    transcript: options.transcriptProfile ?? 'agent',
  };
  // Tool-call ids seen in this run's transcripts: re-logged and replayed calls are linted once.
  const seen: SeenIds = new Set();
  // A command repeated across the run's files (`set -e`, the same tool call) is judged once.
  const memo = options.verdicts ? new VerdictMemo(linter) : undefined;
  const parser = await initParser();
  const names = options.makefileNames ?? [];
  const extraNames = names.length > 0 ? picomatch([...names], { dot: true }) : undefined;
  const kindOptions: KindOptions = extraNames ? { makefileName: extraNames } : {};
  // Reading overlaps linting: the next few files are read while one is analysed (the parser is
  // synchronous, so without this the process idles on every read).
  const pending: Promise<Loaded>[] = [];
  const startLoad = (i: number): void => {
    const c = candidates[i];
    if (c) pending[i] = loadCandidate(c, kindOptions);
  };
  for (let i = 0; i < PREFETCH && i < candidates.length; i++) startLoad(i);
  const push = (result: FileResult, size: number): void => {
    filesAnalysed++;
    bytes += size;
    results.push(result);
    options.onFile?.(result, size);
  };
  for (let i = 0; i < candidates.length; i++) {
    options.onProgress?.(i, candidates.length, bytes);
    const c = candidates[i]!;
    const loaded = await pending[i]!;
    delete pending[i];
    startLoad(i + PREFETCH);
    const file = displayPath(c.path, options.cwd);
    if (loaded.kind === 'none') {
      if (c.explicit) push({ file, diagnostics: [skipped(file, loaded.reason)] }, 0);
      continue;
    }
    if (loaded.kind === 'error') {
      push({ file, diagnostics: [skipped(file, `cannot be read (${loaded.code})`)] }, 0);
      continue;
    }
    const kind = loaded.input;
    const kindProfile = profiles[kind.profileKey];
    if (kind.read === 'stream') {
      push(...(await lintStream(linter, c, file, seen, kindProfile, memo)));
      continue;
    }
    if (loaded.data === undefined) {
      push({ file, diagnostics: [skipped(file, `larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB (${loaded.size} bytes)`)] }, 0);
      continue;
    }
    const data = loaded.data;
    const decoded = decodeText(data);
    if (!decoded.ok) {
      const pos = bytePosition(data, decoded.offset);
      push({ file, diagnostics: [skipped(file, `${decoded.reason} at byte ${decoded.offset}`, pos.line, pos.column)] }, data.length);
      continue;
    }
    const text = decoded.text.startsWith('\uFEFF') ? decoded.text.slice(1) : decoded.text;
    const extraction = kind.extract(text, { file, profile: kindProfile });
    if (extraction.notThisKind !== undefined) {
      if (c.explicit) push({ file, diagnostics: [skipped(file, `${extraction.notThisKind}`)] }, 0);
      continue;
    }
    const units = extraction.units.map((u) => ({ ...u, unit: withProjectRoot(u.unit, options.cwd) }));
    const index = new LineIndex(text);
    const found: PendingDiagnostic[] = [...encodingNote(linter, file, text, decoded.invalidAt, kindProfile)];
    for (const n of extraction.notes) {
      const severity = linter.severityFor(n.ruleId, { profile: kindProfile });
      if (severity) found.push({ ruleId: n.ruleId, severity, message: n.message, file, range: { start: index.position(n.span.start), end: index.position(Math.max(n.span.end, n.span.start + 1)) }, ...(n.data ? { data: n.data } : {}) });
    }
    // The views of each unit's parse are kept so that the suppression comments and the
    // per-statement verdicts read that parse instead of parsing the text again.
    const analysed = units.map((u) => {
      const a = linter.analyse(u.unit);
      found.push(...a.diagnostics);
      return a.views;
    });
    const whole = units.length === 1 && units[0]!.unit.text === text && units[0]!.unit.sourceMap.toHost(0) === 0 ? analysed[0]?.comments : undefined;
    let result: FileResult = { file, diagnostics: finishFile(text, withSuppressions(linter, file, text, found, kindProfile, kind, parser, whole)) };
    if (options.verdicts) {
      const defaultCwd = resolve(dirname(c.path));
      const verdicts = units.flatMap((u, i) =>
        (u.unit.granularity === 'script' ? statementUnits(parser, u.unit, analysed[i]?.statements) : [u.unit]).map((s) => unitVerdict(linter, s, u.kind, { index, defaultCwd, ...(memo ? { memo } : {}) })),
      );
      result = { ...result, verdicts };
    }
    push(result, data.length);
  }
  options.onProgress?.(candidates.length, candidates.length, bytes);
  return { results, filesAnalysed, bytes };
}

/** Lints one transcript (a stream kind): its result and its size in bytes; with `memo`, its tool calls' verdicts too. */
async function lintStream(linter: Linter, c: Candidate, file: string, seen: SeenIds, profile: Profile, memo: VerdictMemo | undefined): Promise<[FileResult, number]> {
  const withVerdicts = memo !== undefined;
  if (c.content !== undefined) return [{ file, diagnostics: [skipped(file, 'an agent transcript; transcripts are read from files, not from staged content or standard input')] }, 0];
  const format = detectTranscript(new TextDecoder().decode(await readHead(c.path, SNIFF_CHARS) ?? new Uint8Array()));
  if (!format) return [{ file, diagnostics: [skipped(file, 'cannot be read (EIO)')] }, 0];
  const verdicts: UnitVerdict[] = [];
  const onCall = withVerdicts
    ? (call: TranscriptCall): void => {
        verdicts.push(unitVerdict(linter, call.unit, 'tool-call', { lineShift: call.lineShift, ...(memo ? { memo } : {}) }));
      }
    : undefined;
  try {
    const r = await lintTranscriptFile(linter, c.path, file, format, seen, onCall, profile);
    verdicts.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column);
    return [{ file, diagnostics: r.diagnostics, ...(withVerdicts ? { verdicts } : {}) }, r.bytes];
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return [{ file, diagnostics: [skipped(file, `cannot be read (${code})`)] }, 0];
  }
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

/** How many files are read ahead of the one being analysed. */
const PREFETCH = 8;

/**
 * A candidate after reading: `none` (no kind claims it; `reason` says why, for a file named
 * explicitly), `error` (unreadable), or its kind and, unless it is over {@link MAX_FILE_BYTES}
 * or streamed, its whole content.
 */
type Loaded =
  | { readonly kind: 'none'; readonly reason: string }
  | { readonly kind: 'error'; readonly code: string }
  | { readonly kind: 'read'; readonly input: InputKind; readonly data: Uint8Array | undefined; readonly size: number };

/** Why no kind claims a file. */
function noKindReason(path: string): string {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot) : '';
  if (mayBeTranscript(path)) return 'not a transcript format shellward reads (Claude Code, Codex CLI, Gemini CLI JSON/JSONL)';
  return `not a kind of file shellward reads (${ext ? `a \`${ext}\` file` : 'no known name'} without a shell shebang; shellward reads ${kindTitles()})`;
}

/** Reads what {@link lintFiles} needs of one candidate, with as few file-system calls as it can. */
async function loadCandidate(c: Candidate, options: KindOptions): Promise<Loaded> {
  const byName = kindByName(c.path, options);
  if (c.content !== undefined) {
    // Given bytes (staged content, standard input).
    const kind = byName ?? identifyKind(c.path, new TextDecoder().decode(c.content.subarray(0, SNIFF_CHARS)), { ...options, explicit: c.explicit });
    if (!kind) return { kind: 'none', reason: noKindReason(c.path) };
    return { kind: 'read', input: kind, data: c.content.length > MAX_FILE_BYTES ? undefined : c.content, size: c.content.length };
  }
  let kind = byName;
  if (!kind) {
    // No telling name: the start of the file decides (a shebang, a transcript's first record).
    const head = await readHead(c.path, needsSniffing(c.path).bytes);
    if (!head) return c.explicit ? { kind: 'error', code: 'EIO' } : { kind: 'none', reason: noKindReason(c.path) };
    kind = identifyKind(c.path, new TextDecoder().decode(head), { ...options, explicit: c.explicit });
    if (!kind) return { kind: 'none', reason: noKindReason(c.path) };
  }
  if (kind.read === 'stream') return { kind: 'read', input: kind, data: undefined, size: 0 };
  try {
    const { size } = await stat(c.path);
    if (size > MAX_FILE_BYTES) return { kind: 'read', input: kind, data: undefined, size };
    const data = new Uint8Array(await readFile(c.path));
    return { kind: 'read', input: kind, data, size };
  } catch (err) {
    return { kind: 'error', code: (err as NodeJS.ErrnoException).code ?? 'error' };
  }
}
