/**
 * What a command's options do beyond what its name says: write a file (`sort -o /x`, `git diff
 * --output=~/.bashrc`), run a program (`sort --compress-program=sh`, `rg --pre`, `git -c
 * core.pager=…`), read a file (`diff --from-file=/etc/shadow`, `curl -T ~/.ssh/id_rsa`) or reach
 * the network (`curl --unix-socket`). The facts are the table rules/option-effects.json (one entry
 * per program, with its manual as source); the spellings are read by
 * {@link spellOptions} (clusters, attached values, unambiguous long prefixes, find's primaries,
 * tar's old style, dd's operands). A prefix allow rule (`Bash(sort:*)`) and the read-only
 * auto-allow both consult these effects (src/rules/effect-constraint.ts). Pure.
 */
import table from '../../rules/option-effects.json' with { type: 'json' };
import { spellOptions, type OptionOccurrence, type OptionSpec, type OptionSyntax } from './option-spelling.js';

/** What an effect does. */
export type EffectKind = 'write' | 'exec' | 'read' | 'network';

/** One effect of a command line. */
export interface OptionEffect {
  readonly kind: EffectKind;
  /**
   * What causes it, as the user would name it: an option's canonical name (`--output`, `-o`), a
   * subcommand (`go run`), an operand form (`+cmd`), or an environment variable (`PAGER=`).
   */
  readonly option: string;
  /**
   * For `write`/`read`: the path, when it is static and the effect names one. Absent when the path
   * cannot be known before the command runs (a non-static word, or an effect whose target is not
   * a checkable path, such as `--global` of git config): such an effect can never be shown to stay
   * inside the working directories.
   */
  readonly value?: string;
  /** 0-based index into the arguments given (the program name not counted) of the word that causes it; -1 for an assignment. */
  readonly argIndex: number;
  /** A short reason from the table, when it has one. */
  readonly note?: string;
  /**
   * On a subcommand's own effect: the code it runs is the project's own (`npm run`, `go run`),
   * which the allow-all rule covers as it covers `make`; absent for a subcommand that runs code
   * from its arguments or its configuration (`git filter-branch`, `npm exec`).
   */
  readonly projectCode?: boolean;
}

interface TableOption {
  readonly names: readonly string[];
  readonly arity: 'none' | 'required' | 'optional';
  readonly terminators?: readonly string[];
  readonly effect?: EffectKind;
  readonly target?: 'value' | 'operands' | 'none';
  readonly valuePattern?: string;
  readonly unlessValue?: string;
  readonly writeWith?: readonly string[];
  /** The effect applies only when one of these options (canonical names) is present too. */
  readonly with?: readonly string[];
  readonly valueWord?: number;
  readonly also?: readonly { readonly effect: EffectKind; readonly target?: 'value' | 'operands' | 'none'; readonly valuePattern?: string; readonly unlessValue?: string; readonly note?: string }[];
  readonly note?: string;
}

interface TableEntry {
  readonly source: string;
  readonly longPrefixes?: boolean;
  readonly singleDashLong?: boolean;
  readonly stopAtOperand?: boolean;
  readonly oldStyleFirst?: boolean;
  readonly options: readonly TableOption[];
  readonly operands?: EffectKind;
  readonly operandPatterns?: readonly { readonly pattern: string; readonly effect: EffectKind; readonly note?: string }[];
  readonly subcommandEffect?: EffectKind;
  readonly projectCode?: boolean;
  readonly subcommands?: Readonly<Record<string, TableEntry>>;
  readonly note?: string;
}

const PROGRAMS = table.programs as unknown as Readonly<Record<string, TableEntry>>;
const ALIASES = table.aliases as Readonly<Record<string, string>>;
const ENVIRONMENT = table.environment as Readonly<Record<string, EffectKind>>;

const REGEX = new Map<string, RegExp>();
/** The table's expressions, compiled once, matched without case. */
function re(source: string): RegExp {
  let r = REGEX.get(source);
  if (!r) {
    r = new RegExp(source, 'i');
    REGEX.set(source, r);
  }
  return r;
}

/** The table entry for a program's base name (aliases followed), or `undefined`. */
export function effectEntry(program: string): TableEntry | undefined {
  const name = ALIASES[program] ?? program;
  return  Object.hasOwn(PROGRAMS, name) ? PROGRAMS[name] : undefined;
}

function syntaxOf(entry: TableEntry, extra: readonly TableOption[] = [], stopAtOperand = entry.stopAtOperand): OptionSyntax {
  return {
    options: [...entry.options, ...extra] as readonly OptionSpec[],
    ...(entry.longPrefixes !== undefined ? { longPrefixes: entry.longPrefixes } : {}),
    ...(entry.singleDashLong ? { singleDashLong: true } : {}),
    ...(stopAtOperand ? { stopAtOperand: true } : {}),
    ...(entry.oldStyleFirst ? { oldStyleFirst: true } : {}),
  };
}

function specOf(options: readonly TableOption[], occ: OptionOccurrence): TableOption | undefined {
  return occ.known ? options.find((o) => o.names[0] === occ.option) : undefined;
}

/**
 * Effects of one parse of `args[offset…]` with `entry`'s options (plus `extra`, a parent's options
 * that stay valid after the subcommand). `args` are the whole argument list, so indexes stay
 * absolute.
 */
function parseEffects(entry: TableEntry, args: readonly (string | null | undefined)[], offset: number, extra: readonly TableOption[], out: OptionEffect[]): void {
  const words = args.slice(offset);
  const spelled = spellOptions(words, syntaxOf(entry, extra));
  const options = [...entry.options, ...extra];
  const present = new Set(spelled.options.map((o) => o.option));
  // With singleDashLong (find), the paths a target `operands` effect acts on are the starting points before the first primary.
  const firstOption = spelled.options.length > 0 ? spelled.options[0]!.argIndex : words.length;
  const targets = spelled.operands.filter((o) => !entry.singleDashLong || o.argIndex < firstOption);
  const push = (e: OptionEffect): void => {
    out.push({ ...e, argIndex: e.argIndex + offset });
  };
  for (const occ of spelled.options) {
    const spec = specOf(options, occ);
    if (!spec) continue;
    if (spec.with && !spec.with.some((w) => present.has(w))) continue;
    const effects = [
      ...(spec.effect ? [{ effect: spec.effect, target: spec.target, valuePattern: spec.valuePattern, unlessValue: spec.unlessValue, note: spec.note }] : []),
      ...(spec.also ?? []),
    ];
    for (const eff of effects) {
      let kind = eff.effect;
      if (kind === 'read' && spec.writeWith?.some((w) => present.has(w))) kind = 'write';
      const target = eff.target ?? (spec.arity === 'none' ? 'none' : 'value');
      let value: string | null | undefined = occ.value;
      if (spec.valueWord !== undefined && occ.valueIndex !== undefined) value = words[occ.valueIndex + spec.valueWord - 1] ?? null;
      if (typeof value === 'string' && eff.unlessValue && re(eff.unlessValue).test(value)) continue;
      if (eff.valuePattern) {
        // The effect applies only to values of that form; a value not known statically may be of it.
        if (typeof value === 'string') {
          const m = re(eff.valuePattern).exec(value);
          if (!m) continue;
          if (m[1] !== undefined) value = m[1];
        } else if (value === undefined) continue;
      }
      const note = eff.note ? { note: eff.note } : {};
      if (target === 'operands') {
        if (targets.length === 0) push({ kind, option: occ.option, argIndex: occ.argIndex, ...note });
        for (const t of targets) push({ kind, option: occ.option, argIndex: t.argIndex, ...(t.value !== null ? { value: t.value } : {}), ...note });
      } else if (target === 'value' && (kind === 'write' || kind === 'read')) {
        push({ kind, option: occ.option, argIndex: occ.argIndex, ...(typeof value === 'string' ? { value } : {}), ...note });
      } else push({ kind, option: occ.option, argIndex: occ.argIndex, ...note });
    }
  }
  if (entry.operands) {
    for (const t of spelled.operands) push({ kind: entry.operands, option: 'operand', argIndex: t.argIndex, ...(t.value !== null ? { value: t.value } : {}) });
  }
  for (const p of entry.operandPatterns ?? []) {
    for (const t of spelled.operands) {
      // A word that is not static could be of the form: the pattern's effect, target unknown.
      if (t.value === null || re(p.pattern).test(t.value)) {
        push({ kind: p.effect, option: t.value === null ? 'operand' : t.value.length > 40 ? `${t.value.slice(0, 37)}...` : t.value, argIndex: t.argIndex, ...(p.note ? { note: p.note } : {}) });
        break;
      }
    }
  }
}

/**
 * The effects of running `program` (a base name such as `git`, `sort`; aliases such as `nvim`
 * follow rules/option-effects.json) with arguments `args` (argv[1…]; `null`/`undefined` for a
 * word that is not static). Programs with subcommands (`git diff`, `npm run`, `go test`) are read
 * as the program reads them: its own options, then the subcommand's (npm's and go's own options
 * stay valid after the subcommand; git's do not). An unknown program has no effects here (that it
 * runs at all is the caller's concern). Never throws; linear in the words times the table row.
 */
export function optionEffects(program: string, args: readonly (string | null | undefined)[]): OptionEffect[] {
  const entry = effectEntry(program);
  if (!entry) return [];
  const out: OptionEffect[] = [];
  if (!entry.subcommands) {
    parseEffects(entry, args, 0, [], out);
    return out;
  }
  // The program's own options up to the subcommand.
  const head = spellOptions(args, syntaxOf(entry, [], true));
  parseEffects({ ...entry, operands: undefined, operandPatterns: [] } as TableEntry, args.slice(0, head.rest), 0, [], out);
  const name = args[head.rest];
  if (head.rest >= args.length) return out;
  const sub = typeof name === 'string' && Object.hasOwn(entry.subcommands, name) ? entry.subcommands[name] : undefined;
  const inherited = entry.stopAtOperand ? [] : entry.options;
  if (sub?.subcommandEffect) out.push({ kind: sub.subcommandEffect, option: `${program} ${name}`, argIndex: head.rest, ...(sub.projectCode ? { projectCode: true } : {}) });
  parseEffects(sub ?? { source: entry.source, options: [] }, args, head.rest + 1, inherited, out);
  return out;
}

/**
 * The options of `program` a word at `args[index]` could spell when the word is not known before
 * it runs (a glob such as `*` or `\\-*` that may match a file named `--compress-program=sh`):
 * for each effect kind, the first few option names of that kind, in table order. A word at the
 * subcommand's place (`git \\-*`) may spell the program's own options or any subcommand. With
 * `several` (a listing showed that the word matches names starting with `-`), effects that need
 * two options together (`ls -L` with `-R`) count too: one word can spell both (`-RL`). `args`
 * are argv[1…] as in {@link optionEffects}. Empty for a program without a table entry. Pure.
 */
export function optionsAWordMaySpell(program: string, args: readonly (string | null | undefined)[], index: number, several = false): ReadonlyMap<EffectKind, readonly string[]> {
  const entry = effectEntry(program);
  const out = new Map<EffectKind, string[]>();
  if (!entry) return out;
  const add = (kind: EffectKind, name: string): void => {
    const list = out.get(kind) ?? [];
    if (list.length < 3 && !list.includes(name)) list.push(name);
    out.set(kind, list);
  };
  const fromOptions = (options: readonly TableOption[]): void => {
    for (const o of options) {
      // An effect that needs a second option (`ls -L` with `-R`) is left out unless `several`
      // (the caller knows the word may expand to option words: a listing shows such names).
      if (o.with && !several) continue;
      const name = o.names.find((n) => n.startsWith('--')) ?? o.names[0]!;
      if (o.effect) add(o.effect, name);
      for (const a of o.also ?? []) add(a.effect, name);
    }
  };
  if (!entry.subcommands) {
    fromOptions(entry.options);
    return out;
  }
  const head = spellOptions(args, syntaxOf(entry, [], true));
  if (index <= head.rest || !entry.stopAtOperand) fromOptions(entry.options);
  if (index < head.rest) return out;
  const name = args[head.rest];
  const subs = index === head.rest ? Object.entries(entry.subcommands) : typeof name === 'string' && Object.hasOwn(entry.subcommands, name) ? [[name, entry.subcommands[name]!] as const] : [];
  for (const [n, sub] of subs) {
    if (index === head.rest && sub.subcommandEffect) add(sub.subcommandEffect, `${program} ${n}`);
    fromOptions(sub.options);
  }
  return out;
}

/**
 * Effects of environment assignments on a command (`PAGER=sh git log`, `LESSOPEN='|sh %s' less f`,
 * `GIT_EXTERNAL_DIFF=x git diff`), by variable name; `argIndex` is -1.
 */
export function environmentEffects(names: readonly string[]): OptionEffect[] {
  const out: OptionEffect[] = [];
  for (const n of names) {
    const kind = Object.hasOwn(ENVIRONMENT, n) ? ENVIRONMENT[n] : undefined;
    if (kind) out.push({ kind, option: `${n}=`, argIndex: -1, note: 'the variable names a program the command runs' });
  }
  return out;
}

/**
 * The code-running options (and subcommands) a command line that starts with `words` can still be
 * given (`['git', 'diff']` → `--ext-diff`, `--textconv`, …; `['sort']` → `--compress-program`), for
 * the policy lint. Options before the subcommand are not listed once the subcommand is fixed,
 * since the rule's prefix rules them out. At most `limit` names; empty for unknown programs.
 */
export function codeRunningOptions(words: readonly string[], limit = 8): string[] {
  const program = words[0];
  if (program === undefined) return [];
  const entry = effectEntry(program);
  if (!entry) return [];
  const names: string[] = [];
  const add = (n: string): void => {
    if (names.length < limit && !names.includes(n)) names.push(n);
  };
  const fromEntry = (e: TableEntry): void => {
    for (const o of e.options) if (o.effect === 'exec' || o.also?.some((a) => a.effect === 'exec')) add(o.names.find((n) => n.startsWith('--')) ?? o.names[0]!);
    for (const p of e.operandPatterns ?? []) if (p.effect === 'exec') add(p.note ? `operands like /${p.pattern.slice(0, 20)}/` : `/${p.pattern.slice(0, 20)}/`);
  };
  // After the operand that ends a stop-at-operand program's options (`python -m pytest`), the words belong to someone else.
  if (entry.stopAtOperand && !entry.subcommands && words.length > 1) return [];
  const subName = words[1];
  const sub = entry.subcommands && subName !== undefined && Object.hasOwn(entry.subcommands, subName) ? entry.subcommands[subName] : undefined;
  if (sub) {
    if (sub.subcommandEffect === 'exec') add(`${program} ${subName}`);
    fromEntry(sub);
    if (!entry.stopAtOperand) fromEntry({ ...entry, operandPatterns: [] });
    return names;
  }
  if (entry.subcommands && subName !== undefined) {
    // A subcommand without options of note: only the program's own options may still follow, where it reads them after the subcommand.
    if (!entry.stopAtOperand) fromEntry({ ...entry, operandPatterns: [] });
    return names;
  }
  fromEntry(entry);
  for (const [n, s] of Object.entries(entry.subcommands ?? {})) {
    if (s.subcommandEffect === 'exec') add(`${program} ${n}`);
    else if (s.options.some((o) => o.effect === 'exec')) add(`${program} ${n} ${s.options.find((o) => o.effect === 'exec')!.names.find((x) => x.startsWith('--')) ?? s.options.find((o) => o.effect === 'exec')!.names[0]}`);
  }
  return names;
}
