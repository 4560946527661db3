/**
 * Gemini CLI's `BeforeTool` command hook (https://geminicli.com/docs/hooks/reference). The event
 * has `hook_event_name: "BeforeTool"`, `tool_name` (`run_shell_command` for the shell),
 * `tool_input` (`{command, description?, dir_path?}`; older releases named the directory
 * `directory`), `cwd`, `session_id`, `transcript_path` and `timestamp`; no permission mode.
 *
 * The reply is exit code 0 with JSON: `{"decision": "deny", "reason": "…"}` blocks the call and
 * sends the reason to the model as the tool's error; `{"decision": "allow"}` lets it proceed.
 * BeforeTool has no "ask" answer, so an `ask` is sent as a deny with the reason (or, with
 * `--ask-as pass`, as a `systemMessage` without a decision: Gemini's own confirmation then
 * applies, which asks in its default approval mode but not in YOLO mode or for allowed tools).
 */
import { systemMessage, warnMessage } from './claude-code.js';
import { askAsDenyReason } from './codex.js';
import { asObject, asString, commonFields, jsonLine, SILENT, type AskFallback, type HookAdapter, type HookAnswer, type HookEvent, type HookMode, type HookReply } from './types.js';

/** The name of Gemini CLI's shell tool. */
export const GEMINI_SHELL_TOOL = 'run_shell_command';

/**
 * The directory a Gemini shell call runs in: `dir` (the tool's `dir_path`) resolved against the
 * event's `cwd` when relative, `cwd` without it. Plain string joining: the CLI resolves it later.
 */
function joinDir(cwd: string | undefined, dir: string | undefined): string | undefined {
  if (dir === undefined || dir === '') return cwd;
  if (dir.startsWith('/') || cwd === undefined) return dir;
  return `${cwd.replace(/\/+$/, '')}/${dir}`;
}

function decision(d: 'allow' | 'deny', reason: string): HookReply {
  return { stdout: jsonLine({ decision: d, reason }), stderr: '', exitCode: 0 };
}

/** Gemini CLI's BeforeTool protocol. */
export const geminiAdapter: HookAdapter = {
  agent: 'gemini',
  parse(value: unknown): HookEvent {
    const e = asObject(value);
    if (!e) return { kind: 'malformed', error: 'the hook event is not a JSON object' };
    const event = e.hook_event_name;
    if (typeof event !== 'string') return { kind: 'malformed', error: 'the hook event has no "hook_event_name"' };
    if (event !== 'BeforeTool') return { kind: 'pass', why: `event ${event} is not BeforeTool` };
    const tool = e.tool_name;
    if (typeof tool !== 'string') return { kind: 'malformed', error: 'the BeforeTool event has no "tool_name"' };
    if (tool !== GEMINI_SHELL_TOOL) return { kind: 'pass', why: `tool ${tool} is not ${GEMINI_SHELL_TOOL}` };
    const input = asObject(e.tool_input);
    const command = asString(input?.command);
    if (command === undefined) return { kind: 'malformed', error: `the ${GEMINI_SHELL_TOOL} event has no string "tool_input.command"` };
    const cwd = joinDir(asString(e.cwd), asString(input?.dir_path) ?? asString(input?.directory));
    return { kind: 'shell', call: { command, toolName: tool, ...(cwd !== undefined ? { cwd } : {}), ...commonFields(e) } };
  },
  reply(answer: HookAnswer, mode: Exclude<HookMode, 'log'>, askFallback: AskFallback): HookReply {
    if (mode === 'warn') return answer.decision === 'allow' ? SILENT : systemMessage(warnMessage(answer));
    if (answer.decision === 'ask') {
      return askFallback === 'deny' ? decision('deny', askAsDenyReason('Gemini CLI', answer.reason)) : systemMessage(warnMessage(answer));
    }
    return decision(answer.decision, answer.reason);
  },
};
