/**
 * Part of `npm run bench`: whole-process `shellward lint` and `shellward check --jsonl` on
 * pathological inputs at 10 KB, 100 KB and 1 MB, with wall time and peak RSS, so that growth
 * with size is visible (linear growth is about 10× per step). A benchmark, not a test: it asserts
 * nothing and prints a table.
 *
 * Each run is a fresh `node dist/src/cli/bin.js …` process with `--import bench/rss-hook.mjs`,
 * which prints the process's own peak RSS and CPU time at exit. A cell shows the CPU time (user +
 * system: on a machine shared with other work it is the figure that means something), the wall
 * time in parentheses, and the peak RSS; growth is the ratio of the last two sizes' CPU times. A
 * run is stopped after `--limit` seconds of wall time (default 20) and shown as `>20 s`. `lint`
 * runs use `--format json` unless `--format` says otherwise (json adds the verdict of every
 * top-level statement, the most work per input).
 *
 * Usage: node dist/bench/pathological-bench.js [--limit SECONDS] [--sizes 10,100,1000] [--only NAME] [--format text|json|sarif]
 */
import { execa } from 'execa';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(repo, 'dist', 'src', 'cli', 'bin.js');
const HOOK = join(repo, 'bench', 'rss-hook.mjs');

/** A shape: a unit of text repeated (or built) up to a target size in bytes. */
interface Shape {
  readonly name: string;
  readonly build: (bytes: number) => string;
}

const repeatTo = (unit: string, bytes: number, head = '', tail = ''): string =>
  head + unit.repeat(Math.max(1, Math.floor((bytes - head.length - tail.length) / unit.length))) + tail;

/** `open` repeated, `middle`, then as many `close`: nested to fill about `bytes`, after `head`. */
const nest = (open: string, close: string, bytes: number, head = '', middle = ''): string => {
  const depth = Math.max(1, Math.floor((bytes - head.length - middle.length) / (open.length + close.length)));
  return head + open.repeat(depth) + middle + close.repeat(depth);
};

/** The shapes that cost seconds in earlier releases, and ordinary shapes at scale. */
export const SHAPES: readonly Shape[] = [
  { name: 'nested [[', build: (n) => repeatTo('[[ ', n) },
  { name: '<< without bodies', build: (n) => repeatTo('<<', n) },
  // A here-document operator first in its command (no command word), one per line.
  { name: '<<a per line', build: (n) => repeatTo('<<a\n', n) },
  { name: 'unclosed ${', build: (n) => repeatTo('${', n) },
  { name: 'many lines', build: (n) => repeatTo('echo "line" > /dev/null\n', n) },
  { name: 'heredocs', build: (n) => repeatTo("cat <<'EOF'\nsome text\nEOF\n", n) },
  { name: 'pipelines', build: (n) => repeatTo('grep -r x src | sort | uniq -c | head\n', n) },
  { name: 'background jobs', build: (n) => repeatTo('sleep 1 &\n', n) },
  { name: 'cd', build: (n) => repeatTo('cd dir && ls\n', n) },
  // Brace expansion at 1 MB (unit tests: test/analyses/paths.test.ts, just past the caps).
  { name: 'brace words', build: (n) => repeatTo('{a,b} ', n, 'cat ') },
  { name: 'nested brace lists', build: (n) => nest('{a,', '}', n, 'cat ') },
  { name: 'long brace word', build: (n) => repeatTo('x', n, 'cat {a,b}') },
  // The security checks' adversarial inputs (unit tests: test/checks/security/driver.test.ts, at 20–90 KB).
  { name: 'nested $(', build: (n) => nest('$(', ')', n) },
  { name: 'heredoc openers', build: (n) => repeatTo("echo $(cat <<'A'\n", n) },
  { name: 'flags and quotes', build: (n) => repeatTo(' -"a', n) },
  { name: 'git commit -m', build: (n) => repeatTo('-m ', n, 'git commit ', '"x') },
  // sed expressions (unit tests: test/analyses/sed.test.ts, at 64 KB).
  { name: 'sed flags', build: (n) => repeatTo('g', n, "sed 's/a/b/", "x' f") },
  {
    name: '28 embedded sh -c',
    build: (n) => {
      const each = Math.max(16, Math.floor(n / 28) - 10);
      return Array.from({ length: 28 }, () => `sh -c '${'echo a; '.repeat(Math.floor(each / 8))}'\n`).join('');
    },
  },
];

/** What one run measured; `wallMs` and `cpuMs` are undefined when the run hit the limit. */
interface Run {
  readonly wallMs: number | undefined;
  readonly cpuMs: number | undefined;
  readonly rssMb: number | undefined;
  readonly exitCode: number | undefined;
}

async function run(args: readonly string[], input: string | undefined, limitS: number): Promise<Run> {
  const t0 = performance.now();
  const r = await execa(process.execPath, ['--import', HOOK, BIN, ...args], {
    reject: false,
    timeout: limitS * 1000,
    maxBuffer: 256 * 1024 * 1024,
    ...(input === undefined ? { stdin: 'ignore' as const } : { input }),
  });
  const wallMs = performance.now() - t0;
  const m = /SHELLWARD_BENCH_MAXRSS_KB=(\d+)/.exec(String(r.stderr));
  const cpu = /SHELLWARD_BENCH_CPU_US=(\d+)/.exec(String(r.stderr));
  return {
    wallMs: r.timedOut ? undefined : wallMs,
    cpuMs: r.timedOut || !cpu ? undefined : Number(cpu[1]) / 1000,
    rssMb: m ? Math.round(Number(m[1]) / 1024) : undefined,
    exitCode: r.exitCode ?? undefined,
  };
}

const cell = (r: Run, limitS: number): string =>
  `${r.wallMs === undefined ? `>${limitS} s` : `${r.cpuMs === undefined ? '?' : (r.cpuMs / 1000).toFixed(2)} s (${(r.wallMs / 1000).toFixed(1)})`} ${r.rssMb === undefined ? '' : `${r.rssMb} MB`}`.padStart(24);

async function main(argv: string[]): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i === -1 ? undefined : argv[i + 1];
  };
  const limitS = Number(arg('--limit') ?? 20);
  const sizesKb = (arg('--sizes') ?? '10,100,1000').split(',').map(Number);
  const only = arg('--only');
  const format = arg('--format') ?? 'json';
  const dir = await mkdtemp(join(tmpdir(), 'shellward-patho-'));
  const base = await run(['--version'], undefined, limitS);
  process.stdout.write(`pathological inputs, whole process, CPU s (wall s) peak RSS; lint --format ${format} (node + shellward --version: ${cell(base, limitS).trim()})\n`);
  process.stdout.write(`${'shape'.padEnd(22)} ${'mode'.padEnd(6)} ${sizesKb.map((k) => `${k} KB`.padStart(24)).join(' ')}   growth\n`);
  for (const shape of SHAPES) {
    if (only !== undefined && shape.name !== only) continue;
    for (const mode of ['lint', 'check'] as const) {
      const cells: Run[] = [];
      for (const kb of sizesKb) {
        const text = shape.build(kb * 1024);
        if (mode === 'lint') {
          const file = join(dir, `input-${kb}.sh`);
          await writeFile(file, text);
          cells.push(await run(['lint', '--format', format, '--output', join(dir, 'out.json'), file], undefined, limitS));
        } else {
          cells.push(await run(['check', '--jsonl'], JSON.stringify({ command: text, cwd: dir }) + '\n', limitS));
        }
      }
      const first = cells[cells.length - 2]?.cpuMs;
      const last = cells[cells.length - 1]?.cpuMs;
      const growth = first !== undefined && last !== undefined && cells.length >= 2 ? `${(last / first).toFixed(1)}×` : 'n/a';
      process.stdout.write(`${shape.name.padEnd(22)} ${mode.padEnd(6)} ${cells.map((c) => cell(c, limitS)).join(' ')}   ${growth}\n`);
    }
  }
}

await main(process.argv.slice(2));
