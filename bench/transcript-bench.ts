/**
 * Transcript throughput: generates a folder of agent transcripts (Claude Code, Codex and
 * Gemini JSONL, one third each, files of about 16 MB) and lints it with the same runner `shellward
 * lint` uses, in a child process so the peak RSS is the run's own. Prints MB/s, tool calls/s and
 * peak RSS. A benchmark, not a test.
 *
 *   node dist/bench/transcript-bench.js [--mb 200] [--dir DIR] [--keep]
 *
 * `--mb` (or SHELLWARD_BENCH_TRANSCRIPT_MB) sets the folder size; a generated temporary folder is
 * deleted afterwards unless `--keep` (a `--dir` you name is never deleted); the default 200 MB keeps
 * `npm run bench` to minutes. The issue's 1 GB case: `node dist/bench/transcript-bench.js --mb 1024`
 * (needs about 1 GB free under the temp directory; add `--keep --dir DIR` to reuse the folder).
 *
 * The generated sessions look like real ones: most bytes are tool output and assistant text, one
 * shell call per two to three records, commands from bench/fixtures/agent-commands.jsonl (the
 * fixtures' commands), and every call id unique so none is de-duplicated away.
 */
import { execa } from 'execa';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Linter } from '../src/lint.js';
import { lintFiles } from '../src/runner.js';

const self = fileURLToPath(import.meta.url);
const repo = resolve(dirname(self), '..', '..');
const FILE_BYTES = 16 * 1024 * 1024;

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i === -1 ? undefined : argv[i + 1];
}

function commands(): string[] {
  const path = resolve(repo, 'bench', 'fixtures', 'agent-commands.jsonl');
  const list = readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { command: string }).command);
  return list.length > 0 ? list : ['ls -la'];
}

/** Deterministic filler text of `n` characters (tool output, assistant prose). */
function filler(n: number, seed: number): string {
  const words = ['build', 'passed', 'src/index.ts', 'error', 'warning:', 'ok', '✓', 'test', 'λ', '\t', 'line', '"quoted"', '\\path', 'done'];
  let s = '';
  let i = seed;
  while (s.length < n) {
    s += words[i % words.length] + (i % 11 === 0 ? '\n' : ' ');
    i = (i * 1103515245 + 12345) >>> 0;
  }
  return s.slice(0, n);
}

type Agent = 'claude' | 'codex' | 'gemini';

/** Writes one transcript of about FILE_BYTES; returns the number of shell calls in it. */
async function writeSession(path: string, agent: Agent, n: number, cmds: string[]): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  let calls = 0;
  const write = async (o: unknown): Promise<void> => {
    const line = JSON.stringify(o) + '\n';
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  };
  const sid = `${agent}-${n}-0000-4000-8000-000000000000`;
  const ts = '2026-03-14T09:21:11.644Z';
  if (agent === 'codex') await write({ timestamp: ts, type: 'session_meta', payload: { id: sid, timestamp: ts, cwd: '/home/user/app', originator: 'codex_cli_rs', cli_version: '0.118.0', source: 'cli' } });
  if (agent === 'codex') await write({ timestamp: ts, type: 'turn_context', payload: { cwd: '/home/user/app', approval_policy: 'on-request' } });
  if (agent === 'gemini') await write({ sessionId: sid, projectHash: 'f'.repeat(64), startTime: ts, lastUpdated: ts, kind: 'main' });
  for (let k = 0; bytes < FILE_BYTES; k++) {
    const cmd = cmds[(n * 7 + k) % cmds.length]!;
    const id = `${agent}_${n}_${k}`;
    const output = filler(800 + ((k * 977) % 6000), n * 31 + k);
    calls++;
    if (agent === 'claude') {
      await write({ parentUuid: null, isSidechain: false, cwd: '/home/user/app', sessionId: sid, version: '2.1.170', type: 'assistant', uuid: `${id}a`, timestamp: ts, message: { role: 'assistant', content: [{ type: 'text', text: filler(300, k) }] } });
      await write({ parentUuid: `${id}a`, isSidechain: false, cwd: '/home/user/app', sessionId: sid, type: 'assistant', uuid: `${id}b`, timestamp: ts, message: { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${id}`, name: 'Bash', input: { command: cmd, description: 'run' } }] } });
      await write({ parentUuid: `${id}b`, isSidechain: false, cwd: '/home/user/app', sessionId: sid, type: 'user', uuid: `${id}c`, timestamp: ts, message: { role: 'user', content: [{ tool_use_id: `toolu_${id}`, type: 'tool_result', content: k % 5 === 0 ? `Exit code 1\n${output}` : output, is_error: k % 5 === 0 }] }, toolUseResult: k % 5 === 0 ? `Error: Exit code 1\n${output}` : { stdout: output, stderr: '', interrupted: false, isImage: false } });
    } else if (agent === 'codex') {
      await write({ timestamp: ts, type: 'response_item', payload: { type: 'reasoning', summary: [{ type: 'summary_text', text: filler(200, k) }], encrypted_content: 'x'.repeat(400) } });
      await write({ timestamp: ts, type: 'response_item', payload: { type: 'function_call', name: k % 2 ? 'exec_command' : 'shell_command', arguments: JSON.stringify(k % 2 ? { cmd, workdir: '/home/user/app' } : { command: cmd, workdir: '/home/user/app' }), call_id: `call_${id}` } });
      await write({ timestamp: ts, type: 'response_item', payload: { type: 'function_call_output', call_id: `call_${id}`, output: k % 2 ? `Chunk ID: a\nWall time: 0.1 seconds\nProcess exited with code ${k % 5 === 0 ? 1 : 0}\nOutput:\n${output}` : `Exit code: ${k % 5 === 0 ? 1 : 0}\nWall time: 0.1 seconds\nOutput:\n${output}` } });
    } else {
      const msg = { id: `${id}-m`, timestamp: ts, type: 'gemini', content: filler(200, k), thoughts: [], tokens: { input: 1, output: 1, total: 2 }, model: 'gemini-3-pro-preview' };
      await write(msg);
      await write({ ...msg, toolCalls: [{ id: `run_shell_command-${id}`, name: 'run_shell_command', args: { command: cmd, description: 'run' }, status: 'success', timestamp: ts, result: [{ functionResponse: { id: `run_shell_command-${id}`, name: 'run_shell_command', response: { output: `Output: ${output}${k % 5 === 0 ? '\nExit Code: 1' : ''}` } } }] }] });
      await write({ $set: { lastUpdated: ts } });
    }
  }
  out.end();
  await new Promise<void>((r) => out.once('close', () => r()));
  return calls;
}

/** Generates about `mb` megabytes of transcripts in `dir`; returns the number of shell calls. */
async function generate(dir: string, mb: number): Promise<number> {
  await mkdir(dir, { recursive: true });
  const cmds = commands();
  const files = Math.max(3, Math.round((mb * 1024 * 1024) / FILE_BYTES));
  const agents: Agent[] = ['claude', 'codex', 'gemini'];
  let calls = 0;
  for (let n = 0; n < files; n++) {
    const agent = agents[n % 3]!;
    const name = agent === 'codex' ? `rollout-2026-03-14T09-21-07-${n}.jsonl` : agent === 'gemini' ? `session-2026-04-20T10-05-${n}.jsonl` : `${n}-session.jsonl`;
    calls += await writeSession(join(dir, name), agent, n, cmds);
  }
  return calls;
}

interface PassResult {
  readonly files: number;
  readonly bytes: number;
  readonly findings: number;
  readonly wallMs: number;
  readonly peakRssMb: number;
}

async function passLint(dir: string): Promise<PassResult> {
  const linter = await Linter.create();
  const names = (await readdir(dir)).sort();
  const t0 = performance.now();
  const run = await lintFiles(linter, names.map((n) => ({ path: join(dir, n), explicit: false })), { cwd: dir });
  const wallMs = performance.now() - t0;
  return {
    files: run.filesAnalysed,
    bytes: run.bytes,
    findings: run.results.reduce((n, r) => n + r.diagnostics.length, 0),
    wallMs,
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
}

async function main(argv: string[]): Promise<void> {
  if (arg(argv, '--pass') === 'lint') {
    process.stdout.write(JSON.stringify(await passLint(arg(argv, '--dir')!)));
    return;
  }
  const mb = Number(arg(argv, '--mb') ?? process.env.SHELLWARD_BENCH_TRANSCRIPT_MB ?? 200);
  const keep = argv.includes('--keep');
  const given = arg(argv, '--dir');
  // Only a folder this run created is ever deleted.
  const tempRoot = given === undefined ? await mkdtemp(join(tmpdir(), 'shellward-transcripts-')) : undefined;
  const dir = given ?? join(tempRoot!, 'sessions');
  let calls: number;
  const t0 = performance.now();
  if (existsSync(dir) && (await readdir(dir)).length > 0 && keep) {
    calls = NaN;
    process.stdout.write(`shellward transcript bench: reusing ${dir}\n`);
  } else {
    calls = await generate(dir, mb);
    process.stdout.write(`shellward transcript bench: generated ${mb} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s (${dir})\n`);
  }
  const r = await execa(process.execPath, [self, '--pass', 'lint', '--dir', dir], { maxBuffer: 64 * 1024 * 1024 });
  const res = JSON.parse(String(r.stdout)) as PassResult;
  const secs = res.wallMs / 1000;
  const n = Number.isNaN(calls) ? undefined : calls;
  process.stdout.write(
    `lint: ${res.files} transcripts, ${(res.bytes / 1e6).toFixed(1)} MB, ${n ?? '?'} shell calls, ${res.findings} findings in ${secs.toFixed(2)} s\n` +
      `      ${(res.bytes / 1e6 / secs).toFixed(1)} MB/s, ${n !== undefined ? Math.round(n / secs) : '?'} calls/s, peak RSS ${res.peakRssMb} MB\n`,
  );
  if (!keep && tempRoot !== undefined) await rm(tempRoot, { recursive: true, force: true });
}

await main(process.argv.slice(2));
