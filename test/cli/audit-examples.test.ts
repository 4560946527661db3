/**
 * `shellward audit examples/sessions` (the bundled sessions: three agents, Windows and POSIX,
 * subagents, a resumed Claude Code session, a Codex child thread that replays its parent, a
 * PowerShell session, Gemini JSONL records appended again and a rewind) counts exactly the calls
 * that the counter below finds. The counter is written here from the formats' descriptions and
 * reads the JSON itself; it shares no code with shellward.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, shellward } from './cli.js';

const DIR = join(REPO, 'examples', 'sessions');

interface Count { calls: number; powershell: number; sessions: Set<string> }

// biome-ignore lint/suspicious/noExplicitAny: JSON records of three formats, walked by hand
type J = Record<string, any>;

function countClaude(records: J[], claude: Set<string>, c: Count): void {
  for (const r of records) {
    for (const b of Array.isArray(r.message?.content) ? r.message.content : []) {
      if (b.type === 'tool_use' && b.name === 'Bash' && !claude.has(b.id)) {
        claude.add(b.id);
        c.calls++;
        // a subagent's calls belong to its parent session (same sessionId)
        c.sessions.add(`claude:${r.sessionId}`);
      }
    }
  }
}

function countCodex(records: J[], codex: Set<string>, c: Count): void {
  let session: string | undefined;
  let started = '';
  let replaying = false;
  let shell = 'bash';
  for (const r of records) {
    if (r.type === 'session_meta') {
      if (session === undefined) { session = r.payload.id; started = r.payload.timestamp; } else replaying = true;
      continue;
    }
    // the child's own part starts at its first turn written after it started
    if (r.type === 'turn_context' && replaying && r.timestamp >= started) replaying = false;
    if (r.type !== 'response_item') continue;
    const p = r.payload;
    if (p.type === 'message' && p.role === 'user') {
      const m = /<shell>([^<]+)<\/shell>/.exec(JSON.stringify(p.content));
      if (m) shell = m[1]!;
    }
    if (p.type !== 'function_call' || replaying) continue;
    const args = JSON.parse(p.arguments);
    const isShell = p.name === 'shell' || p.name === 'shell_command' || p.name === 'exec_command';
    if (!isShell) continue;
    if (Array.isArray(args.command) && args.command[0] === 'apply_patch') continue;
    const key = `${session}/${p.call_id}`;
    if (codex.has(key)) continue;
    codex.add(key);
    c.calls++;
    c.sessions.add(`codex:${session}`);
    const ps = Array.isArray(args.command) ? /^(powershell|pwsh)/i.test(args.command[0]) : shell === 'powershell';
    if (ps) c.powershell++;
  }
}

function countGemini(records: J[], c: Count, parent: string | undefined): void {
  let session = '';
  let messages: J[] = [];
  for (const r of records) {
    if (typeof r.sessionId === 'string' && r.projectHash !== undefined) { session = r.sessionId; if (Array.isArray(r.messages)) messages = [...r.messages]; continue; }
    if (r.$rewindTo !== undefined) { const i = messages.findIndex((m) => m.id === r.$rewindTo); messages = i < 0 ? [] : messages.slice(0, i); continue; }
    if (r.$set !== undefined) { if (Array.isArray(r.$set.messages)) messages = [...r.$set.messages]; continue; }
    if (typeof r.id !== 'string') continue;
    const i = messages.findIndex((m) => m.id === r.id);
    if (i >= 0) messages[i] = r; else messages.push(r);
  }
  for (const m of messages) {
    for (const t of m.type === 'gemini' ? m.toolCalls ?? [] : []) {
      if (t.name === 'run_shell_command') { c.calls++; c.sessions.add(`gemini:${parent ?? session}`); }
    }
  }
}

function count(root: string): Count {
  const c: Count = { calls: 0, powershell: 0, sessions: new Set() };
  const claude = new Set<string>();
  const codex = new Set<string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) { walk(p); continue; }
      if (!name.endsWith('.jsonl') && !(name.endsWith('.json') && name.startsWith('session-'))) continue;
      const text = readFileSync(p, 'utf8');
      const records: J[] = name.endsWith('.json') ? [JSON.parse(text)] : text.trim().split('\n').map((l) => JSON.parse(l));
      if (p.includes('/claude-code/')) countClaude(records, claude, c);
      else if (p.includes('/codex/')) countCodex(records, codex, c);
      else if (p.includes('/gemini/')) {
        // a subagent chat (`chats/<parent session id>/<id>.jsonl`) counts in its parent session
        const up = /\/chats\/([0-9a-f-]{36})\/[^/]+$/.exec(p);
        countGemini(records, c, up?.[1]);
      }
    }
  };
  walk(root);
  return c;
}

describe('audit of the bundled example sessions', () => {
  it('counts exactly the calls and sessions an independent counter finds', async () => {
    const expected = count(DIR);
    // a few hundred calls, as the README says, PowerShell ones among them
    expect(expected.calls).toBeGreaterThan(250);
    expect(expected.powershell).toBeGreaterThan(0);
    const r = await shellward(['audit', '--format', 'json', DIR]);
    expect(String(r.stderr)).toBe('');
    const doc = JSON.parse(String(r.stdout));
    expect(doc.overall.calls).toBe(expected.calls);
    expect(doc.overall.notAnalysed).toBe(expected.powershell);
    expect(doc.sessions.length).toBe(expected.sessions.size);
    expect(doc.parseErrors).toBe(0);
    // every agent, and the Windows sessions, are there
    expect(new Set(doc.sessions.map((s: { agent: string }) => s.agent))).toEqual(new Set(['claude-code', 'codex', 'gemini']));
  });

  it('prints a report of at most 60 lines for them, the one the README shows', async () => {
    const r = await shellward(['audit', 'examples/sessions']);
    const lines = String(r.stdout).trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(60);
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    expect(readme).toContain(lines.slice(0, 12).join('\n'));
  });
});
