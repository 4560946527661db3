/**
 * `shellward audit` on a folder of mixed real-shaped sessions (all three agents, Windows and
 * POSIX, a subagent, a resumed Claude Code session that re-logs its entries, a PowerShell Codex
 * session): its call counts equal those of an independent counter written here as a plain JSON
 * walk (no shellward code).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shellward } from './cli.js';

const dir = mkdtempSync(join(tmpdir(), 'sw-mixed-'));
const jsonl = (path: string, lines: object[]): void => {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
};
const use = (id: string, command: string, cwd: string, extra: object = {}) => ({ type: 'assistant', uuid: `a${id}`, sessionId: 'cc1', cwd, message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] }, ...extra });
const res = (id: string, extra: object = {}) => ({ type: 'user', uuid: `r${id}`, sessionId: 'cc1', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok', is_error: false }] }, ...extra });
const cx = (type: string, payload: object) => ({ timestamp: '2025-10-01T10:00:00.000Z', type, payload });
const fc = (name: string, args: object, id: string) => cx('response_item', { type: 'function_call', name, arguments: JSON.stringify(args), call_id: id });
const fo = (id: string) => cx('response_item', { type: 'function_call_output', call_id: id, output: JSON.stringify({ output: '', metadata: { exit_code: 0 } }) });

// Claude Code, POSIX, with a subagent file; then a resumed copy re-logging two entries plus one new call
jsonl('claude/cc1.jsonl', [use('t1', 'git status', '/home/u/p'), res('t1'), use('t2', 'npm test', '/home/u/p'), res('t2')]);
jsonl('claude/cc1/subagents/agent-x.jsonl', [use('t3', 'ls', '/home/u/p', { isSidechain: true, agentId: 'x' }), res('t3', { isSidechain: true, agentId: 'x' })]);
jsonl('claude/cc1-resumed.jsonl', [use('t1', 'git status', '/home/u/p'), res('t1'), use('t4', 'git diff', '/home/u/p'), res('t4')]);
// Claude Code on Windows
jsonl('claude-win/w1.jsonl', [use('w1', 'cd "C:/Users/u/p" && ls', 'C:\\Users\\u\\p'), res('w1')]);
// Codex: POSIX argv calls, and a PowerShell session; both use the call id scheme `functions.shell:N`
jsonl('codex/rollout-a.jsonl', [cx('session_meta', { id: 'ca', cwd: '/home/u/p' }), cx('turn_context', { cwd: '/home/u/p' }), fc('shell', { command: ['bash', '-lc', 'make'] }, 'functions.shell:0'), fo('functions.shell:0'), fc('shell', { command: ['apply_patch', 'x'] }, 'functions.shell:1')]);
jsonl('codex/rollout-b.jsonl', [cx('session_meta', { id: 'cb', cwd: 'C:\\p' }), cx('turn_context', { cwd: 'C:\\p' }), fc('shell', { command: ['powershell.exe', '-Command', 'dir'] }, 'functions.shell:0'), fo('functions.shell:0'), fc('shell', { command: ['powershell.exe', '-Command', 'Get-Date'] }, 'functions.shell:1'), fo('functions.shell:1')]);
// Gemini JSONL without a metadata line, and a legacy JSON record
jsonl('gemini/chats/session-2026-05-01T09-00-ab12cd34.jsonl', [
  { id: 'm1', type: 'gemini', content: '', toolCalls: [{ id: 'g1', name: 'run_shell_command', args: { command: 'ls' }, status: 'success' }, { id: 'g2', name: 'read_file', args: {} }] },
  { id: 'm1', type: 'gemini', content: '', toolCalls: [{ id: 'g1', name: 'run_shell_command', args: { command: 'ls' }, status: 'success' }, { id: 'g3', name: 'run_shell_command', args: { command: 'pwd' }, status: 'success' }] },
]);
mkdirSync(join(dir, 'gemini/old'), { recursive: true });
writeFileSync(join(dir, 'gemini/old/session-2025-10-14T08-30-3b7c9d2e.json'), JSON.stringify({ sessionId: 'g-old', projectHash: 'h', messages: [{ id: 'x', type: 'gemini', toolCalls: [{ id: 'o1', name: 'run_shell_command', args: { command: 'echo hi' }, status: 'success' }] }] }, null, 2));

/** The independent counter: distinct shell calls by a plain walk over every JSON record. */
function count(root: string): { calls: number; powershell: number } {
  const claude = new Set<string>();
  const codex = new Set<string>();
  const gemini = new Map<string, Set<string>>();
  let powershell = 0;
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) { walk(p); continue; }
      const text = readFileSync(p, 'utf8');
      const records = name.endsWith('.json') ? [JSON.parse(text)] : text.trim().split('\n').map((l) => JSON.parse(l));
      let session = '';
      const lastCopy = new Map<string, unknown[]>();
      for (const r of records) {
        if (r.type === 'session_meta') session = r.payload.id;
        if (r.type === 'response_item' && r.payload.type === 'function_call' && r.payload.name === 'shell') {
          const argv = JSON.parse(r.payload.arguments).command as string[];
          if (argv[0] === 'apply_patch') continue;
          if (!codex.has(`${session}/${r.payload.call_id}`) && argv[0]!.startsWith('powershell')) powershell++;
          codex.add(`${session}/${r.payload.call_id}`);
        }
        for (const b of r.message?.content ?? []) if (b.type === 'tool_use' && b.name === 'Bash') claude.add(b.id);
        if (r.type === 'gemini') lastCopy.set(r.id, r.toolCalls);
        for (const m of r.messages ?? []) if (m.type === 'gemini') lastCopy.set(m.id, m.toolCalls);
      }
      const ids = gemini.get(p) ?? new Set<string>();
      for (const calls of lastCopy.values()) for (const c of calls as { id: string; name: string }[]) if (c.name === 'run_shell_command') ids.add(c.id);
      if (ids.size > 0) gemini.set(p, ids);
    }
  };
  walk(root);
  return { calls: claude.size + codex.size + [...gemini.values()].reduce((n, s) => n + s.size, 0), powershell };
}

describe('audit on a mixed folder', () => {
  it('counts exactly the calls an independent JSON walk counts', async () => {
    const expected = count(dir);
    expect(expected).toEqual({ calls: 11, powershell: 2 });
    const r = await shellward(['audit', '--format', 'json', dir]);
    expect(String(r.stderr)).toBe('');
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(String(r.stdout));
    expect(doc.overall.calls).toBe(expected.calls);
    expect(doc.overall.notAnalysed).toBe(expected.powershell);
    expect(doc.files).toBe(8);
  });
});
