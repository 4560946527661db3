/**
 * `shellward sandbox-check` end to end, on the built CLI: refusals, usage errors, and — with a
 * real policy (a `.claude/settings.json` allow rule in the working directory) and a working bwrap
 * — real runs whose JSON lists the files written. The runner is tested directly, with an explicit
 * test-only allow, in test/sandbox/run.test.ts.
 */
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parseTimeout, SANDBOX_CHECK_EXIT } from '../../src/cli/sandbox-check-command.js';
import { detectBwrap } from '../../src/sandbox/bwrap.js';
import { shellward } from './cli.js';

const bwrap = process.platform === 'linux' ? await detectBwrap(process.env) : undefined;
const skipReason = bwrap === undefined ? `not Linux (${process.platform})` : bwrap.available ? undefined : `${bwrap.reason}: ${bwrap.message}`;
if (skipReason) console.warn(`test/cli/sandbox-check.test.ts: runs skipped: ${skipReason}`);

/** A temporary project whose .claude/settings.json allows `touch` and `grep`, with one file. */
async function project(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'sw-cli-allow-')));
  await mkdir(join(dir, '.claude'));
  await writeFile(join(dir, '.claude/settings.json'), JSON.stringify({ permissions: { allow: ['Bash(touch:*)', 'Bash(grep:*)'] } }));
  await writeFile(join(dir, 'notes.txt'), 'alpha\n');
  return dir;
}

describe('shellward sandbox-check', () => {
  it('refuses a command the policy does not allow, says why, exits 3 and runs nothing', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'sw-cli-')));
    try {
      const r = await shellward(['sandbox-check', '--cwd', dir, '--', 'make marker']);
      expect(r.exitCode).toBe(SANDBOX_CHECK_EXIT.REFUSED);
      expect(String(r.stdout)).toBe('refused  not run: the policy decision is ask: no-matching-rule');
      expect(await readdir(dir)).toEqual([]);
      // A write asks in default mode even with an allow rule (path constraints), so it is not run either.
      const w = await shellward(['sandbox-check', '--cwd', dir, '--', 'touch marker']);
      expect(w.exitCode).toBe(SANDBOX_CHECK_EXIT.REFUSED);
      expect(String(w.stdout)).toMatch(/^refused {2}not run: the policy decision is ask: path-constraint: /);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('prints the refusal as JSON with the verdict', async () => {
    const r = await shellward(['sandbox-check', '--format', 'json', '--', 'rm -rf /']);
    expect(r.exitCode).toBe(3);
    const doc = JSON.parse(String(r.stdout)) as Record<string, unknown>;
    expect(doc).toMatchObject({ status: 'refused', command: 'rm -rf /', verdict: { decision: 'ask', readOnly: false } });
    expect(doc.reason).toMatch(/^the policy decision is ask: path-dangerous-removal/);
  });

  it('exits 2 without a command, with a bad --timeout, or a bad --format', async () => {
    expect((await shellward(['sandbox-check'])).exitCode).toBe(2);
    for (const t of ['0', '-5', '1.5', 'abc', '3600001']) {
      const r = await shellward(['sandbox-check', '--timeout', t, '--', 'ls']);
      expect(r.exitCode, t).toBe(2);
      expect(String(r.stderr)).toMatch(/--timeout/);
    }
    expect((await shellward(['sandbox-check', '--format', 'sarif', '--', 'ls'])).exitCode).toBe(2);
  });

  it('documents its exit codes in --help', async () => {
    const r = await shellward(['sandbox-check', '--help']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/Exit codes: 0 ran.*\n.*3 refused by the policy; 4 no sandbox/);
  });
});

describe.skipIf(skipReason !== undefined)(`shellward sandbox-check with an allow rule${skipReason ? ` (skipped: no usable bwrap — ${skipReason})` : ''}`, () => {
  it('runs an allowed command in the sandbox; --format json lists the files it wrote; the real directory is untouched', async () => {
    const dir = await project();
    try {
      const r = await shellward(['sandbox-check', '--cwd', dir, '--permission-mode', 'acceptEdits', '--format', 'json', '--', 'touch made.txt notes.txt']);
      const doc = JSON.parse(String(r.stdout)) as Record<string, unknown>;
      expect(doc).toMatchObject({ status: 'ran', sandbox: 'bwrap', cwd: dir, exitCode: 0, verdict: { decision: 'allow' }, meaning: { kind: 'success' } });
      expect(doc.filesWritten).toEqual([
        { path: 'made.txt', change: 'created', type: 'file' },
        { path: 'notes.txt', change: 'changed', type: 'file', aspects: ['mtime'] },
      ]);
      expect(r.exitCode).toBe(SANDBOX_CHECK_EXIT.OK);
      expect((await readdir(dir)).sort()).toEqual(['.claude', 'notes.txt']);
      expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('alpha\n');
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it("reports grep's exit 1 as no match and exits 0; refuses a command no rule allows", async () => {
    const dir = await project();
    try {
      const g = await shellward(['sandbox-check', '--cwd', dir, '--', 'grep zeta notes.txt']);
      expect(g.exitCode).toBe(0);
      expect(String(g.stdout)).toMatch(/^ran in bwrap {2}exit 1 \(no-match: No matches found\)/);
      expect(String(g.stdout)).toContain('sandbox-exit-nonzero');
      const rm_ = await shellward(['sandbox-check', '--cwd', dir, '--', 'rm notes.txt']);
      expect(rm_.exitCode).toBe(SANDBOX_CHECK_EXIT.REFUSED);
      expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('alpha\n');
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it("`git status --short` in a git repository: read-only, git's index refresh is no sandbox-wrote-files", async () => {
    const dir = await project();
    try {
      const git = (...args: string[]): Promise<unknown> =>
        execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir });
      await git('init', '-q');
      await git('add', '.');
      await git('commit', '-q', '-m', 'init');
      await writeFile(join(dir, 'notes.txt'), 'alpha\nbeta\n');
      const r = await shellward(['sandbox-check', '--cwd', dir, '--format', 'json', '--', 'git status --short']);
      const doc = JSON.parse(String(r.stdout)) as { verdict: { readOnly: boolean }; filesWritten: { path: string }[]; findings: unknown[]; stdout: { text: string } };
      expect(doc).toMatchObject({ status: 'ran', exitCode: 0, verdict: { decision: 'allow', readOnly: true }, findings: [] });
      for (const f of doc.filesWritten) expect(['.git/index', '.git/index.lock']).toContain(f.path);
      expect(doc.stdout.text).toBe(' M notes.txt\n');
      expect(r.exitCode).toBe(SANDBOX_CHECK_EXIT.OK);
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});

describe('parseTimeout', () => {
  it('accepts whole milliseconds from 1 to one hour', () => {
    expect(parseTimeout('1')).toBe(1);
    expect(parseTimeout('3600000')).toBe(3_600_000);
    for (const bad of ['', '0', '1e3', ' 5', '0x10', '3600001']) expect(() => parseTimeout(bad), bad).toThrow(/milliseconds/);
  });
});
