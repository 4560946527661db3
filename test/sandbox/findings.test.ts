/**
 * The findings of a sandboxed run, from explicit facts (pure). The same rules are produced by real
 * runs in test/sandbox/run.test.ts; this file names every sandbox rule id (the meta test checks).
 */
import { describe, expect, it } from 'vitest';
import { exitMeaning } from '../../src/analyses/exit-code.js';
import { ruleMeta } from '../../src/checks/index.js';
import { SANDBOX_RULES } from '../../src/checks/sandbox/sandbox-rules.js';
import { isGitBookkeeping, sandboxFindings, type SandboxFacts } from '../../src/sandbox/findings.js';

const base: SandboxFacts = {
  command: 'grep x f',
  readOnly: false,
  meaning: exitMeaning('grep', 0),
  timedOut: false,
  timeoutMs: 1000,
  filesWritten: [],
};

function ids(f: Partial<SandboxFacts>): string[] {
  return sandboxFindings({ ...base, ...f }).map((x) => x.ruleId);
}

describe('sandbox findings', () => {
  it('registers the four rules in RULES, category sandbox, codes X5xx', () => {
    // 'sandbox-outcome-mismatch' is reported by lint/audit --sandbox; test/sandbox/compare.test.ts covers it.
    expect(SANDBOX_RULES.map((r) => r.id)).toEqual(['sandbox-exit-error', 'sandbox-exit-nonzero', 'sandbox-outcome-mismatch', 'sandbox-wrote-files']);
    for (const r of SANDBOX_RULES) {
      expect(ruleMeta(r.id)).toBe(r);
      expect(r.category).toBe('sandbox');
      expect(r.code).toMatch(/^X5\d\d$/);
    }
  });

  it('reports nothing for a clean exit 0 without writes', () => {
    expect(ids({})).toEqual([]);
  });

  it("'sandbox-wrote-files': a read-only command wrote files (error), listing them", () => {
    const files = [
      { path: 'a', change: 'created' as const, type: 'file' as const },
      { path: 'b', change: 'deleted' as const, type: 'file' as const },
    ];
    const [f] = sandboxFindings({ ...base, readOnly: true, filesWritten: files });
    expect(f).toMatchObject({ ruleId: 'sandbox-wrote-files', severity: 'error', start: 0, end: base.command.length });
    expect(f!.data).toEqual({ files: [{ path: 'a', change: 'created' }, { path: 'b', change: 'deleted' }] });
  });

  it("'sandbox-wrote-files' does not count git's index (and a left-behind lock) when the command runs git", () => {
    const index = { path: '.git/index', change: 'changed' as const, type: 'file' as const, aspects: ['content', 'mtime'] as const };
    const lock = { path: 'sub/.git/index.lock', change: 'created' as const, type: 'file' as const };
    const other = { path: '.git/config', change: 'changed' as const, type: 'file' as const, aspects: ['content'] as const };
    expect(ids({ command: 'git status --short', readOnly: true, runsGit: true, filesWritten: [index, lock] })).toEqual([]);
    // Without git in the command the same files are writes.
    expect(ids({ command: 'cat x', readOnly: true, filesWritten: [index] })).toEqual(['sandbox-wrote-files']);
    // Other files under .git still count, and only they are listed.
    const [f] = sandboxFindings({ ...base, command: 'git status', readOnly: true, runsGit: true, filesWritten: [other, index] });
    expect(f).toMatchObject({ ruleId: 'sandbox-wrote-files', message: expect.stringContaining('wrote 1 file when it ran: .git/config (changed).') });
    expect(f!.data).toEqual({ files: [{ path: '.git/config', change: 'changed' }] });
  });

  it('isGitBookkeeping: the index and its lock of any repository in the tree, nothing else', () => {
    for (const p of ['.git/index', '.git/index.lock', 'vendor/lib/.git/index']) expect(isGitBookkeeping(p), p).toBe(true);
    for (const p of ['.git/HEAD', '.git/indexes', 'git/index', 'x.git/index', '.git/index/x', 'index']) expect(isGitBookkeeping(p), p).toBe(false);
  });

  it('does not report writes of a command not classified read-only', () => {
    expect(ids({ readOnly: false, filesWritten: [{ path: 'a', change: 'created', type: 'file' }] })).toEqual([]);
  });

  it("'sandbox-exit-nonzero': grep exit 1 is a note (no match), not an error", () => {
    const [f, ...rest] = sandboxFindings({ ...base, meaning: exitMeaning('grep', 1) });
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ ruleId: 'sandbox-exit-nonzero', severity: 'note', data: { exitCode: 1, meaning: 'no-match', command: 'grep' } });
  });

  it("'sandbox-exit-error': a real failure (exit 2 of grep, exit 1 of ls) is a warning", () => {
    expect(sandboxFindings({ ...base, meaning: exitMeaning('grep', 2) })[0]).toMatchObject({ ruleId: 'sandbox-exit-error', severity: 'warning', data: { exitCode: 2, meaning: 'error', timedOut: false } });
    expect(ids({ command: 'ls nope', meaning: exitMeaning('ls', 1) })).toEqual(['sandbox-exit-error']);
  });

  it("'sandbox-exit-error': a time-out, and a kill without a status", () => {
    expect(sandboxFindings({ ...base, meaning: null, timedOut: true })[0]).toMatchObject({ ruleId: 'sandbox-exit-error', data: { timedOut: true, exitCode: null } });
    expect(sandboxFindings({ ...base, meaning: null })[0]).toMatchObject({ ruleId: 'sandbox-exit-error', data: { timedOut: false, exitCode: null } });
  });

  it('reports both a write and a failure, write first', () => {
    expect(ids({ readOnly: true, filesWritten: [{ path: 'a', change: 'changed', type: 'file', aspects: ['content'] }], meaning: exitMeaning('cp', 1) })).toEqual([
      'sandbox-wrote-files',
      'sandbox-exit-error',
    ]);
  });
});
