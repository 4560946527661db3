/**
 * Codex CLI rollouts (transcript-formats.md §2): `~/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<id>.jsonl`.
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
 * read and counted with their `shell` (`powershell`, `cmd`) so that reports can list them as not
 * analysed; the session's shell comes from its `<environment_context>` (`<shell>zsh</shell>`),
 * PowerShell on Windows when none is recorded. Call ids are scoped by session. The early
 * TypeScript CLI's single-JSON `rollout-*.json` is not read.
 * Pure.
 */
import { homeFromCwd, isWindowsPath, resolveSessionPath } from '../../core/session-paths.js';
import type { CommandOutcome, Dialect, UnitContext } from '../../core/types.js';
import type { MappedText } from '../mapped-text.js';
import { argvToShell, dialectOfShell, isApplyPatchScript, shellName } from './argv.js';
import { stringAt } from './json-text.js';
import { makeCall, nothing, rec, startLine, str, unmapped, type ReaderOutput, type SeenIds, type TranscriptCall, type TranscriptReader } from './types.js';

const ENVELOPE_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);
const SHELL_TOOLS = new Set(['shell', 'container.exec', 'shell_command', 'exec_command']);

/**
 * Outcome of a call from its `function_call_output` text: the structured JSON's
 * `metadata.exit_code`, `Exit code: N` (shell_command), `Process exited with code N`
 * (exec_command), "failed in sandbox … exit code: N" (0.39–0.47: it ran), a running
 * unified-exec session (backgrounded), a refusal message (denied), else ran and failed.
 */
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
  // cli 0.39–0.47: a command that ran in the sandbox and exited non-zero is reported as
  // "failed in sandbox … exit code: N" (or `exit_code: N` inside the debug text of the error):
  // it ran, with that exit code.
  if (/failed in sandbox/i.test(output)) {
    const m = /exit[ _]code:? ?(\d+)/i.exec(output);
    if (m) return { outcome: 'ran', exitCode: Number(m[1]) };
  }
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
  /** The session's shell from its `<environment_context>` (`<shell>zsh</shell>`). */
  private shell: string | undefined;
  private sawTurn = false;
  private replay = false;

  constructor(
    private readonly file: string,
    private readonly seen: SeenIds = new Set(),
  ) {}

  private setMeta(p: Record<string, unknown>): void {
    if (this.meta && (!this.sawTurn || this.replay)) {
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
    // Resolved with the rules of the recorded platform (a Windows base joins with win32),
    // never against shellward's own working directory.
    return resolveSessionPath(base, workdir) ?? workdir;
  }

  /**
   * The shell a command string runs in (`shell_command`, `exec_command` without `shell`): the
   * session's recorded shell; on Windows (a drive-letter cwd) without one, PowerShell, Codex's
   * default there.
   */
  private sessionShell(): string | undefined {
    if (this.shell !== undefined) return this.shell;
    return isWindowsPath(this.turnCwd ?? this.meta?.cwd) ? 'powershell' : undefined;
  }

  private context(callId: string, timestamp: string | undefined, cwd: string | undefined, shell: string | undefined): UnitContext {
    const ts = timestamp ?? this.meta?.timestamp;
    return {
      agent: 'codex',
      toolUseId: callId,
      ...(this.meta?.id !== undefined ? { sessionId: this.meta.id } : {}),
      ...(ts !== undefined ? { timestamp: ts } : {}),
      ...(cwd !== undefined ? { cwd } : {}),
      home: homeFromCwd(cwd) ?? homeFromCwd(this.turnCwd) ?? homeFromCwd(this.meta?.cwd) ?? null,
      ...(shell !== undefined ? { shell } : {}),
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
    /** The shell it ran in, when known (argv wrapper, `shell` argument, the session's shell). */
    let shell: string | undefined;
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
        shell = sh !== undefined ? shellName(sh) : this.sessionShell();
      } else if (typeof args.command === 'string') {
        script = stringAt(argsText, ['command']) ?? unmapped(args.command, 0);
        shell = this.sessionShell();
      } else if (Array.isArray(args.command)) {
        const cmd = args.command;
        argv = cmd.map((a, i) => stringAt(argsText, ['command', i]) ?? unmapped(String(a), argsText.hostAt(0) ?? 0));
      } else return;
    }
    // Call ids are unique within a session only (some providers number them `functions.shell:0`,
    // `:1` … in every session): the key is scoped by the session, so the replayed prefix of a
    // child thread (the same session's calls again) is still read once.
    const key = `codex:${this.meta?.id ?? this.file}:${callId}`;
    if (this.replay || this.seen.has(key)) return;
    let directExec = false;
    if (argv) {
      const unwrapped = argvToShell(argv);
      if (!unwrapped || unwrapped.kind === 'edit') return;
      script = unwrapped.text;
      if (unwrapped.kind === 'foreign') shell = unwrapped.shell;
      else {
        dialect = unwrapped.dialect;
        directExec = unwrapped.directExec;
        shell = directExec ? undefined : dialect;
      }
    }
    if (!script || isApplyPatchScript(script.text)) return;
    if (shell !== undefined) dialect = dialectOfShell(shell) ?? dialect;
    this.seen.add(key);
    const context = { ...this.context(callId, timestamp, this.cwdFor(workdir), shell), ...(directExec ? { directExec: true } : {}) };
    this.pending.set(callId, { command: script, hostText: text, line: lineNo, dialect, context });
  }

  /** Reads the session's shell from an injected `<environment_context>` user message (`<shell>powershell</shell>`). */
  private environment(message: Record<string, unknown>): void {
    if (!Array.isArray(message.content)) return;
    for (const part of message.content) {
      const t = str(rec(part)?.text);
      if (t === undefined || !t.includes('<environment_context>')) continue;
      const m = /<shell>\s*([^<\s]+)\s*<\/shell>/.exec(t);
      if (m) this.shell = shellName(m[1]!);
    }
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
        // The replayed parent history has the parent's own turn contexts, written before the child
        // thread started: only a turn at or after the child's start begins the child's own part.
        if (!(this.replay && timestamp !== undefined && this.meta?.timestamp !== undefined && Date.parse(timestamp) < Date.parse(this.meta.timestamp))) this.replay = false;
        if (typeof payload.cwd === 'string') this.turnCwd = payload.cwd;
        break;
      case 'response_item':
        if (payload.type === 'message' && payload.role === 'user' && this.shell === undefined) this.environment(payload);
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
