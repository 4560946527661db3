/**
 * `shellward hook` end to end, on the built CLI as installed (the package.json `bin`,
 * dist/src/cli/bin.cjs; the server through bin.js, the ES module entry): real Claude Code
 * PreToolUse events, Gemini CLI BeforeTool and Codex CLI PreToolUse events on stdin, answered
 * for allow, ask and deny, other tools, malformed events, the modes, the decision log, and the
 * same answers through `shellward serve`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, PACKAGE_BIN, shellward } from './cli.js';

let project: string;

beforeAll(async () => {
  project = await mkdtemp(join(tmpdir(), 'shellward-hook-'));
  await mkdir(join(project, '.git'));
  await mkdir(join(project, '.claude'));
  await writeFile(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(npm test)'], deny: ['Bash(git push:*)'] } }));
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

/** A Claude Code PreToolUse event for the Bash tool, with every field Claude Code sends. */
function claudeEvent(command: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: 'abc123',
    transcript_path: '/home/user/.claude/projects/p/abc123.jsonl',
    cwd: project,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command, description: 'Run it', timeout: 120000 },
    tool_use_id: 'toolu_01ABC123',
    ...extra,
  });
}

/** A Gemini CLI BeforeTool event for run_shell_command. */
function geminiEvent(command: string, input: Record<string, unknown> = {}): string {
  return JSON.stringify({
    session_id: 'g1',
    transcript_path: '/home/user/.gemini/tmp/h/chats/session.json',
    cwd: project,
    hook_event_name: 'BeforeTool',
    timestamp: '2026-01-28T10:00:00.000Z',
    tool_name: 'run_shell_command',
    tool_input: { command, description: 'Run it', ...input },
  });
}

/** A Codex CLI PreToolUse event (Claude Code's keys plus turn_id and model). */
function codexEvent(command: string): string {
  return JSON.stringify({
    session_id: 'c1',
    turn_id: 't1',
    transcript_path: null,
    cwd: project,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'call_1',
  });
}

const NO_SERVER = { SHELLWARD_NO_SERVER: '1' };

// biome-ignore lint/suspicious/noExplicitAny: each test reads the answer's fields by the agent's protocol
async function hook(input: string, args: string[] = [], env: Record<string, string> = NO_SERVER): Promise<{ code: number | undefined; stdout: string; json: Record<string, any> | undefined }> {
  const r = await shellward(['hook', ...args], { bin: PACKAGE_BIN, cwd: project, input, env });
  const stdout = String(r.stdout);
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the answer's fields by the agent's protocol
  return { code: r.exitCode, stdout, json: stdout.trim() === '' ? undefined : (JSON.parse(stdout) as Record<string, any>) };
}

describe('shellward hook, Claude Code PreToolUse', () => {
  it('allows a read-only command', async () => {
    const r = await hook(claudeEvent('git status'));
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'shellward: read-only: Read-only command is allowed.' } });
  });

  it("allows a command the project's .claude/settings.json allows", async () => {
    const r = await hook(claudeEvent('npm test'));
    expect(r.json?.hookSpecificOutput).toMatchObject({ permissionDecision: 'allow', permissionDecisionReason: expect.stringMatching(/^shellward: allow-rule/) });
  });

  it('asks when no rule decides, with the reason and a suggested rule', async () => {
    const r = await hook(claudeEvent('make build'));
    expect(r.code).toBe(0);
    expect(r.json?.hookSpecificOutput).toEqual({
      hookEventName: 'PreToolUse',
      permissionDecision: 'ask',
      permissionDecisionReason: 'shellward: no-matching-rule: no permission rule allows this command (an allow rule such as Bash(make build:*) would)',
    });
  });

  it('denies what a deny rule of the settings denies', async () => {
    const r = await hook(claudeEvent('git push origin main'));
    expect(r.json?.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^shellward: policy-deny: /) });
  });

  it('asks for a dangerous removal, and denies it with --deny-on error', async () => {
    const asked = await hook(claudeEvent('rm -rf /'));
    expect(asked.json?.hookSpecificOutput.permissionDecision).toBe('ask');
    const denied = await hook(claudeEvent('rm -rf /'), ['--deny-on', 'error']);
    expect(denied.json?.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/path-dangerous-removal: .*--deny-on error/) });
  });

  it("judges writes in the event's permission mode", async () => {
    expect((await hook(claudeEvent('touch notes.txt'))).json?.hookSpecificOutput.permissionDecision).toBe('ask');
    expect((await hook(claudeEvent('touch notes.txt', { permission_mode: 'acceptEdits' }))).json?.hookSpecificOutput.permissionDecision).toBe('allow');
  });

  it('passes other tools and other events through silently', async () => {
    const read = await hook(JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: '/etc/passwd' }, cwd: project }));
    expect(read).toMatchObject({ code: 0, stdout: '' });
    const post = await hook(JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: project }));
    expect(post).toMatchObject({ code: 0, stdout: '' });
  });

  it('asks, with the reason, for a malformed event', async () => {
    for (const [input, why] of [
      ['{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {}}', /no string "tool_input\.command"/],
      ['{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"', /not valid JSON/],
      ['', /no hook event on stdin/],
      ['[1, 2]', /not a JSON object/],
    ] as const) {
      const r = await hook(input);
      expect(r.code).toBe(0);
      expect(r.json?.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: expect.stringMatching(why) });
    }
  });

  it('warn mode never decides, only shows why', async () => {
    const r = await hook(claudeEvent('git push origin main'), ['--mode', 'warn']);
    expect(r.json).toEqual({ systemMessage: expect.stringMatching(/^shellward would deny: shellward: policy-deny: /) });
    expect((await hook(claudeEvent('git status'), ['--mode', 'warn'])).stdout).toBe('');
  });

  it('log mode answers nothing and appends the verdict to the decision log', async () => {
    const log = join(project, 'log', 'decisions.jsonl');
    expect((await hook(claudeEvent('git push origin main'), ['--mode', 'log', '--log', log])).stdout).toBe('');
    await hook(claudeEvent('git status'), ['--log', log]);
    const records = (await readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ type: 'shellward-decision', version: 1, agent: 'claude-code', sessionId: 'abc123', toolUseId: 'toolu_01ABC123', cwd: project, command: 'git push origin main', decision: 'deny', answered: 'deny', mode: 'log' });
    expect(records[1]).toMatchObject({ command: 'git status', decision: 'allow', mode: 'enforce' });
  });

  it('rejects a bad --timeout as a usage error', async () => {
    const r = await shellward(['hook', '--timeout', 'soon'], { bin: PACKAGE_BIN, cwd: project, input: claudeEvent('ls'), env: NO_SERVER });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toMatch(/--timeout must be a positive number/);
  });
});

describe('shellward hook, Gemini CLI BeforeTool', () => {
  it('allows, and denies with the reason', async () => {
    expect((await hook(geminiEvent('git status'))).json).toEqual({ decision: 'allow', reason: 'shellward: read-only: Read-only command is allowed.' });
    expect((await hook(geminiEvent('git push origin main'))).json).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/^shellward: policy-deny: /) });
  });

  it('sends an ask as a deny, or with --ask-as pass as a message without a decision', async () => {
    const denied = await hook(geminiEvent('make build'));
    expect(denied.json).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/Gemini CLI's hook cannot do, so it is refused: shellward: no-matching-rule/) });
    const passed = await hook(geminiEvent('make build'), ['--ask-as', 'pass']);
    expect(passed.json).toEqual({ systemMessage: expect.stringMatching(/^shellward would ask: /) });
  });

  it('judges paths in the directory of dir_path', async () => {
    await mkdir(join(project, 'sub'), { recursive: true });
    const inside = await hook(geminiEvent('cat notes.txt', { dir_path: 'sub' }));
    expect(inside.json?.decision).toBe('allow');
    const outside = await hook(geminiEvent('cat ../../etc/hostname', { dir_path: 'sub' }));
    expect(outside.json?.decision).toBe('deny');
  });

  it('passes other tools through and asks (as a deny) for a malformed event', async () => {
    expect((await hook(JSON.stringify({ hook_event_name: 'BeforeTool', tool_name: 'read_file', tool_input: { file_path: 'x' } }))).stdout).toBe('');
    const bad = await hook(JSON.stringify({ hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 42 } }));
    expect(bad.json).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/malformed hook event/) });
  });
});

describe('shellward hook, Codex CLI PreToolUse', () => {
  it('says nothing for an allow, denies a deny, and sends an ask as a deny', async () => {
    expect(await hook(codexEvent('git status'))).toMatchObject({ code: 0, stdout: '' });
    expect((await hook(codexEvent('git push origin main'))).json?.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    const ask = await hook(codexEvent('make build'), ['--agent', 'codex']);
    expect(ask.json?.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/Codex CLI's hook cannot do/) });
  });

  it('denies, with the reason, a malformed event (Codex cannot ask)', async () => {
    const bad = await hook(JSON.stringify({ session_id: 'c1', turn_id: 't1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: ['ls'] } }), ['--agent', 'codex']);
    expect(bad.code).toBe(0);
    expect(bad.json?.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/malformed hook event/) });
  });
});

describe('shellward hook through shellward serve', () => {
  let dir: string;
  let server: ChildProcess | undefined;

  afterAll(async () => {
    server?.kill('SIGTERM');
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('gives the same answers as in-process, and falls back when the server is gone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'shellward-serve-'));
    const socket = join(dir, 'hook.sock');
    server = spawn(process.execPath, [BIN, 'serve', '--socket', socket], { stdio: ['ignore', 'ignore', 'pipe'] });
    await new Promise<void>((ok, fail) => {
      let err = '';
      server!.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('listening')) ok();
      });
      server!.once('exit', (c) => fail(new Error(`serve exited ${c}: ${err}`)));
    });
    const env = { SHELLWARD_SOCKET: socket };
    for (const command of ['git status', 'make build', 'git push origin main']) {
      const served = await hook(claudeEvent(command), [], env);
      const local = await hook(claudeEvent(command));
      expect(served).toEqual(local);
    }
    // A usage error comes back from the server as it would in-process.
    const usage = await shellward(['hook', '--mode', 'loud'], { bin: PACKAGE_BIN, cwd: project, input: claudeEvent('ls'), env });
    expect(usage.exitCode).toBe(2);
    expect(String(usage.stderr)).toMatch(/--mode/);
    const stopped = new Promise((ok) => server!.once('exit', ok));
    server.kill('SIGTERM');
    await stopped;
    server = undefined;
    expect((await hook(claudeEvent('git push origin main'), [], env)).json?.hookSpecificOutput.permissionDecision).toBe('deny');
  });
});
