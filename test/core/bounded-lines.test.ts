/**
 * Input lines are bounded before they are decoded: the line splitter, `check --jsonl` (an
 * oversized request line gets an error and the stream goes on) and the transcript reader (an
 * oversized record is an error for its line and the records after it are read).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runJsonl } from '../../src/cli/check-command.js';
import { BoundedLineSplitter, type BoundedLine } from '../../src/core/bounded-lines.js';
import { Linter } from '../../src/lint.js';
import { readTranscriptFile } from '../../src/sources/transcript/read.js';
import type { TranscriptCall, TranscriptParseError } from '../../src/sources/transcript/types.js';

function split(chunks: readonly string[], max: number): BoundedLine[] {
  const s = new BoundedLineSplitter(max);
  return [...chunks.flatMap((c) => s.push(c)), ...s.end()];
}

describe('BoundedLineSplitter', () => {
  it('splits on newlines across chunks, drops the \\r of CRLF, keeps a last unterminated line', () => {
    expect(split(['ab', 'c\r\nde\n', '\nf'], 10)).toEqual([
      { oversized: false, text: 'abc' },
      { oversized: false, text: 'de' },
      { oversized: false, text: '' },
      { oversized: false, text: 'f' },
    ]);
    expect(split(['a\n'], 10)).toEqual([{ oversized: false, text: 'a' }]);
    expect(split([], 10)).toEqual([]);
  });

  it('reports a line over the limit by its length only, and goes on with the next line', () => {
    expect(split(['12345', '67890', 'x\nok\n', 'y'.repeat(11)], 10)).toEqual([
      { oversized: true, length: 11 },
      { oversized: false, text: 'ok' },
      { oversized: true, length: 11 },
    ]);
    expect(split(['1234567890\r\n'], 10)).toEqual([{ oversized: false, text: '1234567890' }]);
  });
});

describe('check --jsonl with an oversized request line', () => {
  let linter: Linter;
  beforeAll(async () => {
    linter = await Linter.create();
  });

  it('answers it with an error naming its line and answers the lines after it', async () => {
    const big = JSON.stringify({ command: 'echo ' + 'x'.repeat(5_000) });
    const input = Readable.from([JSON.stringify({ command: 'ls' }) + '\n' + big.slice(0, 3000), big.slice(3000) + '\n', JSON.stringify({ command: 'rm -rf x', permissions: { deny: ['Bash(rm:*)'] } }) + '\n']);
    const output = new PassThrough();
    const chunks: string[] = [];
    output.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    const code = await runJsonl(linter, '/tmp', input, output, 1_000);
    const lines = chunks.join('').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(code).toBe(2);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ decision: 'allow', reason: expect.stringMatching(/^read-only/) });
    expect(lines[1]).toEqual({ error: `request line too long: ${big.length} characters (the limit is 1000)`, line: 2 });
    expect(lines[2]).toMatchObject({ decision: 'deny' });
  });
});

describe('transcript records over the size limit', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'shellward-bounded-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are an error for their line; the calls after them are still read', async () => {
    const call = (id: string, command: string): string =>
      JSON.stringify({ type: 'assistant', uuid: `u-${id}`, timestamp: '2026-01-01T00:00:00Z', cwd: '/tmp', message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } });
    const path = join(dir, 't.jsonl');
    writeFileSync(path, [call('a', 'ls'), call('b', 'echo ' + 'x'.repeat(5_000)), call('c', 'git status')].join('\n') + '\n');
    const calls: TranscriptCall[] = [];
    const errors: TranscriptParseError[] = [];
    const stats = await readTranscriptFile(path, 't.jsonl', 'claude-code', new Set(), { call: (c) => calls.push(c), error: (e) => errors.push(e) }, 2_000);
    expect(stats.lines).toBe(3);
    expect(errors).toEqual([{ line: 2, message: expect.stringMatching(/^record too long: \d+ characters \(the limit is 2000\); skipped$/) }]);
    expect(calls.map((c) => c.unit.text)).toEqual(['ls', 'git status']);
  });
});
