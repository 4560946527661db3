/**
 * Shapes shared by the pre-tool-use hook adapters (src/hook/): one adapter per agent turns the
 * agent's hook event (decoded JSON from stdin) into a {@link HookEvent}, and a {@link HookAnswer}
 * into the agent's reply (stdout, stderr, exit code). Pure: no I/O.
 */

/** The agents whose pre-tool-use hook shellward answers. */
export type HookAgent = 'claude-code' | 'codex' | 'gemini';

/** The agents, in the order `--agent` lists them. */
export const HOOK_AGENTS: readonly HookAgent[] = ['claude-code', 'codex', 'gemini'];

/** A shell tool call read from a hook event. */
export interface ShellCall {
  /** The command line the agent is about to run (bash). */
  readonly command: string;
  /**
   * The directory the command runs in as the event states it (the event's `cwd`, joined with a
   * tool-level directory such as Gemini's `dir_path`); may be relative or absent.
   */
  readonly cwd?: string;
  /** The agent's permission mode as sent (`default`, `acceptEdits`, `plan`, …). */
  readonly permissionMode?: string;
  readonly sessionId?: string;
  readonly toolUseId?: string;
  readonly transcriptPath?: string;
  /** The tool name as sent (`Bash`, `run_shell_command`). */
  readonly toolName: string;
}

/**
 * What an event asks of shellward: judge a shell call; nothing (another tool, another event:
 * pass through without an answer); or an event that cannot be read (`error` says why, for the
 * reason of the `ask` that answers it).
 */
export type HookEvent =
  | { readonly kind: 'shell'; readonly call: ShellCall }
  | { readonly kind: 'pass'; readonly why: string }
  | { readonly kind: 'malformed'; readonly error: string };

/** The decision to send back, with the reason shown to the user or the agent. */
export interface HookAnswer {
  readonly decision: 'allow' | 'ask' | 'deny';
  readonly reason: string;
}

/**
 * How shellward acts on its answer:
 * - `enforce`: the decision is sent to the agent;
 * - `warn`: no decision is sent (the agent's own permission flow decides); an `ask` or `deny`
 *   becomes a message shown to the user, so nothing is ever denied;
 * - `log`: nothing is sent at all (the verdict is only written to the decision log).
 */
export type HookMode = 'enforce' | 'warn' | 'log';

/**
 * What to send for an `ask` to an agent whose pre-tool-use hook has no "ask" answer (Codex CLI,
 * Gemini CLI): `deny` refuses the call with the reason (the agent reports it and can ask its
 * user); `pass` sends no decision, leaving the call to the agent's own approval flow, with a
 * warning message.
 */
export type AskFallback = 'deny' | 'pass';

/** The agent's view of shellward's reply: bytes for stdout and stderr, and the exit code. */
export interface HookReply {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number;
}

/** The reply that says nothing: exit 0, empty output (every agent reads it as "no opinion"). */
export const SILENT: HookReply = { stdout: '', stderr: '', exitCode: 0 };

/** One agent's protocol. */
export interface HookAdapter {
  readonly agent: HookAgent;
  /** Reads a decoded event (any JSON value). Never throws. */
  parse(value: unknown): HookEvent;
  /** The reply that carries `answer` under `mode` (`log` never reaches an adapter). */
  reply(answer: HookAnswer, mode: Exclude<HookMode, 'log'>, askFallback: AskFallback): HookReply;
}

/** `v` as a plain object, or undefined. */
export function asObject(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** `v` when it is a string, else undefined. */
export function asString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The optional string fields of a shell call, from an event's snake_case keys. */
export function commonFields(e: Record<string, unknown>): Pick<ShellCall, 'permissionMode' | 'sessionId' | 'toolUseId' | 'transcriptPath'> {
  const out: { permissionMode?: string; sessionId?: string; toolUseId?: string; transcriptPath?: string } = {};
  const mode = asString(e.permission_mode);
  if (mode !== undefined) out.permissionMode = mode;
  const session = asString(e.session_id);
  if (session !== undefined) out.sessionId = session;
  const id = asString(e.tool_use_id);
  if (id !== undefined) out.toolUseId = id;
  const transcript = asString(e.transcript_path);
  if (transcript !== undefined) out.transcriptPath = transcript;
  return out;
}

/** One line of JSON and a newline. */
export function jsonLine(v: unknown): string {
  return JSON.stringify(v) + '\n';
}
