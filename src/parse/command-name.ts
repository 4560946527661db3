/**
 * Normalises a simple command to the program it runs: strips wrappers (`sudo`, `env`,
 * `command`, `timeout`, `xargs` … from rules/commands/wrappers.json), directory prefixes
 * (`/bin/rm` → `rm`) and zsh's `=cmd`. Mirrors the intent of Claude Code's
 * `stripWrappersFromArgv` (claude-code-reference.md §3.2) and ShellCheck's command-name lookup
 * (`getCommandBasename`, `builtin` unwrapping), working on parsed words instead of text.
 */
import table from '../../rules/commands/wrappers.json' with { type: 'json' };
import type { SimpleCommand } from './nodes.js';
import type { Word } from './words.js';

/** One row of the wrapper table (see rules/schema/wrappers.schema.json). */
export interface WrapperSpec {
  readonly optionsWithValue: readonly string[];
  readonly stopFlags: readonly string[];
  readonly positionalsBeforeCommand?: number;
  readonly allowsAssignments?: boolean;
  /** Options taking the next two words. */
  readonly optionsWithTwoValues?: readonly string[];
  /** Options whose value is shell code the program runs. */
  readonly codeOptions?: readonly string[];
  /** Options after which what runs is not knowable from the command. */
  readonly opaqueOptions?: readonly string[];
  /** `find -exec CMD … ;`: options followed by a command ending at `;` or `+`. */
  readonly execOptions?: readonly string[];
  /** `none`: the words after the options are not a command. Default `argv`. */
  readonly command?: 'argv' | 'none';
  /** Reads commands from standard input when given no command and no code option. */
  readonly stdinCode?: boolean;
  /** A builtin whose argument is shell code. */
  readonly codeArgument?: 'first' | 'assignments';
  /** The command is the words after one of these options only (gdb --args). */
  readonly argvAfter?: readonly string[];
  /** The command ends before the first of these words (parallel CMD ::: ARGS). */
  readonly argvUntil?: readonly string[];
  /** With no command before it, the words after this separator are commands (parallel ::: CMD). */
  readonly codeAfterSeparator?: readonly string[];
  /** Options that do what another program does (find -delete ~ rm), for deny and ask rules. */
  readonly implies?: Readonly<Record<string, string>>;
  /** The n-th operand (1-based; a lone `-` is not counted) is shell code the program runs (`sg GROUP CODE`). */
  readonly codeOperand?: number;
  /** Output options whose value, when it starts with `|` or `!`, is a shell command (strace -o '|cmd'). */
  readonly pipeOptions?: readonly string[];
  /** Options that run the command in another working directory (`env -C DIR`, `sudo -D DIR`, `unshare -w DIR`). */
  readonly chdirOptions?: readonly string[];
  /** Options that run the command under another root directory (`sudo -R DIR`, `unshare -R DIR`). */
  readonly rootOptions?: readonly string[];
  /** The wrapper always runs its command under another root directory (`chroot NEWROOT CMD`). */
  readonly changesRoot?: boolean;
  /**
   * Single-dash words are whole options (`gdb -ex CMD`, `find -exec`), as getopt_long_only
   * reads them, not clusters of one-letter options.
   */
  readonly singleDashLong?: boolean;
  /** A lone `-` is an option, not the command (`env - CMD` is `env -i CMD`). */
  readonly dashIsOption?: boolean;
  /**
   * The first operand names the wrapper's job when the word after it opens a compound command
   * (`coproc NAME { …; }`, `coproc NAME while …`): the command starts at that word.
   */
  readonly namedCompound?: boolean;
}

/** Reserved words and operators that open a compound command (bash manual, Compound Commands). */
const COMPOUND_OPENERS: ReadonlySet<string> = new Set(['{', '(', '((', '[[', 'if', 'while', 'until', 'for', 'case', 'select']);

/** Whether `words` (wrapper first) is `coproc NAME compound-command` under a `namedCompound` row. */
function namesCompound(words: readonly Word[], spec: WrapperSpec): boolean {
  return spec.namedCompound === true && words.length > 2 && words[1]!.value !== undefined && COMPOUND_OPENERS.has(words[2]!.value ?? '');
}

const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map(Object.entries(table.wrappers as Record<string, WrapperSpec>));

/** The program a simple command runs, after wrappers are stripped. */
export interface ResolvedCommand {
  /** Basename of the program, e.g. `rm` for `sudo /bin/rm -rf x`. */
  readonly name: string;
  /** The word that names the program. */
  readonly nameWord: Word;
  /** The program's arguments (argv[1..]). */
  readonly args: readonly Word[];
  /** Wrappers stripped, outermost first, e.g. `['sudo', 'env']`. */
  readonly wrappers: readonly string[];
  /**
   * A stripped wrapper runs the program in another working directory (`directory`: `env -C /etc
   * cat f`, whose relative paths are not relative to the command's working directory) or under
   * another root (`root`: `chroot /x cat /f` reads `/x/f`, and runs `/x`'s programs). The
   * strongest change of the chain; absent when none.
   */
  readonly changesDirectory?: 'directory' | 'root';
}
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const MAX_WRAPPERS = 16;
/** Basename of a static command word: `/usr/bin/rm` → `rm`, zsh `=rm` → `rm`. */
export function commandBasename(value: string): string {
  const v = value.startsWith('=') ? value.slice(1) : value;
  const slash = v.lastIndexOf('/');
  return slash === -1 ? v : v.slice(slash + 1);
}

/** Whether `v` is option `o` or `o=value` / a fused short form `-oVALUE` of it. */
function optionIs(v: string, list: readonly string[] | undefined): string | undefined {
  if (!list) return undefined;
  for (const o of list) {
    if (v === o) return o;
    if (o.startsWith('--') && v.startsWith(o + '=')) return o;
    if (!o.startsWith('--') && o.length === 2 && v.length > 2 && v.startsWith(o) && !v.startsWith('--')) return o;
  }
  return undefined;
}

/** One option a wrapper's option word sets: its name as the table spells it, and the word holding its value. */
export interface WrapperOption {
  /** `-u`, `--user`: the table's spelling (a long option's abbreviation is expanded). */
  readonly name: string;
  /** The value: the next word, or the rest of this word (`-uNAME`, `-iuNAME`, `--user=NAME`); absent for a flag. */
  readonly value?: Word;
}

/** What one option word of a wrapper means (see {@link readWrapperOption}). */
export interface WrapperOptionRead {
  /** Index of the first word after the option word and the values it takes. */
  readonly next: number;
  /** The options the word sets, in order (`-iu X` → `-i`, `-u` with value `X`). */
  readonly options: readonly WrapperOption[];
  /** A stop flag is among them (`sudo -nl`): the wrapper runs no command. */
  readonly stop: boolean;
}

/** Whether the wrapper row gives option `o` one value word. */
function takesValue(spec: WrapperSpec, o: string): boolean {
  return spec.optionsWithValue.includes(o) || (spec.codeOptions?.includes(o) ?? false) || (spec.pipeOptions?.includes(o) ?? false);
}

const ROW_OPTIONS = new WeakMap<WrapperSpec, readonly string[]>();

/** Every option spelling the row names, for long-option abbreviation (computed once per row). */
function rowOptions(spec: WrapperSpec): readonly string[] {
  const known = ROW_OPTIONS.get(spec);
  if (known) return known;
  const all = [
    ...spec.optionsWithValue,
    ...spec.stopFlags,
    ...(spec.optionsWithTwoValues ?? []),
    ...(spec.codeOptions ?? []),
    ...(spec.opaqueOptions ?? []),
    ...(spec.pipeOptions ?? []),
    ...(spec.chdirOptions ?? []),
    ...(spec.rootOptions ?? []),
    ...(spec.argvAfter ?? []),
  ];
  ROW_OPTIONS.set(spec, all);
  return all;
}

/**
 * The table spelling of long option `name` (`--us` → `--user`): itself when the row names it,
 * else the one option of the row it is a prefix of (getopt_long accepts any unambiguous
 * abbreviation), else itself. Options the row does not list are flags to the reader, so a
 * prefix shared with one of them is read as the listed option — a misreading only when the
 * program itself would reject the word as ambiguous.
 */
function longOptionName(spec: WrapperSpec, name: string): string {
  const all = rowOptions(spec);
  if (all.includes(name)) return name;
  const dashes = name.startsWith('--') ? '--' : '-';
  const hits = new Set(all.filter((o) => o.length > name.length && o.startsWith(name) && (dashes === '--' ? o.startsWith('--') : !o.startsWith('--'))));
  return hits.size === 1 ? [...hits][0]! : name;
}

/** `word` from UTF-16 offset `cut` of its value on (an attached option value); `raw` is cut at the same offset. */
function attachedValue(word: Word, cut: number): Word {
  return { ...word, value: word.value?.slice(cut), raw: word.raw.slice(cut), span: { start: word.span.start + cut, end: word.span.end } };
}

/**
 * Reads option word `words[i]` (it starts with `-`; a word that is not static reads as a
 * flag) the way the wrapper's getopt_long does, from its table row: a long option
 * `--name[=VALUE]` (a unique abbreviation of a listed one counts as it), or a cluster of
 * one-letter options `-abc` where the first letter that takes a value ends the cluster and takes
 * the rest of the word, or the next word when nothing is left (`-iu X`, `-iuX`, `-vk 1`).
 * Rows marked `singleDashLong` read `-name` as one option (getopt_long_only). Options with two
 * values take the next two words. Never throws.
 */
export function readWrapperOption(words: readonly Word[], i: number, spec: WrapperSpec): WrapperOptionRead {
  const word = words[i]!;
  const v = word.value;
  if (v === undefined) return { next: i + 1, options: [], stop: false };
  const long = v.startsWith('--') || (spec.singleDashLong === true && v.length > 2);
  if (long) {
    const eq = v.indexOf('=');
    const name = longOptionName(spec, eq === -1 ? v : v.slice(0, eq));
    const stop = spec.stopFlags.includes(name);
    if (eq !== -1) return { next: i + 1, options: [{ name, value: attachedValue(word, eq + 1) }], stop };
    if (spec.optionsWithTwoValues?.includes(name)) return { next: i + 3, options: [{ name, ...(words[i + 1] ? { value: words[i + 1]! } : {}) }], stop };
    if (takesValue(spec, name)) return { next: i + 2, options: [{ name, ...(words[i + 1] ? { value: words[i + 1]! } : {}) }], stop };
    return { next: i + 1, options: [{ name }], stop };
  }
  const options: WrapperOption[] = [];
  let stop = false;
  for (let k = 1; k < v.length; k++) {
    const name = `-${v[k]!}`;
    if (spec.stopFlags.includes(name)) stop = true;
    if (spec.optionsWithTwoValues?.includes(name)) {
      options.push({ name, ...(words[i + 1] ? { value: words[i + 1]! } : {}) });
      return { next: i + 3, options, stop };
    }
    if (takesValue(spec, name)) {
      if (k + 1 < v.length) {
        options.push({ name, value: attachedValue(word, k + 1) });
        return { next: i + 1, options, stop };
      }
      options.push({ name, ...(words[i + 1] ? { value: words[i + 1]! } : {}) });
      return { next: i + 2, options, stop };
    }
    options.push({ name });
  }
  return { next: i + 1, options, stop };
}

/** A word the wrapper's option scan stops at: the command's first word, or `undefined`. */
export interface WrapperScan {
  /** Index of the first word of the argv-tail command, when there is one. */
  readonly start: number | undefined;
  /** Values of code options (`-c CODE`), in order: the word holding the code. */
  readonly code: readonly Word[];
  /** An option was seen after which what runs is not knowable (`at -f FILE`). */
  readonly opaque: string | undefined;
  /** A stop flag was seen (`command -v`). */
  readonly stopped: boolean;
}

/**
 * Scans the options of wrapper `words[0]` under `spec`: where its command starts, which words
 * hold shell code for it, and whether an opaque option makes what runs unknowable. Linear.
 */
export function scanWrapper(words: readonly Word[], spec: WrapperSpec): WrapperScan {
  const code: Word[] = [];
  let opaque: string | undefined;
  let positionals = 0;
  // Operands counted for `codeOperand` (a lone `-` is an option of `sg`, not its group).
  let operands = 0;
  const operand = (word: Word): void => {
    if (spec.codeOperand === undefined || word.value === '-') return;
    operands++;
    if (operands === spec.codeOperand) code.push(word);
  };
  if (namesCompound(words, spec)) return { start: 2, code, opaque, stopped: false };
  const wanted = spec.command === 'none' || spec.argvAfter ? Infinity : (spec.positionalsBeforeCommand ?? 0);
  let i = 1;
  let start: number | undefined;
  while (i < words.length) {
    const word = words[i]!;
    const v = word.value ?? (word.raw.startsWith('-') ? '-?' : undefined);
    if (v === undefined) {
      if (positionals < wanted) {
        operand(word);
        positionals++;
        i++;
        continue;
      }
      break;
    }
    if (v === '-' && spec.dashIsOption) {
      i++;
      continue;
    }
    if (v === '--') {
      i++;
      if (spec.command !== 'none' && !spec.argvAfter) {
        i += Math.max(0, (spec.positionalsBeforeCommand ?? 0) - positionals);
        start = i < words.length ? i : undefined;
        return { start, code, opaque, stopped: false };
      }
      continue;
    }
    if (spec.argvAfter?.includes(v)) return { start: i + 1 < words.length ? i + 1 : undefined, code, opaque, stopped: false };
    if (v.startsWith('-') && v.length > 1) {
      const flag = v.includes('=') ? v.slice(0, v.indexOf('=')) : v;
      if (spec.stopFlags.includes(flag)) return { start: undefined, code, opaque, stopped: true };
      const pipeOpt = optionIs(v, spec.pipeOptions);
      if (pipeOpt) {
        // `-o '|cmd'` / `-o'!cmd'` / `--output=|cmd`: the rest after the `|` or `!` is shell code.
        const whole = v === pipeOpt;
        const w = whole ? words[i + 1] : word;
        const cut = whole ? 0 : v.startsWith('--') ? pipeOpt.length + 1 : 2;
        const value = w?.value?.slice(cut);
        if (w && (value === undefined ? /^['"]?[|!]/.test(w.raw.slice(cut)) : /^[|!]/.test(value))) {
          code.push({ ...w, value: value?.slice(1), raw: w.raw.slice(cut), span: w.span });
        }
        i += whole ? 2 : 1;
        continue;
      }
      const codeOpt = optionIs(v, spec.codeOptions);
      const opaqueOpt = optionIs(v, spec.opaqueOptions);
      if (opaqueOpt) opaque ??= opaqueOpt;
      if (codeOpt) {
        if (v === codeOpt) {
          if (words[i + 1]) code.push(words[i + 1]!);
          i += 2;
        } else {
          // `--command=CODE` / `-cCODE`: the code is in this word after the option.
          const cut = v.startsWith('--') ? codeOpt.length + 1 : 2;
          code.push({ ...word, value: word.value?.slice(cut), raw: word.raw.slice(cut), span: { start: word.span.start + cut, end: word.span.end } });
          i += 1;
        }
        continue;
      }
      const read = readWrapperOption(words, i, spec);
      if (read.stop) return { start: undefined, code, opaque, stopped: true };
      for (const o of read.options) {
        if (o.value && spec.codeOptions?.includes(o.name)) code.push(o.value);
        if (o.value && spec.pipeOptions?.includes(o.name) && (o.value.value === undefined ? /^['"]?[|!]/.test(o.value.raw) : /^[|!]/.test(o.value.value))) {
          code.push({ ...o.value, value: o.value.value?.slice(1) });
        }
        if (spec.opaqueOptions?.includes(o.name)) opaque ??= o.name;
      }
      i = read.next;
      continue;
    }
    if (spec.allowsAssignments && ASSIGNMENT.test(v)) {
      i++;
      continue;
    }
    if (positionals < wanted) {
      operand(word);
      positionals++;
      i++;
      continue;
    }
    break;
  }
  if (spec.command === 'none' || spec.argvAfter) return { start: undefined, code, opaque, stopped: false };
  if (spec.argvUntil && i < words.length && spec.argvUntil.includes(words[i]!.value ?? '')) return { start: undefined, code, opaque, stopped: false };
  // `su USER -c CODE`, `runuser USER -c CODE`: an operand, then the code option.
  const after = words[i + 1]?.value;
  if (spec.codeOptions && after !== undefined && optionIs(after, spec.codeOptions)) {
    const rest = scanWrapper([words[0]!, ...words.slice(i + 1)], { ...spec, positionalsBeforeCommand: 0, command: 'none' });
    return { start: undefined, code: [...code, ...rest.code], opaque: opaque ?? rest.opaque, stopped: false };
  }
  return { start: i < words.length ? i : undefined, code, opaque, stopped: false };
}

/** One wrapper level of a command: the wrapper's name, its row, and what its option scan found. */
export interface WrapperLevel {
  readonly name: string;
  readonly spec: WrapperSpec;
  readonly scan: WrapperScan;
  /** The words of this level, wrapper first. */
  readonly words: readonly Word[];
}

/**
 * Every wrapper level of argv `words` (at most 16), outermost first, and the words of the
 * command the innermost one runs (`undefined` when a level runs no argv-tail command, or a
 * dynamic word stands where a program name is needed).
 */
export function wrapperLevels(words: readonly Word[]): { readonly levels: readonly WrapperLevel[]; readonly inner: readonly Word[] | undefined } {
  const levels: WrapperLevel[] = [];
  let ws = words;
  for (let depth = 0; depth < MAX_WRAPPERS && ws.length > 0; depth++) {
    const first = ws[0]!;
    if (first.value === undefined) return { levels, inner: ws };
    const name = commandBasename(first.value);
    const spec = WRAPPERS.get(name);
    if (!spec) return { levels, inner: ws };
    const scan = scanWrapper(ws, spec);
    levels.push({ name, spec, scan, words: ws });
    if (scan.start === undefined) return { levels, inner: undefined };
    ws = ws.slice(scan.start);
  }
  return { levels, inner: ws.length > 0 ? ws : undefined };
}

/**
 * Index of the first word of the wrapped command in `words` (words[0] is the wrapper), or
 * `undefined` when the wrapper runs no command (`command -v x`, `sudo -l`, a bare `xargs`) or a
 * dynamic word where the command should be makes it unknowable. A dynamic word that starts with
 * `-` (`-k$(id)`) is read as an option, so it cannot hide the command behind it. Shared by the
 * command-name resolution and the deny/ask rule matching (src/rules/match.ts).
 */
export function wrapperCommandStart(words: readonly Word[], spec: WrapperSpec): number | undefined {
  if (spec.command === 'none' || spec.argvAfter || spec.codeOptions || spec.optionsWithTwoValues || spec.opaqueOptions || spec.stdinCode || spec.pipeOptions) return scanWrapper(words, spec).start;
  if (namesCompound(words, spec)) return 2;
  let i = 1;
  while (i < words.length) {
    const word = words[i]!;
    const v = word.value ?? (word.raw.startsWith('-') ? '-?' : undefined);
    if (v === undefined) return undefined;
    if (v === '-' && spec.dashIsOption) {
      i++;
      continue;
    }
    if (v === '--') {
      i++;
      break;
    }
    if (v.startsWith('-') && v.length > 1) {
      const flag = v.includes('=') ? v.slice(0, v.indexOf('=')) : v;
      if (spec.stopFlags.includes(flag)) return undefined;
      const read = readWrapperOption(words, i, spec);
      if (read.stop) return undefined;
      i = read.next;
      continue;
    }
    if (spec.allowsAssignments && ASSIGNMENT.test(v)) {
      i++;
      continue;
    }
    break;
  }
  i += spec.positionalsBeforeCommand ?? 0;
  return i < words.length ? i : undefined;
}

/** The wrapper table row of program `name` (a basename), if it is a wrapper. */
export function wrapperSpec(name: string): WrapperSpec | undefined {
  return WRAPPERS.get(name);
}

/**
 * Whether option word `w` of a wrapper is one of `options` (a directory or root change): the
 * option itself, `--long=DIR`, or a short option attached (`-C/etc`) or in a cluster (`-iC`).
 * A word that is not static counts (it may spell one). Errs towards `true`, which only makes
 * the command's working directory unknown.
 */
function changesDirectoryOption(w: Word, options: readonly string[]): boolean {
  const v = w.value;
  if (v === undefined) return w.raw.startsWith('-') || w.raw.startsWith('$');
  if (!v.startsWith('-') || v === '-' || v === '--') return false;
  return options.some((o) =>
    o.startsWith('--') ? v === o || v.startsWith(`${o}=`) : !v.startsWith('--') && v.slice(1).includes(o.slice(1)),
  );
}

/**
 * Resolves the program a simple command runs. Returns `undefined` when the command has no
 * name or its name is not static (`$CMD args`). Never throws; at most 16 nested wrappers are
 * stripped.
 */
export function resolveCommand(cmd: SimpleCommand): ResolvedCommand | undefined {
  if (!cmd.name || cmd.name.value === undefined) return undefined;
  // The model, the analyses and the checks each resolve the same command: once per command object
  // (a simple command is never changed after the parse builds it; its resolution is frozen data).
  const known = RESOLVED.get(cmd);
  if (known !== undefined || RESOLVED.has(cmd)) return known;
  const r = resolveUncached(cmd);
  RESOLVED.set(cmd, r);
  return r;
}

/** {@link resolveCommand}'s results by command object. */
const RESOLVED = new WeakMap<SimpleCommand, ResolvedCommand | undefined>();

function resolveUncached(cmd: SimpleCommand): ResolvedCommand | undefined {
  if (!cmd.name || cmd.name.value === undefined) return undefined;
  let words: readonly Word[] = [cmd.name, ...cmd.args];
  const wrappers: string[] = [];
  let moved: 'directory' | 'root' | undefined;
  for (let depth = 0; depth < MAX_WRAPPERS; depth++) {
    const first = words[0]!;
    if (first.value === undefined) return undefined;
    const name = commandBasename(first.value);
    const spec = WRAPPERS.get(name);
    const start = spec ? wrapperCommandStart(words, spec) : undefined;
    if (start === undefined) return { name, nameWord: first, args: words.slice(1), wrappers, ...(moved ? { changesDirectory: moved } : {}) };
    wrappers.push(name);
    const options = words.slice(1, start);
    if (spec!.changesRoot || (spec!.rootOptions !== undefined && options.some((w) => changesDirectoryOption(w, spec!.rootOptions!)))) moved = 'root';
    else if (moved === undefined && spec!.chdirOptions !== undefined && options.some((w) => changesDirectoryOption(w, spec!.chdirOptions!))) moved = 'directory';
    words = words.slice(start);
  }
  const first = words[0]!;
  return { name: commandBasename(first.value ?? ''), nameWord: first, args: words.slice(1), wrappers, ...(moved ? { changesDirectory: moved } : {}) };
}
