/**
 * `npm run bench`: lints the machine's real shell scripts and prints files, bytes, wall time,
 * MB/s and peak RSS, beside a parse-only pass with the same parser (the floor) and
 * `shellcheck -f json1` when it is installed, as ratios. A benchmark, not a test.
 *
 * The file list comes from `--list FILE` (one path per line), else from `bench/corpus.sh scripts`
 * (the machine's own shell scripts; it needs `file`), else from the shell scripts that shellward's
 * discovery finds under /usr/bin, /usr/sbin and /etc. Each pass runs in its own child
 * process so its peak RSS is its own.
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
  process.stdout.write(`lint / parse-only floor: ${(lint.wallMs / parse.wallMs).toFixed(2)}× (target ≤ 2×)\n`);
  if (sc) process.stdout.write(`shellcheck / lint: ${(sc.wallMs / lint.wallMs).toFixed(1)}× (target ≥ 20×)\n`);
  else process.stdout.write('shellcheck not installed (apt-get install shellcheck) — ratio skipped\n');
}

await mainBench(process.argv.slice(2));
