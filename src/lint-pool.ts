/**
 * The worker pool of a lint run over many files (I/O edge, used by src/runner.ts): text files are
 * linted in worker threads (tinypool, https://github.com/tinylibs/tinypool; each thread loads its
 * own parser and linter, src/lint-worker.ts) while the main thread reads files, streams
 * transcripts and puts the results back in candidate order. A worker that dies fails only the
 * file it was linting.
 */
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import Tinypool from 'tinypool';
import type { Pack } from './analyses/destructive.js';
import type { Profile } from './core/types.js';
import type { FileOutcome, TextFile, TextRunSettings } from './file-lint.js';
import type { Linter, LinterOptions } from './lint.js';
import type { Candidate } from './sources/discover.js';
import type { KindId } from './sources/kind.js';

/**
 * How many worker threads lint a run's files (the CLI's `--concurrency`, named and valued as
 * ESLint's flag of the same name, https://eslint.org/docs/latest/use/command-line-interface#--concurrency):
 * `off` lints in the main thread; a number, that many worker threads (at least 1; never more
 * than there are files); `auto`, as many as the files and bytes pay for (see {@link workerCount}).
 * Unlike ESLint, whose default is `off`, the CLI's default is `auto`.
 */
export type Concurrency = number | 'auto' | 'off';

/** Files that pay for one worker thread under `auto` (its start-up: a module graph and a wasm parser). */
export const FILES_PER_WORKER = 50;
/** Bytes of input that pay for one worker thread under `auto`. */
export const BYTES_PER_WORKER = 512 * 1024;

/**
 * Worker threads for `concurrency` over `files` candidates of `bytes` bytes in total on a
 * machine of `cores` logical CPUs (default `os.availableParallelism()`); 0 = lint in the main
 * thread. `auto` gives one thread per {@link FILES_PER_WORKER} files or {@link BYTES_PER_WORKER}
 * bytes, whichever gives more, at most `cores - 1` (the main thread reads, streams transcripts
 * and formats the report), and 0 when that is fewer than 2: a single worker only adds its
 * start-up to a serial run. Throws a `RangeError` for a number that is not a positive integer.
 */
export function workerCount(concurrency: Concurrency, files: number, bytes: number, cores: number = availableParallelism()): number {
  if (concurrency === 'off' || files === 0) return 0;
  if (concurrency === 'auto') {
    const paid = Math.max(Math.floor(files / FILES_PER_WORKER), Math.floor(bytes / BYTES_PER_WORKER));
    const n = Math.min(paid, cores - 1, files);
    return n >= 2 ? n : 0;
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, "auto" or "off" (got ${String(concurrency)})`);
  return Math.min(concurrency, files);
}

/**
 * Total size in bytes of `candidates` (files that cannot be read count 0), for {@link workerCount};
 * read only when the number of files alone does not already decide it, so a large run costs no
 * extra `stat` calls.
 */
export async function candidateBytes(candidates: readonly Candidate[]): Promise<number> {
  const sizes = await Promise.all(
    candidates.map(async (c) => {
      if (c.content !== undefined) return c.content.length;
      try {
        return (await stat(c.path)).size;
      } catch {
        return 0;
      }
    }),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

/**
 * What a worker thread needs to create a linter equal to the run's and lint as the run does; sent
 * once to each thread (structured clone, so plain data only): the linter's options with the path
 * host reduced to its home directory and the pack set to its packs.
 */
export interface WorkerSpec {
  readonly linter: Omit<LinterOptions, 'pathHost' | 'packs'> & { readonly home: string | undefined };
  readonly packs?: readonly Pack[];
  readonly settings: TextRunSettings;
}

/**
 * The {@link WorkerSpec} of `linter` for `settings`, or `undefined` when the linter cannot be
 * re-created in another thread: its path host has functions (a `realpath` of the caller's own),
 * which do not cross threads, so the run stays in the main thread. The CLI's and the Action's
 * `lint` use the lexical path host, which can.
 */
export function workerSpec(linter: Linter, settings: TextRunSettings): WorkerSpec | undefined {
  const { pathHost, packs, ...rest } = linter.createdWith;
  if (pathHost && Object.values(pathHost).some((v) => typeof v === 'function')) return undefined;
  return { linter: { ...rest, home: pathHost?.home }, ...(packs ? { packs: packs.packs } : {}), settings };
}

/** One text file for a worker thread: the file, its kind (by id) and its profile. */
export interface FileTask extends TextFile {
  readonly kind: KindId;
  readonly profile: Profile;
}

/** The worker module of the pool: src/lint-worker.ts compiled next to this module. */
export const WORKER_SCRIPT = new URL('./lint-worker.js', import.meta.url);

/** A started pool of worker threads; {@link LintPool.close} it when the run is over. */
export class LintPool {
  private constructor(private readonly pool: Tinypool) {}

  /**
   * Starts `threads` (≥ 1) worker threads running `script` (default {@link WORKER_SCRIPT}; another
   * module with the same default export, for tests), each given `spec`.
   */
  static start(threads: number, spec: WorkerSpec, script: URL = WORKER_SCRIPT): LintPool {
    return new LintPool(new Tinypool({ filename: script.href, minThreads: threads, maxThreads: threads, workerData: spec, isolateWorkers: false, concurrentTasksPerWorker: 1 }));
  }

  /**
   * The outcome of `task` (as `lintTextFile` of src/file-lint.ts gives it; `undefined` = the file
   * is left out). Rejects when the worker thread died while linting it (then the pool starts
   * another for the files still queued).
   */
  lint(task: FileTask): Promise<FileOutcome | undefined> {
    return this.pool.run(task) as Promise<FileOutcome | undefined>;
  }

  /** Stops the worker threads. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
