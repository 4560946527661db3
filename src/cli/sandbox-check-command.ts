/**
 * `shellward sandbox-check -- 'COMMAND'`: runs one command in a sandbox (bubblewrap on Linux,
 * sandbox-exec on macOS) **if the policy allows it**, and reports what it did: exit status and
 * its meaning, duration, captured output, files written in the working-directory copy, and the
 * sandbox findings. The verdict comes from the same engine and the same policy as `shellward
 * check` (the shellward config and `.claude/settings*.json` around the working directory); a
 * command the policy asks about or denies is refused and never started. Never runs anything
 * unsandboxed.
 *
 * Exit codes:
 * - 0: the command ran; no finding at warning or error (a note such as grep's exit 1 is fine);
 * - 1: the command ran; a finding at warning or error (it failed, timed out, or a command
 *   classified read-only wrote files);
 * - 2: usage error, a working directory that cannot be copied, a sandbox set-up failure, or an
 *   internal error (the code of every shellward subcommand for errors);
 * - 3: refused: the policy decision is `ask` or `deny` (as `check`'s deny code, so 0 and 1 stay
 *   about the run);
 * - 4: no sandbox is available on this machine (no bwrap, no user namespaces, unsupported platform).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import { Linter } from '../lint.js';
import { escapeForTerminal } from '../report/index.js';
import { DEFAULT_TIMEOUT_MS } from '../sandbox/defaults.js';
import { clearanceFromVerdict, type SandboxClearance } from '../sandbox/policy.js';
import type { SandboxOutcome } from '../sandbox/run.js';
import type { CapturedOutput } from '../sandbox/process.js';
import { verdictFor } from '../verdict.js';
import { addConfigOptions, linterOptions, loadCliConfig, type ConfigCliOptions } from './config-options.js';
import { EXIT } from './exit-codes.js';

/** Exit codes of `shellward sandbox-check` (see the module comment). */
export const SANDBOX_CHECK_EXIT = {
  OK: 0,
  FINDINGS: 1,
  ERROR: EXIT.ERROR,
  REFUSED: 3,
  UNAVAILABLE: 4,
} as const;

/** Largest accepted `--timeout`, in milliseconds (one hour). */
export const MAX_TIMEOUT_MS = 3_600_000;

/** Output formats of `sandbox-check`. */
export type SandboxCheckFormat = 'text' | 'json';

interface SandboxCheckOptions extends ConfigCliOptions {
  cwd?: string;
  format: SandboxCheckFormat;
  timeout: number;
}

/** Everything `sandbox-check` reports: the command, where it ran, what the policy said, and the outcome. */
export interface SandboxReport {
  readonly command: string;
  readonly cwd: string;
  readonly verdict: SandboxClearance;
  readonly outcome: SandboxOutcome;
}

/** Exit code of a report: 0 / 1 for a run without / with a warning or error finding, 3 refused, 4 no sandbox. */
export function sandboxExitCode(outcome: SandboxOutcome): number {
  if (outcome.status === 'refused') return SANDBOX_CHECK_EXIT.REFUSED;
  if (outcome.status === 'unavailable') return SANDBOX_CHECK_EXIT.UNAVAILABLE;
  return outcome.result.findings.some((f) => f.severity !== 'note') ? SANDBOX_CHECK_EXIT.FINDINGS : SANDBOX_CHECK_EXIT.OK;
}

/**
 * The JSON document of a report (`--format json`), a plain object with fields in a fixed order:
 * `status` (`ran` | `refused` | `unavailable`), `command`, `cwd`, `verdict` ({decision, reason,
 * readOnly}); then for `refused` the `reason`; for `unavailable` the `reason` code and `message`;
 * for `ran`: `sandbox`, `exitCode`, `signal`, `timedOut`, `stopped` (why a limit stopped it, or null), `meaning`, `durationMs`, `stdout`,
 * `stderr` ({text, bytes, truncated}), `filesWritten` ([{path, change, type, aspects?}]),
 * `filesComplete`, `notCopied`, `findings`. Pure.
 */
export function sandboxReportJson(report: SandboxReport): Record<string, unknown> {
  const head = { status: report.outcome.status, command: report.command, cwd: report.cwd, verdict: report.verdict };
  const o = report.outcome;
  if (o.status === 'refused') return { ...head, reason: o.reason };
  if (o.status === 'unavailable') return { ...head, reason: o.reason, message: o.message };
  const r = o.result;
  return {
    ...head,
    cwd: r.cwd,
    sandbox: r.sandbox,
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.timedOut,
    stopped: r.stopped,
    meaning: r.meaning,
    durationMs: r.durationMs,
    stdout: r.stdout,
    stderr: r.stderr,
    filesWritten: r.filesWritten,
    filesComplete: r.filesComplete,
    notCopied: r.notCopied,
    findings: r.findings,
  };
}

function outputBlock(name: string, out: CapturedOutput): string[] {
  if (out.bytes === 0) return [];
  const lines = [`${name} (${out.bytes} bytes${out.truncated ? ', truncated' : ''}):`];
  for (const l of out.text.replace(/\n$/, '').split('\n')) lines.push(`  | ${escapeForTerminal(l)}`);
  return lines;
}

/**
 * The text form of a report: one status line, then (for a run) the files written, the captured
 * output (each line prefixed `  | `) and the findings. Every piece of command-controlled text is
 * escaped for the terminal. Pure.
 */
export function formatSandboxText(report: SandboxReport): string {
  const o = report.outcome;
  if (o.status === 'refused') return `refused  not run: ${escapeForTerminal(o.reason)}\n`;
  if (o.status === 'unavailable') return `unavailable  not run: no sandbox (${o.reason}): ${escapeForTerminal(o.message)}\n`;
  const r = o.result;
  const status = r.stopped !== null
    ? `stopped at a limit (${escapeForTerminal(r.stopped)})`
    : r.timedOut
    ? 'killed at the time-out'
    : r.exitCode === null
      ? `killed by ${r.signal ?? 'a signal'}`
      : `exit ${r.exitCode} (${r.meaning?.kind ?? 'unknown'}${r.meaning?.message ? `: ${r.meaning.message}` : ''})`;
  const lines = [`ran in ${r.sandbox}  ${status}  ${r.durationMs} ms`];
  lines.push(`files written: ${r.filesWritten.length}${r.filesComplete ? '' : ' (incomplete: too many entries)'}`);
  for (const f of r.filesWritten) lines.push(`  ${f.change.padEnd(7)}  ${escapeForTerminal(f.path)}${f.aspects ? `  (${f.aspects.join(', ')})` : ''}`);
  if (r.notCopied.length > 0) lines.push(`not copied (sockets, FIFOs, devices): ${r.notCopied.map(escapeForTerminal).join(', ')}`);
  lines.push(...outputBlock('stdout', r.stdout), ...outputBlock('stderr', r.stderr));
  for (const f of r.findings) lines.push(`  ${f.severity.padEnd(7)}  ${f.ruleId}  ${escapeForTerminal(f.message)}`);
  return lines.join('\n') + '\n';
}

/** Runs `sandbox-check` for one command and returns the exit code. */
export async function runSandboxCheck(command: string | undefined, opts: SandboxCheckOptions): Promise<number> {
  if (command === undefined) {
    process.stderr.write("shellward sandbox-check: missing command (shellward sandbox-check -- 'COMMAND')\n");
    return SANDBOX_CHECK_EXIT.ERROR;
  }
  const cwd = resolve(opts.cwd ?? process.cwd());
  // The policy, exactly as `shellward check` loads it: the shellward config and
  // .claude/settings*.json around the working directory.
  const resolved = await loadCliConfig(opts, cwd);
  if (!resolved) return SANDBOX_CHECK_EXIT.ERROR;
  const linter = await Linter.create(linterOptions(resolved, opts, true));
  const verdict = clearanceFromVerdict(verdictFor(command, { cwd }, linter));
  // Loaded here, not at start-up: the runner (execa, process code) is only needed by this subcommand.
  const { runInSandbox, SandboxRequestError } = await import('../sandbox/run.js');
  const { SandboxSetupError } = await import('../sandbox/bwrap.js');
  let outcome: SandboxOutcome;
  try {
    outcome = await runInSandbox({ command, cwd, clearance: verdict, timeoutMs: opts.timeout });
  } catch (err) {
    if (err instanceof SandboxRequestError || err instanceof SandboxSetupError) {
      process.stderr.write(`shellward sandbox-check: ${escapeForTerminal(err.message)}\n`);
      return SANDBOX_CHECK_EXIT.ERROR;
    }
    throw err;
  }
  const report: SandboxReport = { command, cwd, verdict, outcome };
  process.stdout.write(opts.format === 'json' ? JSON.stringify(sandboxReportJson(report), null, 2) + '\n' : formatSandboxText(report));
  return sandboxExitCode(outcome);
}

/** Parses `--timeout`: an integer number of milliseconds, 1 … {@link MAX_TIMEOUT_MS}. */
export function parseTimeout(value: string): number {
  const n = /^[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_TIMEOUT_MS) throw new InvalidArgumentError(`expected milliseconds between 1 and ${MAX_TIMEOUT_MS}`);
  return n;
}

const HELP_AFTER = `
Runs the command only when the policy allows it (the verdict of "shellward check", with the same
--config and .claude/settings*.json), and only in a sandbox: bubblewrap on Linux (read-only file
system, a writable copy of the working directory at its own path, private /tmp, no network,
allowlisted environment), sandbox-exec on macOS. The real working directory is never modified.

--format json prints {"status", "command", "cwd", "verdict", …}; for a run also "exitCode",
"meaning", "durationMs", "stdout"/"stderr" ({text, bytes, truncated}), "filesWritten"
([{path, change: created|changed|deleted, type}]) and "findings".

Exit codes: 0 ran, no warning or error; 1 ran with a warning or error finding (failed, timed out,
read-only command wrote files); 2 usage or internal error; 3 refused by the policy; 4 no sandbox
available here.
`;

/** Adds the `sandbox-check` subcommand to `program`; `setExit` receives the exit code. */
export function registerSandboxCheckCommand(program: Command, setExit: (code: number) => void): void {
  const cmd = program
    .command('sandbox-check')
    .description('run one command the policy allows in a sandbox and report its exit status, output and the files it wrote')
    .argument('[command]', 'the command to run, as one argument (put -- before it)')
    .option('--cwd <dir>', 'working directory to run in, as a copy (default: the current directory)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .addOption(new Option('--timeout <ms>', 'time-out in milliseconds; the command is killed after it').argParser(parseTimeout).default(DEFAULT_TIMEOUT_MS))
    .addHelpText('after', HELP_AFTER);
  addConfigOptions(cmd).action(async (command: string | undefined, opts: SandboxCheckOptions) => {
    setExit(await runSandboxCheck(command, opts));
  });
}
