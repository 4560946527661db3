/**
 * The lint run over files (I/O edge shared by the CLI, the Action and the benchmark): reads
 * each candidate, decides whether it is a shell script, lints it, and collects per-file
 * results. Unreadable, binary and non-UTF-8 files become `file-skipped` notes, never a crash.
 */
import { open, readFile, stat } from 'node:fs/promises';
import picomatch from 'picomatch';
import { FILE_SKIPPED, INVALID_UTF8 } from './checks/input/input-rules.js';
import { lineHash } from './core/fingerprint.js';
import type { CommandUnit, Diagnostic, Profile, Span } from './core/types.js';
import { finishFile, type Linter, type PendingDiagnostic } from './lint.js';
import type { FileResult } from './report/index.js';
import { displayPath, type Candidate } from './sources/discover.js';
import { extractMakefile, isMakefilePath } from './sources/makefile.js';
import { decodeText, detectShellScript, dialectFromPath, scriptUnit } from './sources/script.js';
import { detectTranscript, mayBeTranscript, type SeenIds, type TranscriptCall } from './sources/transcript/index.js';
import { lintTranscriptFile } from './transcript-runner.js';
import { statementUnits, unitVerdict } from './unit-verdicts.js';
import { LineIndex } from './core/positions.js';
import { initParser, parseBash, parseBudgetMs } from './parse/parser.js';
import { buildViews } from './parse/nodes.js';
import { ruleByName, ruleMeta, rulesCitingShellcheck } from './checks/index.js';
import { applySuppressions, makefileCommentSpans, mayHaveDirectives, parseDirectives } from './suppress.js';
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
}

/** Totals of a run. */
export interface RunResult {
  readonly results: FileResult[];
  /** Files that were shell scripts, Makefiles or transcripts (analysed or skipped with a note). */
  readonly filesAnalysed: number;
  /** Bytes of text analysed. */
  readonly bytes: number;
}

async function readHead(path: string, size = 512): Promise<Uint8Array | undefined> {
  let fh;
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

/** Bytes read to recognise a transcript (a Codex `session_meta` line can be long). */
const TRANSCRIPT_HEAD_BYTES = 64 * 1024;

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
 * Lints `candidates` one by one (the parser is single-threaded wasm). Agent transcripts are
 * recognised by content (`*.json`/`*.jsonl`, or any file named explicitly) and streamed, each
 * shell tool call a unit in the `agent` profile; Makefiles are recognised by name
 * (`isMakefilePath`) and their shell code linted unit by unit; other non-explicit candidates
 * that are not shell scripts are left out silently; explicit ones are linted as bash when nothing
 * names their dialect.
 */
export async function lintFiles(linter: Linter, candidates: readonly Candidate[], options: RunOptions): Promise<RunResult> {
  const results: FileResult[] = [];
  let filesAnalysed = 0;
  let bytes = 0;
  const profile = options.profile ?? 'script';
  // Tool-call ids seen in this run's transcripts: re-logged and replayed calls are linted once.
  const seen: SeenIds = new Set();
  const parser = options.verdicts ? await initParser() : undefined;
  // Reading overlaps linting: the next few files are read while one is analysed (the parser is
  // synchronous, so without this the process idles on every read).
  const names = options.makefileNames ?? [];
  const extraNames = names.length > 0 ? picomatch([...names], { dot: true }) : undefined;
  const isMakefile = (path: string): boolean => isMakefilePath(path, extraNames);
  const pending: Promise<Loaded>[] = [];
  const startLoad = (i: number): void => {
    const c = candidates[i];
    if (c) pending[i] = loadCandidate(c, isMakefile(c.path));
  };
  for (let i = 0; i < PREFETCH && i < candidates.length; i++) startLoad(i);
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    const loaded = await pending[i]!;
    delete pending[i];
    startLoad(i + PREFETCH);
    const file = displayPath(c.path, options.cwd);
    const makefile = isMakefile(c.path);
    if (loaded.kind === 'not-shell') continue;
    if (loaded.kind === 'error') {
      filesAnalysed++;
      const result = { file, diagnostics: [skipped(file, `cannot be read (${loaded.code})`)] };
      results.push(result);
      options.onFile?.(result, 0);
      continue;
    }
    if (!makefile && c.content === undefined && (c.explicit || mayBeTranscript(c.path))) {
      const format = detectTranscript(new TextDecoder().decode(loaded.head));
      if (format) {
        filesAnalysed++;
        let result: FileResult;
        let size = 0;
        const verdicts: UnitVerdict[] = [];
        const onCall = options.verdicts
          ? (call: TranscriptCall): void => {
              verdicts.push(unitVerdict(linter, call.unit, 'tool-call', { lineShift: call.lineShift }));
            }
          : undefined;
        try {
          const r = await lintTranscriptFile(linter, c.path, file, format, seen, onCall, options.transcriptProfile);
          size = r.bytes;
          verdicts.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.column - b.range.start.column);
          result = { file, diagnostics: r.diagnostics, ...(options.verdicts ? { verdicts } : {}) };
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code ?? 'error';
          result = { file, diagnostics: [skipped(file, `cannot be read (${code})`)] };
        }
        bytes += size;
        results.push(result);
        options.onFile?.(result, size);
        continue;
      }
    }
    const isShell = detectShellScript(c.path, new TextDecoder().decode(loaded.head.subarray(0, 512))) !== undefined;
    if (!c.explicit && !makefile && !isShell) continue;
    if (c.explicit && !makefile && !isShell && mayBeTranscript(c.path)) {
      // A `.json`/`.jsonl` named on the command line that is no transcript shellward reads:
      // linting its JSON as shell would only produce misleading syntax errors.
      filesAnalysed++;
      const result = { file, diagnostics: [skipped(file, 'not a transcript format shellward reads (Claude Code, Codex CLI, Gemini CLI JSON/JSONL)')] };
      results.push(result);
      options.onFile?.(result, 0);
      continue;
    }
    filesAnalysed++;
    if (loaded.data === undefined) {
      const result = { file, diagnostics: [skipped(file, `larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB (${loaded.size} bytes)`)] };
      results.push(result);
      options.onFile?.(result, 0);
      continue;
    }
    const data = loaded.data;
    bytes += data.length;
    const decoded = decodeText(data);
    let result: FileResult;
    if (!decoded.ok) {
      const pos = bytePosition(data, decoded.offset);
      result = { file, diagnostics: [skipped(file, `${decoded.reason} at byte ${decoded.offset}`, pos.line, pos.column)] };
    } else {
      const text = decoded.text.startsWith('\uFEFF') ? decoded.text.slice(1) : decoded.text;
      if (makefile) {
        const { units: raw } = extractMakefile(file, text, { profile: options.makefileProfile ?? profile });
        const units = raw.map((u) => ({ ...u, unit: withProjectRoot(u.unit, options.cwd) }));
        const pending = [...encodingNote(linter, file, text, decoded.invalidAt, options.makefileProfile ?? profile), ...units.flatMap((u) => linter.lintUnit(u.unit))];
        result = { file, diagnostics: finishFile(text, await withSuppressions(linter, file, text, pending, profile, 'makefile')) };
        if (options.verdicts) {
          const index = new LineIndex(text);
          const defaultCwd = resolve(dirname(c.path));
          result = { ...result, verdicts: units.map((u) => unitVerdict(linter, u.unit, u.kind, { index, defaultCwd })) };
        }
        results.push(result);
        options.onFile?.(result, data.length);
        continue;
      }
      const dialect = detectShellScript(c.path, text.slice(0, 512)) ?? 'bash';
      const unit = withProjectRoot(scriptUnit(file, text, dialect, profile), options.cwd);
      const pending = [...encodingNote(linter, file, text, decoded.invalidAt, profile), ...linter.lintUnit(unit)];
      result = { file, diagnostics: finishFile(text, await withSuppressions(linter, file, text, pending, profile, 'script')) };
      if (parser) {
        const index = new LineIndex(text);
        const defaultCwd = resolve(dirname(c.path));
        result = { ...result, verdicts: statementUnits(parser, unit).map((u) => unitVerdict(linter, u, 'statement', { index, defaultCwd })) };
      }
    }
    results.push(result);
    options.onFile?.(result, data.length);
  }
  return { results, filesAnalysed, bytes };
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
 * Applies the inline suppression directives of a script or Makefile (src/suppress.ts) to its
 * diagnostics, before fingerprinting. A script's directives come from the parser's comment nodes
 * (so heredoc bodies and strings never count); a Makefile's from its comment lines. Files that do
 * not contain the marker are not parsed again.
 */
async function withSuppressions(
  linter: Linter,
  file: string,
  text: string,
  pending: readonly PendingDiagnostic[],
  profile: Profile,
  kind: 'script' | 'makefile',
): Promise<PendingDiagnostic[]> {
  if (!mayHaveDirectives(text)) return [...pending];
  let comments: readonly Span[] = [];
  if (kind === 'makefile') {
    comments = makefileCommentSpans(text);
  } else {
    const tree = parseBash(await initParser(), text, parseBudgetMs(text.length));
    if (tree) {
      try {
        comments = buildViews(tree, text).comments;
      } finally {
        tree.delete();
      }
    }
  }
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
 * A candidate after reading: `not-shell` (a file found in a directory that is clearly not a
 * script, left out silently), `error` (unreadable; reported when it may be a script), or its
 * first bytes (`head`, up to {@link TRANSCRIPT_HEAD_BYTES}) and, unless it is over
 * {@link MAX_FILE_BYTES}, its whole content.
 */
type Loaded =
  | { readonly kind: 'not-shell' }
  | { readonly kind: 'error'; readonly code: string }
  | { readonly kind: 'read'; readonly head: Uint8Array; readonly data: Uint8Array | undefined; readonly size: number };

/** Reads what {@link lintFiles} needs of one candidate, with as few file-system calls as it can. */
async function loadCandidate(c: Candidate, makefile: boolean): Promise<Loaded> {
  const named = c.explicit || makefile || dialectFromPath(c.path) !== undefined;
  if (c.content !== undefined) {
    // Given bytes (staged content): a script by name or shebang, or a Makefile; never a transcript.
    const head = c.content.subarray(0, TRANSCRIPT_HEAD_BYTES);
    if (!named && !detectShellScript(c.path, new TextDecoder().decode(head.subarray(0, 512)))) return { kind: 'not-shell' };
    return { kind: 'read', head, data: c.content.length > MAX_FILE_BYTES ? undefined : c.content, size: c.content.length };
  }
  if (!named && mayBeTranscript(c.path)) {
    // A `.json`/`.jsonl` file found in a directory: its first line tells whether it is a
    // transcript, which is then streamed; any other JSON file is not read further.
    const head = await readHead(c.path, TRANSCRIPT_HEAD_BYTES);
    return head ? { kind: 'read', head, data: undefined, size: head.length } : { kind: 'not-shell' };
  }
  if (!named) {
    // A file found in a directory with no telling name: only its shebang can make it a script.
    const head = await readHead(c.path);
    if (!head || !detectShellScript(c.path, new TextDecoder().decode(head))) return { kind: 'not-shell' };
  }
  try {
    const { size } = await stat(c.path);
    if (size > MAX_FILE_BYTES) {
      const head = await readHead(c.path, TRANSCRIPT_HEAD_BYTES);
      return head ? { kind: 'read', head, data: undefined, size } : { kind: 'error', code: 'EIO' };
    }
    const data = new Uint8Array(await readFile(c.path));
    return { kind: 'read', head: data.subarray(0, TRANSCRIPT_HEAD_BYTES), data, size };
  } catch (err) {
    return { kind: 'error', code: (err as NodeJS.ErrnoException).code ?? 'error' };
  }
}
