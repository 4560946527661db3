/**
 * The lint run over files (I/O edge shared by the CLI, the Action and the benchmark): reads
 * each candidate, decides whether it is a shell script, lints it, and collects per-file
 * results. Unreadable, binary and non-UTF-8 files become `file-skipped` notes, never a crash.
 */
import { open, readFile } from 'node:fs/promises';
import { FILE_SKIPPED } from './checks/input/input-rules.js';
import { lineHash } from './core/fingerprint.js';
import type { Diagnostic, Profile } from './core/types.js';
import { finishFile, type Linter } from './lint.js';
import type { FileResult } from './report/index.js';
import { displayPath, type Candidate } from './sources/discover.js';
import { decodeText, detectShellScript, scriptUnit } from './sources/script.js';

/** Options of {@link lintFiles}. */
export interface RunOptions {
  /** Directory that displayed paths are relative to. */
  readonly cwd: string;
  /** Profile for scripts (default `script`). */
  readonly profile?: Profile;
  /** Called after each file, e.g. for progress. */
  readonly onFile?: (result: FileResult, bytes: number) => void;
}

/** Totals of a run. */
export interface RunResult {
  readonly results: FileResult[];
  /** Files that were shell scripts (analysed or skipped with a note). */
  readonly filesAnalysed: number;
  /** Bytes of text analysed. */
  readonly bytes: number;
}

async function readHead(path: string): Promise<Uint8Array | undefined> {
  let fh;
  try {
    fh = await open(path, 'r');
    const buf = new Uint8Array(512);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}

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
 * Lints `candidates` one by one (the parser is single-threaded wasm). Non-explicit candidates
 * that are not shell scripts are left out silently; explicit ones are linted as bash when
 * nothing names their dialect.
 */
export async function lintFiles(linter: Linter, candidates: readonly Candidate[], options: RunOptions): Promise<RunResult> {
  const results: FileResult[] = [];
  let filesAnalysed = 0;
  let bytes = 0;
  const profile = options.profile ?? 'script';
  for (const c of candidates) {
    const file = displayPath(c.path, options.cwd);
    if (!c.explicit) {
      const head = await readHead(c.path);
      if (!head || !detectShellScript(c.path, new TextDecoder().decode(head))) continue;
    }
    let data: Uint8Array;
    try {
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
      const dialect = detectShellScript(c.path, text.slice(0, 512)) ?? 'bash';
      const unit = scriptUnit(file, text, dialect, profile);
      result = { file, diagnostics: finishFile(text, linter.lintUnit(unit)) };
    }
    results.push(result);
    options.onFile?.(result, data.length);
  }
  return { results, filesAnalysed, bytes };
}
