/**
 * Shared shapes of the transcript readers (docs/transcript-formats.md). A reader is a pure state
 * machine fed one line at a time (1-based line numbers, the line without its newline); it returns
 * the tool calls it could complete and, at the end, the rest. File reading lives in `read.ts`.
 */
import type { CommandUnit, Dialect, UnitContext } from '../../core/types.js';
import { MappedText } from '../mapped-text.js';

/** The transcript formats shellward reads. */
export type TranscriptFormat = 'claude-code' | 'codex' | 'gemini-json' | 'gemini-jsonl' | 'shellward-decisions';

/**
 * One shell tool call read from a transcript, as a command unit. `unit.hostText` is the host text
 * the unit's source map points into: the transcript line of the call (JSONL formats) or the whole
 * file (Gemini's single-JSON format); `lineShift` is the number of lines before that host text
 * (line − 1 for a line, 0 for a whole file), added to every line computed in it.
 */
export interface TranscriptCall {
  readonly unit: CommandUnit;
  readonly lineShift: number;
  /** 1-based line of the tool call in the transcript file. */
  readonly line: number;
}

/** A line that is not valid JSON (or not a JSON object): reported, and reading goes on. */
export interface TranscriptParseError {
  /** 1-based line. */
  readonly line: number;
  readonly message: string;
}

/** What a reader returns for a line or at the end. */
export interface ReaderOutput {
  readonly calls: TranscriptCall[];
  readonly errors: TranscriptParseError[];
}

/** A streaming transcript reader (pure). */
export interface TranscriptReader {
  /** Consumes line `lineNo` (1-based, without its line terminator). */
  line(text: string, lineNo: number): ReaderOutput;
  /** Ends the file: the calls still waiting for a result (outcome `unknown` unless known). */
  finish(): ReaderOutput;
}

/**
 * Ids already seen across the files of one run, for de-duplicating re-logged tool calls (Claude
 * resumes, Codex replayed parent prefixes). Keys are `agent:id`.
 */
export type SeenIds = Set<string>;

/** Everything needed to build a call's unit; `command` maps into `hostText`. */
export interface CallDraft {
  readonly command: MappedText;
  readonly hostText: string;
  readonly line: number;
  readonly lineShift: number;
  readonly dialect: Dialect;
  readonly file: string;
  readonly context: UnitContext;
}

/** Builds the {@link TranscriptCall} of a draft: granularity `command`, profile `agent`, origin kind `transcript`. */
export function makeCall(d: CallDraft): TranscriptCall {
  const first = d.command.hostAt(0) ?? 0;
  return {
    unit: {
      text: d.command.text,
      hostText: d.hostText,
      dialect: d.dialect,
      granularity: 'command',
      profile: 'agent',
      origin: { file: d.file, kind: 'transcript' },
      sourceMap: d.command.toSourceMap(first),
      context: { ...d.context, line: d.line },
    },
    lineShift: d.lineShift,
    line: d.line,
  };
}

/** Parses a line as a JSON object; returns the object, or an error message (`not valid JSON`, `not a JSON object`). */
export function parseLine(text: string): { value: Record<string, unknown> } | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    // JSON.parse's message differs between Node versions: keep the report stable.
    return { error: 'not valid JSON' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: 'not a JSON object' };
  return { value: v as Record<string, unknown> };
}

/** `v` as a record, or undefined. */
export function rec(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** `v` when it is a string, else undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A mapped text whose every character maps to host offset `at` (for text not found in the host). */
export function unmapped(text: string, at: number): MappedText {
  const m = new MappedText();
  for (let i = 0; i < text.length; i++) m.push(text[i]!, at);
  return m;
}

/** A new, empty reader output. */
export function nothing(): ReaderOutput {
  return { calls: [], errors: [] };
}

/**
 * The start of every reader's `line()`: an empty output and the line's record. The record is
 * `undefined` for a blank line, and for a malformed one, whose error is then already in the output
 * (reading goes on with the next line).
 */
export function startLine(text: string, lineNo: number): { out: ReaderOutput; record: Record<string, unknown> | undefined } {
  const out = nothing();
  if (text.trim() === '') return { out, record: undefined };
  const parsed = parseLine(text);
  if ('error' in parsed) {
    out.errors.push({ line: lineNo, message: parsed.error });
    return { out, record: undefined };
  }
  return { out, record: parsed.value };
}
