/**
 * Benchmark of `shellward hook` as an agent runs it: one whole process per tool call. A
 * benchmark, not a test; run it after `npm run build` (which makes the hook's bundle) as
 * `node dist/bench/hook-bench.js [--runs N]` (default 50).
 *
 * For four Claude Code PreToolUse events — a quick read-only command, `git status`, a
 * destructive command and a 2 KB heredoc — it starts `node dist/src/cli/bin.cjs hook` (the
 * package.json `bin`, what an installed hook runs) with the
 * event on stdin and measures the wall time until the process has exited (min / median / max
 * over N runs, in ms), once answered in-process (`SHELLWARD_NO_SERVER=1`) and once through a
 * `shellward serve` started for the run on a private socket; `git status` also in-process
 * without the code cache (`SHELLWARD_CODE_CACHE=0`: what a first run after an install or a
 * build costs). `node -e 0` runs in the same rounds (interleaved, so a load change hits every
 * row alike); the ratio column is each median over that of `node -e 0`.
 *
 * `--before FILE` adds, for each event, a row answered in-process by another build's entry (bin.js or bin.cjs)
 * (e.g. one of an earlier commit, built with `npx tsc --outDir`), in the same rounds: a
 * before/after comparison under the same load.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
/** Repository root (this file runs from dist/bench/). */
const repo = resolve(dirname(self), '..', '..');
/** The package.json `bin` of the build: the CommonJS launcher (scripts/bundle-hook.mjs). */
const BIN = resolve(repo, 'dist', 'src', 'cli', 'bin.cjs');

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i === -1 ? undefined : Number(process.argv[i + 1]);
  return v !== undefined && Number.isInteger(v) && v > 0 ? v : fallback;
}

/** A Claude Code PreToolUse event for `command`, run in the repository. */
function event(command: string): string {
  return JSON.stringify({
    session_id: 'bench',
    transcript_path: '/tmp/bench.jsonl',
    cwd: repo,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'bench' },
    tool_use_id: 'toolu_bench',
  });
}

/** A heredoc command of about 2 KB: a script written to a file. */
function heredoc(): string {
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < 2000; i++) lines.push(`echo "step ${i}: building target-${i} in \${OUT:-build}/part-${i}"`);
  return `cat > build.sh <<'EOF'\n#!/bin/sh\nset -eu\n${lines.join('\n')}\nEOF\nchmod +x build.sh`;
}

const CASES: readonly (readonly [string, string])[] = [
  ['read-only (ls -la src)', 'ls -la src'],
  ['git status', 'git status'],
  ['destructive (rm -rf, push --force)', 'rm -rf build && git push --force origin main'],
  ['2 KB heredoc', heredoc()],
];

interface Row {
  readonly name: string;
  readonly times: number[];
  run(): void;
}

function timed(row: Row): void {
  const t0 = performance.now();
  row.run();
  row.times.push(performance.now() - t0);
}

function hookRun(input: string, env: NodeJS.ProcessEnv, bin = BIN): () => void {
  return () => {
    const r = spawnSync(process.execPath, [bin, 'hook'], { input, env, encoding: 'utf8' });
    // An internal error is answered `ask` too: a run that did not judge the command is no measurement.
    if (r.status !== 0 || !r.stdout.includes('permissionDecision') || r.stdout.includes('internal-error')) throw new Error(`hook failed (${r.status}): ${r.stdout}${r.stderr}`);
  };
}

function stats(times: readonly number[]): { min: number; median: number; max: number } {
  const s = [...times].sort((a, b) => a - b);
  return { min: s[0] ?? NaN, median: s[Math.floor(s.length / 2)] ?? NaN, max: s[s.length - 1] ?? NaN };
}

async function main(): Promise<void> {
  const runs = argValue('--runs', 50);
  const at = process.argv.indexOf('--before');
  const before = at === -1 ? undefined : resolve(process.argv[at + 1] ?? '');
  const dir = mkdtempSync(join(tmpdir(), 'shellward-bench-'));
  const socket = join(dir, 'hook.sock');
  const base = { ...process.env };
  delete base.SHELLWARD_SOCKET;
  const inProcess = { ...base, SHELLWARD_NO_SERVER: '1' };
  const noCache = { ...inProcess, SHELLWARD_CODE_CACHE: '0' };
  const served = { ...base, SHELLWARD_SOCKET: socket };
  delete (served as Record<string, string | undefined>).SHELLWARD_NO_SERVER;

  const server = spawn(process.execPath, [BIN, 'serve', '--socket', socket], { stdio: ['ignore', 'ignore', 'pipe'], env: base });
  await new Promise<void>((ok, fail) => {
    let err = '';
    server.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (err.includes('listening')) ok();
    });
    server.once('exit', (code) => fail(new Error(`shellward serve exited (${code}): ${err}`)));
  });
  // The server warms up after it listens; one answered call makes sure it is ready.
  hookRun(event('true'), served)();

  const rows: Row[] = [{ name: 'node -e 0', times: [], run: () => void spawnSync(process.execPath, ['-e', '0']) }];
  for (const [name, command] of CASES) {
    if (before !== undefined) rows.push({ name: `${name}, in-process, before`, times: [], run: hookRun(event(command), inProcess, before) });
    rows.push({ name: `${name}, in-process`, times: [], run: hookRun(event(command), inProcess) });
    if (command === 'git status') rows.push({ name: `${name}, in-process, no code cache`, times: [], run: hookRun(event(command), noCache) });
    rows.push({ name: `${name}, served`, times: [], run: hookRun(event(command), served) });
  }
  // One warm-up round (the OS file cache, and the hook's code cache).
  for (const row of rows) row.run();
  for (let i = 0; i < runs; i++) for (const row of rows) timed(row);
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });

  const baseline = stats(rows[0]!.times).median;
  const header = ['hook event', 'min ms', 'median ms', 'max ms', '× node -e 0'];
  const body = rows.map((r) => {
    const s = stats(r.times);
    return [r.name, s.min.toFixed(1), s.median.toFixed(1), s.max.toFixed(1), (s.median / baseline).toFixed(2)];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  process.stdout.write(`shellward hook, whole process (${runs} runs each, Node ${process.version})\n`);
  process.stdout.write([line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n') + '\n');
}

await main();
