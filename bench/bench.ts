/**
 * `npm run bench`: lints the machine's real shell scripts and prints files, bytes, wall time,
 * MB/s and peak RSS, beside a parse-only pass with the same parser (the floor) and
 * `shellcheck -f json1` when it is installed, as ratios. A benchmark, not a test.
 *
 * The file list comes from `--list FILE` (one path per line), else from `bench/corpus.sh scripts`
 * (the machine's own shell scripts; it needs `file`), else from the shell scripts that shellward's
 * discovery finds under /usr/bin, /usr/sbin and /etc. Each pass runs in its own child
 * process so its peak RSS is its own.
 *
 * A second table runs whole processes as a user does, on the same list: `shellward lint
 * --format F --concurrency off --files-from LIST` for each output format, `shellward lint` with
 * the default worker pool, and `shellcheck -f json1` in batches of 100 files (one process per
 * batch, one after the other). Each row gives wall time and, where `/usr/bin/time` exists, the CPU
 * time (user + system) and peak RSS of the process tree; the ratio column is each row's CPU time
 * (wall time without `/usr/bin/time`) over that of `--format text`.
 */
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Linter } from '../src/lint.js';
import { initParser, parseBash } from '../src/parse/parser.js';
import { lintFiles } from '../src/runner.js';
import { discover } from '../src/sources/discover.js';
import { decodeText } from '../src/sources/script.js';

/** What one pass measured. */
interface PassResult {
  readonly pass: string;
  readonly files: number;
  readonly bytes: number;
  readonly wallMs: number;
  readonly peakRssMb: number;
  readonly findings?: number;
}

const self = fileURLToPath(import.meta.url);
const repo = resolve(dirname(self), '..', '..');

async function listFiles(listArg: string | undefined): Promise<string[]> {
  if (listArg) return (await readFile(listArg, 'utf8')).split('\n').filter(Boolean);
  const corpus = resolve(repo, 'bench', 'corpus.sh');
  const listed = existsSync(corpus) ? await execa('bash', [corpus, 'scripts'], { reject: false, maxBuffer: 64 * 1024 * 1024 }) : undefined;
  if (listed?.exitCode === 0 && String(listed.stdout).trim() !== '') return String(listed.stdout).split('\n').filter(Boolean);
  const found = await discover(['/usr/bin', '/usr/sbin', '/etc'], '/');
  const files: string[] = [];
  for (const c of found.candidates) files.push(c.path);
  return files;
}

function peakRssMb(): number {
  // resourceUsage().maxRSS is in kilobytes.
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

async function passLint(files: string[]): Promise<PassResult> {
  const linter = await Linter.create();
  const t0 = performance.now();
  const run = await lintFiles(linter, files.map((path) => ({ path, explicit: true })), { cwd: '/' });
  const wallMs = performance.now() - t0;
  const findings = run.results.reduce((n, r) => n + r.diagnostics.length, 0);
  return { pass: 'shellward lint', files: run.filesAnalysed, bytes: run.bytes, wallMs, peakRssMb: peakRssMb(), findings };
}

async function passParse(files: string[]): Promise<PassResult> {
  const parser = await initParser();
  const t0 = performance.now();
  let bytes = 0;
  let n = 0;
  for (const f of files) {
    let data: Uint8Array;
    try {
      data = await readFile(f);
    } catch {
      continue;
    }
    n++;
    bytes += data.length;
    const d = decodeText(data);
    if (!d.ok) continue;
    parseBash(parser, d.text)?.delete();
  }
  return { pass: 'parse only (floor)', files: n, bytes, wallMs: performance.now() - t0, peakRssMb: peakRssMb() };
}

async function passShellcheck(files: string[]): Promise<PassResult | undefined> {
  const which = await execa('shellcheck', ['--version'], { reject: false });
  if (which.exitCode !== 0) return undefined;
  const t0 = performance.now();
  let bytes = 0;
  for (let i = 0; i < files.length; i += 100) {
    const batch = files.slice(i, i + 100);
    // -S style: every check; exit 1 means findings, not failure.
    await execa('shellcheck', ['-f', 'json1', ...batch], { reject: false, maxBuffer: 512 * 1024 * 1024 });
  }
  const wallMs = performance.now() - t0;
  for (const f of files) {
    try {
      bytes += (await readFile(f)).length;
    } catch {
      /* unreadable: shellcheck reported it */
    }
  }
  return { pass: 'shellcheck -f json1', files: files.length, bytes, wallMs, peakRssMb: NaN };
}

async function child(pass: string, list: string): Promise<PassResult> {
  const r = await execa(process.execPath, [self, '--pass', pass, '--list', list], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(String(r.stdout)) as PassResult;
}

function row(r: PassResult, base?: PassResult): string {
  const mbps = r.bytes / 1e6 / (r.wallMs / 1000);
  const ratio = base ? (r.wallMs / base.wallMs).toFixed(2) + '×' : '';
  const rss = Number.isNaN(r.peakRssMb) ? 'n/a' : `${r.peakRssMb} MB`;
  return `${r.pass.padEnd(22)} ${String(r.files).padStart(6)} ${(r.bytes / 1e6).toFixed(2).padStart(8)} MB ${(r.wallMs / 1000).toFixed(2).padStart(8)} s ${mbps.toFixed(2).padStart(8)} MB/s ${rss.padStart(8)} ${ratio.padStart(8)}`;
}

async function mainBench(argv: string[]): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i === -1 ? undefined : argv[i + 1];
  };
  const pass = arg('--pass');
  const listArg = arg('--list');
  if (pass) {
    const files = (await readFile(listArg!, 'utf8')).split('\n').filter(Boolean);
    const result = pass === 'lint' ? await passLint(files) : await passParse(files);
    process.stdout.write(JSON.stringify(result));
    return;
  }
  const files = await listFiles(listArg);
  const list = join(await mkdtemp(join(tmpdir(), 'shellward-bench-')), 'files.txt');
  await writeFile(list, files.join('\n') + '\n');
  process.stdout.write(`shellward bench: ${files.length} shell scripts\n\n`);
  // Warm the file cache so the first pass is not charged for disk reads.
  await child('parse', list);
  const parse = await child('parse', list);
  const lint = await child('lint', list);
  const sc = await passShellcheck(files);
  process.stdout.write(`${'pass'.padEnd(22)} ${'files'.padStart(6)} ${'size'.padStart(11)} ${'wall'.padStart(10)} ${'speed'.padStart(13)} ${'peak RSS'.padStart(8)} ${'vs parse'.padStart(8)}\n`);
  process.stdout.write(row(parse, parse) + '\n');
  process.stdout.write(row(lint, parse) + `   (${lint.findings} findings)\n`);
  if (sc) process.stdout.write(row(sc, parse) + '\n');
  process.stdout.write('\n');
  process.stdout.write(`lint / parse-only floor: ${(lint.wallMs / parse.wallMs).toFixed(2)}× (target ≤ 1.5×)\n`);
  if (sc) process.stdout.write(`shellcheck / lint: ${(sc.wallMs / lint.wallMs).toFixed(1)}× (target ≥ 25×)\n`);
  else process.stdout.write('shellcheck not installed (apt-get install shellcheck) — ratio skipped\n');
  await wholeProcesses(files, list, sc !== undefined);
}

/** What one whole process (or batch of processes) cost: wall ms, and CPU ms and peak RSS MB when measured. */
interface ProcessCost {
  readonly wallMs: number;
  readonly cpuMs?: number;
  readonly peakRssMb?: number;
}

const TIME = '/usr/bin/time';

/**
 * Runs `file args` to completion and returns its cost. With `/usr/bin/time` (GNU time, `-f '%U
 * %S %M'`: user and system seconds, peak RSS in KiB of the process and its waited-for children)
 * the CPU time and peak RSS are measured too. The exit code is ignored: findings exit 1.
 */
async function timed(file: string, args: readonly string[], useTime: boolean, cwd?: string): Promise<ProcessCost> {
  const t0 = performance.now();
  if (!useTime) {
    await execa(file, args, { reject: false, maxBuffer: 512 * 1024 * 1024, ...(cwd ? { cwd } : {}) });
    return { wallMs: performance.now() - t0 };
  }
  const r = await execa(TIME, ['-f', '%U %S %M', file, ...args], { reject: false, maxBuffer: 512 * 1024 * 1024, ...(cwd ? { cwd } : {}) });
  const wallMs = performance.now() - t0;
  const last = String(r.stderr).trim().split('\n').pop() ?? '';
  const [user, sys, rssKb] = last.split(' ').map(Number);
  if (user === undefined || sys === undefined || rssKb === undefined || [user, sys, rssKb].some(Number.isNaN)) return { wallMs };
  return { wallMs, cpuMs: (user + sys) * 1000, peakRssMb: Math.round(rssKb / 1024) };
}

/** Adds up the costs of consecutive processes (peak RSS: the largest). */
function sum(costs: readonly ProcessCost[]): ProcessCost {
  const cpu = costs.every((c) => c.cpuMs !== undefined) ? costs.reduce((n, c) => n + c.cpuMs!, 0) : undefined;
  const rss = costs.length > 0 && costs.every((c) => c.peakRssMb !== undefined) ? Math.max(...costs.map((c) => c.peakRssMb!)) : undefined;
  return { wallMs: costs.reduce((n, c) => n + c.wallMs, 0), ...(cpu !== undefined ? { cpuMs: cpu } : {}), ...(rss !== undefined ? { peakRssMb: rss } : {}) };
}

/**
 * The whole-process table: each output format of `shellward lint` (one worker), the default
 * worker pool, and ShellCheck when installed, on the same files; ratios against `--format text`.
 */
async function wholeProcesses(files: readonly string[], list: string, shellcheck: boolean): Promise<void> {
  const useTime = existsSync(TIME);
  const bin = resolve(repo, 'dist', 'src', 'cli', 'bin.js');
  const rows: [string, ProcessCost][] = [];
  const lint = (extra: readonly string[]): Promise<ProcessCost> =>
    // Run from the list's own temporary directory: no project config or settings apply.
    timed(process.execPath, [bin, 'lint', '--fail-on', 'none', '--files-from', list, ...extra], useTime, dirname(list));
  for (const format of ['text', 'json', 'sarif', 'github']) rows.push([`lint --format ${format}`, await lint(['--format', format, '--concurrency', 'off'])]);
  rows.push(['lint (worker pool)', await lint(['--format', 'text'])]);
  if (shellcheck) {
    const batches: ProcessCost[] = [];
    for (let i = 0; i < files.length; i += 100) batches.push(await timed('shellcheck', ['-f', 'json1', ...files.slice(i, i + 100)], useTime));
    rows.push(['shellcheck -f json1', sum(batches)]);
  }
  const cost = (c: ProcessCost): number => c.cpuMs ?? c.wallMs;
  const text = cost(rows[0]![1]);
  process.stdout.write(`\nwhole processes, same ${files.length} files${useTime ? '' : ' (no /usr/bin/time: wall time only)'}\n`);
  process.stdout.write(`${'process'.padEnd(22)} ${'wall'.padStart(10)} ${'CPU'.padStart(10)} ${'peak RSS'.padStart(9)} ${'vs text'.padStart(8)}\n`);
  for (const [name, c] of rows) {
    const cpu = c.cpuMs === undefined ? 'n/a' : `${(c.cpuMs / 1000).toFixed(2)} s`;
    const rss = c.peakRssMb === undefined ? 'n/a' : `${c.peakRssMb} MB`;
    process.stdout.write(`${name.padEnd(22)} ${`${(c.wallMs / 1000).toFixed(2)} s`.padStart(10)} ${cpu.padStart(10)} ${rss.padStart(9)} ${`${(cost(c) / text).toFixed(2)}×`.padStart(8)}\n`);
  }
  const worst = rows.slice(1, 4).reduce((m, [, c]) => Math.max(m, cost(c) / text), 0);
  process.stdout.write(`slowest other format / text: ${worst.toFixed(2)}× (target ≤ 1.10×)\n`);
  const sc = rows.find(([n]) => n.startsWith('shellcheck'));
  if (sc) process.stdout.write(`shellcheck / shellward lint --format text, whole processes: ${(cost(sc[1]) / text).toFixed(1)}× (target ≥ 25×)\n`);
}

await mainBench(process.argv.slice(2));
