/**
 * Recognising a transcript by its content: the first line (or, for Gemini's
 * pretty-printed JSON, the first kilobytes) says which agent wrote it. File names are only a
 * hint: any `.jsonl` / `.json` file is sniffed, and a file named on the command line is sniffed
 * whatever its name. Pure.
 */
import type { TranscriptFormat } from './types.js';
import { isDecisionRecord } from './shellward-decisions.js';

const CLAUDE_TYPES = new Set(['user', 'assistant', 'summary', 'system', 'progress', 'file-history-snapshot', 'queue-operation', 'attachment', 'custom-title']);
const CODEX_TYPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);
const GEMINI_MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

function rec(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Whether a path's name suggests a transcript worth sniffing (`*.jsonl`, `*.json`). */
export function mayBeTranscript(path: string): boolean {
  const lower = path.toLowerCase();
  return lower.endsWith('.jsonl') || lower.endsWith('.json');
}

function firstObject(line: string): Record<string, unknown> | undefined {
  // Only a JSON object can be a record; skipping other lines spares a thrown parse error per
  // line of every shell script named on the command line.
  if (!line.trimStart().startsWith('{')) return undefined;
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The transcript format of a file from the start of its text (`head`: at least the first line
 * when it is short; 64 KiB is plenty), or `undefined` when it is not a transcript shellward reads
 * (Gemini's `logs.json` prompt log, Codex `history.jsonl` and other JSON are not). When the first
 * line is longer than `head`, key patterns at its start decide.
 */
export function detectTranscript(head: string): TranscriptFormat | undefined {
  const text = head.replace(/^\uFEFF/, '');
  // The first line decides; when it is blank, not JSON or a record type not known here (a
  // truncated or newer first record), the next complete lines of the head are tried, so one
  // odd line does not hide a whole session.
  const lines = text.split('\n');
  if (lines.length > 1) lines.pop(); // the last piece may be cut off by the head's size
  for (const [i, raw] of lines.slice(0, DETECT_LINES).entries()) {
    const line = raw.replace(/\r$/, '');
    const obj = i === 0 || line.trim() === '' ? undefined : firstObject(line);
    const format = i === 0 ? detectFromLine(line, text) : obj && fromObject(obj);
    if (format) return format;
  }
  return undefined;
}

/** How many lines of the head are tried when the first does not tell the format. */
const DETECT_LINES = 20;

/** The format named by one parsed record, if it is a record of a known transcript kind. */
function fromObject(obj: Record<string, unknown>): TranscriptFormat | undefined {
  if (isDecisionRecord(obj)) return 'shellward-decisions';
  if (typeof obj.type === 'string' && CODEX_TYPES.has(obj.type) && 'payload' in obj) return 'codex';
  if (obj.type === undefined && typeof obj.id === 'string' && 'timestamp' in obj && ('instructions' in obj || 'git' in obj)) return 'codex';
  if (obj.record_type === 'state') return 'codex';
  if (typeof obj.sessionId === 'string' && typeof obj.projectHash === 'string') return Array.isArray(obj.messages) ? 'gemini-json' : 'gemini-jsonl';
  if (typeof obj.type === 'string' && CLAUDE_TYPES.has(obj.type) && ('uuid' in obj || 'sessionId' in obj || 'leafUuid' in obj || 'messageId' in obj)) return 'claude-code';
  // A Gemini JSONL recording whose metadata line is missing (cut, or written by a build that
  // began with a message): a message record `{id, type: "gemini"|"user"|…, content|toolCalls}`
  // with no Claude Code keys, or a `$set` / `$rewindTo` update.
  if (typeof obj.id === 'string' && typeof obj.type === 'string' && GEMINI_MESSAGE_TYPES.has(obj.type) && ('toolCalls' in obj || 'content' in obj) && !('uuid' in obj) && !('message' in obj)) return 'gemini-jsonl';
  if (Object.keys(obj).length === 1 && (rec(obj.$set) !== undefined || typeof obj.$rewindTo === 'string')) return 'gemini-jsonl';
  return undefined;
}

/** The format told by the first line (which may be longer than the head) and the whole head. */
function detectFromLine(first: string, text: string): TranscriptFormat | undefined {
  const obj = first.trim() === '' ? undefined : firstObject(first);
  if (obj) {
    return fromObject(obj);
  }
  // A first line too long for `head`, or a multi-line JSON document.
  if (/^\{"timestamp":"[^"]*","type":"(?:session_meta|turn_context|response_item|event_msg)","payload":/.test(first)) return 'codex';
  if (/^\{"(?:parentUuid|type|isSidechain|uuid)":/.test(first) && /"sessionId":"/.test(first)) return 'claude-code';
  if (/^\{"id":"[^"]*",/.test(first) && /"type":"(?:gemini|user|info)"/.test(first) && !/"uuid":/.test(first)) return 'gemini-jsonl';
  if (/^\s*\{\s*$/.test(first) && /"sessionId"\s*:/.test(text) && /"projectHash"\s*:/.test(text) && /"messages"\s*:/.test(text)) return 'gemini-json';
  return undefined;
}
