/**
 * Transcript readers: every fixture under test/fixtures/transcripts (see its README) is read into
 * exactly the expected units. The
 * complete rendering of every unit — line:column of its first character, outcome, exit code,
 * context — is the golden file test/fixtures/transcripts.golden.txt (`UPDATE_GOLDEN=1` rewrites
 * it; review the diff by eye); the tests below pin the facts of docs/transcript-formats.md one by one.
 */
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/core/positions.js';
import {
  argvToShell,
  ClaudeCodeReader,
  claudeOutcome,
  CodexReader,
  codexOutcome,
  detectTranscript,
  GeminiJsonlReader,
  geminiOutcome,
  readTranscriptFile,
  type TranscriptCall,
} from '../../src/sources/transcript/index.js';
import { decodeStringAt, locateValue } from '../../src/sources/transcript/json-text.js';
import { MappedText } from '../../src/sources/mapped-text.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIR = join(ROOT, 'test/fixtures/transcripts');
const GOLDEN = join(ROOT, 'test/fixtures/transcripts.golden.txt');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

/** Reads every fixture like one `lint` run (shared de-duplication), in path order. */
async function readAll(): Promise<Map<string, TranscriptCall[]>> {
  const seen = new Set<string>();
  const out = new Map<string, TranscriptCall[]>();
  for (const path of files(DIR)) {
    const rel = relative(DIR, path);
    const format = detectTranscript(readFileSync(path, 'utf8').slice(0, 65536));
    if (!format) continue;
    const calls: TranscriptCall[] = [];
    await readTranscriptFile(path, rel, format, seen, { call: (c) => calls.push(c), error: (e) => { throw new Error(`${rel}:${e.line}: ${e.message}`); } });
    calls.sort((a, b) => a.line - b.line || a.unit.sourceMap.toHost(0) - b.unit.sourceMap.toHost(0));
    out.set(rel, calls);
  }
  return out;
}

function render(all: Map<string, TranscriptCall[]>): string {
  const lines: string[] = [];
  for (const [file, calls] of all) {
    lines.push(`== ${file} (${calls.length} calls)`);
    for (const c of calls) {
      const u = c.unit;
      const idx = new LineIndex(u.hostText);
      const p = idx.position(u.sourceMap.toHost(0));
      const { agent, sessionId, toolUseId, timestamp, cwd, outcome, exitCode, failed, subagent, directExec, shell, home } = u.context ?? {};
      lines.push(`${p.line + c.lineShift}:${p.column} ${JSON.stringify(u.text)} [${u.dialect}]`);
      lines.push(`    ${outcome}${exitCode !== undefined ? ` exit=${exitCode}` : ''}${failed ? ' failed' : ''}${directExec ? ' direct-exec' : ''} agent=${agent} session=${sessionId}${subagent ? ` subagent=${subagent}` : ''} id=${toolUseId} at=${timestamp} cwd=${cwd} home=${home}${shell !== undefined ? ` shell=${shell}` : ''}`);
    }
  }
  return lines.join('\n') + '\n';
}

const all = await readAll();

describe('transcript fixtures', () => {
  it('match the golden rendering', () => {
    const actual = render(all);
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, actual);
    expect(existsSync(GOLDEN), `${GOLDEN} is missing: run with UPDATE_GOLDEN=1 and review it`).toBe(true);
    expect(actual).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('detects every transcript by content and skips the rest', () => {
    expect([...all.keys()].length).toBe(10);
    expect(all.has('gemini/logs.json')).toBe(false);
    expect(all.has('claude-code/7f3e2a91-4c5d-4e8b-9a1f-2b3c4d5e6f70/subagents/agent-a9c1e5f0b2d47e3a1.meta.json')).toBe(false);
  });

  const outcomes = (f: string) => all.get(f)!.map((c) => [c.unit.context?.outcome, c.unit.context?.exitCode ?? null]);

  it('reads Claude Code 2.1: success, failure, background, user rejection; no Edit, no Agent, no `!` command', () => {
    expect(outcomes('claude-code/7f3e2a91-4c5d-4e8b-9a1f-2b3c4d5e6f70.jsonl')).toEqual([
      ['ran', 0], ['ran', 1], ['backgrounded', null], ['ran', 0], ['rejected', null], ['ran', 0],
    ]);
    const sub = all.get('claude-code/7f3e2a91-4c5d-4e8b-9a1f-2b3c4d5e6f70/subagents/agent-a9c1e5f0b2d47e3a1.jsonl')!;
    expect(sub.map((c) => [c.unit.context?.subagent, c.unit.context?.sessionId, c.unit.context?.exitCode])).toEqual([
      ['a9c1e5f0b2d47e3a1', '7f3e2a91-4c5d-4e8b-9a1f-2b3c4d5e6f70', 0],
      ['a9c1e5f0b2d47e3a1', '7f3e2a91-4c5d-4e8b-9a1f-2b3c4d5e6f70', 2],
    ]);
  });

  it('reads Claude Code 1.0 with its inline sidechain and the interrupted curl | bash', () => {
    const calls = all.get('claude-code/legacy-v1.0-inline-sidechain.jsonl')!;
    expect(outcomes('claude-code/legacy-v1.0-inline-sidechain.jsonl')).toEqual([['ran', 1], ['ran', 0], ['interrupted', null], ['ran', 0]]);
    expect(calls.map((c) => c.unit.context?.subagent)).toEqual([undefined, 'sidechain', undefined, undefined]);
  });

  it('reads the four Codex layouts: argv unwrapped or quote-joined, apply_patch and write_stdin skipped, the replayed prefix once', () => {
    expect(all.get('codex/legacy-rollout-2025-08-12T14-03-11-5b8e2f1a-9c3d-4e7f-8a6b-1c2d3e4f5a6b.jsonl')!.map((c) => c.unit.text)).toEqual([
      'make build',
      'sed -i s/WalkDirFunc2/WalkDirFunc/ internal/fsutil/walk.go',
      'make build && sudo make install PREFIX=/usr/local',
    ]);
    expect(outcomes('codex/rollout-2025-10-21T16-40-02-0199f2c6-4a1b-7c2d-8e3f-9a0b1c2d3e4f.jsonl')).toEqual([
      ['ran', 1], ['ran', 1], ['ran', 0], ['ran', 0], ['ran', 124],
    ]);
    const current = all.get('codex/rollout-2026-03-14T09-21-07-019ce4a1-7b2c-7d31-9e0f-5a6b7c8d9e01.jsonl')!;
    expect(current.map((c) => [c.unit.text.slice(0, 12), c.unit.dialect, c.unit.context?.outcome, c.unit.context?.exitCode])).toEqual([
      ['npm test', 'bash', 'ran', 1],
      ['npx vitest r', 'bash', 'ran', 0],
      ['git add -A &', 'bash', 'ran', 128],
      ['curl -fsSL h', 'zsh', 'backgrounded', 0],
    ]);
    const child = all.get('codex/rollout-2026-03-14T09-21-15-019ce4a3-1d4e-7f53-b12a-7c8d9e0f1a23.jsonl')!;
    expect(child.map((c) => [c.line, c.unit.context?.subagent])).toEqual([[8, '019ce4a3-1d4e-7f53-b12a-7c8d9e0f1a23']]);
  });

  it('reads Gemini JSON and JSONL: status vs exit code, rejection, cancel, re-appended messages and $rewindTo', () => {
    expect(outcomes('gemini/session-2025-10-14T08-30-3b7c9d2e.json')).toEqual([['ran', 0], ['ran', 2], ['denied', null], ['ran', 0], ['ran', 0]]);
    const jsonl = all.get('gemini/session-2026-04-20T10-05-5e1f0a2b.jsonl')!;
    expect(jsonl.map((c) => [c.line, c.unit.context?.outcome, c.unit.context?.exitCode ?? null])).toEqual([
      [6, 'ran', 1], [10, 'ran', 0], [10, 'denied', null], [14, 'cancelled', null], [25, 'ran', 0],
    ]);
    const sub = all.get('gemini/5e1f0a2b-6c7d-4e8f-9a0b-1c2d3e4f5a6b/c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f.jsonl')!;
    expect(sub.map((c) => [c.unit.context?.sessionId, c.unit.context?.subagent, c.unit.context?.cwd])).toEqual([
      ['5e1f0a2b-6c7d-4e8f-9a0b-1c2d3e4f5a6b', 'c4d5e6f7-0a1b-4c2d-8e3f-4a5b6c7d8e9f', '/home/user/demo-app'],
    ]);
  });

  it('maps every character of a string command to its escaped place in the host line', () => {
    for (const calls of all.values()) {
      for (const c of calls) {
        if (c.unit.context?.directExec) continue;
        const host = c.unit.hostText;
        for (let i = 0; i < c.unit.text.length; i++) {
          const h = c.unit.sourceMap.toHost(i);
          const ch = c.unit.text[i]!;
          // the host has the character itself, or a backslash escape of it (doubled in Codex arguments)
          expect(host[h] === ch || host[h] === '\\', `${c.unit.origin.file}:${c.line} offset ${i}`).toBe(true);
        }
      }
    }
  });
});

describe('transcript readers (pure)', () => {
  it('reports a malformed line and reads on; skips unknown entry types', () => {
    const r = new ClaudeCodeReader('t.jsonl');
    expect(r.line('{"type":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"Bash","input":{"command":"ls"}}]}', 1).errors).toHaveLength(1);
    expect(r.line('{"type":"brand-new-entry","x":1}', 2)).toEqual({ calls: [], errors: [] });
    r.line('{"type":"assistant","message":{"content":[{"type":"tool_use","id":"b","name":"Bash","input":{"command":"ls -la"}}]}}', 3);
    const done = r.finish();
    expect(done.calls.map((c) => [c.unit.text, c.line, c.unit.context?.outcome])).toEqual([['ls -la', 3, 'unknown']]);
  });

  it('carries the permission mode the session last recorded into each call, and decisions use it', async () => {
    const r = new ClaudeCodeReader('t.jsonl');
    const call = (id: string, command: string): string =>
      JSON.stringify({ type: 'assistant', cwd: '/repo', message: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } });
    r.line(JSON.stringify({ type: 'user', permissionMode: 'acceptEdits', message: { content: 'go' } }), 1);
    r.line(call('a', 'touch notes.txt'), 2);
    r.line(JSON.stringify({ type: 'user', permissionMode: 'default', message: { content: 'careful' } }), 3);
    r.line(call('b', 'touch notes.txt'), 4);
    const calls = r.finish().calls;
    expect(calls.map((c) => c.unit.context?.permissionMode)).toEqual(['acceptEdits', 'default']);
    const { Linter } = await import('../../src/lint.js');
    const linter = await Linter.create({ pathHost: { home: '/home/u' } });
    expect(calls.map((c) => linter.analyse(c.unit).decision()?.behavior)).toEqual(['allow', 'ask']);
  });

  it('de-duplicates re-logged Claude calls across files of a run', () => {
    const seen = new Set<string>();
    const line = '{"type":"assistant","message":{"content":[{"type":"tool_use","id":"x","name":"Bash","input":{"command":"ls"}}]}}';
    const a = new ClaudeCodeReader('a.jsonl', seen);
    a.line(line, 1);
    const b = new ClaudeCodeReader('b.jsonl', seen);
    b.line(line, 1);
    expect(a.finish().calls).toHaveLength(1);
    expect(b.finish().calls).toHaveLength(0);
  });

  it('reads the Claude outcome rules of transcript-formats.md §1.4', () => {
    expect(claudeOutcome({ content: 'Exit code 3\nboom', isError: true, toolUseResult: 'Error: Exit code 3' })).toEqual({ outcome: 'ran', exitCode: 3 });
    expect(claudeOutcome({ content: 'boom', isError: true, toolUseResult: 'Error: boom' })).toEqual({ outcome: 'ran', failed: true });
    expect(claudeOutcome({ content: 'ok', isError: false, toolUseResult: undefined })).toEqual({ outcome: 'ran', exitCode: 0 });
    expect(claudeOutcome({ content: 'x', isError: true, toolUseResult: 'User rejected tool use' }).outcome).toBe('rejected');
    expect(claudeOutcome({ content: '<tool_use_error>blocked by hook</tool_use_error>', isError: true, toolUseResult: 'Error: blocked' }).outcome).toBe('denied');
  });

  it('reads the Codex output forms of transcript-formats.md §2.4', () => {
    expect(codexOutcome('{"output":"x","metadata":{"exit_code":5,"duration_seconds":1}}')).toEqual({ outcome: 'ran', exitCode: 5 });
    expect(codexOutcome('Exit code: 0\nWall time: 1 seconds\nOutput:\n')).toEqual({ outcome: 'ran', exitCode: 0 });
    expect(codexOutcome('Chunk ID: a\nWall time: 1\nProcess exited with code 7\nOutput:\n')).toEqual({ outcome: 'ran', exitCode: 7 });
    expect(codexOutcome('Wall time: 1\nProcess running with session ID 3\n')).toEqual({ outcome: 'backgrounded', runningSession: 3 });
    expect(codexOutcome('approval policy is Never; reject command — x').outcome).toBe('denied');
  });

  it('reads the Gemini status and output forms of transcript-formats.md §3.4', () => {
    const out = (output: string) => [{ functionResponse: { response: { output } } }];
    expect(geminiOutcome('success', out('Output: x\nExit Code: 2'), false)).toEqual({ outcome: 'ran', exitCode: 2 });
    expect(geminiOutcome('success', out('Output: x'), false)).toEqual({ outcome: 'ran', exitCode: 0 });
    expect(geminiOutcome('success', out('Command moved to background (PID: 5).'), false).outcome).toBe('backgrounded');
    expect(geminiOutcome('success', out('Exit Code: (none)\nSignal: 9'), false)).toEqual({ outcome: 'ran', failed: true });
    expect(geminiOutcome('cancelled', [], false).outcome).toBe('cancelled');
    expect(geminiOutcome('error', [], false).outcome).toBe('denied');
    expect(geminiOutcome('executing', [], false).outcome).toBe('unknown');
  });

  it('applies $set.messages checkpoints and an unknown $rewindTo', () => {
    const tc = (id: string, cmd: string) => `{"id":"${id}","type":"gemini","content":"","toolCalls":[{"id":"${id}-c","name":"run_shell_command","args":{"command":"${cmd}"},"status":"success"}]}`;
    const r = new GeminiJsonlReader('g.jsonl');
    r.line('{"sessionId":"s","projectHash":"h"}', 1);
    r.line(tc('m1', 'echo 1'), 2);
    r.line(`{"$set":{"messages":[${tc('m2', 'echo 2')}]}}`, 3);
    expect(r.finish().calls.map((c) => [c.unit.text, c.line])).toEqual([['echo 2', 3]]);
    const r2 = new GeminiJsonlReader('g.jsonl');
    r2.line(tc('m1', 'echo 1'), 1);
    r2.line('{"$rewindTo":"nope"}', 2);
    expect(r2.finish().calls).toEqual([]);
  });

  it('does not count Codex write_stdin or apply_patch as commands; PowerShell is kept, marked with its shell', () => {
    const r = new CodexReader('c.jsonl');
    const fc = (name: string, args: object, id: string) => JSON.stringify({ timestamp: 't', type: 'response_item', payload: { type: 'function_call', name, arguments: JSON.stringify(args), call_id: id } });
    r.line(JSON.stringify({ timestamp: 't', type: 'session_meta', payload: { id: 's', cwd: '/w' } }), 1);
    r.line(fc('write_stdin', { session_id: 1, chars: 'rm -rf /\n' }, 'a'), 2);
    r.line(fc('shell', { command: ['apply_patch', '*** Begin Patch'] }, 'b'), 3);
    r.line(fc('shell', { command: ['bash', '-lc', "apply_patch <<'EOF'\nx\nEOF"] }, 'c'), 4);
    r.line(fc('exec_command', { cmd: 'Remove-Item x', shell: 'powershell' }, 'd'), 5);
    r.line(fc('shell_command', { command: 'ls', workdir: 'sub' }, 'e'), 6);
    const calls = r.finish().calls;
    expect(calls.map((c) => [c.unit.text, c.unit.context?.cwd, c.unit.context?.shell])).toEqual([
      ['Remove-Item x', '/w', 'powershell'],
      ['ls', '/w/sub', undefined],
    ]);
  });
});

describe('argv → shell text', () => {
  const m = (xs: string[]) => xs.map((x) => {
    const t = new MappedText();
    for (let i = 0; i < x.length; i++) t.push(x[i]!, i);
    return t;
  });
  const text = (xs: string[]) => {
    const r = argvToShell(m(xs));
    return r?.kind === 'script' ? [r.text.text, r.dialect, r.directExec] : r?.kind;
  };
  it('unwraps sh -c wrappers and quote-joins the rest like shlex.join', () => {
    expect(text(['bash', '-lc', 'ls | wc -l'])).toEqual(['ls | wc -l', 'bash', false]);
    expect(text(['/bin/zsh', '-l', '-c', 'echo'])).toEqual(['echo', 'zsh', false]);
    expect(text(['rg', '-n', 'a b', "it's", '$HOME', 'x*'])).toEqual(["rg -n 'a b' 'it'\\''s' '$HOME' 'x*'", 'bash', true]);
    expect(text(['rg', ''])).toEqual(["rg ''", 'bash', true]);
    expect(text(['apply_patch', 'x'])).toBe('edit');
    const ps = argvToShell(m(['powershell.exe', '-NoProfile', '-Command', 'Get-ChildItem']));
    expect(ps?.kind === 'foreign' ? [ps.shell, ps.text.text] : ps).toEqual(['powershell', 'Get-ChildItem']);
    const cmd = argvToShell(m(['cmd.exe', '/c', 'dir']));
    expect(cmd?.kind === 'foreign' ? [cmd.shell, cmd.text.text] : cmd).toEqual(['cmd', 'dir']);
  });
});

describe('JSON positions', () => {
  it('locates values and decodes escapes with their offsets', () => {
    const s = '{"a": [1, {"b": "x\\"\\u00e9y"}], "a2": 3}';
    const at = locateValue(s, ['a', 1, 'b'])!;
    expect(s[at]).toBe('"');
    const d = decodeStringAt(s, at)!;
    expect(d.value.text).toBe('x"éy');
    expect([0, 1, 2, 3].map((i) => s[d.value.hostAt(i)!])).toEqual(['x', '\\', '\\', 'y']);
    expect(locateValue(s, ['nope'])).toBeUndefined();
    expect(locateValue('{"a":', ['a'])).toBeUndefined();
  });
});

describe('detection past a damaged first line', () => {
  const claude = '{"type":"user","uuid":"u1","sessionId":"s","message":{"role":"user","content":"hi"}}';
  it.each([
    ['a truncated first record', '{"type":"user","uuid":"u0","sess\n' + claude + '\n'],
    ['a blank first line', '\n' + claude + '\n'],
    ['an unknown first record type', '{"type":"something-new","x":1}\n' + claude + '\n'],
  ])('still recognises Claude Code after %s', (_name, head) => {
    expect(detectTranscript(head)).toBe('claude-code');
  });
  it('does not take other JSON for a transcript', () => {
    expect(detectTranscript('[\n  {"prompt": "x"}\n]\n')).toBeUndefined();
    expect(detectTranscript('{"name": "pkg", "version": "1.0.0"}\n')).toBeUndefined();
  });
});
