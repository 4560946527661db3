/**
 * Properties of the Makefile and transcript readers on arbitrary input: they never throw, and
 * every unit's source map stays inside its host text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractMakefile } from '../../src/sources/makefile.js';
import { ClaudeCodeReader, CodexReader, detectTranscript, GeminiJsonlReader, readGeminiJson, type TranscriptCall, type TranscriptReader } from '../../src/sources/transcript/index.js';

const makeChars = fc.constantFrom('\t', ' ', '\n', '\\', '$', '(', ')', '{', '}', ':', '=', '#', '@', '-', '+', ';', 'a', 'X', 'rm', 'define', 'endef', 'ifeq', '.ONESHELL', '.RECIPEPREFIX', 'shell ', '!', '?', '\r');
const makefileText = fc.array(makeChars, { maxLength: 120 }).map((xs) => xs.join(''));

function inHost(c: { unit: { text: string; hostText: string; sourceMap: { toHost(o: number): number } } }): boolean {
  for (let i = 0; i <= c.unit.text.length; i++) {
    const h = c.unit.sourceMap.toHost(i);
    if (!(h >= 0 && h <= c.unit.hostText.length)) return false;
  }
  return true;
}

describe('Makefile extraction on arbitrary text', () => {
  it('never throws and maps every offset into the Makefile', () => {
    fc.assert(
      fc.property(makefileText, (text) => {
        const r = extractMakefile('Makefile', text);
        for (const u of r.units) expect(inHost(u)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

const jsonish = fc.oneof(
  fc.string(),
  fc.json(),
  fc.record({
    type: fc.constantFrom('assistant', 'user', 'response_item', 'session_meta', 'turn_context', 'event_msg', 'gemini'),
    payload: fc.anything(),
    message: fc.record({ content: fc.array(fc.record({ type: fc.constantFrom('tool_use', 'tool_result'), id: fc.string(), tool_use_id: fc.string(), name: fc.constantFrom('Bash', 'X'), input: fc.record({ command: fc.string() }), content: fc.anything() })) }),
    id: fc.string(),
    toolCalls: fc.array(fc.record({ id: fc.string(), name: fc.constant('run_shell_command'), args: fc.record({ command: fc.string(), dir_path: fc.string() }), status: fc.string() })),
  }).map((o) => JSON.stringify(o)),
);

describe('transcript readers on arbitrary lines', () => {
  it('never throw, and every call maps into its host line', () => {
    fc.assert(
      fc.property(fc.array(jsonish, { maxLength: 12 }), (lines) => {
        const readers: TranscriptReader[] = [new ClaudeCodeReader('t'), new CodexReader('t'), new GeminiJsonlReader('t')];
        for (const r of readers) {
          const calls: TranscriptCall[] = [];
          lines.forEach((l, i) => {
            calls.push(...r.line(l, i + 1).calls);
          });
          calls.push(...r.finish().calls);
          for (const c of calls) expect(inHost(c)).toBe(true);
        }
        detectTranscript(lines.join('\n'));
        readGeminiJson('t', lines.join('\n'));
      }),
      { numRuns: 500 },
    );
  });
});
