/**
 * Rule suggestions (claude-code-reference.md §2.9): the allow rule a user could add so that a subcommand
 * no longer asks. Mirrors Claude Code's `suggestionForExactCommand` and `getSimpleCommandPrefix`,
 * with one deliberate deviation: no suggestion at all for a command whose program (after safe env
 * assignments) is a bare shell or wrapper of BARE_SHELL_PREFIXES (Claude Code consults that list
 * only in its single-word fallback, so it can suggest `sudo apt:*`). Pure; never throws.
 */
import facts from '../../rules/permissions.json' with { type: 'json' };
import { SAFE_ENV_VARS } from './match.js';
import { formatBashRule } from './parse.js';

/** BARE_SHELL_PREFIXES (claude-code-reference.md §2.9): programs that never get a suggested rule. */
export const BARE_SHELL_PREFIXES: ReadonlySet<string> = new Set(facts.bareShellPrefixes);

/** At most this many suggestions for a compound command (MAX_SUGGESTED_RULES_FOR_COMPOUND). */
export const MAX_SUGGESTED_RULES_FOR_COMPOUND = 5;

const SUBCOMMAND = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;

/**
 * Tokens of `cmd` (split on whitespace) after leading `NAME=` tokens, or `undefined` when one of
 * those names is not in SAFE_ENV_VARS.
 */
function afterSafeEnv(cmd: string): string[] | undefined {
  const tokens = cmd.trim().split(/\s+/).filter((t) => t !== '');
  let i = 0;
  while (i < tokens.length) {
    const m = ASSIGNMENT.exec(tokens[i]!);
    if (!m) break;
    if (!SAFE_ENV_VARS.has(m[1]!)) return undefined;
    i++;
  }
  return tokens.slice(i);
}

/**
 * The 2-word prefix of `cmd` (Claude Code `getSimpleCommandPrefix`): whitespace tokens after safe
 * env assignments (any other assignment → none), at least two of them, the second shaped like a
 * subcommand (`[a-z][a-z0-9]*(-[a-z0-9]+)*`). `git commit -m x` → `git commit`; `ls -la` → none.
 */
export function simpleCommandPrefix(cmd: string): string | undefined {
  const tokens = afterSafeEnv(cmd);
  if (!tokens || tokens.length < 2 || !SUBCOMMAND.test(tokens[1]!)) return undefined;
  return `${tokens[0]} ${tokens[1]}`;
}

/** True when the program of `cmd` (after safe env assignments) is in BARE_SHELL_PREFIXES. */
function isBareShell(cmd: string): boolean {
  const first = afterSafeEnv(cmd)?.[0];
  return first !== undefined && BARE_SHELL_PREFIXES.has(first);
}

/**
 * The allow rule suggested for one subcommand's text (Claude Code `suggestionForExactCommand`),
 * as a rule string such as `Bash(git commit:*)`, or `undefined`:
 * 1. heredoc (`<<` after position 0): the 2-word prefix of the text before it, else up to two
 *    tokens after safe env assignments, as a prefix rule;
 * 2. multi-line: the trimmed first line as a prefix rule;
 * 3. single line: the 2-word prefix as a prefix rule;
 * 4. otherwise the exact command, unless it contains a `*` (it would read back as a pattern).
 * None for bare shells and wrappers (see the module comment) and for empty text.
 */
export function suggestionForExactCommand(cmd: string): string | undefined {
  const text = cmd.trim();
  if (text === '' || isBareShell(text)) return undefined;
  const heredoc = text.indexOf('<<');
  if (heredoc > 0) {
    const before = text.slice(0, heredoc);
    const p = simpleCommandPrefix(before);
    if (p) return formatBashRule(`${p}:*`);
    const tokens = afterSafeEnv(before);
    if (tokens && tokens.length > 0) return formatBashRule(`${tokens.slice(0, 2).join(' ')}:*`);
  }
  if (text.includes('\n')) {
    const first = text.split('\n')[0]!.trim();
    return first === '' ? undefined : formatBashRule(`${first}:*`);
  }
  const p = simpleCommandPrefix(text);
  if (p) return formatBashRule(`${p}:*`);
  // An exact rule for a command with a literal `*` would be read back as a wildcard pattern
  // (claude-code-reference.md §2.10), which prefix-style checks then treat differently from the exact command (a
  // `find … -delete` pattern never allows it): suggest nothing rather than a rule that does not
  // mean what it says. Deviation from Claude Code, which suggests it anyway.
  if (text.includes('*')) return undefined;
  return formatBashRule(text);
}
