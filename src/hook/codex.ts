/**
 * Codex CLI's `PreToolUse` command hook (https://developers.openai.com/codex/hooks; input and
 * output schemas in the openai/codex repository, codex-rs/hooks/schema/generated/). The event has
 * Claude Code's keys (`hook_event_name`, `tool_name: "Bash"`, `tool_input.command`, `cwd`,
 * `permission_mode`, `session_id`, `transcript_path`, `tool_use_id`) plus `turn_id` and `model`.
 *
 * What Codex acts on differs from Claude Code: `permissionDecision: "deny"` (or exit code 2 with
 * a reason on stderr) blocks the call and tells the model the reason; `"allow"` is only accepted
 * together with a rewritten `updatedInput`, and `"ask"` is not supported — Codex reports either
 * as a failed hook and runs the call. So shellward sends a deny, or nothing: an `allow` is silent
 * (Codex's own approval policy and sandbox then apply), and an `ask` is sent as a deny with the
 * reason (or, with `--ask-as pass`, as a `systemMessage` warning without a decision).
 */
import { parsePreToolUse, preToolUseDecision, systemMessage, warnMessage } from './claude-code.js';
import { SILENT, type AskFallback, type HookAdapter, type HookAnswer, type HookMode, type HookReply } from './types.js';

/** The reason of a deny that stands for an `ask` the agent cannot put to its user. */
export function askAsDenyReason(agentName: string, reason: string): string {
  return `shellward asks for a person to confirm this command, which ${agentName}'s hook cannot do, so it is refused: ${reason}`;
}

/** Codex CLI's PreToolUse protocol. */
export const codexAdapter: HookAdapter = {
  agent: 'codex',
  parse: (value) => parsePreToolUse(value, 'Bash'),
  reply(answer: HookAnswer, mode: Exclude<HookMode, 'log'>, askFallback: AskFallback): HookReply {
    if (answer.decision === 'allow') return SILENT;
    if (mode === 'warn') return systemMessage(warnMessage(answer));
    if (answer.decision === 'deny') return preToolUseDecision('deny', answer.reason);
    return askFallback === 'deny' ? preToolUseDecision('deny', askAsDenyReason('Codex CLI', answer.reason)) : systemMessage(warnMessage(answer));
  },
};
