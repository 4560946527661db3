/**
 * The precision set (bench/precision/commands.jsonl): well-formed, large enough, its baseline in
 * step with it, and — the property the benchmark reports — no command labelled `ask` is allowed
 * by the check engine without rules. Speed is the benchmark's business (npm run bench:precision).
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_HOME, loadPrecisionSet, loadRecorded, makeScratchProject, scorePrecision, type PrecisionRow } from '../../bench/precision/set.js';
import { Linter } from '../../src/lint.js';
import { verdictFor } from '../../src/verdict.js';

const rows = loadPrecisionSet();
let scratch: string;
let linter: Linter;

beforeAll(async () => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'sw-precision-')));
  makeScratchProject(scratch);
  linter = await Linter.create({ pathHost: { home: BENCH_HOME } });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the precision set', () => {
  it('has at least 400 commands with both labels, each with a source', () => {
    expect(rows.length).toBeGreaterThanOrEqual(400);
    expect(rows.filter((r) => r.label === 'allow').length).toBeGreaterThan(100);
    expect(rows.filter((r) => r.label === 'ask').length).toBeGreaterThan(100);
    for (const r of rows) expect(r.source, r.id).toMatch(/^(https:\/\/|bench\/|test\/)/);
  });

  it('has one recorded baseline decision per row', () => {
    const baseline = loadRecorded();
    expect(Object.keys(baseline.decisions).sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it('has no unsafe allow: nothing labelled ask is allowed without rules', () => {
    const decisions: Record<string, string> = {};
    for (const r of rows) decisions[r.id] = verdictFor(r.command, { cwd: r.cwd ?? scratch }, linter).decision;
    const unsafe = scorePrecision(rows, decisions).unsafeAllows.map((r: PrecisionRow) => `${r.id} ${r.command} (${r.why})`);
    expect(unsafe).toEqual([]);
  });
});

describe('scorePrecision', () => {
  const set: PrecisionRow[] = [
    { id: 'p001', command: 'ls', label: 'allow', why: 'w', source: 'test/x' },
    { id: 'p002', command: 'rm x', label: 'ask', why: 'w', source: 'test/x' },
    { id: 'p003', command: 'cat y', label: 'allow', why: 'w', source: 'test/x' },
  ];
  it('counts deny as not allowed, an ask-labelled allow as unsafe, and leaves out rows without a decision', () => {
    const s = scorePrecision(set, { p001: 'deny', p002: 'allow' });
    expect(s).toMatchObject({ rows: 2, correct: 0, harmless: 1, harmlessAllowed: 0, missing: 1 });
    expect(s.unsafeAllows.map((r) => r.id)).toEqual(['p002']);
    expect(scorePrecision(set, { p001: 'allow', p002: 'ask', p003: 'allow' })).toMatchObject({ correct: 3, harmlessAllowed: 2, unsafeAllows: [] });
  });
});
