/**
 * Benchmark of `shellward check`. A benchmark, not a test; run it after
 * `npx tsc -p tsconfig.json` as `node dist/bench/check-bench.js [--runs N] [--skip-slow]`.
 *
 * Three measurements, printed as small tables:
 * 1. In-process `verdictFor` on typical agent commands (bench/fixtures/agent-commands.jsonl:
 *    the shell commands of the transcript fixtures, one JSON request per line): commands per
 *    second and per-command latency p50 / p99 / max, after a warm-up.
 * 2. Pathological commands generated in code (deep nesting, 1 MB inputs, quote and backslash
 *    runs, parser-recovery worst cases): wall time of one verdict each, with the reason code, so
 *    the worst case is visible. `--skip-slow` leaves out the slowest cases (those that run into
 *    the 10 s parse time-out, and 1 MB of nested `$( … )`, which the words view of
 *    src/parse/words.ts currently analyses in quadratic time).
 * 3. `shellward check --jsonl` end to end: one child process (`node dist/src/cli/bin.js`)
 *    answering 10 000 requests from stdin; wall time with and without process start-up.
 */
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Linter } from '../src/lint.js';
import { parseCheckRequest, verdictFor, type CheckRequest } from '../src/verdict.js';

const self = fileURLToPath(import.meta.url);
/** Repository root (this file runs from dist/bench/). */
const repo = resolve(dirname(self), '..', '..');
const BIN = resolve(repo, 'dist', 'src', 'cli', 'bin.js');
const FIXTURE = resolve(repo, 'bench', 'fixtures', 'agent-commands.jsonl');

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i === -1 ? undefined : Number(process.argv[i + 1]);
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : fallback;
}

/** Loads the fixture requests (every line must be a valid request). */
function loadRequests(): CheckRequest[] {
  const out: CheckRequest[] = [];
  for (const line of readFileSync(FIXTURE, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const r = parseCheckRequest(JSON.parse(line));
    if (!r.ok) throw new Error(`bad fixture line: ${line}`);
    out.push(r.request);
  }
  return out;
}

/** The value at quantile `q` (0–1) of ascending `sorted`. */
function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n') + '\n';
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function reasonCode(reason: string): string {
  const i = reason.indexOf(': ');
  return i === -1 ? reason : reason.slice(0, i);
}

/** 1. Typical agent commands, in process. */
function benchTypical(linter: Linter, requests: readonly CheckRequest[], runs: number): string[] {
  const run = (i: number): void => {
    const { command, ...request } = requests[i % requests.length]!;
    verdictFor(command, request, linter);
  };
  for (let i = 0; i < Math.min(runs, 5_000); i++) run(i);
  const lat = new Float64Array(runs);
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    run(i);
    lat[i] = performance.now() - s;
  }
  const total = performance.now() - t0;
  lat.sort();
  return [
    `agent commands (${requests.length} distinct, ${fmt(runs)} verdicts)`,
    fmt((runs / total) * 1000),
    fmt(quantile(lat, 0.5) * 1000, 1),
    fmt(quantile(lat, 0.99) * 1000, 1),
    fmt((lat[lat.length - 1] ?? 0) * 1000, 1),
  ];
}

const MB = 1_048_576;

/** Repeats `unit` to about `bytes` UTF-16 code units. */
function fill(unit: string, bytes: number, prefix = '', suffix = ''): string {
  return prefix + unit.repeat(Math.max(1, Math.floor((bytes - prefix.length - suffix.length) / unit.length))) + suffix;
}

/** Pathological commands: [name, generator, slow (hits the parse time-out)]. */
const PATHOLOGICAL: readonly (readonly [string, () => string, boolean?])[] = [
  ['1 MB of words', () => fill('word ', MB, 'echo ')],
  ['1 MB quoted heredoc', () => fill('x', MB, "cat <<'EOF' > out\n", '\nEOF')],
  ['1 MB unquoted heredoc', () => fill('line $x `y`\n', MB, 'cat <<EOF\n', 'EOF')],
  ['1 MB double quotes', () => fill('"', MB)],
  ['1 MB single quotes', () => fill("'", MB)],
  ['1 MB backslashes', () => fill('\\', MB, 'echo ')],
  ['1 MB lone surrogates', () => fill('\ud800a\udc00', MB)],
  ['1 MB control bytes (no NUL)', () => fill('ls \x01\x1b[2J\x7f\r', MB)],
  ['1 MB pipeline a|a|…', () => fill('a|', MB, '', 'b')],
  ['1 MB of rm -rf x;', () => fill('rm -rf x; ', MB)],
  ['1 MB ( unclosed', () => fill('(', MB)],
  ['1 MB $( unclosed', () => fill('$(', MB)],
  ['1 MB backticks', () => fill('`', MB)],
  ['( … ) nested 100 000 deep', () => '('.repeat(100_000) + 'ls' + ')'.repeat(100_000)],
  ['$( … ) nested 10 000 deep', () => 'echo ' + '$('.repeat(10_000) + 'x' + ')'.repeat(10_000)],
  ['$( … ) nested 100 000 deep', () => 'echo ' + '$('.repeat(100_000) + 'x' + ')'.repeat(100_000)],
  ['$( … ) nested 333 000 deep (1 MB)', () => 'echo ' + '$('.repeat(333_000) + 'x' + ')'.repeat(333_000), true],
  ['${ repeated, 20 KB', () => fill('${', 20_000)],
  ['${ repeated, 100 KB', () => fill('${', 100_000), true],
  ['<< repeated, 20 KB', () => fill('<<', 20_000)],
  ['<< repeated, 100 KB', () => fill('<<', 100_000), true],
  ['NUL bytes, 16 KB', () => fill('ls \0', 16_000)],
  ['NUL bytes, 64 KB', () => fill('ls \0', 64_000), true],
];

/** 2. One verdict per pathological command. */
function benchPathological(linter: Linter, skipSlow: boolean): { rows: string[][]; worst: [string, number] } {
  const rows: string[][] = [];
  let worst: [string, number] = ['', 0];
  for (const [name, make, slow] of PATHOLOGICAL) {
    if (slow && skipSlow) continue;
    const command = make();
    const t0 = performance.now();
    const v = verdictFor(command, {}, linter);
    const ms = performance.now() - t0;
    if (ms > worst[1]) worst = [name, ms];
    rows.push([name, fmt(command.length), fmt(ms, 1), reasonCode(v.reason)]);
    process.stderr.write(`  ${name}: ${fmt(ms, 1)} ms\n`);
  }
  return { rows, worst };
}

/** 3. `shellward check --jsonl` end to end on `n` requests in one process. */
async function benchJsonl(requests: readonly CheckRequest[], n: number): Promise<string[][]> {
  const input = Array.from({ length: n }, (_, i) => JSON.stringify(requests[i % requests.length])).join('\n') + '\n';
  const t0 = performance.now();
  const empty = await execa(process.execPath, [BIN, 'check', '--jsonl'], { input: '', reject: false });
  const startupMs = performance.now() - t0;
  if (empty.exitCode !== 0) throw new Error(`check --jsonl failed on empty input: ${String(empty.stderr)}`);
  const t1 = performance.now();
  const r = await execa(process.execPath, [BIN, 'check', '--jsonl'], { input, reject: false, maxBuffer: 1024 * MB });
  const wallMs = performance.now() - t1;
  const lines = String(r.stdout).split('\n').filter((l) => l !== '').length;
  if (r.exitCode !== 0 || lines !== n) throw new Error(`check --jsonl: exit ${r.exitCode}, ${lines} lines for ${n} requests`);
  const steadyMs = Math.max(wallMs - startupMs, 1e-9);
  return [
    [`${fmt(n)} requests, one process`, fmt(wallMs), fmt(startupMs), fmt((n / wallMs) * 1000), fmt((n / steadyMs) * 1000)],
  ];
}

async function main(): Promise<void> {
  const runs = argValue('--runs', 50_000);
  const skipSlow = process.argv.includes('--skip-slow');
  const requests = loadRequests();
  const linter = await Linter.create();

  process.stdout.write('\nshellward check — in-process verdicts (verdictFor)\n\n');
  process.stdout.write(table(['input', 'commands/s', 'p50 µs', 'p99 µs', 'max µs'], [benchTypical(linter, requests, runs)]));

  process.stdout.write('\nshellward check — pathological commands (one verdict each)\n\n');
  const patho = benchPathological(linter, skipSlow);
  process.stdout.write(table(['command', 'length', 'ms', 'reason'], patho.rows));
  process.stdout.write(`\nworst: ${patho.worst[0]} — ${fmt(patho.worst[1], 1)} ms\n`);

  process.stdout.write('\nshellward check --jsonl — end to end (node dist/src/cli/bin.js)\n\n');
  process.stdout.write(table(['run', 'wall ms', 'start-up ms', 'req/s', 'req/s after start-up'], await benchJsonl(requests, 10_000)));
}

await main();
