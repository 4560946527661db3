/**
 * Rules reported by a sandboxed run (`shellward sandbox-check`, `lint --sandbox`, `audit --sandbox`, src/sandbox/), not by a check over
 * the parse tree: they compare what a command did when it ran with what the static verdict said.
 * Declared like the input rules, so they appear in SARIF `rules[]` and in the reference pages;
 * they have no runnable examples (an example would have to run), and test/sandbox/ covers them.
 * Each finding spans the whole command.
 */
import type { RuleMeta } from '../define.js';

/** A command the analysis classified read-only changed files in the working-directory copy. */
export const SANDBOX_WROTE_FILES: RuleMeta = {
  id: 'sandbox-wrote-files',
  code: 'X501',
  title: 'A command classified read-only wrote files when it ran',
  category: 'sandbox',
  severity: { agent: 'error', script: 'error' },
  docs: {
    rationale:
      'The verdict said the command only reads, yet run in the sandbox it created, changed or deleted files in ' +
      'the copy of the working directory. A read-only classification is what lets a command run without a ' +
      'prompt, so this is a miss in the analysis: the command would have been allowed to modify the project.\n\n' +
      'The sandbox runs the command against a copy; the real directory is never touched. The finding lists the ' +
      'files (`data.files`: path and change), the same list `sandbox-check --format json` prints as `filesWritten`.',
    fix:
      'Report the command: the read-only recognition must not accept it. Until that is fixed, do not add an ' +
      'allow rule for it.',
    exceptions:
      'Only the working directory is observed. Writes to the private `/tmp` are discarded and not reported; ' +
      'writes anywhere else fail inside the sandbox (read-only file system) and show up as a failing exit ' +
      'status instead. A change of modification time alone (`touch` of an existing file) counts as a write.\n\n' +
      'Git bookkeeping is not a write: when the command runs `git`, changes to git\'s index (`.git/index`, and ' +
      'a `.git/index.lock` left behind) do not count, in the working directory\'s repository or a nested one. ' +
      'Read-only commands such as `git status` and `git diff` refresh the stat cache in the index; the files ' +
      'still appear in the run\'s list of files written (`filesWritten`), but not in the finding.',
  },
  sources: [],
  examples: { valid: [], invalid: [] },
};

/** The command failed when it ran: a non-zero exit that is an error for that command, or a time-out. */
export const SANDBOX_EXIT_ERROR: RuleMeta = {
  id: 'sandbox-exit-error',
  code: 'X502',
  title: 'The command failed when it ran in the sandbox',
  category: 'sandbox',
  severity: { agent: 'warning', script: 'warning' },
  docs: {
    rationale:
      'Run in the sandbox, the command exited with a status that means failure for it (exit-code semantics of ' +
      'Claude Code: anything but 0, except exit 1 of `grep`, `rg`, `find`, `diff`, `test` and `[`), it was ' +
      'killed at the time-out, or it was stopped because the working directory grew past the sandbox\'s limit ' +
      '(twice the copy limits in entries or bytes). `data.exitCode`, `data.meaning`, `data.timedOut` and `data.stopped` say which.\n\n' +
      'A failure inside the sandbox can also come from the sandbox itself: there is no network, the file system ' +
      'outside the working directory is read-only, and the environment is reduced to an allowlist.',
    fix:
      'Read the captured standard error. If the failure is the sandbox\'s doing (a download, a write to the ' +
      'home directory), the static verdict missed a side effect; otherwise fix the command.',
  },
  sources: ['claude-code:commandSemantics'],
  examples: { valid: [], invalid: [] },
};

/** The command exited non-zero with a status that is an answer, not an error (grep exit 1). */
export const SANDBOX_EXIT_NONZERO: RuleMeta = {
  id: 'sandbox-exit-nonzero',
  code: 'X503',
  title: 'The command exited non-zero without failing',
  category: 'sandbox',
  severity: { agent: 'note', script: 'note' },
  docs: {
    rationale:
      'Some commands answer with their exit status: `grep` and `rg` exit 1 when nothing matched, `find` when a ' +
      'directory was inaccessible, `diff` when the files differ, `test` and `[` when the condition is false. ' +
      'Claude Code does not treat these as errors (commandSemantics.ts), and neither does shellward: the note ' +
      'records the meaning (`data.meaning`: `no-match`, `some-inaccessible`, `files-differ`, `condition-false`).',
    fix: 'Nothing to fix. Write `grep … || true` if a caller treats every non-zero status as a failure.',
    exceptions:
      'The interpreted command is the last one of the last pipeline or list, as in Claude Code: in ' +
      '`grep x f && echo found`, a grep exit 1 is interpreted as `echo` failing.',
  },
  sources: ['claude-code:commandSemantics'],
  examples: { valid: [], invalid: [] },
};

/** A transcript's recorded outcome of a call differs from the outcome of the same command in the sandbox. */
export const SANDBOX_OUTCOME_MISMATCH: RuleMeta = {
  id: 'sandbox-outcome-mismatch',
  code: 'X504',
  title: "The recorded outcome of a call differs from the sandbox's",
  category: 'sandbox',
  severity: { agent: 'note', script: 'note' },
  docs: {
    rationale:
      '`lint --sandbox` and `audit --sandbox` run the transcript calls the policy allows again, in the sandbox, and ' +
      'compare the exit status the transcript recorded with the one the sandbox got, by meaning (claude-code-reference.md §3.6: ' +
      '`success`, `no-match`, `condition-false`, `files-differ`, `some-inaccessible`, `error`; a time-out is its ' +
      'own kind). A difference is reported with both outcomes (`data.recorded`, `data.sandboxed`) and the likely ' +
      'cause (`data.cause`):\n\n' +
      '- `environment-differs`: the recorded working directory does not exist on this machine (or none was ' +
      'recorded), so the command ran in an empty directory;\n' +
      '- `sandbox-restrictions`: it succeeded when recorded and failed in the sandbox, which has no network, a ' +
      'read-only file system outside the working directory and an allowlisted environment;\n' +
      '- `state-differs`: the files it read are not what they were when the call was recorded (a failure fixed ' +
      'since, a search that now matches).\n\n' +
      'A note, not a warning: a mismatch is information about the run, rarely a fault of the command.',
    fix:
      'Nothing to fix in the transcript. If the cause is `sandbox-restrictions`, the command has a side effect the ' +
      'static verdict may not show (network access, writes outside the project): read `data.sandboxed` and the ' +
      '`sandbox-exit-error` finding at the same call.',
    exceptions:
      'Only calls recorded as run to completion (outcome `ran`) with an exit code, or marked failed, are compared; ' +
      'rejected, denied, cancelled, interrupted and backgrounded calls and calls without a result are not.',
  },
  sources: ['claude-code:commandSemantics'],
  examples: { valid: [], invalid: [] },
};

/** The rules of sandboxed runs, by id. */
export const SANDBOX_RULES: readonly RuleMeta[] = [SANDBOX_EXIT_ERROR, SANDBOX_EXIT_NONZERO, SANDBOX_OUTCOME_MISMATCH, SANDBOX_WROTE_FILES];
