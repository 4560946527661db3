/**
 * `shellward init --claude-hook / --gemini-hook / --codex-hook`: the merge into existing settings
 * (other keys and hooks kept, idempotent, wrong types refused) and the CLI end to end.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookCommand, mergeAgentHook } from '../../src/cli/agent-hook-init.js';
import { shellward } from './cli.js';

describe('mergeAgentHook', () => {
  it('adds a Bash PreToolUse group for Claude Code and keeps the other hooks and keys', () => {
    const before = { permissions: { allow: ['Bash(ls)'] }, hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'fmt' }] }], Stop: [] } };
    const r = mergeAgentHook(before, 'claude-code', 'shellward hook --agent claude-code');
    expect(r).toEqual({
      changed: true,
      value: {
        permissions: { allow: ['Bash(ls)'] },
        hooks: {
          PreToolUse: [
            { matcher: 'Write', hooks: [{ type: 'command', command: 'fmt' }] },
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'shellward hook --agent claude-code', timeout: 30 }] },
          ],
          Stop: [],
        },
      },
    });
    expect(before.hooks.PreToolUse).toHaveLength(1);
  });

  it('is idempotent: a settings value that already runs shellward hook is unchanged', () => {
    const once = mergeAgentHook(undefined, 'gemini', hookCommand('gemini', true));
    if ('error' in once) throw new Error(once.error);
    expect(once.value).toEqual({ hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: '"$GEMINI_PROJECT_DIR"/node_modules/.bin/shellward hook --agent gemini', timeout: 30000, name: 'shellward' }] }] } });
    expect(mergeAgentHook(once.value, 'gemini', 'other')).toEqual({ value: once.value, changed: false });
  });

  it('refuses values of the wrong type, naming the key', () => {
    expect(mergeAgentHook([], 'codex', 'x')).toEqual({ error: '(root): must be a JSON object' });
    expect(mergeAgentHook({ hooks: [] }, 'codex', 'x')).toEqual({ error: 'hooks: must be an object' });
    expect(mergeAgentHook({ hooks: { PreToolUse: {} } }, 'codex', 'x')).toEqual({ error: 'hooks.PreToolUse: must be an array' });
  });
});

describe('shellward init --claude-hook --gemini-hook --codex-hook', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('merges into existing settings with their indentation, writes new files, and changes nothing on a re-run', async () => {
    dir = await mkdtemp(join(tmpdir(), 'shellward-init-hooks-'));
    await mkdir(join(dir, '.claude'));
    await writeFile(join(dir, '.claude', 'settings.json'), '{\n    "permissions": {\n        "deny": ["Bash(rm:*)"]\n    }\n}\n');
    const r = await shellward(['init', '--claude-hook', '--gemini-hook', '--codex-hook'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe('added the PreToolUse hook to .claude/settings.json\nadded the BeforeTool hook to .gemini/settings.json\nadded the PreToolUse hook to .codex/hooks.json');
    const claude = await readFile(join(dir, '.claude', 'settings.json'), 'utf8');
    expect(claude).toMatch(/^\{\n {4}"permissions": \{\n {8}"deny": \[/);
    expect(JSON.parse(claude)).toEqual({ permissions: { deny: ['Bash(rm:*)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'shellward hook --agent claude-code', timeout: 30 }] }] } });
    expect(JSON.parse(await readFile(join(dir, '.codex', 'hooks.json'), 'utf8'))).toEqual({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'shellward hook --agent codex', timeout: 30 }] }] } });
    // No starter config: the hook flags only add hooks.
    await expect(readFile(join(dir, 'shellward.config.json'), 'utf8')).rejects.toThrow();
    const again = await shellward(['init', '--claude-hook'], { cwd: dir });
    expect(again.exitCode).toBe(0);
    expect(String(again.stdout)).toBe('.claude/settings.json already runs shellward hook');
    expect(await readFile(join(dir, '.claude', 'settings.json'), 'utf8')).toBe(claude);
  });

  it('leaves a settings file that is not JSON alone and exits 2', async () => {
    dir = await mkdtemp(join(tmpdir(), 'shellward-init-hooks-'));
    await mkdir(join(dir, '.gemini'));
    await writeFile(join(dir, '.gemini', 'settings.json'), '{ "hooks": ');
    const r = await shellward(['init', '--gemini-hook'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toMatch(/^shellward: init: \.gemini\/settings\.json: not valid JSON/);
    expect(await readFile(join(dir, '.gemini', 'settings.json'), 'utf8')).toBe('{ "hooks": ');
  });
});
