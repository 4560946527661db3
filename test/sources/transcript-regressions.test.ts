/**
 * Regressions of reading real sessions, each pinned with a minimal synthetic transcript of the
 * shape seen (written here, not copied from any session): calls that were lost, facts that were
 * wrong.
 */
import { describe, expect, it } from 'vitest';
import { Linter } from '../../src/lint.js';
import { claudeOutcome, ClaudeCodeReader, codexOutcome, CodexReader, detectTranscript, GeminiJsonlReader, type TranscriptCall, type TranscriptReader } from '../../src/sources/transcript/index.js';
import { callDiagnostics } from '../../src/transcript-runner.js';
import { unitVerdict } from '../../src/unit-verdicts.js';
import { verdictFor } from '../../src/verdict.js';

const linter = await Linter.create();

/** Feeds `lines` (objects, JSON-encoded) to `reader`; returns every call. */
function read(reader: TranscriptReader, lines: readonly object[]): TranscriptCall[] {
  const calls: TranscriptCall[] = [];
  lines.forEach((l, i) => {
    const o = reader.line(JSON.stringify(l), i + 1);
    expect(o.errors).toEqual([]);
    calls.push(...o.calls);
  });
  calls.push(...reader.finish().calls);
  return calls;
}

/** A Codex envelope line. */
const cx = (type: string, payload: object) => ({ timestamp: '2025-10-01T10:00:00.000Z', type, payload });
const fcall = (name: string, args: object, id: string) => cx('response_item', { type: 'function_call', name, arguments: JSON.stringify(args), call_id: id });
const fout = (id: string, output: string) => cx('response_item', { type: 'function_call_output', call_id: id, output });
const envContext = (inner: string) => cx('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<environment_context>\n${inner}\n</environment_context>` }] });
const structured = (code: number) => JSON.stringify({ output: '', metadata: { exit_code: code, duration_seconds: 0.1 } });

/** Claude Code entries. */
const ccUse = (id: string, command: string, cwd = '/home/ana/proj', extra: object = {}) => ({
  type: 'assistant', uuid: `u-${id}`, sessionId: 's1', cwd, timestamp: '2026-01-01T00:00:00.000Z',
  message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] }, ...extra,
});
const ccResult = (id: string, content: string, isError: boolean, toolUseResult: unknown = isError ? `Error: ${content}` : { stdout: content, stderr: '', interrupted: false }, extra: object = {}) => ({
  type: 'user', uuid: `r-${id}`, sessionId: 's1', cwd: '/home/ana/proj',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] }, toolUseResult, ...extra,
});

describe('calls are not lost', () => {
  it('keeps Codex `shell` argv calls through powershell.exe -Command, marked PowerShell and not analysed', () => {
    const calls = read(new CodexReader('win.jsonl'), [
      cx('session_meta', { id: 'sess-win', cwd: 'C:\\Users\\ana\\proj', timestamp: '2025-10-01T10:00:00.000Z' }),
      cx('turn_context', { cwd: 'C:\\Users\\ana\\proj' }),
      fcall('shell', { command: ['powershell.exe', '-Command', "Get-ChildItem -Recurse | Select-Object -First 5"] }, 'c1'),
      fout('c1', structured(0)),
      fcall('shell', { command: ['powershell.exe', '-NoProfile', '-Command', "'{0,4}' -f 7"] }, 'c2'),
      fout('c2', structured(1)),
      fcall('shell', { command: ['pwsh', '-c', 'Remove-Item -Recurse -Force build'] }, 'c3'),
      fout('c3', structured(0)),
    ]);
    expect(calls.map((c) => [c.unit.text, c.unit.context?.shell, c.unit.context?.exitCode])).toEqual([
      ['Get-ChildItem -Recurse | Select-Object -First 5', 'powershell', 0],
      ["'{0,4}' -f 7", 'powershell', 1],
      ['Remove-Item -Recurse -Force build', 'powershell', 0],
    ]);
    // not parsed as bash: no brace-expansion or parse findings, and the verdict says why
    for (const c of calls) {
      expect(callDiagnostics(linter, c)).toEqual([]);
      const v = unitVerdict(linter, c.unit, 'tool-call', { lineShift: c.lineShift }).verdict;
      expect(v.decision).toBe('ask');
      expect(v.reason).toMatch(/^not-analysed: the command is PowerShell/);
      expect(v.suggestions).toEqual([]);
    }
  });

  it('recognises a Gemini JSONL chat that starts with a message record (no metadata line)', () => {
    const msg = (id: string, command: string) => ({
      id, timestamp: '2026-05-01T09:00:00.000Z', type: 'gemini', content: '',
      toolCalls: [{ id: `run_shell_command__${id}`, name: 'run_shell_command', args: { command }, status: 'success', result: [{ functionResponse: { response: { output: 'Output: (empty)' } } }] }],
    });
    const lines = [msg('m1', 'ls -la'), { id: 'u1', timestamp: 't', type: 'user', content: [{ text: 'go on' }] }, msg('m2', 'npm test')];
    const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    expect(detectTranscript(text)).toBe('gemini-jsonl');
    // the first line alone, longer than any head, is recognised too
    expect(detectTranscript(JSON.stringify(msg('m1', 'x'.repeat(100)) ).slice(0, 90))).toBe('gemini-jsonl');
    const calls = read(new GeminiJsonlReader('chats/session-2026-05-01T09-00-ab12cd34.jsonl', new Set(), { path: '/g/chats/session-2026-05-01T09-00-ab12cd34.jsonl' }), lines);
    expect(calls.map((c) => [c.unit.text, c.unit.context?.sessionId])).toEqual([
      ['ls -la', 'ab12cd34'],
      ['npm test', 'ab12cd34'],
    ]);
  });

  it('scopes Codex call ids by session: two sessions both using `functions.shell:0` are two calls', () => {
    const seen = new Set<string>();
    const session = (id: string, command: string) =>
      read(new CodexReader(`${id}.jsonl`, seen), [
        cx('session_meta', { id, cwd: '/home/ana/proj' }),
        cx('turn_context', { cwd: '/home/ana/proj' }),
        fcall('shell', { command: ['bash', '-lc', command] }, 'functions.shell:0'),
        fout('functions.shell:0', structured(0)),
      ]);
    expect(session('sess-a', 'git status').map((c) => c.unit.text)).toEqual(['git status']);
    expect(session('sess-b', 'git diff').map((c) => c.unit.text)).toEqual(['git diff']);
    // the same session read again (a resumed copy) is still read once
    expect(session('sess-a', 'git status')).toEqual([]);
  });
});

describe('facts are right', () => {
  it('resolves a Windows cwd with win32 rules, never against shellward’s own directory', () => {
    const calls = read(new CodexReader('w.jsonl'), [
      cx('session_meta', { id: 'w', cwd: 'c:\\Users\\ana\\proj' }),
      cx('turn_context', { cwd: 'c:\\Users\\ana\\proj' }),
      fcall('shell', { command: ['bash', '-lc', 'ls'], workdir: 'sub' }, 'c1'),
      fout('c1', structured(0)),
    ]);
    expect(calls[0]!.unit.context?.cwd).toBe('c:\\Users\\ana\\proj\\sub');
    expect(calls[0]!.unit.context?.home).toBe('c:\\Users\\ana');
    expect(calls[0]!.unit.context?.cwd).not.toContain(process.cwd());
  });

  it('treats drive-letter paths as absolute: a key outside the Windows project is outside, the project is known', () => {
    const cwd = 'c:\\Users\\ana\\proj';
    const key = verdictFor('cat "C:/Users/ana/.ssh/id_rsa"', { cwd }, linter);
    expect(key.decision).toBe('ask');
    expect(key.outsideCwd).toBe(true);
    expect(key.paths[0]).toMatchObject({ resolved: '/c/Users/ana/.ssh/id_rsa', reason: 'outside' });
    // Claude Code on Windows: `cd` to the recorded cwd in its forward-slash spelling is that directory
    const cd = verdictFor('cd "C:/Users/ana/proj" && cat README.md', { cwd }, linter);
    expect(cd.decision).toBe('allow');
    expect(cd.paths.map((p) => p.reason)).toEqual(['inside', 'inside']);
    // a drive-relative path depends on a per-drive cwd nobody recorded
    expect(verdictFor('cat C:notes.txt', { cwd }, linter).paths[0]).toMatchObject({ resolved: null, allowed: false });
    // on a POSIX session a drive path is not silently inside either
    expect(verdictFor('cat C:/Users/ana/.ssh/id_rsa', { cwd: '/home/ana/proj' }, linter).decision).toBe('ask');
  });

  it('does not count Claude Code calls that never ran as failures, nor cancelled ones as denials', () => {
    const o = (content: string, isError = true, tur?: unknown) => claudeOutcome({ content, isError, toolUseResult: tur ?? `Error: ${content}` });
    expect(o('Permission for this tool use was denied. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).').outcome).toBe('denied');
    expect(o('The user declined to run the tool.').outcome).toBe('rejected');
    expect(o('<tool_use_error>Sibling tool call errored</tool_use_error>', true, 'Sibling tool call errored').outcome).toBe('cancelled');
    expect(o('<tool_use_error>Cancelled: parallel tool call Bash(npm test) errored</tool_use_error>').outcome).toBe('cancelled');
    // a real failure stays one
    expect(o('Exit code 1\nnpm ERR! missing script: lint')).toEqual({ outcome: 'ran', exitCode: 1 });

    // a "Warmup" sidechain's error result: never ran
    const calls = read(new ClaudeCodeReader('w.jsonl'), [
      { type: 'user', uuid: 'p0', parentUuid: null, isSidechain: true, agentId: 'aw', sessionId: 's1', cwd: '/home/ana/proj', message: { role: 'user', content: 'Warmup' } },
      ccUse('toolu_w1', 'ls', '/home/ana/proj', { isSidechain: true, agentId: 'aw' }),
      ccResult('toolu_w1', 'request aborted', true, 'Error: request aborted', { isSidechain: true, agentId: 'aw' }),
      ccUse('toolu_m1', 'npm run lint'),
      ccResult('toolu_m1', 'boom', true),
    ]);
    expect(calls.map((c) => [c.unit.text, c.unit.context?.outcome, c.unit.context?.failed])).toEqual([
      ['ls', 'cancelled', undefined],
      ['npm run lint', 'ran', true],
    ]);
  });

  it('reads Codex 0.39–0.47 "failed in sandbox … exit code: N" as ran with that exit code', () => {
    expect(codexOutcome('failed in sandbox: command exited with exit code: 2')).toEqual({ outcome: 'ran', exitCode: 2 });
    expect(codexOutcome('execution error: failed in sandbox Seatbelt with execution error: Denied { output: ExecToolCallOutput { exit_code: 2, stdout: "" } }')).toEqual({ outcome: 'ran', exitCode: 2 });
    // a sandbox refusal without an exit code still never ran
    expect(codexOutcome('failed in sandbox: sandbox denied exec').outcome).toBe('denied');
  });

  it('records the session’s shell: PowerShell is counted, not analysed; zsh is analysed as zsh', () => {
    const ps = read(new CodexReader('ps.jsonl'), [
      cx('session_meta', { id: 'ps', cwd: 'C:\\work\\app' }),
      envContext('  <cwd>C:\\work\\app</cwd>\n  <shell>powershell</shell>'),
      cx('turn_context', { cwd: 'C:\\work\\app' }),
      fcall('shell_command', { command: "Get-Content package.json | Select-String '{0,4}'" }, 'p1'),
      fout('p1', 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\n'),
    ]);
    expect(ps.map((c) => c.unit.context?.shell)).toEqual(['powershell']);
    expect(callDiagnostics(linter, ps[0]!)).toEqual([]);
    expect(unitVerdict(linter, ps[0]!.unit, 'tool-call').verdict.suggestions).toEqual([]);

    const zsh = read(new CodexReader('z.jsonl'), [
      cx('session_meta', { id: 'z', cwd: '/Users/ana/app' }),
      envContext('  <cwd>/Users/ana/app</cwd>\n  <shell>zsh</shell>'),
      cx('turn_context', { cwd: '/Users/ana/app' }),
      fcall('shell_command', { command: 'git status' }, 'z1'),
      fout('z1', 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\n'),
    ]);
    expect(zsh.map((c) => [c.unit.context?.shell, c.unit.dialect])).toEqual([['zsh', 'zsh']]);
    expect(unitVerdict(linter, zsh[0]!.unit, 'tool-call').verdict.decision).toBe('allow');

    // no <shell> recorded but a Windows cwd: Codex's default there is PowerShell
    const win = read(new CodexReader('w.jsonl'), [
      cx('session_meta', { id: 'w2', cwd: 'D:\\src' }),
      cx('turn_context', { cwd: 'D:\\src' }),
      fcall('shell_command', { command: 'dir' }, 'w1'),
      fout('w1', 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\n'),
    ]);
    expect(win[0]!.unit.context?.shell).toBe('powershell');
  });

  it('resolves `~` to the session’s home, shown by its cwd, never to the home of whoever runs shellward', () => {
    const calls = read(new ClaudeCodeReader('h.jsonl'), [ccUse('toolu_h1', 'cat ~/notes.txt', '/Users/ana/proj'), ccResult('toolu_h1', 'x', false)]);
    const v = unitVerdict(linter, calls[0]!.unit, 'tool-call').verdict;
    expect(v.paths[0]).toMatchObject({ resolved: '/Users/ana/notes.txt', reason: 'outside' });
    // a cwd that shows no home: `~` is unknown (asked), not resolved somewhere else
    const srv = read(new ClaudeCodeReader('h2.jsonl'), [ccUse('toolu_h2', 'cat ~/proj/a.txt', '/srv/app'), ccResult('toolu_h2', 'x', false)]);
    expect(srv[0]!.unit.context?.home).toBeNull();
    const v2 = unitVerdict(linter, srv[0]!.unit, 'tool-call').verdict;
    expect(v2.paths[0]).toMatchObject({ resolved: null, allowed: false });
    expect(v2.decision).toBe('ask');
  });

  it('leaves a Gemini call without a recorded directory without a cwd (outside facts unknown)', () => {
    const calls = read(new GeminiJsonlReader('g.jsonl'), [
      { sessionId: 'gs', projectHash: 'h', startTime: 't', lastUpdated: 't' },
      { id: 'm1', timestamp: 't', type: 'gemini', content: '', toolCalls: [{ id: 'x1', name: 'run_shell_command', args: { command: 'cat /etc/hosts' }, status: 'success', result: [] }] },
    ]);
    expect(calls[0]!.unit.context?.cwd).toBeUndefined();
    expect(unitVerdict(linter, calls[0]!.unit, 'tool-call').verdict.outsideCwd).toBe(false);
  });
});
