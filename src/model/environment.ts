/**
 * Environment assignments before a command, classified: whether `NAME=value` may make the program
 * (or the shell) find another program or load code, and whether allow rules and the read-only
 * auto-allow may see past it. Data: Claude Code's safe list (rules/permissions.json
 * `safeEnvVars`), shellward's list of assignments that load no code with their sources
 * (rules/commands/environment.json), the variables known to load code (rules/permissions.json
 * `codeLoadingEnvVars`). Sound by construction: a name in neither harmless list is not proven
 * harmless, whatever it is — a program may read any variable to find a config file or a program
 * (`RIPGREP_CONFIG_PATH`, `KUBECONFIG`, `FLASK_APP`) — so it stops allow rules and read-only; the
 * known code-loading names also make what runs unknown (src/model/build.ts), which unknown names
 * do not: their effect on a program that does not read them is nil. Pure.
 */
import permissions from '../../rules/permissions.json' with { type: 'json' };
import table from '../../rules/commands/environment.json' with { type: 'json' };

interface HarmlessGroup {
  readonly names: readonly string[];
  readonly values?: readonly string[];
  readonly rules?: 'all' | 'prefix';
}

const GROUPS: readonly HarmlessGroup[] = (table as { harmless: HarmlessGroup[] }).harmless;
const SAFE: ReadonlySet<string> = new Set((permissions as { safeEnvVars: string[] }).safeEnvVars);
const CODE_ENV: readonly string[] = (permissions as { codeLoadingEnvVars?: string[] }).codeLoadingEnvVars ?? [];

/** `name` may be an array element (`BASH_CMDS[ls]`): the array's name counts. */
function codeLoadingName(name: string): boolean {
  const base = name.replace(/\[[\s\S]*$/, '');
  return CODE_ENV.some((p) => (p.endsWith('*') ? base.startsWith(p.slice(0, -1)) : base === p));
}

/** The variables that choose the character set bash reads its input in (Bash manual, Bash Variables: `LC_CTYPE`). */
const CTYPE_VARS: ReadonlySet<string> = new Set(['LC_ALL', 'LC_CTYPE', 'LANG']);

/**
 * Whether a locale name certainly selects a character set in which a backslash byte is always a
 * backslash: the C/POSIX locale or UTF-8 (and empty, the default). A multibyte set such as GBK,
 * BIG5, GB18030 or Shift_JIS has characters whose second byte is 0x5C, so bash (which reads
 * its input by the locale's characters) sees no line continuation where a UTF-8 parser does;
 * a name without a charset (`zh_CN`, `zh_TW`) may mean one of them.
 */
function asciiSafeLocale(value: string): boolean {
  return /^(|C|POSIX|[A-Za-z0-9_]+\.(?:UTF-?8|utf-?8)(?:@[A-Za-z0-9]+)?)$/.test(value);
}

/**
 * Whether assigning `name=value` in the shell itself (an assignment statement, `export`, a prefix
 * of a special builtin) may change how bash splits the rest of its input into characters:
 * `LC_ALL`, `LC_CTYPE` or `LANG` set to anything but C, POSIX or a UTF-8 locale (`value`
 * `undefined`: not static). bash switches locale as soon as the variable is assigned, and reads
 * the following lines in it. A prefix of an external command does not count: bash restores the
 * locale before it reads on.
 */
export function changesInputCharset(name: string, value: string | undefined): boolean {
  return CTYPE_VARS.has(name) && (value === undefined || !asciiSafeLocale(value));
}

/**
 * How an assignment `name=value` before a command counts (`value`: its static value, `undefined`
 * when it has expansions):
 * - `harmless`: loads no code and names no program, for every allow rule and the read-only
 *   auto-allow (Claude Code's safe list, or a group of rules/commands/environment.json);
 * - `prefix-only`: harmless for prefix and wildcard allow rules and read-only, not for exact rules
 *   (build flags);
 * - `code`: may make a program or the shell run or load code chosen by the value (LD_PRELOAD,
 *   BASH_ENV, GIT_SSH_COMMAND, PAGER=less …);
 * - `unknown`: not proven harmless (any other name, or a value with expansions).
 */
export function classifyAssignment(name: string, value: string | undefined): 'harmless' | 'prefix-only' | 'code' | 'unknown' {
  for (const g of GROUPS) {
    if (!g.names.includes(name)) continue;
    if (g.values !== undefined && (value === undefined || !g.values.includes(value))) continue;
    if (value === undefined) break;
    return g.rules === 'prefix' ? 'prefix-only' : 'harmless';
  }
  if (codeLoadingName(name)) return 'code';
  if (SAFE.has(name) && value !== undefined) return 'harmless';
  return 'unknown';
}

/**
 * Whether assigning `name` may make a program load or run code chosen by its value, whatever the
 * value (rules/permissions.json `codeLoadingEnvVars`), unless `value` is one the harmless table
 * allows for it (`PAGER=cat`).
 */
export function codeLoadingVariable(name: string, value?: string): boolean {
  return classifyAssignment(name, value) === 'code';
}
