/**
 * Claude Code's `PreToolUse` command hook (https://code.claude.com/docs/en/hooks). The event on
 * stdin has `hook_event_name: "PreToolUse"`, `tool_name`, `tool_input` (`{command, description?,
 * timeout?, run_in_background?}` for `Bash`), `cwd`, `permission_mode`, `session_id`,
 * `transcript_path` and `tool_use_id`. The reply is exit code 0 with
 * `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow" | "ask" |
 * "deny", "permissionDecisionReason": "…"}}` on stdout: `allow` skips the permission prompt (deny
 * and ask rules of the settings still apply), `ask` shows the prompt with the reason, `deny`
 * cancels the call and tells Claude the reason. Exit code 2 (stderr fed to Claude) would block
 * the call too, but shellward always answers with JSON, so its reasons keep their decision.
 * Another tool or event gets no output (exit 0: no opinion).
 */
import { asObject, asString, commonFields, jsonLine, SILENT, type AskFallback, type HookAdapter, type HookAnswer, type HookEvent, type HookMode, type HookReply } from './types.js';

/**
 * Reads a PreToolUse event of a shell tool named `toolName` (`Bash` for Claude Code and Codex CLI)
 * in Claude Code's shape. Shared with the Codex adapter, whose events have the same keys.
 */
export function parsePreToolUse(value: unknown, toolName: string): HookEvent {
  const e = asObject(value);
  if (!e) return { kind: 'malformed', error: 'the hook event is not a JSON object' };
  const event = e.hook_event_name;
  if (typeof event !== 'string') return { kind: 'malformed', error: 'the hook event has no "hook_event_name"' };
  if (event !== 'PreToolUse') return { kind: 'pass', why: `event ${event} is not PreToolUse` };
  const tool = e.tool_name;
  if (typeof tool !== 'string') return { kind: 'malformed', error: 'the PreToolUse event has no "tool_name"' };
  if (tool !== toolName) return { kind: 'pass', why: `tool ${tool} is not ${toolName}` };
  const input = asObject(e.tool_input);
  const command = asString(input?.command);
  if (command === undefined) return { kind: 'malformed', error: `the ${toolName} event has no string "tool_input.command"` };
  const cwd = asString(e.cwd);
  return { kind: 'shell', call: { command, toolName: tool, ...(cwd !== undefined ? { cwd } : {}), ...commonFields(e) } };
}

/** The `hookSpecificOutput` reply of a PreToolUse decision (Claude Code and Codex CLI). */
export function preToolUseDecision(decision: 'allow' | 'ask' | 'deny', reason: string): HookReply {
  return { stdout: jsonLine({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } }), stderr: '', exitCode: 0 };
}

/** A reply that only shows `message` to the user (`systemMessage`), deciding nothing. */
export function systemMessage(message: string): HookReply {
  return { stdout: jsonLine({ systemMessage: message }), stderr: '', exitCode: 0 };
}

/** The message of `warn` mode for a verdict that would have stopped the call. */
export function warnMessage(answer: HookAnswer): string {
  return `shellward would ${answer.decision}: ${answer.reason}`;
}

/** Claude Code's PreToolUse protocol. */
export const claudeCodeAdapter: HookAdapter = {
  agent: 'claude-code',
  parse: (value) => parsePreToolUse(value, 'Bash'),
  reply(answer: HookAnswer, mode: Exclude<HookMode, 'log'>, _askFallback: AskFallback): HookReply {
    if (mode === 'warn') return answer.decision === 'allow' ? SILENT : systemMessage(warnMessage(answer));
    return preToolUseDecision(answer.decision, answer.reason);
  },
};
