/**
 * The lint run over files (I/O edge shared by the CLI, the Action and the benchmark): reads
 * each candidate, decides whether it is a shell script, lints it, and collects per-file
 * results. Unreadable, binary and non-UTF-8 files become `file-skipped` notes, never a crash.
 */
import { open, readFile, stat } from 'node:fs/promises';
import { FILE_SKIPPED } from './checks/input/input-rules.js';
import { lineHash } from './core/fingerprint.js';
import type { Diagnostic, Profile } from './core/types.js';
import { finishFile, type Linter } from './lint.js';
import type { FileResult } from './report/index.js';
import { displayPath, type Candidate } from './sources/discover.js';
import { extractMakefile, isMakefilePath } from './sources/makefile.js';
import { decodeText, detectShellScript, dialectFromPath, scriptUnit } from './sources/script.js';
import { detectTranscript, mayBeTranscript, type SeenIds, type TranscriptCall } from './sources/transcript/index.js';
import { lintTranscriptFile } from './transcript-runner.js';
import { statementUnits, unitVerdict } from './unit-verdicts.js';
import { LineIndex } from './core/positions.js';
import { initParser } from './parse/parser.js';
import type { UnitVerdict } from './report/index.js';
import { dirname } from 'node:path';

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
  for (const c of candidates) {
    const file = displayPath(c.path, options.cwd);
    const makefile = isMakefilePath(c.path);
    if (!makefile && (c.explicit || mayBeTranscript(c.path))) {
      const head = await readHead(c.path, TRANSCRIPT_HEAD_BYTES);
      const format = head ? detectTranscript(new TextDecoder().decode(head)) : undefined;
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
          const r = await lintTranscriptFile(linter, c.path, file, format, seen, onCall);
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
    if (!c.explicit && !makefile) {
      const head = await readHead(c.path);
      // An unreadable file whose name says it is a script is reported, not silently dropped.
      if (!head && !dialectFromPath(c.path)) continue;
      if (head && !detectShellScript(c.path, new TextDecoder().decode(head))) continue;
    }
    let data: Uint8Array;
    try {
      const { size } = await stat(c.path);
      if (size > MAX_FILE_BYTES) {
        filesAnalysed++;
        const result = { file, diagnostics: [skipped(file, `larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB (${size} bytes)`)] };
        results.push(result);
        options.onFile?.(result, 0);
        continue;
      }
      data = await readFile(c.path);
    } catch (err) {
      filesAnalysed++;
      const code = (err as NodeJS.ErrnoException).code ?? 'error';
      const result = { file, diagnostics: [skipped(file, `cannot be read (${code})`)] };
      results.push(result);
      options.onFile?.(result, 0);
      continue;
    }
    filesAnalysed++;
    bytes += data.length;
    const decoded = decodeText(data);
    let result: FileResult;
    if (!decoded.ok) {
      const pos = bytePosition(data, decoded.offset);
      result = { file, diagnostics: [skipped(file, `${decoded.reason} at byte ${decoded.offset}`, pos.line, pos.column)] };
    } else {
      const text = decoded.text.startsWith('\uFEFF') ? decoded.text.slice(1) : decoded.text;
      if (makefile) {
        const { units } = extractMakefile(file, text, { profile });
        result = { file, diagnostics: finishFile(text, units.flatMap((u) => linter.lintUnit(u.unit))) };
        if (options.verdicts) {
          const index = new LineIndex(text);
          const defaultCwd = dirname(c.path);
          result = { ...result, verdicts: units.map((u) => unitVerdict(linter, u.unit, u.kind, { index, defaultCwd })) };
        }
        results.push(result);
        options.onFile?.(result, data.length);
        continue;
      }
      const dialect = detectShellScript(c.path, text.slice(0, 512)) ?? 'bash';
      const unit = scriptUnit(file, text, dialect, profile);
      result = { file, diagnostics: finishFile(text, linter.lintUnit(unit)) };
      if (parser) {
        const index = new LineIndex(text);
        const defaultCwd = dirname(c.path);
        result = { ...result, verdicts: statementUnits(parser, unit).map((u) => unitVerdict(linter, u, 'statement', { index, defaultCwd })) };
      }
    }
    results.push(result);
    options.onFile?.(result, data.length);
  }
  return { results, filesAnalysed, bytes };
}
