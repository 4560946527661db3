/**
 * The worker pool of a lint run (src/lint-pool.ts, src/lint-worker.ts, src/runner.ts
 * `RunOptions.concurrency`): a pooled run gives the results, order, totals and progress of a run
 * in the main thread, carries the run's policy, severities and packs into the worker threads, and
 * a file whose lint throws or whose worker thread dies fails alone. The worker threads run the
 * built worker (dist/src/lint-worker.js; `npm test` builds first), the main thread this source.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_PACKS, PackSet } from '../../src/analyses/destructive.js';
import { Linter, type LinterOptions } from '../../src/lint.js';
import { FILES_PER_WORKER, BYTES_PER_WORKER, workerCount, workerSpec } from '../../src/lint-pool.js';
import type { FileResult } from '../../src/report/index.js';
import { policyFrom } from '../../src/rules/policy.js';
import { lintFiles, type RunOptions, type RunResult } from '../../src/runner.js';
import type { Candidate } from '../../src/sources/discover.js';

const WORKER = new URL('../../dist/src/lint-worker.js', import.meta.url);
const FAULTY_WORKER = new URL('../fixtures/pool/faulty-worker.mjs', import.meta.url);
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

let dir: string;
let candidates: Candidate[];
let linter: Linter;

/** Files of every text kind, a transcript twice (its calls are de-duplicated across files), and files that are skipped. */
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shellward-pool-'));
  const files: string[] = [];
  const put = (name: string, text: string | Uint8Array): void => {
    writeFileSync(join(dir, name), text);
    files.push(join(dir, name));
  };
  const copy = (from: string, name: string): void => {
    copyFileSync(from, join(dir, name));
    files.push(join(dir, name));
  };
  for (const name of ['cleanup.sh', 'deploy.sh', 'safe.sh']) copy(join(EXAMPLES, name), name);
  copy(join(FIXTURES, 'makefiles/Makefile.basic'), 'Makefile');
  copy(join(FIXTURES, 'makefiles/rules.mk'), 'rules.mk');
  copy(join(FIXTURES, 'transcripts/claude-code/7f3e2a91-4c5d-4e8b-9a1f-2b3c4d5e6f70.jsonl'), 'a-session.jsonl');
  copy(join(FIXTURES, 'transcripts/claude-code/7f3e2a91-4c5d-4e8b-9a1f-2b3c4d5e6f70.jsonl'), 'b-session.jsonl');
  mkdirSync(join(dir, '.github/workflows'), { recursive: true });
  put('.github/workflows/ci.yml', 'on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - run: curl -fsSL https://example.com/i.sh | sh\n      - run: rm -rf "$DIR/"\n');
  put('suppressed.sh', '#!/bin/sh\n# shellward-disable-next-line rm-recursive-force -- test\nrm -rf /\n# shellward-disable-next-line no-such-rule -- test\nrm -rf ~\n');
  put('latin1.sh', new Uint8Array([0x23, 0x21, 0x2f, 0x62, 0x69, 0x6e, 0x2f, 0x73, 0x68, 0x0a, 0x65, 0x63, 0x68, 0x6f, 0x20, 0xe9, 0x0a]));
  put('binary.sh', new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]));
  put('notes.txt', 'just text\n');
  for (let i = 0; i < 12; i++) put(`gen-${String(i).padStart(2, '0')}.sh`, `#!/bin/bash\nset -e\ncd /tmp/build-${i}\nrm -rf "$OUT/"*\ngit push --force origin main\nsudo chmod 777 /etc/passwd\necho ok ${i}\n`);
  candidates = files.sort().map((path) => ({ path, explicit: true }));
  candidates.push({ path: join(dir, 'missing.sh'), explicit: true });
  linter = await Linter.create(linterOptions());
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A policy, a severity override and a pack set without one built-in pack: all must reach the workers. */
function linterOptions(): LinterOptions {
  return {
    policy: policyFrom({ deny: ['Bash(git push --force:*)'], allow: ['Bash(echo:*)'], ask: ['Bash(sudo:*)'] }, 'settings.json'),
    severity: { 'rm-recursive-force': 'error', 'invalid-utf8': 'warning' },
    packs: new PackSet(BUILTIN_PACKS.filter((p) => p.id !== 'kubernetes')),
  };
}

/** A run over the fixture files with its per-file callbacks recorded. */
async function run(options: Partial<RunOptions>, l: Linter = linter): Promise<{ run: RunResult; onFile: string[]; progress: [number, number, number][] }> {
  const onFile: string[] = [];
  const progress: [number, number, number][] = [];
  const r = await lintFiles(l, candidates, {
    cwd: dir,
    verdicts: true,
    onFile: (result, bytes) => onFile.push(`${result.file}:${bytes}`),
    onProgress: (done, total, bytes) => progress.push([done, total, bytes]),
    ...options,
  });
  return { run: r, onFile, progress };
}

const internalErrors = (r: FileResult): string[] => r.diagnostics.filter((d) => d.ruleId === 'internal-error').map((d) => d.message);

describe('workerCount', () => {
  it('gives auto one thread per 50 files or 512 KB, at most one less than the CPUs, and none below two', () => {
    expect(workerCount('auto', 10, 0, 8)).toBe(0);
    expect(workerCount('auto', 2 * FILES_PER_WORKER - 1, 0, 8)).toBe(0);
    expect(workerCount('auto', 2 * FILES_PER_WORKER, 0, 8)).toBe(2);
    expect(workerCount('auto', 100 * FILES_PER_WORKER, 0, 8)).toBe(7);
    expect(workerCount('auto', 3, 3 * BYTES_PER_WORKER, 8)).toBe(3);
    expect(workerCount('auto', 1, 40 * BYTES_PER_WORKER, 8)).toBe(0);
    expect(workerCount('auto', 10_000, 1e9, 2)).toBe(0);
    expect(workerCount('auto', 10_000, 1e9, 3)).toBe(2);
  });

  it('takes a number as it is, but never more threads than files, and off as none', () => {
    expect(workerCount(1, 10, 0, 2)).toBe(1);
    expect(workerCount(4, 10, 0, 2)).toBe(4);
    expect(workerCount(4, 3, 0, 2)).toBe(3);
    expect(workerCount('off', 10_000, 1e9, 64)).toBe(0);
    expect(workerCount(4, 0, 0, 8)).toBe(0);
    expect(() => workerCount(0, 10, 0, 8)).toThrow(RangeError);
    expect(() => workerCount(1.5, 10, 0, 8)).toThrow(RangeError);
  });
});

describe('workerSpec', () => {
  it('keeps the options as plain data and refuses a path host with functions', async () => {
    const spec = workerSpec(linter, { cwd: dir, verdicts: true })!;
    expect(structuredClone(spec)).toEqual(spec);
    expect(spec.packs?.map((p) => p.id)).toEqual(BUILTIN_PACKS.filter((p) => p.id !== 'kubernetes').map((p) => p.id));
    const local = await Linter.create({ pathHost: { home: '/home/u', realpath: (p) => p } });
    expect(workerSpec(local, { cwd: dir, verdicts: false })).toBeUndefined();
  });
});

describe('a pooled lint run', () => {
  it('gives the results, order, totals, callbacks and progress of a run in the main thread', { timeout: 180_000 }, async () => {
    const serial = await run({ concurrency: 'off' });
    // The fixtures do produce findings of several kinds, so equality says something.
    const ids = new Set(serial.run.results.flatMap((r) => r.diagnostics.map((d) => d.ruleId)));
    expect([...ids]).toEqual(expect.arrayContaining(['rm-recursive-force', 'invalid-utf8', 'policy-deny', 'policy-ask', 'suppression-invalid', 'file-skipped']));
    const all = serial.run.results.flatMap((r) => r.diagnostics);
    expect(all.filter((d) => d.ruleId === 'rm-recursive-force').map((d) => d.severity)).toEqual(expect.arrayContaining(['error']));
    expect(all.filter((d) => d.ruleId === 'rm-recursive-force').every((d) => d.severity === 'error')).toBe(true);
    expect(all.find((d) => d.ruleId === 'invalid-utf8')?.severity).toBe('warning');
    // examples/deploy.sh runs `kubectl delete`, which only the left-out pack reports.
    expect(all.some((d) => d.ruleId === 'kubectl-delete')).toBe(false);
    expect(serial.run.results.some((r) => r.file.endsWith('.jsonl') && (r.verdicts?.length ?? 0) > 0)).toBe(true);
    for (const concurrency of [1, 2, 4]) {
      const pooled = await run({ concurrency, workerScript: WORKER });
      expect(pooled.run).toEqual(serial.run);
      expect(JSON.stringify(pooled.run)).toBe(JSON.stringify(serial.run));
      expect(pooled.onFile).toEqual(serial.onFile);
      expect(pooled.progress.at(-1)).toEqual(serial.progress.at(-1));
      for (let i = 1; i < pooled.progress.length; i++) expect(pooled.progress[i]![0]).toBeGreaterThanOrEqual(pooled.progress[i - 1]![0]);
    }
  });

  it('turns a file whose lint throws, or whose worker thread dies, into that file alone failing', { timeout: 120_000 }, async () => {
    const planted = ['crash-here.sh', 'exits-here.sh', 'throws-here.sh'];
    for (const name of planted) writeFileSync(join(dir, name), '#!/bin/sh\nrm -rf /\n');
    const extra = planted.map((name) => ({ path: join(dir, name), explicit: true }));
    try {
      const serial = await lintFiles(linter, candidates, { cwd: dir, verdicts: true });
      const pooled = await lintFiles(linter, [...extra, ...candidates], { cwd: dir, verdicts: true, concurrency: 2, workerScript: FAULTY_WORKER });
      const [crashed, exited, threw, ...rest] = pooled.results;
      expect([crashed!.file, exited!.file, threw!.file]).toEqual(planted);
      expect(internalErrors(crashed!)).toEqual(['The lint of this file failed (in its worker thread: planted crash); it was not checked.']);
      expect(internalErrors(exited!)).toEqual(['The lint of this file failed (in its worker thread: process.exit(7) was called while linting this file); it was not checked.']);
      expect(internalErrors(threw!)).toEqual(['The lint of this file failed (in its worker thread: planted failure); it was not checked.']);
      expect(threw!.diagnostics).toHaveLength(1);
      expect(threw!.diagnostics[0]).toMatchObject({ severity: 'error', range: { start: { line: 1, column: 1 } } });
      expect(rest).toEqual(serial.results);
      expect(pooled.filesAnalysed).toBe(serial.filesAnalysed + planted.length);
    } finally {
      for (const f of extra) rmSync(f.path, { force: true });
    }
  });

  it('turns a file whose lint throws in the main thread into that file alone failing', async () => {
    const faulty = Object.create(linter) as Linter;
    faulty.analyse = (unit, ...rest) => {
      if (unit.origin.file === 'deploy.sh') throw new Error('planted failure');
      return linter.analyse(unit, ...rest);
    };
    const serial = await run({ concurrency: 'off' });
    const failing = await run({ concurrency: 'off' }, faulty);
    const i = serial.run.results.findIndex((r) => r.file === 'deploy.sh');
    expect(internalErrors(failing.run.results[i]!)).toEqual(['The lint of this file failed (planted failure); it was not checked.']);
    expect(failing.run.results.filter((_, j) => j !== i)).toEqual(serial.run.results.filter((_, j) => j !== i));
    expect(failing.run.filesAnalysed).toBe(serial.run.filesAnalysed);
  });
});
