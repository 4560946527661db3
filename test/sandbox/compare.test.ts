/**
 * Recorded vs sandboxed outcomes and the findings of one call's run (src/sandbox/compare.ts),
 * from explicit facts: pure, no sandbox needed.
 */
import { describe, expect, it } from 'vitest';
import { exitMeaning } from '../../src/analyses/exit-code.js';
import type { UnitContext } from '../../src/core/types.js';
import type { FileResult, UnitVerdict } from '../../src/report/types.js';
import type { BatchEntry } from '../../src/sandbox/batch.js';
import { callFindings, compareOutcome, transcriptCalls, withSandboxFindings, type RunPlace } from '../../src/sandbox/compare.js';
import type { SandboxFinding } from '../../src/sandbox/findings.js';
import type { SandboxRunResult } from '../../src/sandbox/run.js';
import type { Verdict } from '../../src/verdict.js';

const HERE: RunPlace = { recorded: '/p', used: '/p', substituted: false };
const EMPTY: RunPlace = { recorded: '/gone', used: '/tmp/x', substituted: true, why: 'the recorded working directory /gone does not exist on this machine' };

function result(command: string, name: string | undefined, exitCode: number | null, findings: SandboxFinding[] = [], timedOut = false): SandboxRunResult {
  const out = { text: '', bytes: 0, truncated: false };
  return {
    sandbox: 'bwrap', command, cwd: '/p', exitCode, signal: null, timedOut, stopped: null, meaning: exitCode === null ? null : exitMeaning(name, exitCode),
    durationMs: 5, stdout: out, stderr: out, filesWritten: [], filesComplete: true, notCopied: [], findings,
  };
}

const ran = (exitCode?: number, extra: Partial<UnitContext> = {}): UnitContext => ({ outcome: 'ran', ...(exitCode !== undefined ? { exitCode } : {}), ...extra });

describe('compareOutcome', () => {
  it('agrees when the meanings are equal, whatever the error code', () => {
    expect(compareOutcome('ls', ran(0), result('ls', 'ls', 0), HERE)).toMatchObject({ agreement: 'agree', recorded: { kind: 'success' }, sandboxed: { kind: 'success' } });
    expect(compareOutcome('make', ran(2), result('make', 'make', 127), HERE).agreement).toBe('agree');
    expect(compareOutcome('grep x f', ran(1), result('grep x f', 'grep', 1), HERE)).toMatchObject({ agreement: 'agree', recorded: { kind: 'no-match' } });
    expect(compareOutcome('npm test', ran(undefined, { failed: true }), result('npm test', 'npm', 1), HERE)).toMatchObject({ agreement: 'agree', recorded: { exitCode: null, kind: 'error' } });
  });

  it('recorded success, sandbox error: blames the sandbox (network, read-only, environment) in the message', () => {
    const c = compareOutcome('curl -s x', ran(0), result('curl -s x', 'curl', 6), HERE);
    expect(c).toMatchObject({ agreement: 'mismatch', cause: 'sandbox-restrictions', recorded: { exitCode: 0, kind: 'success' }, sandboxed: { exitCode: 6, kind: 'error' } });
    if (c.agreement !== 'mismatch') throw new Error('unreachable');
    expect(c.message).toMatch(/^Recorded: exit 0 \(success\); in the sandbox: exit 6 \(error\)\. .*no network/);
  });

  it('a time-out is its own kind and never agrees', () => {
    expect(compareOutcome('sleep 9', ran(0), result('sleep 9', undefined, null, [], true), HERE)).toMatchObject({ agreement: 'mismatch', cause: 'sandbox-restrictions', sandboxed: { exitCode: null, kind: 'timed-out' } });
  });

  it('recorded error or no match, sandbox success: the state differs', () => {
    expect(compareOutcome('npm test', ran(1), result('npm test', 'npm', 0), HERE)).toMatchObject({ agreement: 'mismatch', cause: 'state-differs' });
    expect(compareOutcome('grep x f', ran(1), result('grep x f', 'grep', 0), HERE)).toMatchObject({ agreement: 'mismatch', cause: 'state-differs', recorded: { kind: 'no-match' } });
  });

  it('a substituted working directory makes every mismatch "environment differs" and says why', () => {
    const c = compareOutcome('cat a', ran(0), result('cat a', 'cat', 1), EMPTY);
    expect(c).toMatchObject({ agreement: 'mismatch', cause: 'environment-differs' });
    if (c.agreement !== 'mismatch') throw new Error('unreachable');
    expect(c.message).toContain('/gone does not exist on this machine, so the command ran in an empty directory');
  });

  it('does not compare calls that did not run to completion or recorded no result', () => {
    for (const outcome of ['rejected', 'denied', 'cancelled', 'interrupted', 'backgrounded', 'unknown'] as const) {
      expect(compareOutcome('ls', { outcome }, result('ls', 'ls', 0), HERE).agreement, outcome).toBe('not-comparable');
    }
    expect(compareOutcome('ls', undefined, result('ls', 'ls', 0), HERE).agreement).toBe('not-comparable');
    expect(compareOutcome('ls', { outcome: 'ran' }, result('ls', 'ls', 0), HERE).agreement).toBe('not-comparable');
  });
});

const exitError: SandboxFinding = { ruleId: 'sandbox-exit-error', severity: 'warning', message: 'Command failed with exit code 1 in the sandbox.', start: 0, end: 5, data: { exitCode: 1 } };
const defaults = (_id: string, requested?: 'error' | 'warning' | 'note'): 'error' | 'warning' | 'note' | undefined => requested ?? (_id === 'sandbox-outcome-mismatch' ? 'note' : 'warning');

describe('callFindings', () => {
  it("adds 'sandbox-outcome-mismatch' (note) with both outcomes and the cause", () => {
    const r = result('cat a', 'cat', 1, [exitError]);
    const f = callFindings(r, compareOutcome('cat a', ran(0), r, HERE), HERE, defaults);
    expect(f.map((x) => [x.ruleId, x.severity])).toEqual([['sandbox-exit-error', 'warning'], ['sandbox-outcome-mismatch', 'note']]);
    expect(f[1]!.data).toMatchObject({ recorded: { exitCode: 0, kind: 'success' }, sandboxed: { exitCode: 1, kind: 'error' }, cause: 'sandbox-restrictions', cwdSubstituted: false });
  });

  it('lowers a failure in a substituted directory to a note that says the environment differs', () => {
    const r = result('cat a', 'cat', 1, [exitError]);
    const [f] = callFindings(r, compareOutcome('cat a', ran(1), r, EMPTY), EMPTY, defaults);
    expect(f).toMatchObject({ ruleId: 'sandbox-exit-error', severity: 'note', data: { environmentDiffers: true, cwdSubstituted: true, recordedCwd: '/gone' } });
    expect(f!.message).toMatch(/The environment differs: the recorded working directory \/gone does not exist/);
  });

  it('drops findings of rules configured off', () => {
    const r = result('cat a', 'cat', 1, [exitError]);
    expect(callFindings(r, compareOutcome('cat a', ran(0), r, HERE), HERE, () => undefined)).toEqual([]);
  });
});

const verdict = (decision: Verdict['decision']): Verdict => ({ decision, reason: 'x', readOnly: false, destructive: [], outsideCwd: false, findings: [], suggestions: [], matchedRule: null, paths: [] });

describe('transcriptCalls and withSandboxFindings', () => {
  const range = (line: number): UnitVerdict['range'] => ({ start: { line, column: 3 }, end: { line, column: 9 } });
  const unit = (command: string, line: number, kind: UnitVerdict['kind'] = 'tool-call'): UnitVerdict => ({ kind, command, range: range(line), context: { outcome: 'ran', exitCode: 0, toolUseId: `t${line}` }, verdict: verdict('allow') });
  const results: FileResult[] = [
    { file: 'a.jsonl', diagnostics: [], verdicts: [unit('cat a', 4), unit('ls', 2)] },
    { file: 'run.sh', diagnostics: [], verdicts: [unit('ls', 1, 'statement')] },
  ];

  it('takes tool calls only and counts the files of scripts and Makefiles', () => {
    const { calls, otherFiles } = transcriptCalls(results);
    expect(calls.map((c) => [c.file, c.unit.command])).toEqual([[0, 'cat a'], [0, 'ls']]);
    expect(otherFiles).toBe(1);
  });

  it("places each call's findings at the call's range, sorted and fingerprinted", () => {
    const { calls } = transcriptCalls(results);
    const failing = result('cat a', 'cat', 1, [exitError]);
    const entries: BatchEntry[] = [{ status: 'ran', run: { result: failing, place: HERE } }, { status: 'ran', run: { result: result('ls', 'ls', 0), place: HERE } }];
    const out = withSandboxFindings(results, calls, entries, defaults);
    expect(out[1]).toBe(results[1]);
    expect(out[0]!.diagnostics.map((d) => [d.ruleId, d.range.start.line, d.file])).toEqual([
      ['sandbox-exit-error', 4, 'a.jsonl'],
      ['sandbox-outcome-mismatch', 4, 'a.jsonl'],
    ]);
    expect(out[0]!.diagnostics.every((d) => /^[0-9a-f]{16}:1$/.test(d.fingerprint))).toBe(true);
  });

  it('adds nothing for calls that did not run', () => {
    const { calls } = transcriptCalls(results);
    const out = withSandboxFindings(results, calls, [{ status: 'refused', decision: 'ask' }, { status: 'over-limit' }], defaults);
    expect(out[0]).toBe(results[0]);
  });
});
