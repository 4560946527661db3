/**
 * Batches of calls through the sandbox (src/sandbox/batch.ts): the policy gate, deduplication, the
 * limit, the concurrency bound, substituted working directories and the no-sandbox path with an
 * injected probe and runner; then real runs under bubblewrap (skipped, with the reason in the
 * title, where bwrap cannot create a sandbox), including `lint --sandbox`'s placement of findings
 * with a verdict constructed as read-only.
 */
import { mkdtemp, readdir, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileResult, UnitVerdict } from '../../src/report/types.js';
import { detectBwrap } from '../../src/sandbox/bwrap.js';
import { batchSummary, parseSandboxLimit, runSandboxBatch, sandboxLint, type BatchCall, type BatchOptions } from '../../src/sandbox/batch.js';
import type { SandboxOutcome, SandboxRequest } from '../../src/sandbox/run.js';
import { removeTree } from '../../src/sandbox/tree.js';
import type { Verdict } from '../../src/verdict.js';

const availability = process.platform === 'linux' ? await detectBwrap(process.env) : undefined;
const skipReason =
  availability === undefined ? `not Linux (${process.platform})` : availability.available ? undefined : `${availability.reason}: ${availability.message}`;
if (skipReason) console.warn(`test/sandbox/batch.test.ts: bwrap tests skipped: ${skipReason}`);

const v = (decision: Verdict['decision'], readOnly = false): Verdict => ({ decision, reason: `test: ${decision}`, readOnly, destructive: [], outsideCwd: false, findings: [], suggestions: [], matchedRule: null, paths: [] });

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'sw-batch-')));
  await writeFile(join(dir, 'notes.txt'), 'alpha\n');
});
afterEach(async () => {
  await removeTree(dir);
});

/** A fake runner that records requests and answers exit 0 (or what `answer` says). */
function fakeRunner(answer: (r: SandboxRequest) => SandboxOutcome | undefined = () => undefined): { requests: SandboxRequest[]; options: BatchOptions; maxParallel: () => number } {
  const requests: SandboxRequest[] = [];
  let active = 0;
  let max = 0;
  const options: BatchOptions = {
    probe: async () => ({ available: true }),
    run: async (r) => {
      requests.push(r);
      active++;
      max = Math.max(max, active);
      await new Promise((res) => setTimeout(res, 5));
      active--;
      const out = { text: '', bytes: 0, truncated: false };
      return (
        answer(r) ?? {
          status: 'ran',
          result: { sandbox: 'bwrap', command: r.command, cwd: r.cwd, exitCode: 0, signal: null, timedOut: false, stopped: null, meaning: { exitCode: 0, kind: 'success', isError: false, message: '', command: undefined }, durationMs: 1, stdout: out, stderr: out, filesWritten: [], filesComplete: true, notCopied: [], findings: [] },
        }
      );
    },
  };
  return { requests, options, maxParallel: () => max };
}

describe('runSandboxBatch (injected runner)', () => {
  it('never runs a call the policy asks about or denies, and counts them', async () => {
    const f = fakeRunner();
    const calls: BatchCall[] = [
      { command: 'touch a', cwd: dir, verdict: v('ask') },
      { command: 'rm -rf x', cwd: dir, verdict: v('deny') },
      { command: 'ls', cwd: dir, verdict: v('allow') },
      // anything but exactly `allow`, from an untyped caller, is refused too
      { command: 'touch b', cwd: dir, verdict: { decision: 'maybe' as never, reason: '', readOnly: false } },
    ];
    const b = await runSandboxBatch(calls, f.options);
    expect(f.requests.map((r) => r.command)).toEqual(['ls']);
    expect(b.entries.map((e) => e.status)).toEqual(['refused', 'refused', 'ran', 'refused']);
    expect(b.counts).toMatchObject({ calls: 4, allowed: 1, refusedAsk: 2, refusedDeny: 1, ran: 1 });
    expect(f.requests[0]!.clearance.decision).toBe('allow');
  });

  it('runs identical calls once, bounds the distinct commands by the limit, at most two at once', async () => {
    const f = fakeRunner();
    const calls: BatchCall[] = ['a', 'b', 'a', 'c', 'd', 'e'].map((x) => ({ command: `echo ${x}`, cwd: dir, verdict: v('allow') }));
    const b = await runSandboxBatch(calls, { ...f.options, limit: 3 });
    expect(f.requests.map((r) => r.command)).toEqual(['echo a', 'echo b', 'echo c']);
    expect(b.entries.map((e) => e.status)).toEqual(['ran', 'ran', 'ran', 'ran', 'over-limit', 'over-limit']);
    // the repeated call shares the first one's run
    expect(b.entries[2]!.status === 'ran' && b.entries[0]!.status === 'ran' && b.entries[2]!.run === b.entries[0]!.run).toBe(true);
    expect(b.counts).toMatchObject({ allowed: 6, distinct: 5, ran: 3, overLimit: 2 });
    expect(f.maxParallel()).toBeLessThanOrEqual(2);
    expect(batchSummary(b)).toMatch(/^ran 3 distinct commands in the sandbox for 6 allowed calls of 6; never run: 0 calls the policy asks about, 0 calls it denies, 2 commands over the limit of 3/);
    const one = fakeRunner();
    await runSandboxBatch(calls, { ...one.options, concurrency: 1 });
    expect(one.maxParallel()).toBe(1);
  });

  it('runs a call whose recorded directory is missing (or not recorded) in a fresh empty directory and says so', async () => {
    const f = fakeRunner();
    const b = await runSandboxBatch(
      [
        { command: 'ls', cwd: join(dir, 'gone'), verdict: v('allow') },
        { command: 'pwd', verdict: v('allow') },
        { command: 'cat notes.txt', cwd: dir, verdict: v('allow') },
        { command: 'cat x', cwd: '/proc/self', verdict: v('allow') },
      ],
      f.options,
    );
    const places = b.entries.map((e) => (e.status === 'ran' ? e.run.place : undefined));
    expect(places[0]).toMatchObject({ recorded: join(dir, 'gone'), substituted: true, why: `the recorded working directory ${join(dir, 'gone')} does not exist on this machine` });
    expect(places[1]).toMatchObject({ substituted: true, why: 'the transcript recorded no working directory' });
    expect(places[2]).toEqual({ recorded: dir, used: dir, substituted: false });
    expect(places[3]).toMatchObject({ substituted: true, why: 'the recorded working directory /proc/self is a system directory' });
    expect(f.requests[0]!.cwd).not.toBe(join(dir, 'gone'));
    expect(b.counts.substituted).toBe(3);
  });

  it('with no sandbox available (injected probe) runs nothing and says so', async () => {
    const f = fakeRunner();
    const b = await runSandboxBatch([{ command: 'touch a', cwd: dir, verdict: v('allow') }], { ...f.options, probe: async () => ({ available: false, reason: 'no-user-namespaces', message: 'namespaces disabled' }) });
    expect(b).toMatchObject({ status: 'unavailable', reason: 'no-user-namespaces', message: 'namespaces disabled' });
    expect(b.entries.map((e) => e.status)).toEqual(['not-run']);
    expect(f.requests).toEqual([]);
    expect(batchSummary(b)).toMatch(/^no sandbox is available \(no-user-namespaces: namespaces disabled\); no command was run/);
  });

  it('stops at the first run that finds no sandbox', async () => {
    const f = fakeRunner(() => ({ status: 'unavailable', reason: 'bwrap-failed', message: 'gone' }));
    const b = await runSandboxBatch(['a', 'b', 'c', 'd'].map((x) => ({ command: x, cwd: dir, verdict: v('allow') })), { ...f.options, concurrency: 1 });
    expect(b.status).toBe('unavailable');
    expect(f.requests).toHaveLength(1);
    expect(b.entries.every((e) => e.status === 'not-run')).toBe(true);
  });

  it('turns a failing run (a directory too large, a set-up failure) into an error entry', async () => {
    const f = fakeRunner();
    const b = await runSandboxBatch([{ command: 'ls', cwd: dir, verdict: v('allow') }], { ...f.options, run: async () => Promise.reject(new Error('too large to copy')) });
    expect(b.entries[0]).toMatchObject({ status: 'error', message: 'too large to copy' });
    expect(b.counts.errors).toBe(1);
  });

  it('does not probe when nothing is allowed', async () => {
    let probed = false;
    const b = await runSandboxBatch([{ command: 'ls', cwd: dir, verdict: v('ask') }], { probe: async () => {
        probed = true;
        return { available: false, reason: 'no-bwrap', message: '' };
      } });
    expect(probed).toBe(false);
    expect(b.status).toBe('ran');
  });

  it('parses --sandbox-limit', () => {
    expect(parseSandboxLimit('7')).toBe(7);
    for (const bad of ['0', '-1', '1.5', 'x', '10001']) expect(() => parseSandboxLimit(bad), bad).toThrow(RangeError);
  });
});

describe.skipIf(skipReason !== undefined)(`batches under bwrap${skipReason ? ` (skipped: no usable bwrap — ${skipReason})` : ''}`, () => {
  it('runs allowed calls against copies: writes are captured, the real directory is untouched, denied calls never run', async () => {
    const b = await runSandboxBatch([
      { command: 'touch made.txt && grep alpha notes.txt', cwd: dir, verdict: v('allow') },
      { command: 'touch denied.txt', cwd: dir, verdict: v('deny') },
      { command: 'grep zzz notes.txt', cwd: dir, verdict: v('allow') },
    ]);
    expect(b.status).toBe('ran');
    const [first, second, third] = b.entries;
    if (first?.status !== 'ran' || third?.status !== 'ran') throw new Error(JSON.stringify(b.entries));
    expect(first.run.result.filesWritten).toEqual([{ path: 'made.txt', change: 'created', type: 'file' }]);
    expect(first.run.result.exitCode).toBe(0);
    expect(second).toEqual({ status: 'refused', decision: 'deny' });
    expect(third.run.result.meaning).toMatchObject({ exitCode: 1, kind: 'no-match' });
    expect((await readdir(dir)).sort()).toEqual(['notes.txt']);
  });

  it('lint --sandbox: a read-only tool call that writes is flagged at its transcript line; a mismatch is reported; scripts are not run', async () => {
    const unit = (command: string, line: number, readOnly: boolean, exitCode: number, cwd = dir): UnitVerdict => ({
      kind: 'tool-call', command, range: { start: { line, column: 5 }, end: { line, column: 5 + command.length } },
      context: { cwd, outcome: 'ran', exitCode, toolUseId: `toolu_${line}` }, verdict: v('allow', readOnly),
    });
    const results: FileResult[] = [
      { file: 't.jsonl', diagnostics: [], verdicts: [unit('touch notes.txt', 3, true, 0), unit('grep alpha notes.txt', 5, false, 1), unit('cat notes.txt', 7, false, 0, join(dir, 'gone'))] },
      { file: 'run.sh', diagnostics: [], verdicts: [{ kind: 'statement', command: 'touch x', range: { start: { line: 1, column: 1 }, end: { line: 1, column: 8 } }, verdict: v('allow') }] },
    ];
    const severity = (id: string, requested?: 'error' | 'warning' | 'note'): 'error' | 'warning' | 'note' => requested ?? ({ 'sandbox-wrote-files': 'error', 'sandbox-exit-error': 'warning' } as Record<string, 'error' | 'warning'>)[id] ?? 'note';
    const s = await sandboxLint(results, severity);
    expect(s.unavailable).toBe(false);
    expect(s.results.map((r) => r.verdicts)).toEqual([undefined, undefined]);
    const ds = s.results[0]!.diagnostics.map((d) => [d.ruleId, d.severity, d.range.start.line]);
    expect(ds).toEqual([
      ['sandbox-wrote-files', 'error', 3],
      ['sandbox-outcome-mismatch', 'note', 5],
      ['sandbox-exit-error', 'note', 7],
      ['sandbox-outcome-mismatch', 'note', 7],
    ]);
    const mismatch = s.results[0]!.diagnostics.find((d) => d.ruleId === 'sandbox-outcome-mismatch' && d.range.start.line === 7)!;
    expect(mismatch.data).toMatchObject({ cause: 'environment-differs', cwdSubstituted: true, recordedCwd: join(dir, 'gone') });
    expect(s.results[1]!.diagnostics).toEqual([]);
    expect(s.messages[0]).toMatch(/^ran 3 distinct commands in the sandbox for 3 allowed calls of 3; .*1 command ran in an empty directory/);
    expect(s.messages[1]).toMatch(/^runs transcript commands only: 1 script or Makefile not run/);
    expect((await readdir(dir)).sort()).toEqual(['notes.txt']);
  });
});
