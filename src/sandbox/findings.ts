/**
 * The findings of a sandboxed run (rules in src/checks/sandbox/sandbox-rules.ts): compares what
 * the command did with what the verdict said. Pure. Every finding spans the whole command
 * (`start` 0, `end` its length, UTF-16 offsets, end exclusive), like a verdict finding.
 */
import { SANDBOX_EXIT_ERROR, SANDBOX_EXIT_NONZERO, SANDBOX_WROTE_FILES } from '../checks/sandbox/sandbox-rules.js';
import type { ExitMeaning } from '../analyses/exit-code.js';
import type { Severity } from '../core/types.js';
import type { FileChange } from './tree.js';

/** One finding of a sandboxed run; `data` carries the facts tests and JSON consumers use. */
export interface SandboxFinding {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly message: string;
  readonly start: number;
  readonly end: number;
  readonly data: Readonly<Record<string, unknown>>;
}

/** What {@link sandboxFindings} compares. */
export interface SandboxFacts {
  readonly command: string;
  /** The verdict's read-only classification. */
  readonly readOnly: boolean;
  /** The meaning of the exit status; `null` when the command was killed and has no status. */
  readonly meaning: ExitMeaning | null;
  readonly timedOut: boolean;
  readonly timeoutMs: number;
  /** Why the run was stopped early (a limit of the working-directory copy), when it was. */
  readonly stopped?: string;
  readonly filesWritten: readonly FileChange[];
  /**
   * Whether the command runs `git` (a simple command named `git`, wrappers stripped). Then git's own
   * bookkeeping files ({@link isGitBookkeeping}) do not count as writes of a read-only command.
   */
  readonly runsGit?: boolean;
}

/**
 * Whether `path` (relative, `/`-separated) is a file git rewrites on its own for read-only
 * commands: the index (`.git/index`, whose stat cache `git status` and `git diff` refresh) and its
 * lock (`.git/index.lock`, left behind only when git is killed mid-write), in the working
 * directory's repository or a nested one. Pure.
 */
export function isGitBookkeeping(path: string): boolean {
  return /(^|\/)\.git\/index(\.lock)?$/.test(path);
}

function describeFiles(files: readonly FileChange[]): string {
  const shown = files.slice(0, 5).map((f) => `${f.path} (${f.change})`);
  return shown.join(', ') + (files.length > 5 ? ` and ${files.length - 5} more` : '');
}

/**
 * The findings, in this order: `sandbox-wrote-files` (error) when `readOnly` and any file was
 * written — git's index and its lock excepted when the command runs git (`runsGit`); then
 * either `sandbox-exit-error` (warning) for a run stopped at a limit, a time-out or an exit status that is an error for
 * the interpreted command, or `sandbox-exit-nonzero` (note) for a non-zero status that is not an
 * error (grep 1: no match). A clean exit 0 adds nothing.
 */
export function sandboxFindings(f: SandboxFacts): SandboxFinding[] {
  const span = { start: 0, end: f.command.length };
  const out: SandboxFinding[] = [];
  const written = f.runsGit ? f.filesWritten.filter((c) => !isGitBookkeeping(c.path)) : f.filesWritten;
  if (f.readOnly && written.length > 0) {
    out.push({
      ruleId: SANDBOX_WROTE_FILES.id,
      severity: SANDBOX_WROTE_FILES.severity.agent as Severity,
      message: `The command was classified read-only but wrote ${written.length} file${written.length === 1 ? '' : 's'} when it ran: ${describeFiles(written)}.`,
      ...span,
      data: { files: written.map((c) => ({ path: c.path, change: c.change })) },
    });
  }
  if (f.stopped !== undefined) {
    out.push({
      ruleId: SANDBOX_EXIT_ERROR.id,
      severity: SANDBOX_EXIT_ERROR.severity.agent as Severity,
      message: `The command was stopped: the working directory grew past the sandbox's limit (${f.stopped}).`,
      ...span,
      data: { timedOut: false, stopped: f.stopped, exitCode: null, meaning: 'error' },
    });
  } else if (f.timedOut) {
    out.push({
      ruleId: SANDBOX_EXIT_ERROR.id,
      severity: SANDBOX_EXIT_ERROR.severity.agent as Severity,
      message: `The command was killed after the time-out of ${f.timeoutMs} ms.`,
      ...span,
      data: { timedOut: true, exitCode: null, meaning: 'error' },
    });
  } else if (f.meaning?.isError) {
    out.push({
      ruleId: SANDBOX_EXIT_ERROR.id,
      severity: SANDBOX_EXIT_ERROR.severity.agent as Severity,
      message: `${f.meaning.message} in the sandbox.`,
      ...span,
      data: { timedOut: false, exitCode: f.meaning.exitCode, meaning: f.meaning.kind },
    });
  } else if (f.meaning && f.meaning.exitCode !== 0) {
    out.push({
      ruleId: SANDBOX_EXIT_NONZERO.id,
      severity: SANDBOX_EXIT_NONZERO.severity.agent as Severity,
      message: `Exit status ${f.meaning.exitCode} of \`${f.meaning.command ?? ''}\` is not an error: ${f.meaning.message}.`,
      ...span,
      data: { exitCode: f.meaning.exitCode, meaning: f.meaning.kind, command: f.meaning.command ?? null },
    });
  } else if (!f.meaning) {
    out.push({
      ruleId: SANDBOX_EXIT_ERROR.id,
      severity: SANDBOX_EXIT_ERROR.severity.agent as Severity,
      message: 'The command was killed by a signal in the sandbox.',
      ...span,
      data: { timedOut: false, exitCode: null, meaning: 'error' },
    });
  }
  return out;
}
