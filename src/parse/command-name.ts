/**
 * Normalises a simple command to the program it runs: strips wrappers (`sudo`, `env`,
 * `command`, `timeout`, `xargs` … from rules/commands/wrappers.json), directory prefixes
 * (`/bin/rm` → `rm`) and zsh's `=cmd`. Mirrors the intent of Claude Code's
 * `stripWrappersFromArgv` (SPEC-bashtool.md §3.2) and ShellCheck's command-name lookup
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
}

const WRAPPERS: ReadonlyMap<string, WrapperSpec> = new Map(Object.entries(table.wrappers));

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
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const MAX_WRAPPERS = 16;

/** Basename of a static command word: `/usr/bin/rm` → `rm`, zsh `=rm` → `rm`. */
export function commandBasename(value: string): string {
  const v = value.startsWith('=') ? value.slice(1) : value;
  const slash = v.lastIndexOf('/');
  return slash === -1 ? v : v.slice(slash + 1);
}

/**
 * Index of the first word of the wrapped command in `words` (words[0] is the wrapper), or
 * `undefined` when the wrapper runs no command (`command -v x`, `sudo -l`, a bare `xargs`) or a
 * dynamic word where the command should be makes it unknowable. A dynamic word that starts with
 * `-` (`-k$(id)`) is read as an option, so it cannot hide the command behind it. Shared by the
 * command-name resolution and the deny/ask rule matching (src/rules/match.ts).
 */
export function wrapperCommandStart(words: readonly Word[], spec: WrapperSpec): number | undefined {
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
 * Resolves the program a simple command runs. Returns `undefined` when the command has no
 * name or its name is not static (`$CMD args`). Never throws; at most 16 nested wrappers are
 * stripped.
 */
export function resolveCommand(cmd: SimpleCommand): ResolvedCommand | undefined {
  if (!cmd.name || cmd.name.value === undefined) return undefined;
  let words: readonly Word[] = [cmd.name, ...cmd.args];
  const wrappers: string[] = [];
  for (let depth = 0; depth < MAX_WRAPPERS; depth++) {
    const first = words[0]!;
    if (first.value === undefined) return undefined;
    const name = commandBasename(first.value);
    const spec = WRAPPERS.get(name);
    const start = spec ? wrapperCommandStart(words, spec) : undefined;
    if (start === undefined) return { name, nameWord: first, args: words.slice(1), wrappers };
    wrappers.push(name);
    words = words.slice(start);
  }
  const first = words[0]!;
  return { name: commandBasename(first.value ?? ''), nameWord: first, args: words.slice(1), wrappers };
}
