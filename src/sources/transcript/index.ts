/**
 * Agent transcripts as a source (docs/transcript-formats.md): one pure reader per agent, a
 * content-based detector, and the streaming file edge.
 */
export { ClaudeCodeReader, claudeOutcome, type ClaudeResult } from './claude-code.js';
export { CodexReader, codexOutcome } from './codex.js';
export { GeminiJsonlReader, geminiOutcome, readGeminiJson, type GeminiOptions } from './gemini.js';
export { detectTranscript, mayBeTranscript } from './detect.js';
export { argvToShell, quoteJoin, type ShellText } from './argv.js';
export { createReader, readTranscriptFile, type TranscriptReadStats, type TranscriptSink } from './read.js';
export type { ReaderOutput, SeenIds, TranscriptCall, TranscriptFormat, TranscriptParseError, TranscriptReader } from './types.js';
