/**
 * Read-only recognition (Claude Code `checkReadOnlyConstraints` / `isCommandReadOnly`,
 * readOnlyValidation.ts and readOnlyCommandValidation.ts; claude-code-reference.md §3.3) on parsed
 * words. The tables are data in rules/read-only.json: the flag-validated allowlist (§3.3.3)
 * with its shared git flag groups and named danger checks, and the fallback forms (§3.3.4).
 *
 * Pure, no I/O. Every scan is linear in the input: the regular expressions are flat (no
 * quantified group contains a quantifier), anchored where they test whole words, and applied to
 * one word or one command's text at a time.
 *
 * Where this differs from Claude Code (all in the conservative direction unless noted):
 * - The fallback's hand-written forms are checked word by word on the parse instead of as one
 *   regex over the text (their regexes repeat groups that contain quantifiers); hostname's
 *   flags-only regex is the `noPositionals` check.
 * - No wrapper is stripped (claude-code-reference.md §3.3.3: the key must equal the leading words; the wrapper
 *   stripping of §3.2 serves rule matching only): `timeout 5 ls` and `sudo ls` are not read-only.
 * - Any assignment before the command makes it not read-only. Claude Code 2.1.98 lets a few
 *   known-safe variables (`LANG`, `TZ`, `NO_COLOR`, …) through; that list is not in the reference.
 * - Redirections: fd duplications (`2>&1`) and `/dev/null` targets are accepted (claude-code-reference.md §1.3 safe
 *   redirections; `>>`, `&>`, `>&` and `>|` to /dev/null too, which Claude Code's text strip
 *   misses); any other redirection, input ones included, makes the command not read-only.
 * - UNC paths are looked for on every platform (Claude Code: Windows only), at the start of a
 *   word or after `=`, so `a//b` and sed's `s/\.x/` are not UNC paths.
 * - A compound that is not simple commands joined by `;`, `&&`, `||`, `|`, `|&`, `&` or newlines
 *   (a loop, `if`, subshell, group, function, `[[ ]]`, bare assignment …) is not read-only;
 *   Claude Code reaches the same answer because its split leaves keywords such as `if` or
 *   operators such as `(` in a subcommand.
 * - Flag parsing is a little stricter than `validateFlags`: `-5=x`, `-A20=x` and bundles with
 *   `=` (`-nr=x`) are rejected; jq rejects a short-flag bundle containing `f` or `L`.
 */
import table from '../../rules/read-only.json' with { type: 'json' };
import { resolveCommand } from '../parse/command-name.js';
import type { ParsedScript, Redirect, SimpleCommand } from '../parse/nodes.js';
import { hasUnquotedGlob, type Word } from '../parse/words.js';
import type { Span } from '../core/types.js';
import { sedAllowed } from './sed.js';

/** The verdict of the read-only check. */
export interface ReadOnlyResult {
  readonly readOnly: boolean;
  /** why not, one sentence; '' when read-only */
  readonly reason: string;
}

// ---------------------------------------------------------------------------------------------
// The table (see rules/schema/read-only.schema.json).

type FlagType = 'none' | 'optional' | 'number' | 'string' | 'char' | '{}' | 'EOF';

type Dangerous =
  | { readonly kind: 'positionalMustStartWith'; readonly value: string }
  | { readonly kind: 'positionalIn'; readonly values: readonly string[] }
  | { readonly kind: 'firstPositionalIn'; readonly values: readonly string[] }
  | { readonly kind: 'shortFlagLetter'; readonly value: string }
  | { readonly kind: 'argumentStartsWith'; readonly value: string }
  | { readonly kind: 'bareLettersContain'; readonly value: string }
  | { readonly kind: 'nonFlagContains'; readonly values: readonly string[] }
  | { readonly kind: 'exactlyOnePositional'; readonly pattern: string }
  | { readonly kind: 'noPositionals' }
  | {
      readonly kind: 'positionalNeedsListMode';
      readonly listFlags: readonly string[];
      readonly listLetter: string;
      readonly optionalValueFlags: readonly string[];
      readonly dashDashDangerous: boolean;
    }
  | { readonly kind: 'flagPresent'; readonly values: readonly string[] }
  | { readonly kind: 'flagRequired'; readonly values: readonly string[]; readonly letter: string }
  | { readonly kind: 'sedAllowlist' };

interface CommandRow {
  readonly flags: Readonly<Record<string, FlagType>>;
  readonly groups?: readonly string[];
  readonly respectsDoubleDash?: boolean;
  readonly targets?: readonly string[];
  readonly attachedNumber?: boolean;
  readonly dashNumber?: boolean;
  readonly dashValueFlags?: readonly string[];
  readonly rejectNewline?: boolean;
  readonly dangerous?: readonly Dangerous[];
}

interface FormRow {
  readonly minArgs?: number;
  readonly maxArgs?: number;
  readonly argPatterns?: readonly string[];
  readonly rejectValues?: readonly string[];
  readonly valueFlags?: readonly string[];
  readonly valuePattern?: string;
}

interface Table {
  readonly flagGroups: Readonly<Record<string, Readonly<Record<string, FlagType>>>>;
  readonly commands: Readonly<Record<string, CommandRow>>;
  readonly fallback: {
    readonly genericRest: string;
    readonly generic: readonly string[];
    readonly forms: Readonly<Record<string, FormRow>>;
    readonly gitException: { readonly contains: string; readonly patterns: readonly string[] };
  };
}

const TABLE = table as unknown as Table;

/** A command of the allowlist with its groups merged in. */
interface CommandSpec {
  readonly key: string;
  readonly words: readonly string[];
  readonly flags: ReadonlyMap<string, FlagType>;
  readonly row: CommandRow;
}

/** {@link CommandSpec} of the allowlist row `key`, its flag groups merged in (the row's own flags last). */
function compileCommand(key: string): CommandSpec {
  const row = TABLE.commands[key]!;
  const flags = new Map<string, FlagType>();
  for (const g of row.groups ?? []) {
    const group = TABLE.flagGroups[g];
    if (!group) throw new Error(`rules/read-only.json: ${key} names unknown flag group ${g}`);
    for (const [f, t] of Object.entries(group)) flags.set(f, t);
  }
  for (const [f, t] of Object.entries(row.flags)) flags.set(f, t);
  return { key, words: key.split(' '), flags, row };
}

/** The allowlist's keys by their first word, in table order (built on the first lookup). */
let keysByFirst: Map<string, string[]> | undefined;
/** The compiled specs of each first word looked up so far. */
const SPECS = new Map<string, readonly CommandSpec[]>();

/**
 * The allowlist rows whose key starts with the word `first`, longest key first (`git remote
 * show` before `git remote`), compiled on the first lookup of that word: a hook process checks
 * one or two programs, not the whole table.
 */
function commandSpecs(first: string): readonly CommandSpec[] | undefined {
  const known = SPECS.get(first);
  if (known) return known;
  if (!keysByFirst) {
    keysByFirst = new Map();
    for (const key of Object.keys(TABLE.commands)) {
      const word = key.split(' ', 1)[0]!;
      const list = keysByFirst.get(word);
      if (list) list.push(key);
      else keysByFirst.set(word, [key]);
    }
  }
  const keys = keysByFirst.get(first);
  if (!keys) return undefined;
  const specs = keys.map(compileCommand).sort((a, b) => b.words.length - a.words.length);
  SPECS.set(first, specs);
  return specs;
}

const regexCache = new Map<string, RegExp>();
function re(source: string): RegExp {
  let r = regexCache.get(source);
  if (!r) {
    r = new RegExp(source);
    regexCache.set(source, r);
  }
  return r;
}

const GENERIC_REST = re(TABLE.fallback.genericRest);
const GENERIC = TABLE.fallback.generic;
const FORMS = new Map(Object.entries(TABLE.fallback.forms));
const GIT_EXCEPTION = TABLE.fallback.gitException;

// ---------------------------------------------------------------------------------------------
// Helpers

const OK: ReadOnlyResult = { readOnly: true, reason: '' };
function no(reason: string): ReadOnlyResult {
  return { readOnly: false, reason };
}

/** Shortens a word for a message. */
function show(s: string): string {
  return (s.length > 40 ? `${s.slice(0, 37)}...` : s).replace(/\s/g, ' ');
}

/**
 * True when `value` holds a Windows UNC path (claude-code-reference.md §3.3.1 item 3, §3.3.2 item 2): `\\host`,
 * `//host` (so not `https://…`), mixed `/\host` or `\/host` at the start of the word or after
 * `=`, or the WebDAV markers `@SSL@` and `DavWWWRoot` anywhere.
 */
export function hasUncPath(value: string): boolean {
  return /(?:^|=)(?:\\\\|\/\/|\/\\|\\\/)[^\s\\/]/.test(value) || /@ssl@|davwwwroot/i.test(value);
}

/** The static value of a word, or its source text when it is not static. */
function wordText(w: Word): string {
  return w.value ?? w.raw;
}

function isFdDuplication(r: Redirect): boolean {
  return (r.operator === '>&' || r.operator === '<&') && r.target?.value !== undefined && /^(?:[0-9]+-?|-)$/.test(r.target.value);
}

const DEV_NULL_OPERATORS = new Set(['>', '>>', '&>', '&>>', '>&', '>|', '<']);

/** Why a redirection makes a command not read-only, or undefined. */
function redirectProblem(r: Redirect): string | undefined {
  if (r.heredoc || r.operator === '<<<') return 'It reads a here-document or here-string (input redirection).';
  if (isFdDuplication(r)) return undefined;
  if (r.target?.value === '/dev/null' && DEV_NULL_OPERATORS.has(r.operator) && (r.fd === undefined || /^[0-2]$/.test(r.fd))) return undefined;
  const target = r.target ? show(r.target.raw) : 'a file';
  if (r.operator.includes('>')) return `It writes to \`${target}\` (output redirection).`;
  return `It redirects input from \`${target}\`.`;
}

/** Why a word is not a fixed string (claude-code-reference.md §3.3.2 item 3), or undefined. */
function wordProblem(w: Word, globs = false): string | undefined {
  if (w.parts.some((p) => p.kind !== 'literal')) return `\`${show(w.raw)}\` contains an expansion whose value is not known.`;
  if (!globs && hasUnquotedGlob(w)) return `\`${show(w.raw)}\` contains an unquoted glob.`;
  return undefined;
}

/**
 * The command's source text without the redirections inside its span and without line
 * continuations (backslash-newline, which the shell removes before splitting words).
 */
function commandText(cmd: SimpleCommand, source: string): string {
  const inside = cmd.redirects
    .map((r) => r.span)
    .filter((s) => s.start >= cmd.span.start && s.end <= cmd.span.end)
    .sort((a, b) => a.start - b.start);
  let out = '';
  let pos = cmd.span.start;
  for (const s of inside) {
    if (s.start < pos) continue;
    out += source.slice(pos, s.start);
    pos = s.end;
  }
  out += source.slice(pos, cmd.span.end);
  return out.replaceAll('\\\n', '').trim();
}

// ---------------------------------------------------------------------------------------------
// claude-code-reference.md §3.3.3 validateFlags

/** One argument after the command words, as validateFlags read it. */
interface Item {
  readonly value: string;
  /** `rest`: after an xargs target (not validated). */
  readonly role: 'flag' | 'value' | 'positional' | 'separator' | 'rest';
  /** For a flag: its name without `=value`. */
  readonly flag?: string;
  /** For a positional: it came after `--`. */
  readonly afterDoubleDash?: boolean;
}

type Validation = { readonly ok: true; readonly items: readonly Item[] } | { readonly ok: false; readonly reason: string };

const FLAG_LIKE = /^-[A-Za-z0-9_-]/;

function looksLikeFlag(token: string): boolean {
  return token.length > 1 && FLAG_LIKE.test(token);
}

function validArgument(value: string, type: FlagType): boolean {
  switch (type) {
    case 'none':
    case 'optional':
      return false;
    case 'number':
      return /^[0-9]+$/.test(value);
    case 'string':
      return true;
    case 'char':
      return [...value].length === 1;
    case '{}':
      return value === '{}';
    case 'EOF':
      return value === 'EOF';
  }
}

function validateFlags(tokens: readonly string[], spec: CommandSpec): Validation {
  const { row, flags, key } = spec;
  const items: Item[] = [];
  const fail = (reason: string): Validation => ({ ok: false, reason });
  const restAs = (from: number, role: 'positional' | 'rest'): void => {
    for (let j = from; j < tokens.length; j++) items.push({ value: tokens[j]!, role, afterDoubleDash: role === 'positional' });
  };
  let i = 0;
  while (i < tokens.length) {
    let token = tokens[i]!;
    if (row.targets && (!token.startsWith('-') || token === '--')) {
      if (token === '--' && i + 1 < tokens.length) {
        items.push({ value: token, role: 'separator' });
        token = tokens[++i]!;
      }
      if (!row.targets.includes(token)) {
        return fail(`\`${key}\` may run only ${row.targets.join(', ')}, not \`${show(token)}\`.`);
      }
      restAs(i, 'rest');
      break;
    }
    if (token === '--') {
      items.push({ value: token, role: 'separator' });
      if (row.respectsDoubleDash !== false) {
        restAs(i + 1, 'positional');
        break;
      }
      i++;
      continue;
    }
    if (!looksLikeFlag(token)) {
      items.push({ value: token, role: 'positional' });
      i++;
      continue;
    }
    const eq = token.indexOf('=');
    const flag = eq === -1 ? token : token.slice(0, eq);
    const inline = eq === -1 ? undefined : token.slice(eq + 1);
    const type = flags.get(flag);
    if (type === undefined) {
      // git -<digits> (a count, like -n N).
      if (row.dashNumber && inline === undefined && /^-[0-9]+$/.test(flag)) {
        items.push({ value: token, role: 'flag', flag });
        i++;
        continue;
      }
      const short = !flag.startsWith('--') && flag.length > 2;
      // grep/rg -A20: a short flag taking a number or string with the number attached.
      if (row.attachedNumber && short && inline === undefined) {
        const baseType = flags.get(flag.slice(0, 2));
        if ((baseType === 'number' || baseType === 'string' || baseType === 'optional') && /^[0-9]+$/.test(flag.slice(2))) {
          items.push({ value: token, role: 'flag', flag: flag.slice(0, 2) });
          i++;
          continue;
        }
      }
      // A bundle of short flags: every letter a known flag without an argument.
      if (short) {
        if (inline !== undefined) return fail(`\`${key}\`: the bundle \`${show(token)}\` has a value.`);
        for (const c of flag.slice(1)) {
          const t = flags.get(`-${c}`);
          if (t === undefined) return fail(`\`${key}\`: \`-${c}\` (in \`${show(flag)}\`) is not a read-only flag.`);
          if (t !== 'none') return fail(`\`${key}\`: \`-${c}\` takes an argument and cannot be bundled (\`${show(flag)}\`).`);
        }
        items.push({ value: token, role: 'flag', flag });
        i++;
        continue;
      }
      return fail(`\`${key}\`: \`${show(flag)}\` is not a read-only flag.`);
    }
    if (type === 'none') {
      if (inline !== undefined) return fail(`\`${key}\`: \`${flag}\` takes no value.`);
      items.push({ value: token, role: 'flag', flag });
      i++;
      continue;
    }
    // git's optional-argument options (`--porcelain[=v1]`): a value only when attached with `=`.
    if (type === 'optional') {
      if (inline !== undefined && !/^[A-Za-z0-9_.,:+-]*$/.test(inline)) return fail(`\`${key}\`: \`${show(token)}\` has an unexpected value.`);
      items.push({ value: token, role: 'flag', flag });
      i++;
      continue;
    }
    let value: string;
    items.push({ value: token, role: 'flag', flag });
    if (inline !== undefined) {
      value = inline;
      i++;
    } else {
      const next = tokens[i + 1];
      if (next === undefined || looksLikeFlag(next)) return fail(`\`${key}\`: \`${flag}\` is missing its argument.`);
      value = next;
      items.push({ value, role: 'value', flag });
      i += 2;
    }
    if (type === 'string' && value.startsWith('-') && !(row.dashValueFlags?.includes(flag) && /^-[A-Za-z]/.test(value))) {
      return fail(`\`${key}\`: the value of \`${flag}\` starts with \`-\`.`);
    }
    if (!validArgument(value, type)) return fail(`\`${key}\`: \`${show(value)}\` is not a valid ${type} argument for \`${flag}\`.`);
  }
  return { ok: true, items };
}

// ---------------------------------------------------------------------------------------------
// The named danger checks (closed set; rules/schema/read-only.schema.json).

function dangerReason(d: Dangerous, items: readonly Item[], key: string, args: readonly Word[]): string | undefined {
  const positionals = items.filter((it) => it.role === 'positional');
  switch (d.kind) {
    case 'positionalMustStartWith': {
      const bad = positionals.find((p) => !p.value.startsWith(d.value));
      return bad && `\`${key}\`: the argument \`${show(bad.value)}\` does not start with \`${d.value}\`.`;
    }
    case 'positionalIn': {
      const bad = positionals.find((p) => d.values.includes(p.value));
      return bad && `\`${key} ${bad.value}\` is not read-only.`;
    }
    case 'firstPositionalIn': {
      const first = positionals[0];
      return first && d.values.includes(first.value) ? `\`${key} ${first.value}\` is not read-only.` : undefined;
    }
    case 'shortFlagLetter': {
      const bad = items.find((it) => it.role === 'flag' && !it.value.startsWith('--') && it.value.slice(1).split('=')[0]!.includes(d.value));
      return bad && `\`${key}\`: \`-${d.value}\` is not allowed.`;
    }
    case 'argumentStartsWith': {
      const bad = items.find((it) => it.value.startsWith(d.value));
      return bad && `\`${key}\`: \`${show(bad.value)}\` is not allowed.`;
    }
    case 'bareLettersContain': {
      const bad = items.find((it) => /^[A-Za-z]+$/.test(it.value) && it.value.includes(d.value));
      return bad && `\`${key}\`: \`${show(bad.value)}\` contains the BSD option \`${d.value}\`.`;
    }
    case 'nonFlagContains': {
      const bad = items.find((it) => (it.role === 'positional' || it.role === 'value') && d.values.some((v) => it.value.includes(v)));
      return bad && `\`${key}\`: \`${show(bad.value)}\` looks like a URL or remote address.`;
    }
    case 'exactlyOnePositional':
      return positionals.length === 1 && re(d.pattern).test(positionals[0]!.value)
        ? undefined
        : `\`${key}\` needs exactly one plain name.`;
    case 'noPositionals':
      return positionals.length === 0 ? undefined : `\`${key}\` with the argument \`${show(positionals[0]!.value)}\` is not read-only.`;
    case 'positionalNeedsListMode': {
      let listMode = false;
      let lastFlag = '';
      for (const it of items) {
        if (it.role === 'flag') {
          const v = it.value;
          if (d.listFlags.includes(v) || (it.flag !== undefined && d.listFlags.includes(it.flag))) listMode = true;
          else if (!v.startsWith('--') && v.length > 2 && !v.includes('=') && v.slice(1).includes(d.listLetter)) listMode = true;
          lastFlag = it.flag ?? v;
        } else if (it.role === 'positional') {
          if (it.afterDoubleDash && d.dashDashDangerous) return `\`${key}\`: \`${show(it.value)}\` after \`--\` would create it.`;
          if (!listMode && !d.optionalValueFlags.includes(lastFlag)) return `\`${key} ${show(it.value)}\` would create it (not list mode).`;
        }
      }
      return undefined;
    }
    case 'flagRequired': {
      const present = items.some((it) => it.role === 'flag' && ((it.flag !== undefined && d.values.includes(it.flag)) || (/^-[A-Za-z]{2,}$/.test(it.value) && it.value.includes(d.letter))));
      return present ? undefined : `\`${key}\` without ${d.values.map((v) => `\`${v}\``).join(' or ')} is not read-only.`;
    }
    case 'flagPresent': {
      const bad = items.find((it) => it.role === 'flag' && it.flag !== undefined && d.values.includes(it.flag));
      return bad && `\`${key}\`: \`${bad.flag}\` is not allowed.`;
    }
    case 'sedAllowlist':
      return sedAllowed(args, { allowFileWrites: false }) ? undefined : 'The sed expression is not on the read-only sed allowlist.';
  }
}

/**
 * claude-code-reference.md §3.3.3 `isCommandSafeViaFlagParsing`. `undefined` when no key matches; otherwise the
 * verdict. `values` are the static values of the name and arguments.
 */
function flagParsing(cmd: SimpleCommand, values: readonly string[]): ReadOnlyResult | undefined {
  const spec = commandSpecs(values[0]!)?.find((s) => s.words.every((w, k) => values[k] === w));
  if (!spec) return undefined;
  const { row, key } = spec;
  const tokens = values.slice(spec.words.length);
  for (const t of tokens) {
    if (t.includes('$')) return no(`\`${key}\`: \`${show(t)}\` contains \`$\`.`);
    if (t.includes('{') && (t.includes(',') || t.includes('..'))) return no(`\`${key}\`: \`${show(t)}\` looks like a brace expansion.`);
  }
  const v = validateFlags(tokens, spec);
  if (!v.ok) return no(v.reason);
  if (tokens.some((t) => t.includes('`'))) return no(`\`${key}\`: an argument contains a backtick.`);
  if (row.rejectNewline && tokens.some((t) => /[\n\r]/.test(t))) return no(`\`${key}\`: an argument contains a line break.`);
  const args = cmd.args.slice(spec.words.length - 1);
  for (const d of row.dangerous ?? []) {
    const why = dangerReason(d, v.items, key, args);
    if (why !== undefined) return no(why);
  }
  return OK;
}

// ---------------------------------------------------------------------------------------------
// claude-code-reference.md §3.3.4 fallback

function formMatches(form: FormRow, args: readonly Word[]): boolean {
  if (form.minArgs !== undefined && args.length < form.minArgs) return false;
  if (form.maxArgs !== undefined && args.length > form.maxArgs) return false;
  let previous: string | undefined;
  for (const a of args) {
    const value = a.value ?? '';
    if (previous !== undefined && form.valueFlags?.includes(previous) && form.valuePattern !== undefined) {
      if (!re(form.valuePattern).test(a.raw)) return false;
      previous = undefined;
      continue;
    }
    if (form.argPatterns && !form.argPatterns.some((p) => re(p).test(a.raw))) return false;
    if (form.rejectValues?.some((p) => re(p).test(value))) return false;
    previous = value;
  }
  return true;
}

/** claude-code-reference.md §3.3.2 item 5: a §3.3.4 form accepts the command, and the git exception does not apply. */
function fallbackMatches(cmd: SimpleCommand, source: string): boolean {
  let matched = false;
  for (const name of GENERIC) {
    if (source.startsWith(name) && GENERIC_REST.test(source.slice(name.length))) {
      matched = true;
      break;
    }
  }
  if (!matched) {
    const form = cmd.name ? FORMS.get(cmd.name.raw) : undefined;
    matched = form !== undefined && formMatches(form, cmd.args);
  }
  if (!matched) return false;
  return !(source.includes(GIT_EXCEPTION.contains) && GIT_EXCEPTION.patterns.some((p) => re(p).test(source)));
}

// ---------------------------------------------------------------------------------------------
// Exports

/**
 * Relaxations for the command model (src/model/), which proves what Claude Code's per-string check
 * cannot: `embedded` accepts a command found in `sh -c`/`eval` code (it is checked like any other);
 * `globs` accepts unquoted globs in arguments (the caller has made sure they cannot expand to an
 * option and judges the paths they name).
 */
export interface ReadOnlyOptions {
  readonly embedded?: boolean;
  readonly globs?: boolean;
}

const SYSTEM_DIRECTORIES: readonly string[] = (table as { systemProgramDirectories?: { directories: readonly string[] } }).systemProgramDirectories?.directories ?? [];

/**
 * The program name `word` names when it is `DIR/NAME` with DIR one of the system program
 * directories of rules/read-only.json (`/bin/ls` → `ls`, `/usr/bin//git` → `git`); else undefined.
 * A deliberate extension: Claude Code compares the command word as written, so `/bin/ls` is
 * not read-only there.
 */
export function systemProgram(word: string): string | undefined {
  const slash = word.lastIndexOf('/');
  if (slash <= 0 || !word.startsWith('/')) return undefined;
  const name = word.slice(slash + 1);
  const dir = word.slice(0, slash).replace(/\/{2,}/g, '/');
  if (name === '' || name === '.' || name === '..' || !SYSTEM_DIRECTORIES.includes(dir)) return undefined;
  return name;
}

/** claude-code-reference.md §3.3.2 isCommandReadOnly for one simple command (cmd from src/parse/nodes.ts; text = the unit text its spans index). */
export function simpleCommandReadOnly(cmd: SimpleCommand, text: string, options: ReadOnlyOptions = {}): ReadOnlyResult {
  if (cmd.embedded && !options.embedded) return no('The command is shell code embedded in another command.');
  if (!cmd.name) return no('The statement has no command name.');
  // Simplest honest rule: any `NAME=value` prefix (Claude Code 2.1.98 lets known-safe ones through).
  if (cmd.assignments.length > 0) return no(`The command sets the environment variable \`${cmd.assignments[0]!.name}\`.`);
  for (const r of cmd.redirects) {
    const why = redirectProblem(r);
    if (why !== undefined) return no(why);
  }
  const words = [cmd.name, ...cmd.args];
  for (const w of words) {
    const why = wordProblem(w, options.globs === true && w !== cmd.name);
    if (why !== undefined) return no(why);
  }
  for (const w of words) if (hasUncPath(wordText(w))) return no(`\`${show(w.raw)}\` is a UNC network path.`);
  const values = words.map((w) => w.value!);
  let source = commandText(cmd, text);
  // `/bin/ls` is the system's `ls` (rules/read-only.json systemProgramDirectories).
  const system = systemProgram(values[0]!);
  if (system !== undefined) {
    values[0] = system;
    source = cmd.name.raw === cmd.name.value && source.startsWith(cmd.name.raw) ? system + source.slice(cmd.name.raw.length) : '';
  }
  const byFlags = flagParsing(cmd, values);
  if (byFlags?.readOnly) return OK;
  if (fallbackMatches(system !== undefined ? { ...cmd, name: { ...cmd.name, raw: system, value: system } } : cmd, source)) return OK;
  return byFlags ?? no(`\`${show(values[0]!)}\` is not a recognised read-only command in this form.`);
}

function resolvedName(cmd: SimpleCommand): string | undefined {
  return resolveCommand(cmd)?.name;
}

/** A path that would make the directory look like a bare repository or change one: HEAD, objects/, refs/, hooks/. */
function isGitInternalPath(path: string): boolean {
  return /(?:^|\/)(?:HEAD|objects|refs|hooks)(?:\/|$)/.test(path.replace(/^(?:\.\/)+/, ''));
}

function isOutputRedirect(r: Redirect): boolean {
  return r.operator.includes('>') && !isFdDuplication(r);
}

/** True when the text outside `covered` (sorted by start, possibly nested) is only separators. */
function onlySeparatorsOutside(source: string, covered: readonly Span[]): boolean {
  let pos = 0;
  const gapOk = (from: number, to: number): boolean => {
    for (let i = from; i < to; i++) {
      const c = source[i]!;
      if (c === '\\' && source[i + 1] === '\n') {
        i++;
        continue;
      }
      if (!' \t\r\n;&|'.includes(c)) return false;
    }
    return true;
  };
  for (const s of covered) {
    if (s.start > pos && !gapOk(pos, s.start)) return false;
    if (s.end > pos) pos = s.end;
  }
  return gapOk(pos, source.length);
}

/** Options of {@link gitGuard} and {@link unitReadOnly}. */
export interface GitGuardOptions {
  /** The working directory looks like a bare repository (its config and hooks would run). */
  readonly bareRepository?: boolean;
  /**
   * The working directory (absolute, normalised) the unit runs in. When given, a `cd` into
   * exactly this directory ({@link cdStaysPut}) is not a directory change for the git guard.
   */
  readonly cwd?: string;
}

/**
 * Whether `cmd` is a `cd` that leaves the shell where it is: `cd` (through no wrapper) with one
 * literal argument that is `.`, `./`, or the absolute path `cwd` itself (trailing `/` and `/.`
 * segments ignored; no `..`, no expansion, no `-P`/`-L` or other option). Agents often write
 * `cd /path/to/project && git status` where the path is the working directory: no other
 * repository's config can come into play. `cwd` must be absolute and normalised. Pure.
 */
export function cdStaysPut(cmd: SimpleCommand, cwd: string): boolean {
  if (cmd.name?.value !== 'cd' || cmd.assignments.length > 0 || cmd.redirects.length > 0 || cmd.args.length !== 1) return false;
  const arg = cmd.args[0]!;
  const v = arg.value;
  if (v === undefined || hasUnquotedGlob(arg)) return false;
  if (v === '.' || v === './') return true;
  if (!v.startsWith('/') || !cwd.startsWith('/')) return false;
  const norm = (p: string): string | undefined => {
    const parts = p.split('/').filter((x) => x !== '' && x !== '.');
    return parts.includes('..') ? undefined : `/${parts.join('/')}`;
  };
  const a = norm(v);
  return a !== undefined && a === norm(cwd);
}

/**
 * claude-code-reference.md §3.3.1 item 4, the git guards of a whole unit: when any simple command runs git (through
 * wrappers), a `cd`/`pushd`/`popd` anywhere (but a `cd` into `options.cwd` itself, see {@link cdStaysPut}), a bare-repository working directory, or a
 * `mkdir`/`touch`/`cp`/`mv` argument or output redirection writing repository internals (`HEAD`,
 * `objects/`, `refs/`, `hooks/`) makes git not read-only. Returns {@link OK} when none applies.
 */
export function gitGuard(parsed: ParsedScript, options?: GitGuardOptions): ReadOnlyResult {
  const { commands } = parsed;
  if (commands.some((c) => resolvedName(c) === 'git')) {
    const cd = commands.find((c) => ['cd', 'pushd', 'popd'].includes(resolvedName(c) ?? '') && !(options?.cwd !== undefined && cdStaysPut(c, options.cwd)));
    if (cd) return no('It runs git after changing directory, where a planted repository could run hooks or config.');
    if (options?.bareRepository) return no('The working directory looks like a bare git repository, whose config and hooks git would use.');
    for (const c of commands) {
      const resolved = resolveCommand(c);
      const paths: string[] = [];
      if (resolved && ['mkdir', 'touch', 'cp', 'mv'].includes(resolved.name)) {
        for (const a of resolved.args) if (a.value !== undefined && !a.value.startsWith('-')) paths.push(a.value);
      }
      for (const r of c.redirects) if (isOutputRedirect(r) && r.target?.value !== undefined) paths.push(r.target.value);
      const bad = paths.find(isGitInternalPath);
      if (bad !== undefined) return no(`It writes \`${show(bad)}\` next to a git command, which could plant repository internals (HEAD, objects/, refs/, hooks/).`);
    }
  }
  return OK;
}

/** claude-code-reference.md §3.3.1 items 3-5 for a whole parsed unit: UNC paths, the git guards (a cd/pushd/popd anywhere with git; mkdir/touch/cp/mv path args or output-redirect targets into .git internals HEAD, objects/, refs/, hooks/), and every simple command read-only. The caller separately requires that no security check fired (item 2) and supplies the bare-repo fact. */
export function unitReadOnly(parsed: ParsedScript, options?: GitGuardOptions): ReadOnlyResult {
  const { commands, text: source } = parsed;
  // Item 1: a parse failure is never read-only.
  if (parsed.problems.length > 0) return no('The command does not parse cleanly.');
  // Item 3: UNC paths anywhere.
  for (const cmd of commands) {
    const words = [...(cmd.name ? [cmd.name] : []), ...cmd.args, ...cmd.redirects.flatMap((r) => (r.target ? [r.target] : []))];
    for (const w of words) if (hasUncPath(wordText(w))) return no(`\`${show(w.raw)}\` is a UNC network path.`);
  }
  // Item 4: the git guards.
  const guard = gitGuard(parsed, options);
  if (!guard.readOnly) return guard;
  // Item 5: every simple command.
  for (const cmd of commands) {
    const r = simpleCommandReadOnly(cmd, source);
    if (!r.readOnly) return r;
  }
  // Only simple commands joined by ; && || | |& & and newlines (no loops, subshells, groups …).
  const covered = [...commands.map((c) => c.span), ...commands.flatMap((c) => c.redirects.map((r) => r.span)), ...parsed.comments]
    .sort((a, b) => a.start - b.start);
  if (!onlySeparatorsOutside(source, covered)) {
    return no('It uses shell syntax other than simple commands joined by `;`, `&&`, `||`, `|` or `&` (a loop, condition, subshell, group, function or assignment).');
  }
  return OK;
}
