/**
 * The file-reading edge of the transcript source: streams a JSONL transcript line by line
 * (a bounded line splitter over a file stream, so memory is bounded by the record size limit plus the calls still
 * waiting for their result, whatever the file size) into the pure reader of its format. Gemini's
 * single-JSON recordings are read whole (one JSON document; they are written whole too).
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { BoundedLineSplitter, type BoundedLine } from '../../core/bounded-lines.js';
import { ClaudeCodeReader } from './claude-code.js';
import { CodexReader } from './codex.js';
import { GeminiJsonlReader, readGeminiJson } from './gemini.js';
import { ShellwardDecisionReader } from './shellward-decisions.js';
import type { ReaderOutput, SeenIds, TranscriptCall, TranscriptFormat, TranscriptParseError, TranscriptReader } from './types.js';

/**
 * Longest transcript record (one JSONL line) that is decoded, in UTF-16 code units (32 Mi). Records
 * carry tool output, so they can be large; a longer one is reported as a parse error for its line
 * without being held in memory or decoded, and reading goes on.
 */
export const MAX_TRANSCRIPT_RECORD_CHARS = 32 * 1024 * 1024;

/** A new reader for a line-based `format` (`gemini-json` is not line-based: use {@link readGeminiJson}). */
export function createReader(format: Exclude<TranscriptFormat, 'gemini-json'>, file: string, seen: SeenIds, path?: string): TranscriptReader {
  switch (format) {
    case 'claude-code':
      return new ClaudeCodeReader(file, seen);
    case 'codex':
      return new CodexReader(file, seen);
    case 'gemini-jsonl':
      return new GeminiJsonlReader(file, seen, path !== undefined ? { path } : {});
    case 'shellward-decisions':
      return new ShellwardDecisionReader(file, seen);
  }
}

/** Callbacks of {@link readTranscriptFile}. */
export interface TranscriptSink {
  call(call: TranscriptCall): void;
  error(error: TranscriptParseError): void;
}

/** What {@link readTranscriptFile} read. */
export interface TranscriptReadStats {
  /** Bytes of the file. */
  readonly bytes: number;
  readonly lines: number;
}

/**
 * Reads the transcript at `path` (absolute) in `format`, calling `sink` for each call and parse
 * error as they are found (a JSONL reader may hold a call until its result line). `file` is the
 * path shown to the user; `seen` de-duplicates calls across the files of a run. Rejects when the
 * file cannot be read; invalid UTF-8 is decoded with U+FFFD replacement characters. A JSONL record
 * longer than `maxRecordChars` UTF-16 code units is an error for its line and is not decoded.
 */
export async function readTranscriptFile(path: string, file: string, format: TranscriptFormat, seen: SeenIds, sink: TranscriptSink, maxRecordChars = MAX_TRANSCRIPT_RECORD_CHARS): Promise<TranscriptReadStats> {
  const deliver = (o: ReaderOutput): void => {
    for (const e of o.errors) sink.error(e);
    for (const c of o.calls) sink.call(c);
  };
  if (format === 'gemini-json') {
    const buf = await readFile(path);
    let text = buf.toString('utf8');
    if (text.startsWith('\uFEFF')) text = text.slice(1);
    deliver(readGeminiJson(file, text, seen, { path }));
    let lines = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
    return { bytes: buf.length, lines };
  }
  const reader = createReader(format, file, seen, path);
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 });
  const splitter = new BoundedLineSplitter(maxRecordChars);
  let lineNo = 0;
  const take = (lines: readonly BoundedLine[]): void => {
    for (const l of lines) {
      lineNo++;
      if (l.oversized) {
        // Rejected by size before JSON.parse; the records after it are still read.
        sink.error({ line: lineNo, message: `record too long: ${l.length} characters (the limit is ${maxRecordChars}); skipped` });
        continue;
      }
      const line = lineNo === 1 && l.text.startsWith('\uFEFF') ? l.text.slice(1) : l.text;
      deliver(reader.line(line, lineNo));
    }
  };
  for await (const chunk of stream) take(splitter.push(chunk as string));
  take(splitter.end());
  deliver(reader.finish());
  return { bytes: stream.bytesRead, lines: lineNo };
}
