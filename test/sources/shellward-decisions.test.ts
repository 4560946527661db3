/** The shellward decision log read as a transcript (what `shellward audit` reads of `shellward hook --log`). */
import { describe, expect, it } from 'vitest';
import { DECISION_RECORD_TYPE, decisionRecord } from '../../src/hook/decision-log.js';
import { detectTranscript } from '../../src/sources/transcript/detect.js';
import { createReader } from '../../src/sources/transcript/read.js';
import { DECISION_LOG_TYPE } from '../../src/sources/transcript/shellward-decisions.js';
import type { Verdict } from '../../src/verdict.js';

const verdict: Verdict = { decision: 'deny', reason: 'policy-deny: x', readOnly: false, destructive: [], outsideCwd: false, findings: [], suggestions: [], matchedRule: null, paths: [] };

function line(command: string, extra: Record<string, unknown> = {}): string {
  const r = decisionRecord(
    { agent: 'gemini', reply: { stdout: '', stderr: '', exitCode: 0 }, call: { command, toolName: 'run_shell_command', sessionId: 's', toolUseId: `id-${command}` }, verdict, answer: { decision: 'deny', reason: 'shellward: policy-deny: x' } },
    'enforce',
    '/p',
    new Date('2026-01-01T00:00:00Z'),
  );
  return JSON.stringify({ ...r, ...extra });
}

describe('shellward decision log as a transcript', () => {
  it('is written and read with the same record type, and detected by its first line', () => {
    expect(DECISION_RECORD_TYPE).toBe(DECISION_LOG_TYPE);
    expect(detectTranscript(line('git push') + '\n')).toBe('shellward-decisions');
  });

  it('reads each record with a command as a call, with its context; skips others and repeats', () => {
    const reader = createReader('shellward-decisions', 'd.jsonl', new Set());
    const first = reader.line(line('git push'), 1);
    expect(first.calls).toHaveLength(1);
    const c = first.calls[0]!;
    expect(c.unit.text).toBe('git push');
    expect(c.line).toBe(1);
    expect(c.unit.context).toMatchObject({ agent: 'gemini', sessionId: 's', toolUseId: 'id-git push', cwd: '/p', outcome: 'denied', timestamp: '2026-01-01T00:00:00.000Z' });
    // The command maps back into the log line.
    expect(c.unit.sourceMap.toHost(0)).toBe(line('git push').indexOf('"git push"') + 1);
    expect(reader.line(line('git push'), 2).calls).toHaveLength(0);
    expect(reader.line(JSON.stringify({ type: 'shellward-decision', version: 1, error: 'malformed', decision: 'ask' }), 3).calls).toHaveLength(0);
    expect(reader.line(line('ls', { version: 2 }), 4).calls).toHaveLength(0);
    expect(reader.line(line('make', { answered: 'ask' }), 5).calls[0]!.unit.context?.outcome).toBe('unknown');
    expect(reader.line('not json', 6).errors).toEqual([{ line: 6, message: 'not valid JSON' }]);
  });
});
