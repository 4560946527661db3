/**
 * Codex CLI rollouts (TRANSCRIPTS.md §2): `~/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<id>.jsonl`.
 * Reads the envelope format `{timestamp, type, payload}` (cli ≥ 0.3x, with `shell` argv,
 * `shell_command`, `exec_command` and `local_shell_call`), the pre-envelope format (a bare header
 * line `{id, timestamp, instructions, git}`, `{"record_type":"state"}` markers and bare response
 * items without timestamps, which inherit the header's time), and child-thread rollouts whose
 * replayed parent prefix (a second `session_meta` before the child's first `turn_context`) is
 * skipped; calls are also de-duplicated by `call_id` across the run.
 *
 * Not commands: `apply_patch` (argv, heredoc script or the freeform `custom_tool_call`),
 * `write_stdin` (input to a running process; its output may carry that process's exit code),
 * `spawn_agent` and the other multi-agent tools, MCP tools. PowerShell and cmd.exe scripts are
 * skipped (not POSIX shell). The early TypeScript CLI's single-JSON `rollout-*.json` is not read.
 * Pure.
 */
import { posix } from 'node:path';
import type { CommandOutcome, Dialect, UnitContext } from '../../core/types.js';
import type { MappedText } from '../mapped-text.js';
import { argvToShell, dialectOfShell, isApplyPatchScript } from './argv.js';
import { stringAt } from './json-text.js';
import { makeCall, nothing, rec, startLine, str, unmapped, type ReaderOutput, type SeenIds, type TranscriptCall, type TranscriptReader } from './types.js';

const ENVELOPE_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);
const SHELL_TOOLS = new Set(['shell', 'container.exec', 'shell_command', 'exec_command']);

/** Outcome of a call from its `function_call_output` text (TRANSCRIPTS.md §2.4). */
export function codexOutcome(output: string): { outcome: CommandOutcome; exitCode?: number; failed?: boolean; runningSession?: number } {
  // shell (structured): a JSON string with metadata.exit_code
  if (output.startsWith('{')) {
    try {
      const v = rec(JSON.parse(output));
      const code = rec(v?.metadata)?.exit_code;
      if (typeof code === 'number') return { outcome: 'ran', exitCode: code };
    } catch {
      // not JSON: fall through to the text forms
    }
  }
  const exit = /^Exit code: (\d+)/m.exec(output) ?? /^Process exited with code (\d+)/m.exec(output);
  if (exit) return { outcome: 'ran', exitCode: Number(exit[1]) };
  const running = /^Process running with session ID (\d+)/m.exec(output);
  if (running) return { outcome: 'backgrounded', runningSession: Number(running[1]) };
  if (/reject|declined|denied|not permitted|approval|sandbox|failed to parse function arguments/i.test(output)) return { outcome: 'denied' };
  return { outcome: 'ran', failed: true };
}

interface Pending {
  readonly command: MappedText;
  readonly hostText: string;
  readonly line: number;
  readonly dialect: Dialect;
  context: UnitContext;
  endExit?: number;
}

/** Reads one Codex rollout file; `file` is the path shown to the user. */
export class CodexReader implements TranscriptReader {
  private readonly pending = new Map<string, Pending>();
  /**
   * exec_command calls still running, by unified-exec session id: their outcome is `backgrounded`,
   * with the exit code a later `write_stdin` output reports, if any.
   */
  private readonly running = new Map<number, Pending>();
  /** write_stdin call id → the session it wrote to. */
  private readonly stdinCalls = new Map<string, number>();
  private meta: { id?: string; cwd?: string; timestamp?: string; subagent?: string } | undefined;
  private turnCwd: string | undefined;
  private sawTurn = false;
  private replay = false;

  constructor(
    private readonly file: string,
    private readonly seen: SeenIds = new Set(),
  ) {}

  private setMeta(p: Record<string, unknown>): void {
    if (this.meta && !this.sawTurn) {
      // a second session_meta before any turn: the replayed parent prefix of a child thread
      this.replay = true;
      return;
    }
    if (this.meta) return;
    const source = rec(p.source);
    const spawn = rec(rec(source?.subagent)?.thread_spawn);
    const id = str(p.id);
    const sub = source?.subagent !== undefined ? (id ?? str(p.agent_nickname) ?? str(spawn?.agent_nickname) ?? 'subagent') : undefined;
    this.meta = {
      ...(id !== undefined ? { id } : {}),
      ...(str(p.cwd) !== undefined ? { cwd: str(p.cwd) } : {}),
      ...(str(p.timestamp) !== undefined ? { timestamp: str(p.timestamp) } : {}),
      ...(sub !== undefined ? { subagent: sub } : {}),
    };
  }

  private cwdFor(workdir: string | undefined): string | undefined {
    const base = this.turnCwd ?? this.meta?.cwd;
    if (workdir === undefined || workdir === '') return base;
    if (workdir.startsWith('/')) return workdir;
    return base !== undefined ? posix.resolve(base, workdir) : workdir;
  }

  private context(callId: string, timestamp: string | undefined, cwd: string | undefined): UnitContext {
    const ts = timestamp ?? this.meta?.timestamp;
    return {
      agent: 'codex',
      toolUseId: callId,
      ...(this.meta?.id !== undefined ? { sessionId: this.meta.id } : {}),
      ...(ts !== undefined ? { timestamp: ts } : {}),
      ...(cwd !== undefined ? { cwd } : {}),
      ...(this.meta?.subagent !== undefined ? { subagent: this.meta.subagent } : {}),
    };
  }

  private build(p: Pending, result: { outcome: CommandOutcome; exitCode?: number; failed?: boolean }): TranscriptCall {
    return makeCall({
      command: p.command,
      hostText: p.hostText,
      line: p.line,
      lineShift: p.line - 1,
      dialect: p.dialect,
      file: this.file,
      context: { ...p.context, outcome: result.outcome, ...(result.exitCode !== undefined ? { exitCode: result.exitCode } : {}), ...(result.failed ? { failed: true } : {}) },
    });
  }

  /** A `function_call` / `local_shell_call` item at JSON path `base` of the line. */
  private call(item: Record<string, unknown>, base: readonly (string | number)[], text: string, lineNo: number, timestamp: string | undefined): void {
    const callId = str(item.call_id) ?? str(item.id);
    if (callId === undefined) return;
    let argv: MappedText[] | undefined;
    let script: MappedText | undefined;
    let workdir: string | undefined;
    let dialect: Dialect = 'bash';
    if (item.type === 'local_shell_call') {
      const action = rec(item.action);
      const cmd = action?.command;
      if (!Array.isArray(cmd)) return;
      argv = cmd.map((a, i) => stringAt(text, [...base, 'action', 'command', i]) ?? unmapped(String(a), 0));
      workdir = str(action?.working_directory);
    } else {
      const name = str(item.name);
      if (name === 'write_stdin') {
        try {
          const sid = rec(JSON.parse(str(item.arguments) ?? ''))?.session_id;
          if (typeof sid === 'number') this.stdinCalls.set(callId, sid);
        } catch {
          // malformed arguments: nothing to link
        }
        return;
      }
      if (name === undefined || !SHELL_TOOLS.has(name)) return;
      const argsText = stringAt(text, [...base, 'arguments']);
      if (!argsText) return;
      let args: Record<string, unknown> | undefined;
      try {
        args = rec(JSON.parse(argsText.text));
      } catch {
        return;
      }
      if (!args) return;
      workdir = str(args.workdir);
      if (name === 'exec_command') {
        script = typeof args.cmd === 'string' ? (stringAt(argsText, ['cmd']) ?? unmapped(args.cmd, 0)) : undefined;
        const sh = str(args.shell);
        if (sh !== undefined) {
          const d = dialectOfShell(sh);
          if (!d) return; // powershell / cmd: not POSIX shell
          dialect = d;
        }
      } else if (typeof args.command === 'string') {
        script = stringAt(argsText, ['command']) ?? unmapped(args.command, 0);
      } else if (Array.isArray(args.command)) {
        const cmd = args.command;
        argv = cmd.map((a, i) => stringAt(argsText, ['command', i]) ?? unmapped(String(a), argsText.hostAt(0) ?? 0));
      } else return;
    }
    const key = `codex:${callId}`;
    if (this.replay || this.seen.has(key)) return;
    let directExec = false;
    if (argv) {
      const shell = argvToShell(argv);
      if (!shell || shell.kind !== 'script') return;
      script = shell.text;
      dialect = shell.dialect;
      directExec = shell.directExec;
    }
    if (!script || isApplyPatchScript(script.text)) return;
    this.seen.add(key);
    const context = { ...this.context(callId, timestamp, this.cwdFor(workdir)), ...(directExec ? { directExec: true } : {}) };
    this.pending.set(callId, { command: script, hostText: text, line: lineNo, dialect, context });
  }

  private output(callId: string, output: unknown, out: ReaderOutput): void {
    const text = typeof output === 'string' ? output : (str(rec(output)?.content) ?? '');
    const sid = this.stdinCalls.get(callId);
    if (sid !== undefined) {
      this.stdinCalls.delete(callId);
      const target = this.running.get(sid);
      const r = codexOutcome(text);
      if (target && r.exitCode !== undefined) {
        this.running.delete(sid);
        out.calls.push(this.build(target, { outcome: 'backgrounded', exitCode: r.exitCode }));
      }
      return;
    }
    const p = this.pending.get(callId);
    if (!p) return;
    this.pending.delete(callId);
    const r = codexOutcome(text);
    if (r.runningSession !== undefined) {
      this.running.set(r.runningSession, p);
      return;
    }
    const exitCode = r.exitCode ?? p.endExit;
    out.calls.push(this.build(p, exitCode !== undefined ? { outcome: 'ran', exitCode } : r));
  }

  line(text: string, lineNo: number): ReaderOutput {
    const { out, record: v } = startLine(text, lineNo);
    if (!v) return out;
    let type: string | undefined;
    let payload: Record<string, unknown> | undefined;
    let base: (string | number)[];
    let timestamp: string | undefined;
    if (typeof v.type === 'string' && ENVELOPE_TYPES.has(v.type) && rec(v.payload)) {
      type = v.type;
      payload = rec(v.payload);
      base = ['payload'];
      timestamp = str(v.timestamp);
    } else if (lineNo === 1 || (this.meta === undefined && v.type === undefined && typeof v.id === 'string' && 'timestamp' in v)) {
      // pre-envelope header line
      if (v.type === undefined && typeof v.id === 'string') this.setMeta(v);
      return out;
    } else {
      if (v.record_type !== undefined) return out;
      type = 'response_item';
      payload = v;
      base = [];
    }
    if (!payload) return out;
    switch (type) {
      case 'session_meta':
        this.setMeta(payload);
        break;
      case 'turn_context':
        this.sawTurn = true;
        this.replay = false;
        if (typeof payload.cwd === 'string') this.turnCwd = payload.cwd;
        break;
      case 'response_item':
        if (payload.type === 'function_call' || payload.type === 'local_shell_call') this.call(payload, base, text, lineNo, timestamp);
        else if (payload.type === 'function_call_output' && typeof payload.call_id === 'string' && !this.replay) this.output(payload.call_id, payload.output, out);
        break;
      case 'event_msg':
        if (payload.type === 'exec_command_end' && typeof payload.call_id === 'string') {
          const p = this.pending.get(payload.call_id);
          if (p && typeof payload.exit_code === 'number') p.endExit = payload.exit_code;
          if (p && typeof payload.cwd === 'string') p.context = { ...p.context, cwd: payload.cwd };
        } else if (payload.type === 'turn_aborted') {
          for (const p of this.pending.values()) out.calls.push(this.build(p, { outcome: 'interrupted' }));
          this.pending.clear();
        }
        break;
    }
    return out;
  }

  finish(): ReaderOutput {
    const out = nothing();
    for (const p of this.pending.values()) out.calls.push(this.build(p, p.endExit !== undefined ? { outcome: 'ran', exitCode: p.endExit } : { outcome: 'unknown' }));
    for (const p of this.running.values()) out.calls.push(this.build(p, { outcome: 'backgrounded' }));
    this.pending.clear();
    this.running.clear();
    return out;
  }
}
