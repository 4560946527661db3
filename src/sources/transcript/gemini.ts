/**
 * Gemini CLI chat recordings (transcript-formats.md §3): `~/.gemini/tmp/<project>/chats/session-*.json`
 * (one pretty-printed `ConversationRecord`, Aug 2025 – Apr 2026) and `session-*.jsonl` (since
 * 2026-04-09: a metadata line, message records re-appended whole whenever they change — the last
 * copy of an `id` wins, in first-seen order — `{"$set": …}` updates, where `$set.messages` replaces
 * every message, and `{"$rewindTo": id}`, which drops that message and all after it, or all of
 * them when the id is unknown). Subagent recordings (`kind: "subagent"`) live in
 * `chats/<parentSessionId>/`.
 *
 * A shell call is `messages[i].toolCalls[k]` with `name: "run_shell_command"` and `args.command`.
 * A JSONL file can only be judged at its end (later lines rewrite earlier ones), so its calls are
 * returned by `finish()`. Tool responses recorded as user `functionResponse` messages are not
 * calls. Pure.
 */
import { posix } from 'node:path';
import { homeFromCwd, isWindowsPath, resolveSessionPath } from '../../core/session-paths.js';
import type { CommandOutcome, UnitContext } from '../../core/types.js';
import { LineIndex } from '../../core/positions.js';
import { stringAt } from './json-text.js';
import { makeCall, parseLine, rec, startLine, str, unmapped, type ReaderOutput, type SeenIds, type TranscriptCall, type TranscriptReader } from './types.js';

/** The result text of a tool call: `functionResponse.response.output` / `.error` of its result parts. */
function responseText(result: unknown): { output?: string; error?: string } {
  const parts = Array.isArray(result) ? result : result === undefined || result === null ? [] : [result];
  for (const part of parts) {
    const resp = rec(rec(rec(part)?.functionResponse)?.response);
    if (!resp) continue;
    const output = str(resp.output);
    const error = str(resp.error);
    return { ...(output !== undefined ? { output } : {}), ...(error !== undefined ? { error } : {}) };
  }
  return {};
}

/**
 * Outcome of a `run_shell_command` call (transcript-formats.md §3.4): `status` `cancelled` → cancelled;
 * `error` → denied (validation, policy or spawn error: it did not run); `success` → the exit code
 * parsed from `Exit Code: N` (missing means 0 in the newest format, `(none)` means killed by a
 * signal: failed without a code), backgrounded when moved to the background, cancelled when the
 * output says the user or the time-out cancelled it. Other statuses (still executing or awaiting
 * approval when the session ended) → unknown.
 */
export function geminiOutcome(status: unknown, result: unknown, background: boolean): { outcome: CommandOutcome; exitCode?: number; failed?: boolean } {
  if (status === 'cancelled') return { outcome: 'cancelled' };
  if (status === 'error') return { outcome: 'denied' };
  if (status !== 'success') return { outcome: 'unknown' };
  const { output = '' } = responseText(result);
  if (/^Command was (?:automatically )?cancelled/m.test(output)) return { outcome: 'cancelled' };
  if (background || /^Command moved to background/m.test(output)) return { outcome: 'backgrounded' };
  const m = /^Exit Code: (\d+)/m.exec(output);
  if (m) return { outcome: 'ran', exitCode: Number(m[1]) };
  if (/^Exit Code: \(none\)/m.test(output) && /^Signal: \d+/m.test(output)) return { outcome: 'ran', failed: true };
  return { outcome: 'ran', exitCode: 0 };
}

/** A message record with where it was read from. */
interface Stored {
  readonly value: Record<string, unknown>;
  /** The JSON text the record's path is relative to (a line, or the whole file). */
  readonly host: string;
  readonly path: readonly (string | number)[];
  /** 1-based line of `host`'s first character in the file. */
  readonly firstLine: number;
  /** Line index of `host` when it spans lines (the whole-file format). */
  readonly index?: LineIndex;
}

interface Meta {
  sessionId?: string;
  kind?: string;
  directories?: string[];
}

/** Options of the Gemini readers. */
export interface GeminiOptions {
  /** The file's path (used to find a subagent's parent session: the folder name). */
  readonly path?: string;
}

function metaOf(v: Record<string, unknown>, into: Meta): void {
  if (typeof v.sessionId === 'string') into.sessionId = v.sessionId;
  if (typeof v.kind === 'string') into.kind = v.kind;
  if (Array.isArray(v.directories)) into.directories = v.directories.filter((d): d is string => typeof d === 'string');
}

/**
 * The session id a recording's path implies when the file holds none: the `<sid8>` of
 * `session-<YYYY-MM-DDTHH-MM>-<sid8>.json[l]`, else the file name without its extension.
 */
function sessionFromPath(path: string): string {
  const name = posix.basename(path.split('\\').join('/')).replace(/\.jsonl?$/i, '');
  const m = /^session-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-([0-9a-f]{8})$/i.exec(name);
  return m ? m[1]! : name;
}

/** The calls of the final message list. */
function callsOf(messages: readonly Stored[], meta: Meta, file: string, seen: SeenIds, options: GeminiOptions): TranscriptCall[] {
  const calls: TranscriptCall[] = [];
  const parent = meta.kind === 'subagent' && options.path ? posix.basename(posix.dirname(options.path.split('\\').join('/'))) : undefined;
  const root = meta.directories?.[0];
  // Without a metadata record (a file that starts with a message) the session is named by its file.
  const session = meta.sessionId ?? sessionFromPath(options.path ?? file);
  // The session's home: what the project root or any absolute directory of a call shows.
  let sessionHome = homeFromCwd(root);
  for (const m of messages) {
    if (sessionHome !== undefined) break;
    if (m.value.type !== 'gemini' || !Array.isArray(m.value.toolCalls)) continue;
    for (const tc of m.value.toolCalls) {
      const a = rec(rec(tc)?.args);
      sessionHome ??= homeFromCwd(str(a?.dir_path) ?? str(a?.directory));
    }
  }
  for (const m of messages) {
    if (m.value.type !== 'gemini' || !Array.isArray(m.value.toolCalls)) continue;
    m.value.toolCalls.forEach((tc, k) => {
      const t = rec(tc);
      if (t?.name !== 'run_shell_command') return;
      const args = rec(t.args);
      const command = str(args?.command);
      if (command === undefined) return;
      const id = str(t.id) ?? `${str(m.value.id) ?? ''}#${k}`;
      // Ids are unique within a session only (model-provided ids such as `run_shell_command__0`).
      const key = `gemini:${session}:${id}`;
      if (seen.has(key)) return;
      seen.add(key);
      const path = [...m.path, 'toolCalls', k, 'args', 'command'];
      const mapped = stringAt(m.host, path);
      const text = mapped && mapped.text === command ? mapped : unmapped(command, 0);
      const dir = str(args?.dir_path) ?? str(args?.directory);
      const cwd = dir === undefined ? root : resolveSessionPath(root, dir);
      // Gemini CLI runs commands with PowerShell on Windows and `bash -c` elsewhere
      // (https://geminicli.com/docs/tools/shell): a drive-letter directory tells the platform.
      const windows = isWindowsPath(cwd) || isWindowsPath(root);
      const r = geminiOutcome(t.status, t.result, args?.is_background === true);
      const timestamp = str(t.timestamp) ?? str(m.value.timestamp);
      const line = m.index ? m.index.position(text.hostAt(0) ?? 0).line : m.firstLine;
      const context: UnitContext = {
        agent: 'gemini',
        toolUseId: id,
        ...(parent !== undefined ? { sessionId: parent, subagent: meta.sessionId ?? 'subagent' } : { sessionId: session }),
        ...(timestamp !== undefined ? { timestamp } : {}),
        ...(cwd !== undefined ? { cwd } : {}),
        home: sessionHome ?? null,
        ...(windows ? { shell: 'powershell' } : {}),
        outcome: r.outcome,
        ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
        ...(r.failed ? { failed: true } : {}),
      };
      calls.push(makeCall({ command: text, hostText: m.host, line, lineShift: m.index ? 0 : m.firstLine - 1, dialect: 'bash', file, context }));
    });
  }
  return calls;
}

/**
 * A message record reduced to what {@link callsOf} reads: its id, type, timestamp and tool calls
 * (every one, so indices stay true), each without its result beyond the response output or error
 * text. Keeps memory proportional to the calls rather than to their outputs' history.
 */
function slim(v: Record<string, unknown>): Record<string, unknown> {
  const calls = (v.toolCalls as unknown[]).map((t) => {
    const r = rec(t);
    if (r?.name !== 'run_shell_command') return { name: r?.name };
    const resp = responseText(r.result);
    return { id: r.id, name: r.name, args: r.args, status: r.status, timestamp: r.timestamp, result: [{ functionResponse: { response: resp } }] };
  });
  return { id: v.id, type: v.type, timestamp: v.timestamp, toolCalls: calls };
}

/** Reads a Gemini JSONL recording line by line; calls come out of `finish()`. */
export class GeminiJsonlReader implements TranscriptReader {
  private order: string[] = [];
  private byId = new Map<string, Stored>();
  private readonly meta: Meta = {};

  constructor(
    private readonly file: string,
    private readonly seen: SeenIds = new Set(),
    private readonly options: GeminiOptions = {},
  ) {}

  private put(value: Record<string, unknown>, host: string, path: (string | number)[], line: number): void {
    const id = value.id as string;
    if (!this.byId.has(id)) this.order.push(id);
    // Keep only what the calls need: memory stays proportional to the shell calls, not the file.
    const shell = value.type === 'gemini' && Array.isArray(value.toolCalls) && value.toolCalls.some((t) => rec(t)?.name === 'run_shell_command');
    this.byId.set(id, shell ? { value: slim(value), host, path, firstLine: line } : { value: { id, type: value.type }, host: '', path, firstLine: line });
  }

  line(text: string, lineNo: number): ReaderOutput {
    const { out, record: v } = startLine(text, lineNo);
    if (!v) return out;
    if (typeof v.id === 'string') {
      this.put(v, text, [], lineNo);
    } else if ('$rewindTo' in v) {
      const at = typeof v.$rewindTo === 'string' ? this.order.indexOf(v.$rewindTo) : -1;
      const dropped = at === -1 ? this.order : this.order.slice(at);
      for (const id of dropped) this.byId.delete(id);
      this.order = at === -1 ? [] : this.order.slice(0, at);
    } else if (rec(v.$set)) {
      const set = rec(v.$set)!;
      metaOf(set, this.meta);
      if (Array.isArray(set.messages)) {
        this.order = [];
        this.byId = new Map();
        set.messages.forEach((m, i) => {
          const r = rec(m);
          if (r && typeof r.id === 'string') this.put(r, text, ['$set', 'messages', i], lineNo);
        });
      }
    } else if (typeof v.sessionId === 'string') {
      metaOf(v, this.meta);
    }
    return out;
  }

  finish(): ReaderOutput {
    const messages = this.order.map((id) => this.byId.get(id)!).filter(Boolean);
    const calls = callsOf(messages, this.meta, this.file, this.seen, this.options);
    this.order = [];
    this.byId.clear();
    return { calls, errors: [] };
  }
}

/**
 * Reads a whole legacy Gemini JSON recording (`text` is the file). A file that is not a JSON
 * object yields one parse error at line 1.
 */
export function readGeminiJson(file: string, text: string, seen: SeenIds = new Set(), options: GeminiOptions = {}): ReaderOutput {
  const parsed = parseLine(text);
  if ('error' in parsed) return { calls: [], errors: [{ line: 1, message: parsed.error }] };
  const v = parsed.value;
  const meta: Meta = {};
  metaOf(v, meta);
  const index = new LineIndex(text);
  const messages: Stored[] = [];
  if (Array.isArray(v.messages)) {
    v.messages.forEach((m, i) => {
      const r = rec(m);
      if (r) messages.push({ value: r, host: text, path: ['messages', i], firstLine: 1, index });
    });
  }
  return { calls: callsOf(messages, meta, file, seen, options), errors: [] };
}
