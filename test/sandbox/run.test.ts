/**
 * Real commands under bubblewrap ("Done when"). The policy input is an explicit,
 * test-only clearance (including the read-only classification), so these tests do not depend
 * on the permission engine; test/cli/sandbox-check.test.ts
 * goes through a real policy. Needs a working bwrap (CI installs bubblewrap); otherwise the bwrap suites are
 * skipped and their title says why.
 */
import { execa } from 'execa';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, realpath, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sandboxReportJson, formatSandboxText, sandboxExitCode, type SandboxReport } from '../../src/cli/sandbox-check-command.js';
import { detectBwrap } from '../../src/sandbox/bwrap.js';
import type { SandboxClearance } from '../../src/sandbox/policy.js';
import { processHost, runInSandbox, SandboxRequestError, type SandboxOutcome, type SandboxRequest, type SandboxRunResult } from '../../src/sandbox/run.js';
import { diffSnapshots, removeTree, snapshotTree, type TreeSnapshot } from '../../src/sandbox/tree.js';

/** Test-only policy inputs: what the permission engine would say once it allows commands. */
const ALLOW_READ_ONLY: SandboxClearance = { decision: 'allow', reason: 'test: explicit allow, read-only', readOnly: true };
const ALLOW: SandboxClearance = { decision: 'allow', reason: 'test: explicit allow', readOnly: false };

const availability = process.platform === 'linux' ? await detectBwrap(process.env) : undefined;
const skipReason =
  availability === undefined ? `not Linux (${process.platform})` : availability.available ? undefined : `${availability.reason}: ${availability.message}`;
if (skipReason) console.warn(`test/sandbox/run.test.ts: bwrap tests skipped: ${skipReason}`);
const bwrapSuite = (name: string): string => (skipReason ? `${name} (skipped: no usable bwrap — ${skipReason})` : name);

let dir: string;
let real: TreeSnapshot;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'sw-run-')));
  await writeFile(join(dir, 'notes.txt'), 'alpha\nbeta\n');
  await mkdir(join(dir, 'sub'));
  await writeFile(join(dir, 'sub/data.csv'), 'a,b\n1,2\n');
  real = await snapshotTree(dir);
});

afterEach(async () => {
  // Whatever ran, the real directory is exactly as it was.
  expect(diffSnapshots(real, await snapshotTree(dir))).toEqual([]);
  await removeTree(dir);
});

async function ran(req: Omit<SandboxRequest, 'cwd' | 'clearance'> & { clearance?: SandboxClearance }): Promise<SandboxRunResult> {
  const outcome = await runInSandbox({ cwd: dir, clearance: ALLOW, ...req });
  if (outcome.status !== 'ran') throw new Error(`expected a run, got ${JSON.stringify(outcome)}`);
  return outcome.result;
}

describe('the policy gate (no sandbox needed)', () => {
  it.each([
    ['ask', { decision: 'ask', reason: 'no-matching-rule', readOnly: false }],
    ['deny', { decision: 'deny', reason: 'Bash(touch:*)', readOnly: false }],
  ] as const)('refuses a command the policy says %s about and runs nothing', async (_d, clearance) => {
    const outcome = await runInSandbox({ command: `touch ${join(dir, 'marker')}`, cwd: dir, clearance });
    expect(outcome).toEqual({ status: 'refused', reason: `the policy decision is ${clearance.decision}: ${clearance.reason}` });
    await expect(stat(join(dir, 'marker'))).rejects.toThrow(/ENOENT/);
  });

  it('says no sandbox is available instead of running unsandboxed: no bwrap on PATH', async () => {
    const outcome = await runInSandbox({ command: 'touch marker', cwd: dir, clearance: ALLOW }, { ...processHost(), platform: 'linux', env: { PATH: '/nonexistent-dir' } });
    expect(outcome).toMatchObject({ status: 'unavailable', reason: 'no-bwrap' });
    await expect(stat(join(dir, 'marker'))).rejects.toThrow(/ENOENT/);
  });

  it('says no sandbox is available on an unsupported platform', async () => {
    const outcome = await runInSandbox({ command: 'touch marker', cwd: dir, clearance: ALLOW }, { ...processHost(), platform: 'win32' });
    expect(outcome).toMatchObject({ status: 'unavailable', reason: 'unsupported-platform' });
  });

  it('refuses before it looks for a sandbox', async () => {
    const outcome = await runInSandbox({ command: 'ls', cwd: dir, clearance: { decision: 'ask', reason: 'x', readOnly: true } }, { ...processHost(), platform: 'win32' });
    expect(outcome.status).toBe('refused');
  });
});

describe.skipIf(skipReason !== undefined)(bwrapSuite('commands under bwrap'), () => {
  it('a read-only command leaves no change and exits 0', async () => {
    const r = await ran({ command: 'cat notes.txt && ls -la sub && grep -c a sub/data.csv', clearance: ALLOW_READ_ONLY });
    expect(r).toMatchObject({ sandbox: 'bwrap', exitCode: 0, timedOut: false, meaning: { kind: 'success' }, filesWritten: [], filesComplete: true, findings: [] });
    expect(r.stdout.text).toContain('alpha\nbeta\n');
    expect(r.stdout.text).toContain('data.csv');
    expect(r.cwd).toBe(dir);
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('runs in the real path: pwd is the working directory, not the copy', async () => {
    const r = await ran({ command: 'pwd' });
    expect(r.stdout.text).toBe(`${dir}\n`);
  });

  it.each([
    ['touch', 'touch new.txt', [{ path: 'new.txt', change: 'created', type: 'file' }]],
    ['rm', 'rm notes.txt', [{ path: 'notes.txt', change: 'deleted', type: 'file' }]],
    ['mv', 'mv notes.txt sub/moved.txt', [{ path: 'notes.txt', change: 'deleted', type: 'file' }, { path: 'sub/moved.txt', change: 'created', type: 'file' }]],
    ['> redirect (new file)', 'echo hi > out.txt', [{ path: 'out.txt', change: 'created', type: 'file' }]],
    ['> redirect (truncate)', ': > notes.txt', [{ path: 'notes.txt', change: 'changed', type: 'file', aspects: ['content', 'mtime'] }]],
    ['>> append', 'echo gamma >> sub/data.csv', [{ path: 'sub/data.csv', change: 'changed', type: 'file', aspects: ['content', 'mtime'] }]],
    ['mkdir + rm -r', 'mkdir -p d/e && rm -r sub', [
      { path: 'd', change: 'created', type: 'dir' },
      { path: 'd/e', change: 'created', type: 'dir' },
      { path: 'sub', change: 'deleted', type: 'dir' },
      { path: 'sub/data.csv', change: 'deleted', type: 'file' },
    ]],
    ['chmod', 'chmod 600 notes.txt', [{ path: 'notes.txt', change: 'changed', type: 'file', aspects: ['mode'] }]],
  ])('%s is reported as a write and the real directory is untouched', async (_name, command, files) => {
    const r = await ran({ command });
    expect(r.exitCode).toBe(0);
    expect(r.filesWritten).toEqual(files);
    expect(r.findings).toEqual([]);
  });

  it('flags a command classified read-only that writes (sandbox-wrote-files)', async () => {
    const r = await ran({ command: 'sed -i s/alpha/omega/ notes.txt', clearance: ALLOW_READ_ONLY });
    expect(r.filesWritten.map((f) => f.path)).toEqual(['notes.txt']);
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]).toMatchObject({ ruleId: 'sandbox-wrote-files', severity: 'error', data: { files: [{ path: 'notes.txt', change: 'changed' }] } });
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('alpha\nbeta\n');
  });

  it.each(['git status --short', 'git status', 'git diff', 'git log --oneline', 'git status && git diff --stat'])(
    "%s in a git repository: git's refresh of .git/index is listed but is not a sandbox-wrote-files",
    async (command) => {
      const git = async (...args: string[]): Promise<void> => {
        await execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir });
      };
      await git('init', '-q');
      await git('add', '.');
      await git('commit', '-q', '-m', 'init');
      await writeFile(join(dir, 'notes.txt'), 'alpha\nbeta\ngamma\n');
      real = await snapshotTree(dir);
      const r = await ran({ command, clearance: ALLOW_READ_ONLY });
      expect(r.exitCode).toBe(0);
      expect(r.filesWritten.every((f) => f.path === '.git/index' || f.path === '.git/index.lock'), JSON.stringify(r.filesWritten)).toBe(true);
      expect(r.findings).toEqual([]);
      // A real write next to git's is still reported, without the index.
      const w = await ran({ command: `${command} > out.txt`, clearance: ALLOW_READ_ONLY });
      expect(w.findings.map((f) => [f.ruleId, f.data.files])).toEqual([['sandbox-wrote-files', [{ path: 'out.txt', change: 'created' }]]]);
    },
  );

  it("reports grep's exit 1 as no match (a note, not an error)", async () => {
    const r = await ran({ command: 'grep zeta notes.txt', clearance: ALLOW_READ_ONLY });
    expect(r.exitCode).toBe(1);
    expect(r.meaning).toEqual({ exitCode: 1, kind: 'no-match', isError: false, message: 'No matches found', command: 'grep' });
    expect(r.findings.map((f) => [f.ruleId, f.severity])).toEqual([['sandbox-exit-nonzero', 'note']]);
  });

  it('reports a real failure as sandbox-exit-error (grep exit 2, cat of a missing file)', async () => {
    const g = await ran({ command: 'grep x missing-file' });
    expect(g.meaning).toMatchObject({ exitCode: 2, kind: 'error', isError: true });
    expect(g.findings.map((f) => f.ruleId)).toEqual(['sandbox-exit-error']);
    expect(g.stderr.text).toContain('missing-file');
    const c = await ran({ command: 'cat missing-file' });
    expect(c.meaning).toMatchObject({ exitCode: 1, kind: 'error', command: 'cat' });
  });

  it('keeps the file system outside the working directory read-only', async () => {
    const target = join(tmpdir(), `sw-outside-${process.pid}-${Date.now()}`);
    const r = await ran({ command: `touch /etc/shellward-test; touch "$HOME/shellward-test"; touch ${target}; echo $?` });
    expect(r.stderr.text).toMatch(/Read-only file system/);
    await expect(stat('/etc/shellward-test')).rejects.toThrow(/ENOENT/);
    await expect(stat(target)).rejects.toThrow(/ENOENT/);
    expect(r.filesWritten).toEqual([]);
  });

  it('gives the command a private /tmp: the host /tmp is hidden, writes there are discarded and not reported', async () => {
    const name = `sw-private-${process.pid}-${Date.now()}`;
    const hostMark = join('/tmp', `sw-hostmark-${process.pid}-${Date.now()}`);
    await writeFile(hostMark, 'host');
    try {
      const r = await ran({ command: `echo x > /tmp/${name} && cat /tmp/${name} && test ! -e ${hostMark} && echo hidden` });
      expect(r.stdout.text).toBe('x\nhidden\n');
      expect(r.filesWritten).toEqual([]);
      await expect(stat(join('/tmp', name))).rejects.toThrow(/ENOENT/);
    } finally {
      await removeTree(hostMark);
    }
  });

  it('passes only allowlisted environment variables', async () => {
    const r = await runInSandbox(
      { command: 'env', cwd: dir, clearance: ALLOW },
      { ...processHost(), env: { ...process.env, SHELLWARD_TEST_SECRET: 'hunter2', GITHUB_TOKEN: 'ghp_x', LD_PRELOAD: '' } },
    );
    if (r.status !== 'ran') throw new Error(r.status);
    expect(r.result.stdout.text).not.toMatch(/SHELLWARD_TEST_SECRET|hunter2|GITHUB_TOKEN|LD_PRELOAD/);
    expect(r.result.stdout.text).toMatch(/^PATH=/m);
    expect(r.result.stdout.text).toMatch(/^TMPDIR=\/tmp$/m);
  });

  it('caps standard output and standard error separately and says so', async () => {
    const r = await ran({ command: 'head -c 100000 /dev/zero | tr "\\0" a; head -c 10 /dev/zero | tr "\\0" b >&2', maxOutputBytes: 1000 });
    expect(r.stdout).toEqual({ text: 'a'.repeat(1000), bytes: 100_000, truncated: true });
    expect(r.stderr).toEqual({ text: 'b'.repeat(10), bytes: 10, truncated: false });
  });

  it('refuses a working directory over the copy limits, before running anything', async () => {
    await expect(runInSandbox({ command: 'touch x', cwd: dir, clearance: ALLOW, limits: { maxEntries: 2, maxBytes: 1e9 } })).rejects.toThrow(SandboxRequestError);
    await expect(runInSandbox({ command: 'touch x', cwd: dir, clearance: ALLOW, limits: { maxEntries: 2, maxBytes: 1e9 } })).rejects.toThrow(/too large to copy/);
  });

  it('refuses a missing working directory and a file as working directory', async () => {
    await expect(runInSandbox({ command: 'ls', cwd: join(dir, 'nope'), clearance: ALLOW })).rejects.toThrow(/cannot be used/);
    await expect(runInSandbox({ command: 'ls', cwd: join(dir, 'notes.txt'), clearance: ALLOW })).rejects.toThrow(/not a directory/);
  });

  it('leaves no scratch copy behind', async () => {
    const before = (await readdir(tmpdir())).filter((n) => n.startsWith('shellward-sandbox-'));
    await ran({ command: 'touch a b c' });
    const after = (await readdir(tmpdir())).filter((n) => n.startsWith('shellward-sandbox-'));
    expect(after.filter((n) => !before.includes(n))).toEqual([]);
  });
});

describe.skipIf(skipReason !== undefined)(bwrapSuite('network isolation under bwrap'), () => {
  let server: Server;
  let port: number;
  const accepted: Socket[] = [];

  beforeAll(async () => {
    server = createServer((s) => {
      s.on('error', () => undefined);
      accepted.push(s);
      s.end('hello from outside\n');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  });

  afterAll(async () => {
    server.close();
  });

  it('cannot reach a server listening on the host loopback (control: the test process can)', async () => {
    // Control: the port is open from outside the sandbox.
    const { connect } = await import('node:net');
    const c = connect(port, '127.0.0.1');
    c.on('error', () => undefined);
    await once(c, 'connect');
    c.destroy();
    const seen = accepted.length;

    const r = await ran({ command: `exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3`, timeoutMs: 20_000 });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout.text).not.toContain('hello from outside');
    expect(r.stderr.text).toMatch(/Connection refused|Network is unreachable|Cannot assign/i);
    expect(accepted.length).toBe(seen);
  });

  it('has only a loopback interface', async () => {
    const r = await ran({ command: 'cat /proc/net/dev' });
    const ifaces = r.stdout.text.split('\n').slice(2).map((l) => l.split(':')[0]!.trim()).filter((x) => x !== '');
    expect(ifaces).toEqual(['lo']);
  });
});

/**
 * Whether a process whose command line contains `needle` is still alive (Linux /proc), after
 * giving the kernel up to 50 polls to finish delivering SIGKILL: a kill is asynchronous, and
 * this asserts that it happened, not how fast.
 */
async function processWith(needle: string): Promise<boolean> {
  for (let i = 0; i < 50; i++) {
    if (!(await processWithNow(needle))) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

async function processWithNow(needle: string): Promise<boolean> {
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const cmd = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').join(' ');
      if (cmd.includes(needle)) return true;
    } catch {
      // gone
    }
  }
  return false;
}

describe.skipIf(skipReason !== undefined)(bwrapSuite('time-out under bwrap'), () => {
  it('kills a command past the time-out, with everything it started', async () => {
    const mark = `${process.pid}${Date.now() % 100000}`;
    // A foreground sleep and a background one that ignores SIGTERM and sits in its own session.
    const command = `(trap '' TERM; setsid sleep 3${mark}.1) & sleep 3${mark}.2; echo not-reached`;
    const r = await ran({ command, timeoutMs: 500 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(r.meaning).toBeNull();
    expect(r.stdout.text).not.toContain('not-reached');
    expect(r.findings).toEqual([expect.objectContaining({ ruleId: 'sandbox-exit-error', data: expect.objectContaining({ timedOut: true }) })]);
    expect(await processWith(`sleep 3${mark}.1`)).toBe(false);
    expect(await processWith(`sleep 3${mark}.2`)).toBe(false);
  });
});

describe.skipIf(skipReason !== undefined)(bwrapSuite('sandbox-check report of a run'), () => {
  it('--format json lists the files a command wrote', async () => {
    const outcome: SandboxOutcome = await runInSandbox({ command: 'touch made.txt && rm sub/data.csv && echo x >> notes.txt', cwd: dir, clearance: ALLOW });
    const report: SandboxReport = { command: 'touch made.txt && rm sub/data.csv && echo x >> notes.txt', cwd: dir, verdict: ALLOW, outcome };
    const json = JSON.parse(JSON.stringify(sandboxReportJson(report))) as Record<string, unknown>;
    expect(json).toMatchObject({ status: 'ran', sandbox: 'bwrap', exitCode: 0, verdict: ALLOW });
    expect(json.filesWritten).toEqual([
      { path: 'made.txt', change: 'created', type: 'file' },
      { path: 'notes.txt', change: 'changed', type: 'file', aspects: ['content', 'mtime'] },
      { path: 'sub/data.csv', change: 'deleted', type: 'file' },
    ]);
    expect(sandboxExitCode(outcome)).toBe(0);
    const text = formatSandboxText(report);
    expect(text).toMatch(/^ran in bwrap {2}exit 0 \(success\)/);
    expect(text).toContain('files written: 3\n  created  made.txt\n  changed  notes.txt  (content, mtime)\n  deleted  sub/data.csv\n');
  });

  it('exit code 1 for a warning or error finding, 0 for a note only', async () => {
    expect(sandboxExitCode(await runInSandbox({ command: 'grep zeta notes.txt', cwd: dir, clearance: ALLOW }))).toBe(0);
    expect(sandboxExitCode(await runInSandbox({ command: 'false', cwd: dir, clearance: ALLOW }))).toBe(1);
    expect(sandboxExitCode(await runInSandbox({ command: 'touch x', cwd: dir, clearance: ALLOW_READ_ONLY }))).toBe(1);
  });

  it('escapes control characters of the output in text form', async () => {
    const outcome = await runInSandbox({ command: "printf '\\033[31mred\\n'", cwd: dir, clearance: ALLOW });
    const text = formatSandboxText({ command: 'x', cwd: dir, verdict: ALLOW, outcome });
    expect(text).not.toContain('\u001b');
    expect(text).toContain('  | \\x1b[31mred');
  });
});
