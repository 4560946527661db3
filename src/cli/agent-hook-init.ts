/**
 * `shellward init --claude-hook / --gemini-hook / --codex-hook`: adds `shellward hook` as the
 * pre-tool-use hook of the agent to the project's settings file, merging into what is there:
 * every other key and hook is kept, and a file that already runs `shellward hook` is left as it
 * is (running it again changes nothing). The file is rewritten as JSON with its own indentation (two spaces for a new file).
 *
 * - Claude Code: `.claude/settings.json`, `hooks.PreToolUse`, matcher `Bash`
 *   (https://code.claude.com/docs/en/hooks; `timeout` in seconds).
 * - Gemini CLI: `.gemini/settings.json`, `hooks.BeforeTool`, matcher `run_shell_command`
 *   (https://geminicli.com/docs/hooks/reference; `timeout` in milliseconds).
 * - Codex CLI: `.codex/hooks.json`, `hooks.PreToolUse`, matcher `Bash`
 *   (https://developers.openai.com/codex/hooks; loaded for trusted projects).
 */
import { join } from 'node:path';
import type { HookAgent } from '../hook/index.js';
import { EXIT } from './exit-codes.js';
import { exists, readJsonFile, writeProjectFile } from './project-files.js';

/** Where each agent's hook goes. */
interface AgentHookTarget {
  /** The settings file, relative to the project, with `/`. */
  readonly file: string;
  readonly event: string;
  readonly matcher: string;
  /** The hook's time-out in the agent's unit. */
  readonly timeout: number;
  /** The environment variable the agent sets to the project directory, if any. */
  readonly projectDirVar?: string;
}

export const AGENT_HOOK_TARGETS: Readonly<Record<HookAgent, AgentHookTarget>> = {
  'claude-code': { file: '.claude/settings.json', event: 'PreToolUse', matcher: 'Bash', timeout: 30, projectDirVar: 'CLAUDE_PROJECT_DIR' },
  gemini: { file: '.gemini/settings.json', event: 'BeforeTool', matcher: 'run_shell_command', timeout: 30000, projectDirVar: 'GEMINI_PROJECT_DIR' },
  codex: { file: '.codex/hooks.json', event: 'PreToolUse', matcher: 'Bash', timeout: 30 },
};

/**
 * The hook command for `agent`: the project's own install (`node_modules/.bin/shellward`, from
 * the agent's project-directory variable where it has one) when `localInstall`, else
 * `shellward` on the PATH.
 */
export function hookCommand(agent: HookAgent, localInstall: boolean): string {
  const t = AGENT_HOOK_TARGETS[agent];
  const bin = !localInstall ? 'shellward' : t.projectDirVar ? `"$${t.projectDirVar}"/node_modules/.bin/shellward` : 'node_modules/.bin/shellward';
  return `${bin} hook --agent ${agent}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Whether a hook group of the settings already runs `shellward … hook`. */
function runsShellward(group: unknown): boolean {
  if (!isObject(group) || !Array.isArray(group.hooks)) return false;
  return group.hooks.some((h) => isObject(h) && typeof h.command === 'string' && /shellward(?:\.js)?["']?\s+hook\b/.test(h.command));
}

/**
 * Merges the hook of `agent` with `command` into a decoded settings value (`undefined`: no file
 * yet). Returns the new value and whether it changed, or the reason it cannot be merged (the
 * value or its `hooks` / event list has the wrong type), naming the key.
 */
export function mergeAgentHook(settings: unknown, agent: HookAgent, command: string): { value: Record<string, unknown>; changed: boolean } | { error: string } {
  const t = AGENT_HOOK_TARGETS[agent];
  if (settings !== undefined && !isObject(settings)) return { error: '(root): must be a JSON object' };
  const root: Record<string, unknown> = { ...(settings ?? {}) };
  if (root.hooks !== undefined && !isObject(root.hooks)) return { error: 'hooks: must be an object' };
  const hooks: Record<string, unknown> = { ...((root.hooks as Record<string, unknown> | undefined) ?? {}) };
  const list = hooks[t.event];
  if (list !== undefined && !Array.isArray(list)) return { error: `hooks.${t.event}: must be an array` };
  const groups = [...((list as unknown[] | undefined) ?? [])];
  if (groups.some(runsShellward)) return { value: root, changed: false };
  const entry: Record<string, unknown> = { type: 'command', command, timeout: t.timeout };
  if (agent === 'gemini') entry.name = 'shellward';
  groups.push({ matcher: t.matcher, hooks: [entry] });
  hooks[t.event] = groups;
  root.hooks = hooks;
  return { value: root, changed: true };
}

/**
 * Adds the hook of each agent in `agents` to its settings file in `dir`. Prints what it did;
 * returns 0, or 2 when a file could not be merged (not JSON, or a key of the wrong type: the
 * file is left unchanged and named on stderr with the key).
 */
export async function initAgentHooks(dir: string, agents: readonly HookAgent[]): Promise<number> {
  const local = await exists(join(dir, 'node_modules', '.bin', 'shellward'));
  let failed = false;
  for (const agent of agents) {
    const t = AGENT_HOOK_TARGETS[agent];
    const path = join(dir, ...t.file.split('/'));
    const file = await readJsonFile(path);
    if (file && 'error' in file) {
      process.stderr.write(`shellward: init: ${t.file}: not valid JSON (${file.error}); the hook was not added\n`);
      failed = true;
      continue;
    }
    const merged = mergeAgentHook(file?.value, agent, hookCommand(agent, local));
    if ('error' in merged) {
      process.stderr.write(`shellward: init: ${t.file}: ${merged.error}; the hook was not added\n`);
      failed = true;
      continue;
    }
    if (!merged.changed) {
      process.stdout.write(`${t.file} already runs shellward hook\n`);
      continue;
    }
    await writeProjectFile(path, JSON.stringify(merged.value, null, file?.indent ?? '  ') + '\n');
    process.stdout.write(`added the ${t.event} hook to ${t.file}\n`);
  }
  return failed ? EXIT.ERROR : EXIT.OK;
}
