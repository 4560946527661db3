/**
 * How the tokens of a command line spell options, for every spelling the program's own parser
 * accepts. A program reads options with one of a few parsers, and each admits more spellings than
 * the canonical `--output FILE`:
 *
 * - GNU `getopt_long` (coreutils, findutils, grep, sed, tar's long options …; see
 *   https://www.gnu.org/software/libc/manual/html_node/Getopt-Long-Options.html): a long option
 *   may be abbreviated to any unambiguous prefix (`--out` for `--output`), its value attached with
 *   `=` or given as the next word; short options cluster (`-rfo x` is `-r -f -o x`) and take their
 *   value attached (`-ofile`) or from the next word; options and operands may be mixed (argument
 *   permutation) until `--`.
 * - git's parse-options (https://git-scm.com/docs/gitcli): the same, plus `--no-` negations
 *   (listed as names of their own in a table) and abbreviations of them.
 * - single-dash long options (find's primaries `-fprint`, `-exec … ;`): whole words, no clusters,
 *   no abbreviations.
 * - tar's old-style first argument (https://www.gnu.org/software/tar/manual/html_node/Old-Options.html):
 *   `tar cvf a.tar x` is `tar -c -v -f a.tar x`; each value-taking letter takes the next word.
 * - assignment operands (dd's `of=FILE`, https://www.gnu.org/software/coreutils/manual/html_node/dd-invocation.html).
 *
 * When the table of a program is incomplete the reading errs towards seeing an option: a prefix
 * that the real program would reject as ambiguous is read as the listed option (the program then
 * fails, so nothing is missed), and a word that cannot be known statically is reported as such.
 * Pure; never throws; linear in the total length of the words times the number of long names.
 */

/** Whether and how an option takes a value. */
export type OptionArity =
  /** A flag: `-r`, `--force`. */
  | 'none'
  /** A value attached (`-ofile`, `--output=file`) or, when not attached, the next word. */
  | 'required'
  /** A value only when attached (`-i.bak`, `--color=auto`); never the next word (getopt's `::`). */
  | 'optional';

/** One option of a program: every name it answers to, and its arity. */
export interface OptionSpec {
  /**
   * Every spelling of the option in full: short ones (`-o`), long ones (`--output`), single-dash
   * long ones for {@link OptionSyntax.singleDashLong} programs (`-fprint`), or, for assignment
   * operands, the key with its `=` (`of=`). The first name is the canonical one reported.
   */
  readonly names: readonly string[];
  readonly arity: OptionArity;
  /**
   * For options that take a command up to a terminating word (find's `-exec cmd … ;` or `+`):
   * the terminators. The words in between are the option's value words.
   */
  readonly terminators?: readonly string[];
}

/** How a program's parser reads its argument list. */
export interface OptionSyntax {
  readonly options: readonly OptionSpec[];
  /** Long options may be abbreviated to an unambiguous prefix (getopt_long, git parse-options). Default true. */
  readonly longPrefixes?: boolean;
  /** Options are whole words after one dash (find); no clusters, no `--name` forms, no abbreviations. */
  readonly singleDashLong?: boolean;
  /** `--` ends the options. Default true (false for find). */
  readonly endOfOptions?: boolean;
  /**
   * Option parsing stops at the first operand (POSIX getopt, `POSIXLY_CORRECT`, git's global
   * options, `env`, `xargs`); by default options and operands mix, as GNU getopt permutes them.
   */
  readonly stopAtOperand?: boolean;
  /** The first word may be an old-style cluster without a dash (tar `cvf`). */
  readonly oldStyleFirst?: boolean;
}

/** One option as the program reads it. */
export interface OptionOccurrence {
  /** The option's canonical name ({@link OptionSpec.names}[0]); for an unknown option, its spelling (`--frob`, `-z`). */
  readonly option: string;
  /** True when the table lists the option. */
  readonly known: boolean;
  /** The name as written after prefix completion is undone: `--out` for `--output`, `-o` inside `-rfo`. */
  readonly spelled: string;
  /**
   * The option's value when it has one: a string when it is static, `null` when the word that
   * holds it cannot be known statically, absent when the option took none (or the words ran out).
   */
  readonly value?: string | null;
  /** For terminated options (find `-exec`): the value words, `null` for a non-static one. */
  readonly values?: readonly (string | null)[];
  /** 0-based index into the given words of the word that holds the option. */
  readonly argIndex: number;
  /** 0-based index of the word that holds the value (equals {@link argIndex} when attached). */
  readonly valueIndex?: number;
}

/** An operand: a word the parser does not read as an option or an option's value. */
export interface Operand {
  /** The operand's static value, `null` when it cannot be known statically. */
  readonly value: string | null;
  /** 0-based index into the given words. */
  readonly argIndex: number;
}

/** The reading of a whole argument list. */
export interface SpelledArgs {
  readonly options: readonly OptionOccurrence[];
  readonly operands: readonly Operand[];
  /**
   * With {@link OptionSyntax.stopAtOperand}: index of the first operand (where a subcommand's own
   * arguments begin); otherwise the number of words.
   */
  readonly rest: number;
  /** True when a word that is not static stands where an option could be (its meaning is unknown). */
  readonly dynamicOption: boolean;
}

/** The result of completing a long option name. */
export type LongMatch =
  | { readonly kind: 'exact' | 'prefix'; readonly spec: OptionSpec; readonly name: string }
  | { readonly kind: 'ambiguous'; readonly specs: readonly OptionSpec[] }
  | { readonly kind: 'none' };

/**
 * Completes the long option `name` (with its dashes, without `=value`) against `options` the way
 * getopt_long does: an exact name wins; otherwise every listed name that starts with `name`; when
 * they all belong to one {@link OptionSpec} it is that option (`--rec` → `--recursive`), when to
 * several the prefix is ambiguous. `allowPrefix` false permits exact names only. Names of one
 * dash and one letter are never completed.
 */
export function matchLongOption(name: string, options: readonly OptionSpec[], allowPrefix = true): LongMatch {
  let found: { spec: OptionSpec; name: string } | undefined;
  const candidates = new Set<OptionSpec>();
  let candidateName = '';
  for (const spec of options) {
    for (const n of spec.names) {
      if (n === name) return { kind: 'exact', spec, name: n };
      if (allowPrefix && name.length > 2 && n.length > name.length && n.startsWith(name) && !n.endsWith('=')) {
        if (!candidates.has(spec)) candidateName = n;
        candidates.add(spec);
      }
    }
  }
  if (candidates.size === 1) found = { spec: [...candidates][0]!, name: candidateName };
  if (found) return { kind: 'prefix', ...found };
  if (candidates.size > 1) return { kind: 'ambiguous', specs: [...candidates] };
  return { kind: 'none' };
}

function shortSpec(letter: string, options: readonly OptionSpec[]): OptionSpec | undefined {
  const n = '-' + letter;
  return options.find((s) => s.names.includes(n));
}

/**
 * Reads `words` (the program's arguments, without the program name; `null`/`undefined` for a word
 * that is not static) with `syntax`. See the module comment for the spellings. An ambiguous long
 * prefix is reported once per matching option (each `known`), so a caller looking for one effect
 * sees it. Never throws.
 */
export function spellOptions(words: readonly (string | null | undefined)[], syntax: OptionSyntax): SpelledArgs {
  const options: OptionOccurrence[] = [];
  const operands: Operand[] = [];
  const opts = syntax.options;
  const allowPrefix = syntax.longPrefixes !== false && !syntax.singleDashLong;
  const endOfOptions = syntax.endOfOptions ?? !syntax.singleDashLong;
  const assignments = opts.filter((s) => s.names.some((n) => n.endsWith('=')));
  let dynamicOption = false;
  let ended = false;
  let rest = words.length;
  const at = (i: number): string | null => {
    const w = words[i];
    return w === undefined || w === null ? null : w;
  };

  /** Pushes an option with its value taken from `attached` or the next word; returns the last index used. */
  const take = (spec: OptionSpec | undefined, option: string, spelled: string, i: number, attached: string | undefined, fromNext: boolean): number => {
    const known = spec !== undefined;
    const arity = spec?.arity ?? 'none';
    if (spec?.terminators) {
      const values: (string | null)[] = [];
      let j = i + 1;
      for (; j < words.length; j++) {
        const v = at(j);
        if (v !== null && spec.terminators.includes(v)) break;
        values.push(v);
      }
      options.push({ option, known, spelled, values, argIndex: i, ...(values.length > 0 ? { valueIndex: i + 1 } : {}) });
      return j;
    }
    if (attached !== undefined && arity !== 'none') {
      options.push({ option, known, spelled, value: attached, argIndex: i, valueIndex: i });
      return i;
    }
    if (arity === 'required' && fromNext) {
      if (i + 1 < words.length) {
        options.push({ option, known, spelled, value: at(i + 1), argIndex: i, valueIndex: i + 1 });
        return i + 1;
      }
    }
    options.push({ option, known, spelled, argIndex: i });
    return i;
  };

  const cluster = (word: string, i: number, start: number): number => {
    // A short-option cluster: -rf, -n5, -rfo x.
    for (let j = start; j < word.length; j++) {
      const letter = word[j]!;
      const spec = shortSpec(letter, opts);
      const name = '-' + letter;
      if (spec && spec.arity !== 'none') {
        const attached = word.slice(j + 1);
        return take(spec, spec.names[0]!, name, i, attached === '' ? undefined : attached, true);
      }
      options.push({ option: spec?.names[0] ?? name, known: spec !== undefined, spelled: name, argIndex: i });
    }
    return i;
  };

  for (let i = 0; i < words.length; i++) {
    const w = at(i);
    if (w === null) {
      // A non-static word: an option or an operand, nobody can say before it runs.
      if (!ended) dynamicOption = true;
      operands.push({ value: null, argIndex: i });
      if (syntax.stopAtOperand && !ended) {
        rest = i;
        break;
      }
      continue;
    }
    if (i === 0 && syntax.oldStyleFirst && w.length > 0 && !w.startsWith('-') && !w.includes('=')) {
      // tar's old style: each value-taking letter takes the next word in turn.
      let next = i + 1;
      for (const letter of w) {
        const spec = shortSpec(letter, opts);
        const name = '-' + letter;
        if (spec && spec.arity === 'required') {
          const valueIndex = next < words.length ? next++ : undefined;
          options.push({
            option: spec.names[0]!,
            known: true,
            spelled: name,
            argIndex: i,
            ...(valueIndex !== undefined ? { value: at(valueIndex), valueIndex } : {}),
          });
        } else options.push({ option: spec?.names[0] ?? name, known: spec !== undefined, spelled: name, argIndex: i });
      }
      i = next - 1;
      continue;
    }
    if (!ended && assignments.length > 0) {
      const eq = w.indexOf('=');
      const spec = eq > 0 ? assignments.find((s) => s.names.includes(w.slice(0, eq + 1))) : undefined;
      if (spec) {
        options.push({ option: spec.names[0]!, known: true, spelled: w.slice(0, eq + 1), value: w.slice(eq + 1), argIndex: i, valueIndex: i });
        continue;
      }
    }
    if (ended || w.length < 2 || !w.startsWith('-')) {
      operands.push({ value: w, argIndex: i });
      if (syntax.stopAtOperand && !ended) {
        rest = i;
        break;
      }
      continue;
    }
    if (w === '--' && endOfOptions) {
      ended = true;
      continue;
    }
    if (syntax.singleDashLong) {
      const eq = w.indexOf('=');
      const spec = opts.find((s) => s.names.includes(w)) ?? (eq > 0 ? opts.find((s) => s.names.includes(w.slice(0, eq))) : undefined);
      i = take(spec, spec?.names[0] ?? w, w, i, undefined, true);
      continue;
    }
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      const name = eq === -1 ? w : w.slice(0, eq);
      const attached = eq === -1 ? undefined : w.slice(eq + 1);
      const m = matchLongOption(name, opts, allowPrefix);
      if (m.kind === 'exact' || m.kind === 'prefix') {
        i = take(m.spec, m.spec.names[0]!, name, i, attached, attached === undefined);
      } else if (m.kind === 'ambiguous') {
        // getopt_long rejects it; report every reading so no effect is missed.
        let last = i;
        for (const spec of m.specs) last = Math.max(last, take(spec, spec.names[0]!, name, i, attached, attached === undefined));
        i = last;
      } else {
        options.push({ option: name, known: false, spelled: name, argIndex: i, ...(attached !== undefined ? { value: attached, valueIndex: i } : {}) });
      }
      continue;
    }
    // A whole word that names an option of its own (`-cmd`, `-fprint` in a mixed table) wins over a cluster.
    const whole = opts.find((s) => s.names.includes(w));
    if (whole && w.length > 2) {
      i = take(whole, whole.names[0]!, w, i, undefined, true);
      continue;
    }
    i = cluster(w, i, 1);
  }
  return { options, operands, rest, dynamicOption };
}

/**
 * The long option names a prefix such as `--rec` could stand for in `options` (an empty list when
 * none), for messages and for callers that only need the completion. Same rules as
 * {@link matchLongOption}.
 */
export function completeLongOption(prefix: string, options: readonly OptionSpec[]): readonly string[] {
  const m = matchLongOption(prefix, options);
  if (m.kind === 'exact' || m.kind === 'prefix') return [m.spec.names[0]!];
  if (m.kind === 'ambiguous') return m.specs.map((s) => s.names[0]!);
  return [];
}

/** One flag {@link OptionSpec} per long name, made once per list of names (the packs' lists live as long as the process). */
const FLAG_TABLES = new WeakMap<readonly string[], readonly OptionSpec[]>();

function longSpecs(known: readonly string[]): readonly OptionSpec[] {
  let specs = FLAG_TABLES.get(known);
  if (!specs) {
    specs = [...new Set(known)].map((name) => ({ names: [name], arity: 'none' as const }));
    FLAG_TABLES.set(known, specs);
  }
  return specs;
}

/**
 * The long option `written` (`--rec`, without any `=value`) resolved against `known` (a program's
 * long options, each starting with `--`) as getopt_long and git's parse-options resolve it
 * ({@link matchLongOption}): itself when it is one of them, the single option it is a prefix of
 * (`rm --rec` is `--recursive`, `git push --force-w` is `--force-with-lease`), else `undefined`
 * (unknown, or a prefix of several: both programs then refuse to run). Linear in `known`.
 */
export function resolveLongOption(written: string, known: readonly string[]): string | undefined {
  if (!written.startsWith('--')) return undefined;
  const m = matchLongOption(written, longSpecs(known));
  return m.kind === 'exact' || m.kind === 'prefix' ? m.name : undefined;
}

/**
 * `options` (a set of options as scanned: `--rec`, `-r` …) with every abbreviated long option
 * replaced by the name it abbreviates among `known` ({@link resolveLongOption}). Options that
 * resolve to nothing stay as written. Returns `options` itself when nothing is added.
 */
export function expandLongOptions(options: ReadonlySet<string>, known: readonly string[]): ReadonlySet<string> {
  if (known.length === 0) return options;
  let out: Set<string> | undefined;
  for (const o of options) {
    if (!o.startsWith('--')) continue;
    const full = resolveLongOption(o, known);
    if (full === undefined || full === o) continue;
    out ??= new Set(options);
    out.add(full);
  }
  return out ?? options;
}
