/**
 * shellward as an agent's pre-tool-use hook: the pure half. {@link answerHookInput} reads one
 * hook event (the text of stdin), asks a judge for the verdict of the shell command in it, and
 * builds the reply in the agent's protocol (one adapter per agent: claude-code.ts, codex.ts,
 * gemini.ts). Reading stdin, loading the policy and writing the reply are the CLI's
 * (src/cli/hook-command.ts).
 *
 * Never fails open silently: input that is not a readable event, and a judge that throws, are
 * answered `ask` with the reason (subject to the agent's protocol and the mode, see
 * {@link HookMode} and {@link AskFallback}).
 */
import type { Verdict } from '../verdict.js';
import { claudeCodeAdapter } from './claude-code.js';
import { codexAdapter } from './codex.js';
import { geminiAdapter } from './gemini.js';
import { asObject, SILENT, type AskFallback, type HookAdapter, type HookAgent, type HookAnswer, type HookMode, type HookReply, type ShellCall } from './types.js';

export { HOOK_AGENTS, SILENT, type AskFallback, type HookAdapter, type HookAgent, type HookAnswer, type HookEvent, type HookMode, type HookReply, type ShellCall } from './types.js';
export { GEMINI_SHELL_TOOL } from './gemini.js';

/** The adapter of each agent. */
export const HOOK_ADAPTERS: Readonly<Record<HookAgent, HookAdapter>> = {
  'claude-code': claudeCodeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
};

/**
 * The agent that sent a decoded event, when `--agent` does not say: `BeforeTool` is Gemini CLI;
 * a `PreToolUse` with Codex's `turn_id` or `model` keys is Codex CLI; anything else is read as
 * Claude Code's.
 */
export function detectAgent(value: unknown): HookAgent {
  const e = asObject(value);
  if (e?.hook_event_name === 'BeforeTool') return 'gemini';
  if (e?.hook_event_name === 'PreToolUse' && ('turn_id' in e || 'model' in e)) return 'codex';
  return 'claude-code';
}

/**
 * shellward's permission mode for an agent's: `acceptEdits` stays; `default`, `plan`,
 * `dontAsk`, `bypassPermissions` and anything else are judged as `default` (shellward then
 * never allows more than in default mode: a hook's deny still holds in Claude Code's bypass
 * mode, and an allow there changes nothing). `undefined` (the event has none) keeps the
 * configured mode.
 */
export function shellwardMode(permissionMode: string | undefined): 'default' | 'acceptEdits' | undefined {
  if (permissionMode === undefined) return undefined;
  return permissionMode === 'acceptEdits' ? 'acceptEdits' : 'default';
}

/** `--deny-on` levels: `error` denies a dangerous removal or destructive command of severity error. */
export type DenyOn = 'error';

/** Rule ids whose error-severity findings `--deny-on error` turns into a deny, besides the destructive rules of the verdict. */
const ESCALATED_RULES: ReadonlySet<string> = new Set(['path-dangerous-removal']);

/**
 * The answer for a verdict: its decision and `shellward: <reason>`; with `denyOn: 'error'`, a
 * `deny` when a finding of severity `error` is a dangerous removal (`path-dangerous-removal`)
 * or one of the verdict's destructive rules — whatever the verdict decided, allow rules included.
 */
export function answerFor(verdict: Verdict, denyOn?: DenyOn): HookAnswer {
  if (denyOn === 'error' && verdict.decision !== 'deny') {
    const hit = verdict.findings.find((f) => f.severity === 'error' && (ESCALATED_RULES.has(f.ruleId) || verdict.destructive.includes(f.ruleId)));
    if (hit) return { decision: 'deny', reason: `shellward: ${hit.ruleId}: ${hit.message} (denied by --deny-on error)` };
  }
  return { decision: verdict.decision, reason: `shellward: ${reasonText(verdict)}` };
}

/**
 * The verdict's reason as a person reads it in a prompt: `no-matching-rule` says what it means
 * and which allow rule would cover the command; the messages of destructive findings are added
 * when the reason does not already come from one.
 */
export function reasonText(verdict: Verdict): string {
  let text = verdict.reason;
  if (text === 'no-matching-rule') {
    text += ': no permission rule allows this command';
    if (verdict.suggestions.length > 0) text += ` (an allow rule such as ${verdict.suggestions[0]} would)`;
  }
  const code = verdict.reason.split(': ')[0];
  const destructive = verdict.findings.filter((f) => verdict.destructive.includes(f.ruleId) && f.ruleId !== code);
  if (destructive.length > 0) text += `; ${destructive.map((f) => `${f.ruleId}: ${f.message}`).join('; ')}`;
  return text;
}

/** Options of {@link answerHookInput}. */
export interface HookInputOptions {
  /** The agent; detected from the event when absent (see {@link detectAgent}). */
  readonly agent?: HookAgent;
  readonly mode: HookMode;
  readonly denyOn?: DenyOn;
  readonly askFallback: AskFallback;
}

/** What {@link answerHookInput} did, for the reply and the decision log. */
export interface HookOutcome {
  readonly agent: HookAgent;
  readonly reply: HookReply;
  /** The shell call judged; absent when the event was passed through or malformed. */
  readonly call?: ShellCall;
  readonly verdict?: Verdict;
  /** The answer before the mode and the agent's protocol shaped it; absent for a pass. */
  readonly answer?: HookAnswer;
}

/** Largest event read, in UTF-16 code units of its text (a command is far smaller). */
export const MAX_EVENT_LENGTH = 16 * 1024 * 1024;

/**
 * Answers one hook event. `text` is stdin as text (one JSON document; surrounding white space
 * is ignored). `judge` returns the verdict of a shell call (it may load configuration; it is
 * only called for a shell call). Never rejects: a judge that throws gives an `ask` with
 * `internal-error` and the message.
 */
export async function answerHookInput(text: string, options: HookInputOptions, judge: (call: ShellCall) => Promise<Verdict>): Promise<HookOutcome> {
  let value: unknown;
  let parseError: string | undefined;
  if (text.length > MAX_EVENT_LENGTH) parseError = `the hook event is larger than ${MAX_EVENT_LENGTH} characters`;
  else if (text.trim() === '') parseError = 'no hook event on stdin';
  else {
    try {
      value = JSON.parse(text);
    } catch (err) {
      parseError = `the hook event is not valid JSON (${err instanceof Error ? err.message : String(err)})`;
    }
  }
  const agent = options.agent ?? detectAgent(value);
  const adapter = HOOK_ADAPTERS[agent];
  const shape = (answer: HookAnswer): HookReply => (options.mode === 'log' ? SILENT : adapter.reply(answer, options.mode, options.askFallback));
  const event = parseError !== undefined ? { kind: 'malformed' as const, error: parseError } : adapter.parse(value);
  if (event.kind === 'pass') return { agent, reply: SILENT };
  if (event.kind === 'malformed') {
    const answer: HookAnswer = { decision: 'ask', reason: `shellward: malformed hook event: ${event.error}; the command was not checked` };
    return { agent, reply: shape(answer), answer };
  }
  let verdict: Verdict;
  try {
    verdict = await judge(event.call);
  } catch (err) {
    const answer: HookAnswer = { decision: 'ask', reason: `shellward: internal-error: ${err instanceof Error ? err.message : String(err)}; the command was not checked` };
    return { agent, reply: shape(answer), call: event.call, answer };
  }
  const answer = answerFor(verdict, options.denyOn);
  return { agent, reply: shape(answer), call: event.call, verdict, answer };
}
