/**
 * The worker thread of the lint pool (src/lint-pool.ts): tinypool loads this module in each
 * thread and calls its default export once per file. The thread creates its parser, linter and
 * verdict memo on its first file, from the {@link WorkerSpec} the pool was started with, and keeps
 * them for the run (the memo is a cache keyed by what a verdict depends on, so a memo per thread
 * gives the verdicts one memo for the run gives).
 */
import { isMainThread } from 'node:worker_threads';
import Tinypool from 'tinypool';
import type { Parser } from 'web-tree-sitter';
import { PackSet } from './analyses/destructive.js';
import { lintTextFile, type FileOutcome } from './file-lint.js';
import { Linter } from './lint.js';
import type { FileTask, WorkerSpec } from './lint-pool.js';
import { initParser } from './parse/parser.js';
import { kindById } from './sources/registry.js';
import { VerdictMemo } from './unit-verdicts.js';

interface ThreadState {
  readonly spec: WorkerSpec;
  readonly linter: Linter;
  readonly parser: Parser;
  readonly memo: VerdictMemo | undefined;
}

let state: Promise<ThreadState> | undefined;

/** True while this thread lints a file (synchronously). */
let linting = false;

// tinypool answers a thread's tasks with its error when the thread fails (an uncaught exception,
// ERR_WORKER_OUT_OF_MEMORY) and starts another, but not when the thread merely exits:
// `process.exit` in a worker thread ends that thread only, and its file would never be answered.
// Called while a file is linted, it throws instead, so the file fails with that error; Node's own
// calls (ending a thread after an uncaught exception) are left alone.
if (!isMainThread) {
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => {
    if (linting) throw new Error(`process.exit(${code ?? ''}) was called while linting this file`);
    return exit(code);
  }) as typeof process.exit;
}

/** The linter, parser and memo of this thread, created from `spec` on first use. */
async function threadState(spec: WorkerSpec): Promise<ThreadState> {
  const { home, ...options } = spec.linter;
  const linter = await Linter.create({ ...options, pathHost: { home }, ...(spec.packs ? { packs: new PackSet(spec.packs) } : {}) });
  const parser = await initParser(options.parser);
  return { spec, linter, parser, memo: spec.settings.verdicts ? new VerdictMemo(linter) : undefined };
}

/**
 * Lints one file in this thread: what `lintTextFile` (src/file-lint.ts) gives for it, exactly as
 * the main thread would. Rejects when the thread's linter cannot be created (a `.wasm` that
 * cannot be loaded) or `process.exit` is called during the lint; the pool reports either on the
 * file.
 */
export default async function lintInWorker(task: FileTask): Promise<FileOutcome | undefined> {
  state ??= threadState(Tinypool.workerData as WorkerSpec);
  const s = await state;
  const kind = kindById(task.kind);
  if (kind.read !== 'text') throw new Error(`a ${task.kind} file is not linted in a worker thread`);
  linting = true;
  try {
    return lintTextFile(s.linter, s.parser, task, kind, task.profile, s.spec.settings, s.memo);
  } finally {
    linting = false;
  }
}
