/**
 * `lint --sandbox` and `audit --sandbox` end to end, on the built CLI, with a real policy (a
 * `.claude/settings.json` in a temporary project that allows `ls`, `grep` and `cat` and denies
 * `rm`; `npm install` is asked about) and a Claude Code transcript written by the test whose calls ran in that project.
 * Runs need a working bwrap; without one those tests are skipped and their title says why. The
 * no-sandbox path is simulated with a PATH on which there is no bwrap.
 */
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectBwrap } from '../../src/sandbox/bwrap.js';
import { validateSarif } from '../report/sarif-schema.js';
import { shellward } from './cli.js';

const bwrap = process.platform === 'linux' ? await detectBwrap(process.env) : undefined;
const skipReason = bwrap === undefined ? `not Linux (${process.platform})` : bwrap.available ? undefined : `${bwrap.reason}: ${bwrap.message}`;
if (skipReason) console.warn(`test/cli/sandbox-batch.test.ts: runs skipped: ${skipReason}`);

/** One Bash call of a Claude Code transcript: the assistant's tool_use line and the user's tool_result line. */
function claudeCall(n: number, command: string, cwd: string, result: string, isError: boolean): string[] {
  const common = { sessionId: 'sess-sandbox', cwd, timestamp: `2026-01-01T00:00:${String(n).padStart(2, '0')}Z` };
  const id = `toolu_sandbox_${n}`;
  return [
    JSON.stringify({ type: 'assistant', uuid: `a${n}`, ...common, message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } }),
    JSON.stringify({ type: 'user', uuid: `u${n}`, ...common, message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: result, is_error: isError }] } }),
  ];
}

let dir: string;
let transcript: string;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'sw-cli-batch-')));
  await mkdir(join(dir, '.claude'));
  await writeFile(join(dir, '.claude/settings.json'), JSON.stringify({ permissions: { allow: ['Bash(ls:*)', 'Bash(grep:*)', 'Bash(cat:*)'], deny: ['Bash(rm:*)'] } }));
  await writeFile(join(dir, 'notes.txt'), 'alpha\n');
  await writeFile(join(dir, 'build.sh'), '#!/bin/sh\ntouch built\n');
  transcript = join(dir, 'session.jsonl');
  const lines = [
    ...claudeCall(1, 'ls', dir, 'build.sh\nnotes.txt', false), // lines 1-2: allowed, agrees
    ...claudeCall(2, 'grep alpha notes.txt', dir, 'Exit code 1', true), // lines 3-4: recorded no match, matches now
    ...claudeCall(3, 'rm -rf notes.txt', dir, '', false), // lines 5-6: denied, never run
    ...claudeCall(4, 'cat notes.txt', join(dir, 'gone'), 'alpha', false), // lines 7-8: recorded cwd missing here
    ...claudeCall(5, 'npm install left-pad', dir, 'added 1 package', false), // lines 9-10: no rule: asked, never run
  ];
  await writeFile(transcript, lines.join('\n') + '\n');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function unchanged(): Promise<void> {
  expect((await readdir(dir)).sort()).toEqual(['.claude', 'build.sh', 'notes.txt', 'session.jsonl']);
  expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('alpha\n');
}

describe('--sandbox without a sandbox, and bad options', () => {
  it('lint --sandbox with no bwrap on PATH runs nothing, says so and exits 2; the static report is still printed', async () => {
    const r = await shellward(['lint', '--sandbox', '-f', 'json', 'session.jsonl'], { cwd: dir, env: { PATH: '/nonexistent-dir' } });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toMatch(/^shellward: --sandbox: no sandbox is available \(no-bwrap: .*\); no command was run; never run: 1 call the policy asks about, 1 call it denies$/m);
    const doc = JSON.parse(String(r.stdout)) as { results: { diagnostics: { ruleId: string }[] }[] };
    expect(doc.results[0]!.diagnostics.some((d) => d.ruleId.startsWith('sandbox-'))).toBe(false);
    await unchanged();
  });

  it('audit --sandbox with no bwrap on PATH says so in the report and exits 2', async () => {
    const r = await shellward(['audit', '--sandbox', '-f', 'json', 'session.jsonl'], { cwd: dir, env: { PATH: '/nonexistent-dir' } });
    expect(r.exitCode).toBe(2);
    const doc = JSON.parse(String(r.stdout)) as { sandbox: Record<string, unknown> };
    expect(doc.sandbox).toMatchObject({ status: 'unavailable', counts: { ran: 0, refusedAsk: 1, refusedDeny: 1, allowed: 3 }, runs: [] });
    expect(String(doc.sandbox.message)).toMatch(/^no-bwrap: /);
  });

  it('rejects a bad --sandbox-limit', async () => {
    for (const cmd of ['lint', 'audit']) {
      const r = await shellward([cmd, '--sandbox', '--sandbox-limit', '0', 'session.jsonl'], { cwd: dir });
      expect(r.exitCode, cmd).toBe(2);
      expect(String(r.stderr)).toMatch(/--sandbox-limit/);
    }
  });
});

describe.skipIf(skipReason !== undefined)(`lint --sandbox and audit --sandbox under bwrap${skipReason ? ` (skipped: no usable bwrap — ${skipReason})` : ''}`, () => {
  it('lint --sandbox -f json: runs the allowed calls, reports the mismatch and the changed environment at their lines, never runs the denied or asked ones', async () => {
    const r = await shellward(['lint', '--sandbox', '-f', 'json', 'session.jsonl'], { cwd: dir });
    const doc = JSON.parse(String(r.stdout)) as { results: { file: string; diagnostics: { ruleId: string; severity: string; range: { start: { line: number } }; data?: Record<string, unknown> }[]; verdicts?: unknown[] }[] };
    const sandbox = doc.results[0]!.diagnostics.filter((d) => d.ruleId.startsWith('sandbox-')).map((d) => [d.ruleId, d.severity, d.range.start.line]);
    expect(sandbox).toEqual([
      ['sandbox-outcome-mismatch', 'note', 3],
      ['sandbox-exit-error', 'note', 7],
      ['sandbox-outcome-mismatch', 'note', 7],
    ]);
    const grep = doc.results[0]!.diagnostics.find((d) => d.ruleId === 'sandbox-outcome-mismatch' && d.range.start.line === 3)!;
    expect(grep.data).toMatchObject({ recorded: { exitCode: 1, kind: 'no-match' }, sandboxed: { exitCode: 0, kind: 'success' }, cause: 'state-differs', cwd: dir, cwdSubstituted: false });
    const cat = doc.results[0]!.diagnostics.find((d) => d.ruleId === 'sandbox-outcome-mismatch' && d.range.start.line === 7)!;
    expect(cat.data).toMatchObject({ cause: 'environment-differs', cwdSubstituted: true, recordedCwd: join(dir, 'gone') });
    // the verdicts are still there with --format json
    expect(doc.results[0]!.verdicts).toHaveLength(5);
    expect(String(r.stderr)).toMatch(/^shellward: --sandbox: ran 3 distinct commands in the sandbox for 3 allowed calls of 5; never run: 1 call the policy asks about, 1 call it denies; 1 command ran in an empty directory/m);
    await unchanged();
  });

  it('lint --sandbox on a script prints the note that only transcript commands run, and runs nothing', async () => {
    const r = await shellward(['lint', '--sandbox', 'build.sh'], { cwd: dir });
    expect(String(r.stderr)).toContain('shellward: --sandbox: runs transcript commands only: 1 script or Makefile not run');
    expect(String(r.stderr)).not.toMatch(/ran \d+ distinct/);
    await unchanged();
  });

  it('audit --sandbox: the report gains the sandbox section (commands run, agreement, mismatches) in json and text', async () => {
    const r = await shellward(['audit', '--sandbox', '-f', 'json', 'session.jsonl'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const s = (JSON.parse(String(r.stdout)) as { sandbox: Record<string, unknown> & { runs: { command: string; cwdSubstituted: boolean; filesWritten: string[] }[]; mismatches: { line: number; cause: string }[] } }).sandbox;
    expect(s).toMatchObject({ status: 'ran', limit: 50, counts: { calls: 5, allowed: 3, refusedAsk: 1, refusedDeny: 1, ran: 3, substituted: 1 }, agreement: { agree: 1, mismatch: 2, notComparable: 0 }, environmentDiffers: 1 });
    expect(s.runs.map((x) => [x.command, x.cwdSubstituted, x.filesWritten])).toEqual([
      ['ls', false, []],
      ['grep alpha notes.txt', false, []],
      ['cat notes.txt', true, []],
    ]);
    expect(s.mismatches.map((x) => [x.line, x.cause])).toEqual([[3, 'state-differs'], [7, 'environment-differs']]);
    const text = await shellward(['audit', '--sandbox', 'session.jsonl'], { cwd: dir });
    expect(String(text.stdout)).toMatch(/^Sandbox \(calls the policy allows, run again; asked and denied calls are never run\)$/m);
    expect(String(text.stdout)).toMatch(/^ {2}recorded vs sandboxed: agree 1 · mismatch 2 · not comparable 0/m);
    await unchanged();
  });

  it('audit --sandbox -f sarif reports the mismatches at the transcript lines', async () => {
    const r = await shellward(['audit', '--sandbox', '-f', 'sarif', 'session.jsonl'], { cwd: dir });
    const log = JSON.parse(String(r.stdout)) as { runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[] }[] };
    expect(validateSarif(log)).toEqual([]);
    const mism = log.runs[0]!.results.filter((x) => x.ruleId === 'sandbox-outcome-mismatch').map((x) => x.locations[0]!.physicalLocation.region.startLine);
    expect(mism).toEqual([3, 7]);
  });

  it('--sandbox-limit bounds the commands run', async () => {
    const r = await shellward(['lint', '--sandbox', '--sandbox-limit', '1', 'session.jsonl'], { cwd: dir });
    expect(String(r.stderr)).toMatch(/ran 1 distinct command in the sandbox for 3 allowed calls of 5; .*2 commands over the limit of 1 \(--sandbox-limit\)/);
  });
});
