/**
 * `shellward check`: the verdict for one command (`shellward check -- 'git push --force'`), or for
 * a stream of JSON Lines requests (`shellward check --jsonl`), e.g. behind an agent's
 * pre-tool-use hook. The verdict's shape and meaning are documented in src/verdict.ts.
 *
 * Exit codes of `check` (a verdict is an answer, not a lint result, so they differ from `lint`):
 * - single command: 0 allow, 1 ask, 3 deny, 2 error (usage error, or shellward failed on the
 *   input: the verdict's reason is `internal-error`). 0 for allow keeps shell idioms working
 *   (`shellward check -- "$cmd" && run "$cmd"`); ask and deny are distinct because a caller
 *   prompts on one and refuses on the other; 2 is the error code of every shellward subcommand,
 *   so deny gets 3 rather than 2 and a broken run is never mistaken for a policy decision.
 * - `--jsonl`: decisions are in the output, so the exit code only says whether every request was
 *   answered: 0 when every line was a well-formed request analysed without internal error, 2
 *   otherwise (a malformed line gets `{"error": "...", "line": N}` and the stream goes on).
 */
import { isSessionAbsolute } from '../core/session-paths.js';
import { once } from 'node:events';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { BoundedLineSplitter, type BoundedLine } from '../core/bounded-lines.js';
import { Linter } from '../lint.js';
import { escapeForTerminal } from '../report/index.js';
import { maskVerdict } from '../report/mask.js';
import { parseCheckRequest, verdictFor, type Decision, type RequestError, type Verdict } from '../verdict.js';
import { EXIT } from './exit-codes.js';
import { addConfigOptions, linterOptions, loadCliConfig, type ConfigCliOptions } from './config-options.js';

/** Exit codes of `shellward check` for a single command (see the module comment for why). */
export const CHECK_EXIT = {
  ALLOW: 0,
  ASK: 1,
  /** Usage error, malformed JSONL request, or an `internal-error` in the analysis. */
  ERROR: EXIT.ERROR,
  DENY: 3,
} as const;

/** Output formats of a single check. */
export type CheckFormat = 'text' | 'json';

interface CheckOptions extends ConfigCliOptions {
  cwd?: string;
  format: CheckFormat;
  jsonl?: boolean;
}

/** True when the verdict's reason says the analysis itself failed. */
function isInternalError(v: Verdict): boolean {
  return v.reason === 'internal-error' || v.reason.startsWith('internal-error:');
}

/** Exit code of a single verdict: 0 allow, 1 ask, 3 deny, 2 internal error. */
export function exitCodeFor(v: Verdict): number {
  if (isInternalError(v)) return CHECK_EXIT.ERROR;
  const byDecision: Readonly<Record<Decision, number>> = { allow: CHECK_EXIT.ALLOW, ask: CHECK_EXIT.ASK, deny: CHECK_EXIT.DENY };
  return byDecision[v.decision];
}

/**
 * The command line a finding starts on, and under it a caret line marking the finding
 * (`start`/`end`: 0-based UTF-16 offsets into `command`, end exclusive; a finding that runs past
 * the line is marked to its end). Both escaped for the terminal, the carets aligned with the
 * escaped text. Returns two lines without newlines, each indented by `indent`.
 */
export function caretLines(command: string, start: number, end: number, indent = '    '): [string, string] {
  const from = Math.max(0, Math.min(start, command.length));
  const lineStart = command.lastIndexOf('\n', from - 1) + 1;
  let lineEnd = command.indexOf('\n', from);
  if (lineEnd === -1) lineEnd = command.length;
  const to = Math.max(from, Math.min(end, lineEnd));
  const before = escapeForTerminal(command.slice(lineStart, from));
  const marked = escapeForTerminal(command.slice(from, to));
  return [`${indent}${escapeForTerminal(command.slice(lineStart, lineEnd))}`, `${indent}${' '.repeat(before.length)}${'^'.repeat(Math.max(1, marked.length))}`];
}

/**
 * The text form of a verdict: the decision and reason on the first line, then the destructive
 * rule ids and the suggested rules, then per finding `severity  rule-id  message` and, when
 * `command` (the checked text) is given, the command's line with carets under the finding
 * ({@link caretLines}); without it, the 0-based UTF-16 offsets `start-end`. Attacker-controlled
 * text is escaped for the terminal.
 */
export function formatVerdictText(v: Verdict, command?: string): string {
  const lines = [`${v.decision}  ${escapeForTerminal(v.reason)}`];
  if (v.destructive.length > 0) lines.push(`  destructive: ${v.destructive.join(', ')}`);
  if (v.suggestions.length > 0) lines.push(`  suggested rules: ${v.suggestions.map(escapeForTerminal).join(', ')}`);
  for (const f of v.findings) {
    if (command === undefined) {
      lines.push(`  ${f.severity.padEnd(7)}  ${`${f.start}-${f.end}`.padEnd(9)}  ${f.ruleId}  ${escapeForTerminal(f.message)}`);
      continue;
    }
    lines.push(`  ${f.severity.padEnd(7)}  ${f.ruleId}  ${escapeForTerminal(f.message)}`, ...caretLines(command, f.start, f.end));
  }
  return lines.join('\n') + '\n';
}


/**
 * The working directory of a JSONL request: its `cwd` resolved against `defaultCwd` (absolute
 * stays, `~` and `~/…` are the home directory, anything else — `sub`, `.`, `""` — is relative to
 * `defaultCwd`); `defaultCwd` when the request has none.
 */
export function requestCwd(cwd: string | undefined, defaultCwd: string): string {
  if (cwd === undefined) return defaultCwd;
  if (cwd === '~' || cwd.startsWith('~/')) return resolve(homedir(), cwd.slice(2));
  // A Windows drive path (`c:\Users\x`, `C:/x`) is absolute wherever shellward runs.
  if (isSessionAbsolute(cwd)) return cwd;
  return resolve(defaultCwd, cwd);
}

/**
 * Longest `check --jsonl` request line, in UTF-16 code units (8 Mi). A longer line is answered
 * with an error without being decoded as JSON, and the stream goes on; a command anywhere near
 * that size is far over the complexity cap and could never be allowed anyway.
 */
export const MAX_REQUEST_LINE_CHARS = 8 * 1024 * 1024;

/**
 * Answers JSON Lines requests from `input` on `output`, one line per non-blank input line, in
 * order, as they arrive (streaming: memory is bounded by the longest line plus the output
 * buffer; output is flushed at least once per event-loop turn and after every 64 KiB). Blank
 * lines are skipped; `line` in error objects is the 1-based physical line number; a line longer
 * than `maxLineChars` gets an error object without being parsed. Returns the
 * exit code: 0, or 2 when any line was malformed or hit an internal error.
 */
export async function runJsonl(linter: Linter, defaultCwd: string, input: Readable, output: Writable, maxLineChars = MAX_REQUEST_LINE_CHARS): Promise<number> {
  const splitter = new BoundedLineSplitter(maxLineChars);
  let lineNo = 0;
  let failed = false;
  let pending = '';
  let scheduled = false;
  let draining = false;
  const flush = (): void => {
    scheduled = false;
    if (pending === '') return;
    const ok = output.write(pending);
    pending = '';
    if (!ok && !draining) {
      draining = true;
      input.pause();
      output.once('drain', () => {
        draining = false;
        input.resume();
      });
    }
  };
  const answer = (line: string, n: number): string => {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      failed = true;
      return JSON.stringify({ error: `invalid JSON: ${err instanceof Error ? err.message : String(err)}`, line: n } satisfies RequestError);
    }
    const parsed = parseCheckRequest(value);
    if (!parsed.ok) {
      failed = true;
      return JSON.stringify({ error: parsed.error, line: n } satisfies RequestError);
    }
    const { command, ...request } = parsed.request;
    try {
      // A request's cwd is resolved against the default one (`sub`, `.`, `~/x`, `""` all mean a real
      // directory): a relative cwd must not switch path checks off.
      const verdict = verdictFor(command, { ...request, cwd: requestCwd(request.cwd, defaultCwd) }, linter);
      if (isInternalError(verdict)) failed = true;
      return JSON.stringify(maskVerdict(verdict, command).verdict);
    } catch (err) {
      // verdictFor does not throw by design; this keeps the stream going if it ever does.
      failed = true;
      return JSON.stringify({ error: `internal error: ${err instanceof Error ? err.message : String(err)}`, line: n } satisfies RequestError);
    }
  };
  const onLine = (line: BoundedLine): void => {
    lineNo++;
    if (line.oversized) {
      // Rejected by size before JSON.parse: neither the text nor a parse of it is ever held.
      failed = true;
      pending += JSON.stringify({ error: `request line too long: ${line.length} characters (the limit is ${maxLineChars})`, line: lineNo } satisfies RequestError) + '\n';
    } else {
      if (line.text.trim() === '') return;
      pending += answer(line.text, lineNo) + '\n';
    }
    if (pending.length >= 65_536) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  const decoder = new StringDecoder('utf8');
  const ended = new Promise<void>((resolve, reject) => {
    input.on('data', (chunk: Buffer | string) => {
      for (const l of splitter.push(typeof chunk === 'string' ? chunk : decoder.write(chunk))) onLine(l);
    });
    input.once('end', () => {
      const rest = decoder.end();
      for (const l of [...splitter.push(rest), ...splitter.end()]) onLine(l);
      resolve();
    });
    input.once('error', reject);
  });
  await ended;
  flush();
  if (draining) await once(output, 'drain');
  return failed ? CHECK_EXIT.ERROR : 0;
}

/** Printed after a usage error instead of the whole help. */
export const USAGE_HINT = '(run shellward check --help for usage)';

/** Runs `check` and returns the exit code. */
export async function runCheck(command: string | undefined, opts: CheckOptions): Promise<number> {
  const cwd = opts.cwd !== undefined && isSessionAbsolute(opts.cwd) ? opts.cwd : resolve(opts.cwd ?? process.cwd());
  if (opts.jsonl && command !== undefined) {
    process.stderr.write(`shellward check: give either a command or --jsonl, not both\n${USAGE_HINT}\n`);
    return CHECK_EXIT.ERROR;
  }
  if (!opts.jsonl && command === undefined) {
    process.stderr.write(`shellward check: missing command (shellward check -- 'COMMAND', or --jsonl)\n${USAGE_HINT}\n`);
    return CHECK_EXIT.ERROR;
  }
  // The policy: the shellward config and .claude/settings*.json around the command's directory.
  const resolved = await loadCliConfig(opts, cwd);
  if (!resolved) return CHECK_EXIT.ERROR;
  const linter = await Linter.create(linterOptions(resolved, opts, true));
  if (opts.jsonl) {
    return runJsonl(linter, cwd, process.stdin, process.stdout);
  }
  const verdict = verdictFor(command!, { cwd }, linter);
  // A secret in the command (rule secret-in-command) is not printed back, in either format.
  const shown = maskVerdict(verdict, command!);
  process.stdout.write(opts.format === 'json' ? JSON.stringify(shown.verdict, null, 2) + '\n' : formatVerdictText(shown.verdict, shown.command));
  return exitCodeFor(verdict);
}

const HELP_AFTER = `
Verdict (JSON): {"decision", "reason", "readOnly", "destructive", "outsideCwd", "findings", "suggestions",
"matchedRule", "paths"}; finding "start"/"end" are 0-based UTF-16 offsets into the command, end exclusive.
The decision applies the permission rules of the shellward config and .claude/settings*.json (plus a
request's own "permissions"): deny, then ask, then per subcommand path constraints, allow rules,
sed constraints and read-only auto-allow (Claude Code's semantics). "reason" starts with a code:
policy-deny, policy-ask, allow-rule, read-only, path-constraint, sed-constraint, option-effect, accept-edits,
no-matching-rule, a security or parse rule id, path-dangerous-removal, or internal-error.

--jsonl reads one request per line on stdin:
  {"command": "...", "cwd": "...", "permissions": {"allow": [], "ask": [], "deny": []}, "mode": "acceptEdits"}
and writes one verdict per line, in order; a malformed line gets {"error": "...", "line": N}.

Exit codes: single command: 0 allow, 1 ask, 3 deny, 2 error (usage or internal error).
            --jsonl: 0 when every request was answered, 2 when a line was malformed or failed.
`;

/** Adds the `check` subcommand to `program`; `setExit` receives the exit code. */
export function registerCheckCommand(program: Command, setExit: (code: number) => void): void {
  const check = program
    .command('check')
    .description('print the verdict (allow/ask/deny, reason, findings) for one command, or for JSON Lines requests')
    .argument('[command...]', 'the command to check: one quoted argument, or its words, joined with single spaces as `sh -c "$*"` would see them (put -- before it when a word starts with -; quote it to keep quotes, pipes and $)')
    .option('--cwd <dir>', 'working directory the command would run in (default: the current directory)')
    // commander's `new Option`, made through the command: hook-command.js imports this module
    // (requestCwd) and must not load commander itself.
    .addOption(program.createOption('-f, --format <format>', 'output format of a single check').choices(['text', 'json']).default('text'))
    .option('--jsonl', 'read JSON Lines requests on stdin and write one JSON verdict per line')
    .addHelpText('after', HELP_AFTER)
    // A usage error prints one line and this hint, not the ~40 lines of help the program shows.
    .showHelpAfterError(USAGE_HINT);
  addConfigOptions(check).action(async (words: string[], opts: CheckOptions) => {
    // `shellward check git status` is `shellward check 'git status'`: the words joined by spaces.
    setExit(await runCheck(words.length === 0 ? undefined : words.join(' '), opts));
  });
}
