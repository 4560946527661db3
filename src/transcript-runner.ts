/**
 * Linting one agent transcript (I/O edge, used by the runner): streams the file through its
 * reader, lints each shell tool call as a unit of granularity `command` in the `agent` profile,
 * and places every diagnostic in the transcript — the line of the tool call, the column of the
 * command's character inside the (JSON-escaped) line. Malformed lines become
 * `transcript-parse-error` diagnostics at their line. Memory: the pending calls of the reader,
 * plus the file's diagnostics (line text is hashed at once, never kept).
 */
import { TRANSCRIPT_PARSE_ERROR } from './checks/input/input-rules.js';
import { lineHash, numberFingerprints } from './core/fingerprint.js';
import { LineIndex } from './core/positions.js';
import { isAnalysedShell, type Diagnostic, type Profile, type Range } from './core/types.js';
import { compareDiagnostics, type Linter, type PendingDiagnostic } from './lint.js';
import { readTranscriptFile, type SeenIds, type TranscriptCall, type TranscriptFormat } from './sources/transcript/index.js';

/** The result of linting one transcript. */
export interface TranscriptLintResult {
  /** Sorted and fingerprinted, like `finishFile`'s. */
  readonly diagnostics: Diagnostic[];
  /** Bytes of the file. */
  readonly bytes: number;
  /** Number of shell tool calls read. */
  readonly calls: number;
}

function shift(r: Range, lines: number): Range {
  if (lines === 0) return r;
  return { start: { line: r.start.line + lines, column: r.start.column }, end: { line: r.end.line + lines, column: r.end.column } };
}

/**
 * The diagnostics of one call in transcript coordinates, each with the hash of its line (for the
 * fingerprint). `linter.lintUnit` places findings in the unit's host text (a line, or the whole
 * Gemini JSON file); `lineShift` moves them to the line's place in the file.
 */
export function callDiagnostics(linter: Linter, call: TranscriptCall): { diagnostic: PendingDiagnostic; hash: string }[] {
  // PowerShell / cmd.exe calls are counted, not parsed as bash.
  if (!isAnalysedShell(call.unit.context)) return [];
  const pending = linter.lintUnit(call.unit);
  if (pending.length === 0) return [];
  const index = new LineIndex(call.unit.hostText);
  return pending.map((d) => {
    const local = d.range.start.line;
    const start = index.lineStart(local);
    const end = local < index.lineCount ? index.lineStart(local + 1) : call.unit.hostText.length;
    return { diagnostic: { ...d, range: shift(d.range, call.lineShift) }, hash: lineHash(d.ruleId, call.unit.hostText.slice(start, end)) };
  });
}

/**
 * Lints the transcript at `path` (absolute) of `format`; `file` is the path shown to the user and
 * `seen` de-duplicates calls across the run's files. `onCall` sees every call (for verdicts).
 * `profile` is the profile of the calls (config `profile.transcript`; default `agent`).
 * Rejects only when the file cannot be opened or read.
 */
export async function lintTranscriptFile(
  linter: Linter,
  path: string,
  file: string,
  format: TranscriptFormat,
  seen: SeenIds,
  onCall?: (call: TranscriptCall) => void,
  profile: Profile = 'agent',
): Promise<TranscriptLintResult> {
  const found: { diagnostic: PendingDiagnostic; hash: string }[] = [];
  let calls = 0;
  const stats = await readTranscriptFile(path, file, format, seen, {
    call(read) {
      const call = read.unit.profile === profile ? read : { ...read, unit: { ...read.unit, profile } };
      calls++;
      found.push(...callDiagnostics(linter, call));
      onCall?.(call);
    },
    error(e) {
      found.push({
        diagnostic: {
          ruleId: TRANSCRIPT_PARSE_ERROR.id,
          severity: linter.severityFor(TRANSCRIPT_PARSE_ERROR.id, { profile }) ?? 'warning',
          message: `Line ${e.line} of the transcript could not be read (${e.message}); it was skipped.`,
          file,
          range: { start: { line: e.line, column: 1 }, end: { line: e.line, column: 2 } },
        },
        hash: lineHash(TRANSCRIPT_PARSE_ERROR.id, `line ${e.line}`),
      });
    },
  });
  const kept = found.filter((f) => f.diagnostic.ruleId !== TRANSCRIPT_PARSE_ERROR.id || linter.severityFor(TRANSCRIPT_PARSE_ERROR.id, { profile }) !== undefined);
  kept.sort((a, b) => compareDiagnostics(a.diagnostic, b.diagnostic));
  const fps = numberFingerprints(kept.map((f) => f.hash));
  return { diagnostics: kept.map((f, i) => ({ ...f.diagnostic, fingerprint: fps[i]! })), bytes: stats.bytes, calls };
}
