/**
 * Claude Code session logs (transcript-formats.md §1): `~/.claude/projects/<dir>/<sessionId>.jsonl`, with
 * subagents inline as `isSidechain` entries (1.x), in sibling `agent-<id>.jsonl` files (2.0.x) or
 * in `<sessionId>/subagents/agent-<id>.jsonl` (≥ 2.1.2) — every layout is one entry per line, so
 * one reader serves all three.
 *
 * A shell call is an assistant entry's `message.content[k]` block `{type:"tool_use", name:"Bash",
 * input:{command}}`; its result is a later user entry's `tool_result` block with the same
 * `tool_use_id`, plus the entry's `toolUseResult` and (2.1.x) `toolDenialKind`. `BashOutput`,
 * `KillShell` and `TaskOutput` are not executions; `agent_progress` copies of subagent messages
 * are skipped (the subagent's own file is read); user-typed `!` commands (`<bash-input>`) are not
 * agent tool calls. Re-logged calls (same `tool_use.id`) are read once per run. Pure.
 */
import { homeFromCwd } from '../../core/session-paths.js';
import type { CommandOutcome, UnitContext } from '../../core/types.js';
import { stringAt } from './json-text.js';
import { makeCall, nothing, rec, startLine, str, unmapped, type ReaderOutput, type SeenIds, type TranscriptCall, type TranscriptReader } from './types.js';

/** The facts of a tool result that decide a call's outcome (transcript-formats.md §1.4). */
export interface ClaudeResult {
  /** The `tool_result` block's content as text (text parts joined by newlines). */
  readonly content: string;
  readonly isError: boolean;
  /** The entry's top-level `toolUseResult` (object, string or absent). */
  readonly toolUseResult: unknown;
  readonly toolDenialKind?: string;
}

/**
 * The outcome and exit code of a Bash call from its result: rejected by the user (`User rejected
 * tool use`, "The user doesn't want to proceed…", "The user declined…"); cancelled when Claude Code
 * never started it (a sibling call of the same parallel batch errored: "Sibling tool call
 * errored", "Cancelled: parallel tool call … errored"; or a "Warmup" request's result); denied by
 * a rule, mode or hook ("Permission for this tool use was denied…", `toolDenialKind`, another
 * `<tool_use_error>`); interrupted; started in the background; or ran, with the exit code from
 * `Exit code N` in the content or the `toolUseResult` string, else failed-unknown when
 * `is_error`, else 0.
 */
export function claudeOutcome(r: ClaudeResult): { outcome: CommandOutcome; exitCode?: number; failed?: boolean } {
  const tur = r.toolUseResult;
  const turText = typeof tur === 'string' ? tur : '';
  const turObj = rec(tur);
  // The text of an error result without its `<tool_use_error>` wrapper and `Error: ` prefix.
  const said = r.content.replace(/^\s*<tool_use_error>/, '').replace(/^Error: /, '');
  if (
    r.toolDenialKind === 'user-rejected' ||
    turText === 'User rejected tool use' ||
    r.content.startsWith("The user doesn't want to proceed with this tool use") ||
    /^The user (?:declined|denied|rejected)\b/.test(said)
  ) {
    return { outcome: 'rejected' };
  }
  // Never started because another call of the same parallel batch failed (Claude Code cancels
  // the siblings), or a start-up "Warmup" request whose tools are not run: not a denial, not a failure.
  if (r.isError && !/^Exit code \d+/m.test(r.content) && (/^(?:Sibling tool call errored|Cancelled: parallel tool call)/.test(said) || /^Warmup\b/.test(said) || /^(?:Sibling tool call errored|Cancelled: parallel tool call)/.test(turText.replace(/^Error: /, '')))) {
    return { outcome: 'cancelled' };
  }
  if (r.isError && /^Permission (?:for this tool use|to use \S+) (?:was|has been) denied/.test(said)) return { outcome: 'denied' };
  if (r.toolDenialKind !== undefined || (r.isError && /<tool_use_error>/.test(r.content) && !/^Exit code \d+/m.test(r.content))) return { outcome: 'denied' };
  if (turObj?.interrupted === true || r.content.startsWith('[Request interrupted by user for tool use]')) return { outcome: 'interrupted' };
  if (typeof turObj?.backgroundTaskId === 'string' || r.content.startsWith('Command running in background with ID:')) return { outcome: 'backgrounded' };
  const m = /^(?:Error: )?Exit code (\d+)/m.exec(r.content) ?? /^(?:Error: )?Exit code (\d+)/m.exec(turText);
  if (m) return { outcome: 'ran', exitCode: Number(m[1]) };
  if (r.isError) return { outcome: 'ran', failed: true };
  return { outcome: 'ran', exitCode: 0 };
}

function contentText(c: unknown): string {
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((p) => str(rec(p)?.text) ?? '').join('\n');
  return '';
}

interface Pending {
  readonly command: string;
  readonly hostText: string;
  readonly line: number;
  readonly path: readonly (string | number)[];
  readonly context: UnitContext;
  /** Made in a "Warmup" chain. */
  readonly warmup: boolean;
}

/** Reads one Claude Code JSONL file; `file` is the path shown to the user. */
export class ClaudeCodeReader implements TranscriptReader {
  private readonly pending = new Map<string, Pending>();
  /** The `permissionMode` of the latest record that had one (Claude Code writes it on user records). */
  private mode: string | undefined;
  /** The session's home as the latest cwd that showed one (`/home/u/…`) revealed it. */
  private home: string | undefined;
  /** Chains (`main:` / `side:<agentId>`) that began with the "Warmup" prompt. */
  private readonly warmup = new Set<string>();

  /** @param seen ids seen earlier in the run (shared across files; this reader adds to it) */
  constructor(
    private readonly file: string,
    private readonly seen: SeenIds = new Set(),
  ) {}

  private build(p: Pending, result: { outcome: CommandOutcome; exitCode?: number; failed?: boolean }): TranscriptCall {
    const mapped = stringAt(p.hostText, p.path);
    const command = mapped && mapped.text === p.command ? mapped : unmapped(p.command, 0);
    return makeCall({
      command,
      hostText: p.hostText,
      line: p.line,
      lineShift: p.line - 1,
      dialect: 'bash',
      file: this.file,
      context: { ...p.context, outcome: result.outcome, ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}), ...(result.failed ? { failed: true } : {}) },
    });
  }

  line(text: string, lineNo: number): ReaderOutput {
    const { out, record: e } = startLine(text, lineNo);
    if (!e) return out;
    if (str(e.permissionMode) !== undefined) this.mode = str(e.permissionMode);
    this.home = homeFromCwd(str(e.cwd)) ?? this.home;
    const message = rec(e.message);
    const content = message?.content;
    const chain = `${e.isSidechain === true ? 'side' : 'main'}:${str(e.agentId) ?? ''}`;
    if (e.type === 'user' && e.parentUuid === null && e.isMeta !== true) {
      // A chain that starts with the prompt "Warmup" is Claude Code's start-up cache warm-up
      // (2.1.x); its tool calls are not run.
      if (contentText(content).trim() === 'Warmup') this.warmup.add(chain);
      else this.warmup.delete(chain);
    }
    if (!Array.isArray(content)) return out;
    if (e.type === 'assistant') {
      content.forEach((block, k) => {
        const b = rec(block);
        if (b?.type !== 'tool_use' || b.name !== 'Bash') return;
        const id = str(b.id);
        const command = str(rec(b.input)?.command);
        if (id === undefined || command === undefined) return;
        const key = `claude-code:${id}`;
        if (this.seen.has(key)) return;
        this.seen.add(key);
        const sidechain = e.isSidechain === true;
        const context: UnitContext = {
          agent: 'claude-code',
          toolUseId: id,
          ...(str(e.sessionId) !== undefined ? { sessionId: str(e.sessionId) } : {}),
          ...(str(e.timestamp) !== undefined ? { timestamp: str(e.timestamp) } : {}),
          ...(str(e.cwd) !== undefined ? { cwd: str(e.cwd) } : {}),
          home: this.home ?? null,
          ...(sidechain ? { subagent: str(e.agentId) ?? 'sidechain' } : {}),
          ...(this.mode !== undefined ? { permissionMode: this.mode } : {}),
        };
        this.pending.set(id, { command, hostText: text, line: lineNo, path: ['message', 'content', k, 'input', 'command'], context, warmup: this.warmup.has(chain) });
      });
    } else if (e.type === 'user') {
      for (const block of content) {
        const b = rec(block);
        if (b?.type !== 'tool_result') continue;
        const id = str(b.tool_use_id);
        const p = id === undefined ? undefined : this.pending.get(id);
        if (!p || id === undefined) continue;
        this.pending.delete(id);
        const raw = claudeOutcome({
          content: contentText(b.content),
          isError: b.is_error === true,
          toolUseResult: e.toolUseResult,
          ...(str(e.toolDenialKind) !== undefined ? { toolDenialKind: str(e.toolDenialKind) } : {}),
        });
        // A warm-up call's error result is not a failure: the call was never run.
        const result = p.warmup && raw.outcome === 'ran' && raw.failed === true ? { outcome: 'cancelled' as const } : raw;
        out.calls.push(this.build(p, result));
      }
    }
    return out;
  }

  finish(): ReaderOutput {
    const out = nothing();
    for (const p of this.pending.values()) out.calls.push(this.build(p, { outcome: 'unknown' }));
    this.pending.clear();
    return out;
  }
}
