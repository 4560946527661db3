/**
 * Rules reported by the pipeline itself rather than by a check over the parse tree: inputs
 * that could not be analysed. They appear in SARIF `rules[]` and in the reference pages like
 * every other rule; golden-file tests cover them (test/fixtures/golden).
 */
import type { RuleMeta } from '../define.js';

/** A file that was skipped: binary, not UTF-8, unreadable. */
export const FILE_SKIPPED: RuleMeta = {
  id: 'file-skipped',
  code: 'I901',
  title: 'File could not be analysed',
  category: 'input',
  severity: { agent: 'note', script: 'note' },
  docs: {
    rationale:
      'shellward reads shell scripts as UTF-8 text. A file that contains NUL bytes (binary) or is not ' +
      'valid UTF-8, or that cannot be read, is skipped and reported, so nothing is silently left out.',
    fix: 'Convert the file to UTF-8, or exclude it from the paths you lint.',
  },
  sources: [],
  examples: { valid: [], invalid: [] },
};

/** A check or the parser failed on a unit: a bug in shellward, reported instead of crashing. */
export const INTERNAL_ERROR: RuleMeta = {
  id: 'internal-error',
  code: 'I902',
  title: 'shellward failed on this input',
  category: 'input',
  severity: { agent: 'error', script: 'error' },
  docs: {
    rationale:
      'A check threw an exception, or parsing ran past its time limit. The rest of the run goes on, and ' +
      'the exit code is 2 so the failure is not mistaken for a clean result.',
    fix: 'Please report the input that caused it. Other findings for the file are still reported.',
  },
  sources: [],
  examples: { valid: [], invalid: [] },
};

/** A transcript line that is not valid JSON: reported at that line, and reading goes on. */
export const TRANSCRIPT_PARSE_ERROR: RuleMeta = {
  id: 'transcript-parse-error',
  code: 'I903',
  title: 'Transcript line could not be read',
  category: 'input',
  severity: { agent: 'warning', script: 'warning' },
  docs: {
    rationale:
      'Agent transcripts (Claude Code, Codex and Gemini CLI session logs) are read one JSON record per line. ' +
      'A line that is not a valid JSON object — cut short by a crash, or written by two processes at once — ' +
      'cannot be read, so a shell command recorded in it would be missed. The line is reported and the ' +
      'rest of the file is still read; entries of unknown types are skipped silently.',
    fix: 'Nothing to fix in your code. If the transcript was truncated, the commands of its last turn may be missing from the report.',
  },
  sources: [],
  examples: { valid: [], invalid: [] },
};

/** Rules of the pipeline itself, by id. */
export const INPUT_RULES: readonly RuleMeta[] = [FILE_SKIPPED, INTERNAL_ERROR, TRANSCRIPT_PARSE_ERROR];
