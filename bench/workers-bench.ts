/**
 * Part of `npm run bench`: whole-process `shellward lint --concurrency N` over the machine's real
 * shell scripts with the files in the main thread (`off`) and in 1, 2 and 4 worker threads,
 * printed as wall time, CPU time and peak RSS, with the wall-time ratio to 1 worker measured in the
 * same run. The passes are interleaved round by round (the median of `--rounds` is printed), so
 * that a change in the machine's load during the run touches every pass alike; the CPU count and
 * the load average are printed beside the figures, since other processes sharing the CPUs change
 * what more threads can gain. A benchmark, not a test.
 *
 * Each run is a fresh `node dist/src/cli/bin.js lint` process with `--import bench/rss-hook.mjs`
 * (peak RSS and CPU time of the whole process, worker threads included, from getrusage). The file
 * list comes from `--list FILE` (one path per line), else from `bench/corpus.sh scripts`.
 *
 *   node dist/bench/workers-bench.js [--list FILE] [--rounds 3] [--format text] [--workers off,1,2,4]
 */
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(repo, 'dist', 'src', 'cli', 'bin.js');
const HOOK = join(repo, 'bench', 'rss-hook.mjs');

/** One whole-process run. */
interface Run {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly rssMb: number;
  readonly exitCode: number | undefined;
  readonly stdoutBytes: number;
}

async function lintRun(list: string, format: string, workers: string): Promise<Run> {
  const t0 = performance.now();
  const r = await execa(process.execPath, ['--import', HOOK, BIN, 'lint', '--no-progress', '--format', format, '--concurrency', workers, '--files-from', list], {
    reject: false,
    cwd: '/',
    stdin: 'ignore',
    maxBuffer: 1024 * 1024 * 1024,
  });
  const wallMs = performance.now() - t0;
  const rss = /SHELLWARD_BENCH_MAXRSS_KB=(\d+)/.exec(String(r.stderr));
  const cpu = /SHELLWARD_BENCH_CPU_US=(\d+)/.exec(String(r.stderr));
  if (r.exitCode !== 0 && r.exitCode !== 1) throw new Error(`lint --concurrency ${workers} exited with ${r.exitCode}: ${String(r.stderr).slice(0, 500)}`);
  return { wallMs, cpuMs: cpu ? Number(cpu[1]) / 1000 : Number.NaN, rssMb: rss ? Math.round(Number(rss[1]) / 1024) : Number.NaN, exitCode: r.exitCode, stdoutBytes: String(r.stdout).length };
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

async function fileList(listArg: string | undefined, dir: string): Promise<string> {
  if (listArg) return resolve(listArg);
  const corpus = resolve(repo, 'bench', 'corpus.sh');
  const listed = existsSync(corpus) ? await execa('bash', [corpus, 'scripts'], { reject: false, maxBuffer: 64 * 1024 * 1024 }) : undefined;
  if (listed?.exitCode !== 0 || String(listed.stdout).trim() === '') throw new Error('no file list: pass --list FILE (bench/corpus.sh needs `file`)');
  const list = join(dir, 'files.txt');
  await writeFile(list, `${String(listed.stdout).trim()}\n`);
  return list;
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i === -1 ? undefined : argv[i + 1];
  };
  const rounds = Number(arg('--rounds') ?? 3);
  const format = arg('--format') ?? 'text';
  const passes = (arg('--workers') ?? 'off,1,2,4').split(',');
  const dir = await mkdtemp(join(tmpdir(), 'shellward-workers-'));
  try {
    const list = await fileList(arg('--list'), dir);
    const files = readFileSync(list, 'utf8').split('\n').filter(Boolean).length;
    const loadBefore = loadavg()[0]!;
    const runs = new Map<string, Run[]>(passes.map((p) => [p, []]));
    for (let round = 0; round < rounds; round++) {
      for (const p of passes) runs.get(p)!.push(await lintRun(list, format, p));
    }
    const loadAfter = loadavg()[0]!;
    const out = [...runs.values()].map((rs) => rs.map((r) => r.stdoutBytes));
    const sameReport = out.every((sizes) => sizes.every((n) => n === out[0]![0]));
    const wall = new Map(passes.map((p) => [p, median(runs.get(p)!.map((r) => r.wallMs))]));
    const base = wall.get('1') ?? wall.get(passes[0]!)!;
    const baseName = wall.has('1') ? '1 worker' : passes[0]!;
    process.stdout.write(
      `lint --concurrency N, whole process, ${files} files, --format ${format}, median of ${rounds} interleaved rounds\n` +
        `machine: ${availableParallelism()} CPUs, load average ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after; ` +
        'the CPUs are shared with other processes, so compare the ratios of this run only\n',
    );
    process.stdout.write(`${'workers'.padEnd(10)}${'wall s'.padStart(9)}${'CPU s'.padStart(9)}${'peak RSS'.padStart(10)}${`wall / ${baseName}`.padStart(18)}\n`);
    for (const p of passes) {
      const rs = runs.get(p)!;
      const w = wall.get(p)!;
      const cpu = median(rs.map((r) => r.cpuMs));
      const rss = Math.max(...rs.map((r) => r.rssMb));
      process.stdout.write(`${p.padEnd(10)}${(w / 1000).toFixed(2).padStart(9)}${(cpu / 1000).toFixed(2).padStart(9)}${`${rss} MB`.padStart(10)}${`${(w / base).toFixed(2)}x`.padStart(18)}\n`);
    }
    if (!sameReport) process.stdout.write('WARNING: the reports differ in size between passes\n');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main(process.argv.slice(2));
