/**
 * Exit-code semantics (claude-code-reference.md §3.6, Claude Code's commandSemantics.ts): whether a
 * recorded exit code means the command failed. The command is split into subcommands at `;`,
 * `&&`, `||`, `|`, `&` and newlines (outside quotes), and the first whitespace-separated token of
 * the **last** subcommand decides: for `grep`, `rg`, `find`, `diff`, `test` and `[`, exit 1 is not
 * an error (no match, files differ, condition false, some directories inaccessible); for every
 * other command any non-zero exit is an error. A heuristic, as in Claude Code: never used for
 * security decisions. Pure.
 *
 * Two entry points share the one table: {@link interpretExitCode} works on the command's text
 * (Claude Code's own splitting and first token, for recorded transcript outcomes), and
 * {@link exitMeaning} + {@link exitCommandName} work on the parse (the status-deciding command from
 * `src/parse/last-command.ts`, used by sandboxed runs), which also names the kind of each meaning.
 */
import { commandBasename } from '../parse/command-name.js';
import type { LastCommand } from '../parse/last-command.js';

/** Meaning of exit 1 for the commands whose exit 1 is not an error. */
const EXIT_ONE_OK: Readonly<Record<string, string>> = {
  grep: 'No matches found',
  rg: 'No matches found',
  find: 'Some directories were inaccessible',
  diff: 'Files differ',
  test: 'Condition is false',
  '[': 'Condition is false',
};

/** How an exit code reads. */
export interface ExitCodeMeaning {
  /** True when the exit code means the command failed. */
  readonly isError: boolean;
  /** Explanation: `Command failed with exit code N`, or the benign meaning of exit 1. Absent for 0. */
  readonly message?: string;
  /** The command token that decided (first token of the last subcommand). */
  readonly command: string;
}

/**
 * The subcommands of `command` split at unquoted `;`, `&&`, `||`, `|`, `&` and newlines (single
 * and double quotes and backslash escapes are respected; nothing else is parsed), trimmed, empty
 * ones dropped.
 */
export function splitSubcommands(command: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      cur += c;
      if (c === '\\' && quote === '"' && i + 1 < command.length) cur += command[++i];
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '\\' && i + 1 < command.length) {
      cur += c + command[++i];
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      cur += c;
      continue;
    }
    if (c === ';' || c === '|' || c === '&' || c === '\n') {
      out.push(cur);
      cur = '';
      if ((c === '|' || c === '&') && command[i + 1] === c) i++;
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

/** The meaning of `exitCode` for `command` (claude-code-reference.md §3.6). */
export function interpretExitCode(command: string, exitCode: number): ExitCodeMeaning {
  const parts = splitSubcommands(command);
  const token = (parts.at(-1) ?? '').split(/\s+/)[0] ?? '';
  if (exitCode === 0) return { isError: false, command: token };
  // Own properties only: `constructor` or `__proto__` as a token must not hit Object.prototype.
  const benign = Object.hasOwn(EXIT_ONE_OK, token) ? EXIT_ONE_OK[token] : undefined;
  if (benign !== undefined && exitCode === 1) return { isError: false, message: benign, command: token };
  return { isError: true, message: `Command failed with exit code ${exitCode}`, command: token };
}

/** What an exit status means, by kind (the parse-based API). */
export type ExitKind =
  | 'success'
  /** grep / rg exit 1. */
  | 'no-match'
  /** find exit 1. */
  | 'some-inaccessible'
  /** diff exit 1. */
  | 'files-differ'
  /** test / `[` exit 1. */
  | 'condition-false'
  | 'error';

/** The kind of each benign exit-1 message of the table. */
const KIND_OF_BENIGN: Readonly<Record<string, ExitKind>> = {
  'No matches found': 'no-match',
  'Some directories were inaccessible': 'some-inaccessible',
  'Files differ': 'files-differ',
  'Condition is false': 'condition-false',
};

/** The meaning of one exit status (the parse-based API). */
export interface ExitMeaning {
  readonly exitCode: number;
  readonly kind: ExitKind;
  /** True for a real failure: a non-zero status that the table does not excuse. */
  readonly isError: boolean;
  /** Claude Code's message: `No matches found`, `Files differ`, `Command failed with exit code N` …; empty for success. */
  readonly message: string;
  /** The command the table was looked up for (`grep`, `[` …), or `undefined` when no single command decides. */
  readonly command: string | undefined;
}

/** The commands whose exit 1 is not an error, with the kind and message of that exit 1. */
export const EXIT_ONE_NOT_ERROR: Readonly<Record<string, { readonly kind: ExitKind; readonly message: string }>> = Object.fromEntries(
  Object.entries(EXIT_ONE_OK).map(([cmd, message]) => [cmd, { kind: KIND_OF_BENIGN[message] ?? 'error', message }]),
);

/**
 * The name the table is looked up by for a unit's {@link LastCommand}: the basename of a static
 * command name (`/usr/bin/grep` → `grep`; leading assignments such as `LC_ALL=C` are not the
 * name), `[` or `[[` for a test command, `undefined` otherwise — a dynamic name, a negation
 * (`! grep x`: `!` inverts the status, so the default table is right), a compound command, an
 * empty unit. Wrappers are not stripped (`sudo grep`, `timeout 5 grep` → the wrapper), as in
 * Claude Code: `timeout` and `xargs` have exit codes of their own. Like Claude Code's, the
 * heuristic interprets the last command even when an earlier one decided the status
 * (`grep x f && echo found`).
 */
export function exitCommandName(last: LastCommand): string | undefined {
  if (last.kind === 'test') return last.bracket;
  if (last.kind !== 'command' || !last.name || last.name.value === undefined) return undefined;
  return commandBasename(last.name.value);
}

/**
 * The meaning of `exitCode` (an integer; a status ≥ 128 from a signal is an error like any other)
 * for `command` (a name from {@link exitCommandName}, or `undefined` for the default table).
 * Own-property lookup only.
 */
export function exitMeaning(command: string | undefined, exitCode: number): ExitMeaning {
  if (exitCode === 0) return { exitCode, kind: 'success', isError: false, message: '', command };
  const special = command !== undefined && Object.hasOwn(EXIT_ONE_NOT_ERROR, command) ? EXIT_ONE_NOT_ERROR[command] : undefined;
  if (exitCode === 1 && special) return { exitCode, kind: special.kind, isError: false, message: special.message, command };
  return { exitCode, kind: 'error', isError: true, message: `Command failed with exit code ${exitCode}`, command };
}
