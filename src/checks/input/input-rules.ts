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
      'shellward reads shell scripts as UTF-8 text. A file that contains NUL bytes (binary), that cannot be ' +
      'read, or that is over 16 MiB is skipped and reported, so nothing is silently left out (text that is ' +
      'not valid UTF-8 is checked anyway: `invalid-utf8`). A file named on the command line that is of no kind ' +
      'shellward reads (say `x.py`: not a shell script, Makefile, workflow, Dockerfile …) is skipped with this ' +
      'note too, rather than read as shell.',
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

/** An inline suppression comment that is malformed, names an unknown rule or gives no reason. */
export const SUPPRESSION_INVALID: RuleMeta = {
  id: 'suppression-invalid',
  code: 'I904',
  title: 'Suppression comment is invalid',
  category: 'input',
  severity: { agent: 'warning', script: 'warning' },
  docs: {
    rationale:
      'Findings can be silenced where they occur with `# shellward-disable-next-line <id>[,<id>] -- <reason>` ' +
      '(the line after the comment) or `# shellward-disable-file <id>[,<id>] -- <reason>` (the whole file), ' +
      'in shell scripts and Makefiles. A suppression must say why the finding is safe to ignore, so a reviewer ' +
      'can judge it: a directive without a reason after ` -- `, without a rule id, or with an unknown directive ' +
      'name suppresses nothing and is reported. A rule id that shellward does not know (a typo, or a rule that ' +
      'was renamed) is reported too; the directive\'s other ids still apply.',
    fix: 'Write `# shellward-disable-next-line <rule-id> -- <why this is safe>` with the rule id shown in the finding, e.g. `[destructive-command]`.',
    exceptions: 'Directives are read from comments only: text in heredoc bodies and quoted strings is never a directive. Transcripts have no directives.',
  },
  sources: ['eslint:eslint-disable-next-line', 'shellcheck:disable'],
  examples: { valid: [], invalid: [] },
};

/** An inline suppression that suppressed no finding. */
export const SUPPRESSION_UNUSED: RuleMeta = {
  id: 'suppression-unused',
  code: 'I905',
  title: 'Suppression comment suppresses nothing',
  category: 'input',
  severity: { agent: 'warning', script: 'warning' },
  docs: {
    rationale:
      'A `shellward-disable-next-line` directive whose next line has no finding of the named rule, or a ' +
      '`shellward-disable-file` directive whose file has none, suppresses nothing: the code it was written for ' +
      'was changed or moved. Left in place it would silently hide a future finding on that line, so it is reported.',
    fix: 'Remove the directive, or move it to the line just above the finding.',
    exceptions: 'A directive for a rule that the configuration turns `off` is not reported.',
  },
  sources: ['eslint:reportUnusedDisableDirectives'],
  examples: { valid: [], invalid: [] },
};

/** Rules of the pipeline itself, by id. */
/** A script or Makefile that is not valid UTF-8 was checked with the bad bytes replaced. */
export const INVALID_UTF8: RuleMeta = {
  id: 'invalid-utf8',
  code: 'I906',
  title: 'File is not valid UTF-8',
  category: 'input',
  severity: { agent: 'note', script: 'note' },
  docs: {
    rationale:
      'shellward reads scripts as UTF-8. bash itself runs files in any byte encoding, and many old scripts ' +
      'have a Latin-1 comment or string, so such a file is still checked: each byte sequence that is not ' +
      'UTF-8 is read as U+FFFD (the replacement character), and this note names the first one. Skipping ' +
      'the file would let everything else in it (an `rm -rf /`) pass unseen.',
    fix: 'Convert the file to UTF-8 (`iconv -f latin1 -t utf-8`).',
    exceptions:
      'Columns on a line with replaced bytes count the replacement characters, not the original bytes. A ' +
      'file with NUL bytes in its first 8 KiB is binary and is skipped (`file-skipped`).',
  },
  sources: [],
  examples: { valid: [], invalid: [] },
};

/** Shell code that runs in a shell shellward does not analyse (a workflow step in pwsh, a Dockerfile SHELL of PowerShell). */
export const SHELL_NOT_ANALYSED: RuleMeta = {
  id: 'shell-not-analysed',
  code: 'I907',
  title: 'Code in a shell shellward does not analyse',
  category: 'input',
  severity: { agent: 'note', script: 'note' },
  docs: {
    rationale:
      'shellward analyses POSIX shells (sh, bash, dash, ksh, zsh). A GitHub Actions step whose `shell:` is `pwsh`, ' +
      '`powershell`, `cmd` or `python` (or that runs on a Windows runner, where the default is `pwsh`), a Dockerfile ' +
      '`RUN` after a `SHELL ["powershell", …]`, or a command whose program is PowerShell or cmd.exe is left out of ' +
      'the analysis, and this note says so, so nothing is silently reported as clean.',
    fix: 'Nothing to fix; review such code by other means.',
  },
  sources: [],
  examples: { valid: [], invalid: [] },
};

/** A YAML or JSON input (workflow, GitLab CI, package.json …) that cannot be parsed. */
export const SOURCE_PARSE_ERROR: RuleMeta = {
  id: 'source-parse-error',
  code: 'I908',
  title: 'File could not be parsed as its kind',
  category: 'input',
  severity: { agent: 'warning', script: 'warning' },
  docs: {
    rationale:
      'A GitHub Actions workflow, GitLab CI file, pre-commit configuration, package.json, dev container or Claude Code ' +
      'settings file that is not valid YAML or JSON cannot be read for the shell code it holds. The error is ' +
      'reported at its place and the file\'s shell code is not checked; the rest of the run goes on.',
    fix: 'Fix the syntax error (the tool that runs the file would reject it too).',
  },
  sources: [],
  examples: { valid: [], invalid: [] },
};

export const INPUT_RULES: readonly RuleMeta[] = [FILE_SKIPPED, INTERNAL_ERROR, TRANSCRIPT_PARSE_ERROR, SUPPRESSION_INVALID, SUPPRESSION_UNUSED, INVALID_UTF8, SHELL_NOT_ANALYSED, SOURCE_PARSE_ERROR];
