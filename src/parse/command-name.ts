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
      if (spec.optionsWithTwoValues?.includes(v)) i += 3;
      else if (spec.optionsWithValue.includes(v)) i += 2;
      else if (!v.startsWith('--') && v.length > 2 && spec.stopFlags.some((f) => f.length === 2 && v.slice(1).includes(f[1]!))) return { start: undefined, code, opaque, stopped: true };
      else i += 1;
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
  let i = 1;
  while (i < words.length) {
    const word = words[i]!;
    const v = word.value ?? (word.raw.startsWith('-') ? '-?' : undefined);
    if (v === undefined) return undefined;
    if (v === '--') {
      i++;
      break;
    }
    if (v.startsWith('-') && v.length > 1) {
      const flag = v.includes('=') ? v.slice(0, v.indexOf('=')) : v;
      if (spec.stopFlags.includes(flag)) return undefined;
      if (spec.optionsWithValue.includes(v)) i += 2;
      else if (!v.startsWith('--') && v.length > 2 && spec.stopFlags.some((f) => f.length === 2 && v.slice(1).includes(f[1]!))) return undefined;
      else i += 1;
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
