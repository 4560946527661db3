/**
 * The lint run over files (I/O edge shared by the CLI, the Action, the library API and the
 * benchmark): reads each candidate, finds its input kind in the registry (src/sources/registry.ts),
 * lints the units the kind yields, and collects per-file results. Unreadable, binary and non-UTF-8
 * files become `file-skipped` notes, never a crash.
 */
import { open } from 'node:fs/promises';
import picomatch from 'picomatch';
import { failedFile, lintTextFile, skipped, type FileOutcome, type TextFile, type TextRunSettings } from './file-lint.js';
import type { Linter } from './lint.js';
import { candidateBytes, LintPool, workerCount, workerSpec, type Concurrency } from './lint-pool.js';
import { initParser } from './parse/parser.js';
import type { FileResult, UnitVerdict } from './report/index.js';
import { displayPath, type Candidate } from './sources/discover.js';
import type { InputKind, KindOptions, ProfileKey } from './sources/kind.js';
import { identifyKind, kindByName, kindTitles, needsSniffing, SNIFF_CHARS } from './sources/registry.js';
import { detectTranscript, mayBeTranscript, type SeenIds, type TranscriptCall } from './sources/transcript/index.js';
import { lintTranscriptFile } from './transcript-runner.js';
import { unitVerdict, VerdictMemo } from './unit-verdicts.js';
import type { Profile } from './core/types.js';

/** Options of {@link lintFiles}. */
export interface RunOptions {
  /** Directory that displayed paths are relative to. */
  readonly cwd: string;
  /** Profile for scripts and Makefiles (default `script`). */
  readonly profile?: Profile;
  /**
   * Also compute the verdict of every command unit (`FileResult.verdicts`): script top-level
   * statements (judged in their script, from the script's own analysis), Makefile units,
   * transcript tool calls (each analysed again as its own command). Default false.
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
  /**
   * Worker threads for the text files (src/lint-pool.ts {@link Concurrency}); default `off`, all
   * in this thread. Results are the same either way.
   */
  readonly concurrency?: Concurrency;
  /** The worker module of the pool (default: src/lint-worker.ts compiled); for tests. */
  readonly workerScript?: URL;
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

/**
 * Lints `candidates` and returns their results in candidate order. Each candidate's kind comes
 * from the input-kind registry (src/sources/registry.ts): by name, else by content (a shebang, a
 * transcript's first record). A text kind's file is read whole and linted by `lintTextFile`
 * (src/file-lint.ts): split into units, each linted, plus the notes the kind reports about the
 * file; a stream kind (agent transcripts) is streamed through its reader, always in this thread
 * and in candidate order (its tool calls are de-duplicated across the run's files). A file found
 * in a directory that no kind claims is left out silently; one named explicitly is reported with
 * a `file-skipped` note saying why (an explicit file without an extension and without a shebang
 * is read as a bash script, as a shell would run it).
 *
 * With {@link RunOptions.concurrency} text files are linted in worker threads
 * (src/lint-pool.ts) while this thread reads ahead; the results, their order and the totals are
 * the same as those of a run in this thread. A file whose lint throws, or whose worker thread
 * dies, gets an `internal-error` result of its own and the run goes on.
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
  const settings: TextRunSettings = { cwd: options.cwd, verdicts: options.verdicts === true };
  // Tool-call ids seen in this run's transcripts: re-logged and replayed calls are linted once.
  const seen: SeenIds = new Set();
  // A command repeated across the run's files (`set -e`, the same tool call) is judged once.
  const memo = options.verdicts ? new VerdictMemo(linter) : undefined;
  const parser = await initParser();
  const names = options.makefileNames ?? [];
  const extraNames = names.length > 0 ? picomatch([...names], { dot: true }) : undefined;
  const kindOptions: KindOptions = extraNames ? { makefileName: extraNames } : {};
  const pool = await startPool(linter, candidates, settings, options);
  // Reading overlaps linting: the next few files are read while one is analysed (the parser is
  // synchronous, so without this the process idles on every read); with a pool, enough files
  // are in flight to keep every worker busy.
  const ahead = pool ? Math.max(PREFETCH, pool.threads * 4) : PREFETCH;
  const pending: Promise<Loaded>[] = [];
  const startLoad = (i: number): void => {
    const c = candidates[i];
    if (c) pending[i] = loadCandidate(c, kindOptions);
  };
  for (let i = 0; i < ahead && i < candidates.length; i++) startLoad(i);
  // Outcomes in candidate order, pushed as soon as every earlier one is known (`undefined`: the
  // candidate is left out). Without a pool each is known at once.
  const queue: Slot[] = [];
  let flushed = 0;
  const flush = (): void => {
    while (queue.length > 0 && queue[0]!.done) {
      const outcome = queue.shift()!.outcome;
      flushed++;
      if (!outcome) continue;
      filesAnalysed++;
      bytes += outcome.bytes;
      results.push(outcome.result);
      options.onFile?.(outcome.result, outcome.bytes);
    }
  };
  const settle = (outcome: FileOutcome | undefined): void => {
    queue.push({ done: true, outcome });
    flush();
  };
  try {
    for (let i = 0; i < candidates.length; i++) {
      flush();
      while (queue.length >= ahead) {
        await queue[0]!.promise;
        flush();
        options.onProgress?.(flushed, candidates.length, bytes);
      }
      options.onProgress?.(flushed, candidates.length, bytes);
      const c = candidates[i]!;
      const loaded = await pending[i]!;
      delete pending[i];
      startLoad(i + ahead);
      const file = displayPath(c.path, options.cwd);
      if (loaded.kind === 'none') {
        settle(c.explicit ? { result: { file, diagnostics: [skipped(file, loaded.reason)] }, bytes: 0 } : undefined);
        continue;
      }
      if (loaded.kind === 'error') {
        settle({ result: { file, diagnostics: [skipped(file, `cannot be read (${loaded.code})`)] }, bytes: 0 });
        continue;
      }
      const kind = loaded.input;
      const kindProfile = profiles[kind.profileKey];
      if (kind.read === 'stream') {
        const [result, size] = await lintStream(linter, c, file, seen, kindProfile, memo);
        settle({ result, bytes: size });
        continue;
      }
      if (loaded.data === undefined) {
        settle({ result: { file, diagnostics: [skipped(file, `larger than ${MAX_FILE_BYTES / 1024 / 1024} MiB (${loaded.size} bytes)`)] }, bytes: 0 });
        continue;
      }
      const text: TextFile = { path: c.path, file, explicit: c.explicit, data: loaded.data };
      if (!pool) {
        settle(lintTextFile(linter, parser, text, kind, kindProfile, settings, memo));
        continue;
      }
      const slot: Slot = { done: false, outcome: undefined };
      slot.promise = pool.pool
        // A view into a larger buffer (staged content) is copied, or the whole buffer would be sent.
        .lint({ ...text, data: text.data.byteLength === text.data.buffer.byteLength ? text.data : text.data.slice(), kind: kind.id, profile: kindProfile })
        .catch((err: unknown): FileOutcome => ({ result: failedFile(linter, file, kindProfile, `in its worker thread: ${err instanceof Error ? err.message : String(err)}`), bytes: text.data.length }))
        .then((outcome) => {
          slot.done = true;
          slot.outcome = outcome;
        });
      queue.push(slot);
    }
    while (queue.length > 0) {
      await queue[0]!.promise;
      flush();
      if (queue.length > 0) options.onProgress?.(flushed, candidates.length, bytes);
    }
  } finally {
    await pool?.pool.close();
  }
  options.onProgress?.(candidates.length, candidates.length, bytes);
  return { results, filesAnalysed, bytes };
}

/** One candidate's place in {@link lintFiles}'s ordered output: done with its outcome, or still in a worker thread. */
interface Slot {
  done: boolean;
  outcome: FileOutcome | undefined;
  promise?: Promise<void>;
}

/**
 * The worker pool of a run, or `undefined` when it lints in this thread: concurrency `off` or
 * unset, too few files or bytes for `auto`, or a linter that cannot be re-created in a worker
 * thread (src/lint-pool.ts `workerSpec`).
 */
async function startPool(linter: Linter, candidates: readonly Candidate[], settings: TextRunSettings, options: RunOptions): Promise<{ pool: LintPool; threads: number } | undefined> {
  const concurrency = options.concurrency ?? 'off';
  if (concurrency === 'off' || candidates.length === 0) return undefined;
  // Sizes are read only when they can give `auto` more threads than the number of files does.
  const files = candidates.length;
  const bySize = concurrency === 'auto' && workerCount('auto', files, 0) < workerCount('auto', files, Number.MAX_SAFE_INTEGER);
  const threads = workerCount(concurrency, files, bySize ? await candidateBytes(candidates) : 0);
  if (threads === 0) return undefined;
  const spec = workerSpec(linter, settings);
  if (!spec) return undefined;
  return { pool: LintPool.start(threads, spec, options.workerScript), threads };
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
  // One open per file: the head that decides the kind, the size and the content are read through it.
  let fh: import('node:fs/promises').FileHandle | undefined;
  try {
    let kind = byName;
    if (!kind) {
      // No telling name: the start of the file decides (a shebang, a transcript's first record).
      let head: Uint8Array | undefined;
      try {
        fh = await open(c.path, 'r');
        const buf = new Uint8Array(needsSniffing(c.path).bytes);
        // A read at a given position leaves the handle's own position at 0 for readFile below.
        const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
        head = buf.subarray(0, bytesRead);
      } catch {
        head = undefined;
      }
      if (!head) return c.explicit ? { kind: 'error', code: 'EIO' } : { kind: 'none', reason: noKindReason(c.path) };
      kind = identifyKind(c.path, new TextDecoder().decode(head), { ...options, explicit: c.explicit });
      if (!kind) return { kind: 'none', reason: noKindReason(c.path) };
    }
    if (kind.read === 'stream') return { kind: 'read', input: kind, data: undefined, size: 0 };
    try {
      fh ??= await open(c.path, 'r');
      const { size } = await fh.stat();
      if (size > MAX_FILE_BYTES) return { kind: 'read', input: kind, data: undefined, size };
      const data = new Uint8Array(await fh.readFile());
      return { kind: 'read', input: kind, data, size };
    } catch (err) {
      return { kind: 'error', code: (err as NodeJS.ErrnoException).code ?? 'error' };
    }
  } finally {
    await fh?.close().catch(() => undefined);
  }
}
