/**
 * Option-aware matching of deny and ask rules. Claude Code matches `Bash(rm -rf:*)` as a text
 * prefix, so `rm -fr x`, `rm -r -f x` and `rm --recursive --force x` slip past a deny rule that
 * `rm -rf x` hits (and an allow rule such as `Bash(rm:*)` then admits them). shellward also lets
 * a deny or ask rule whose prefix is `program [subcommand…] -options…` match any command that runs
 * the program with at least those options, however they are spelled: short clusters split, in
 * any order, and synonyms from rules/permissions.json `optionSynonyms` (`-R` = `-r` =
 * `--recursive` for rm). Deviation from Claude Code, in the safe direction only: it is never
 * used for allow rules.
 */
import facts from '../../rules/permissions.json' with { type: 'json' };
import { resolveCommand } from '../parse/command-name.js';
import type { SimpleCommand } from '../parse/nodes.js';
import type { PermissionRule } from './parse.js';

const SYNONYMS: ReadonlyMap<string, ReadonlyMap<string, string>> = new Map(
  Object.entries(facts.optionSynonyms as Record<string, string[][]>).map(([key, groups]) => [
    key,
    new Map(groups.flatMap((g) => g.map((o) => [o, g[0]!] as const))),
  ]),
);

/** Per command key, the synonym groups (for the long spellings of an option). */
const GROUPS: ReadonlyMap<string, readonly (readonly string[])[]> = new Map(Object.entries(facts.optionSynonyms as Record<string, string[][]>));
const ABBREVIATED: ReadonlySet<string> = new Set(facts.abbreviatedLongOptions as string[]);
const COMBINATIONS: ReadonlyMap<string, readonly (readonly string[])[]> = new Map(Object.entries(facts.optionCombinations as Record<string, string[][]>));
const OPERAND_OPTIONS: ReadonlyMap<string, readonly { readonly prefix: string; readonly option: string }[]> = new Map(
  Object.entries(facts.operandOptions as Record<string, { prefix: string; option: string }[]>),
);

/**
 * The options of a command `have` (clusters split, as written) with what they also mean for a
 * rule on `head` (`['git', 'push']`) whose options are `ruleOptions`, in canonical form (`canon`):
 * a long option abbreviated as the program allows (`--ha` for a rule's `--hard`, any listed
 * spelling), an option that is others together and the reverse (`-D` ↔ `-d -f`), and an operand
 * that does what an option does (`+main` ↔ `--force` for `git push`). Pure.
 */
function effectiveOptions(
  head: readonly string[],
  ruleOptions: readonly string[],
  have: Iterable<string>,
  operands: readonly string[],
  canon: (o: string) => string,
): Set<string> {
  const key = head.join(' ');
  const out = new Set<string>();
  const groups = GROUPS.get(key) ?? GROUPS.get(head[0]!) ?? [];
  const combos = COMBINATIONS.get(key) ?? COMBINATIONS.get(head[0]!) ?? [];
  const longs = new Set<string>([...ruleOptions, ...groups.flat(), ...combos.flat()].filter((o) => o.startsWith('--')));
  for (const h of have) {
    out.add(canon(h));
    if (ABBREVIATED.has(head[0]!) && h.startsWith('--') && h.length > 3 && !longs.has(h)) {
      for (const l of longs) if (l.startsWith(h)) out.add(canon(l));
    }
  }
  for (const { prefix, option } of OPERAND_OPTIONS.get(key) ?? []) {
    if (operands.some((o) => o.length > prefix.length && o.startsWith(prefix))) out.add(canon(option));
  }
  for (const [whole, ...parts] of combos) {
    if (out.has(canon(whole!))) for (const p of parts) out.add(canon(p));
    else if (parts.every((p) => out.has(canon(p)))) out.add(canon(whole!));
  }
  return out;
}

/** The rule's text prefix (`rm -rf` for `Bash(rm -rf:*)`, `Bash(rm -rf *)`), or `undefined`. */
function rulePrefix(rule: PermissionRule): string | undefined {
  const m = rule.bash;
  if (!m) return undefined;
  if (m.kind === 'prefix') return m.prefix;
  if (m.kind === 'wildcard' && m.segments.length === 2 && m.segments[1] === '') return m.segments[0]!.trimEnd();
  return undefined;
}

/** Options of one word, clusters split: `-rf` → `-r`, `-f`; `--force=x` → `--force`. */
function splitOption(word: string): string[] {
  if (word.startsWith('--')) return [word.includes('=') ? word.slice(0, word.indexOf('=')) : word];
  return [...word.slice(1)].map((c) => '-' + c);
}

const isOption = (w: string): boolean => w.length > 1 && w.startsWith('-') && w !== '--';

const DASHED: ReadonlySet<string> = new Set(facts.dashedSubcommandPrograms as string[]);
const EQUIVALENTS: readonly (readonly [readonly string[], readonly string[]])[] = Object.entries(facts.commandEquivalents as Record<string, string>).map(([k, v]) => [k.split(' '), v.split(' ')] as const);

/**
 * `[program, subcommand]` when program base name `name` is the dashed form of a subcommand
 * (`git-push` → `['git', 'push']`; rules/permissions.json `dashedSubcommandPrograms`), else
 * `undefined`.
 */
export function dashedSubcommand(name: string): readonly [string, string] | undefined {
  const m = /^([a-z][a-z0-9]*)-([a-z][a-z0-9-]*)$/.exec(name);
  return m && DASHED.has(m[1]!) ? [m[1]!, m[2]!] : undefined;
}

/**
 * The argv forms deny and ask rules also see for `argv` (program base name first): the dashed
 * program spelled as program and subcommand (`git-send-pack x` → `git send-pack x`), and each
 * command it is equivalent to by its leading words (rules/permissions.json `commandEquivalents`:
 * `git send-pack x` → `git push x`). Empty when none applies. Pure.
 */
export function equivalentArgv(argv: readonly string[]): string[][] {
  const out: string[][] = [];
  const dashed = argv[0] !== undefined ? dashedSubcommand(argv[0]) : undefined;
  const forms = dashed ? [[dashed[0], dashed[1], ...argv.slice(1)]] : [];
  out.push(...forms);
  for (const form of [argv, ...forms]) {
    for (const [key, value] of EQUIVALENTS) {
      if (key.every((k, i) => form[i] === k)) out.push([...value, ...form.slice(key.length)]);
    }
  }
  return out;
}

/**
 * Whether the options `have` (clusters split, `--long=value` cut at `=`) include each of the
 * rule's `options` for a rule whose words before them are `head` (`['git', 'push']`), in any
 * spelling rules/permissions.json `optionSynonyms` lists for that command or program. Pure.
 */
export function ruleOptionsPresent(head: readonly string[], options: readonly string[], have: Iterable<string>): boolean {
  const synonyms = SYNONYMS.get(head.join(' ')) ?? SYNONYMS.get(head[0]!);
  const canon = (o: string): string => synonyms?.get(o) ?? o;
  const ruleOptions = options.flatMap(splitOption);
  const got = effectiveOptions(head, ruleOptions, have, [], canon);
  return ruleOptions.every((o) => got.has(canon(o)));
}

/**
 * True when `rule` (deny or ask) names a program, optional subcommand words and only options
 * after them, and `cmd` runs that program (wrappers and directories stripped) with those
 * subcommand words as its first operands — options and their values may stand before and between
 * them (`git -C dir push`, `kubectl -n ns delete`) — and at least those options (in any spelling
 * listed as a synonym). Pure; linear in the size of the command.
 */
export function optionSetMatches(rule: PermissionRule, cmd: SimpleCommand): boolean {
  const prefix = rulePrefix(rule);
  if (prefix === undefined) return false;
  const words = prefix.trim().split(/\s+/);
  let firstOption = words.findIndex(isOption);
  if (firstOption === -1) firstOption = words.length;
  if (!words.slice(firstOption).every(isOption)) return false;
  const head = words.slice(0, firstOption);
  // A rule of one word, or of words only, is matched as text already unless options come
  // between them (`kubectl -n ns delete` for `Bash(kubectl delete:*)`).
  if (head.length < 1 || (head.length === 1 && firstOption === words.length)) return false;
  const resolved = resolveCommand(cmd);
  if (!resolved) return false;
  const dashed = dashedSubcommand(resolved.name);
  if ((dashed ? dashed[0] : resolved.name) !== head[0]) return false;
  const operands: { value: string; maybeValue: boolean }[] = dashed ? [{ value: dashed[1], maybeValue: false }] : [];
  const options = new Set<string>();
  let endOfOptions = false;
  let previousWasOption = false;
  for (const w of resolved.args) {
    const v = w.value;
    if (v === undefined) {
      previousWasOption = false;
      continue;
    }
    if (v === '--') endOfOptions = true;
    else if (!endOfOptions && isOption(v)) {
      for (const o of splitOption(v)) options.add(o);
      previousWasOption = !v.includes('=');
      continue;
    } else operands.push({ value: v, maybeValue: previousWasOption });
    previousWasOption = false;
  }
  // The subcommand words must be the leading operands; an operand right after an option may be
  // that option's value (`-n ns`, `-C dir`) and is passed over when it does not match.
  const leads = (list: readonly { value: string; maybeValue: boolean }[], words: readonly string[]): number | undefined => {
    let next = 1;
    let i = 0;
    for (; i < list.length && next < words.length; i++) {
      const o = list[i]!;
      if (o.value === words[next]) next++;
      else if (!o.maybeValue) return undefined;
    }
    return next === words.length ? i : undefined;
  };
  // A command equivalent by its leading words (`git send-pack` for `git push`) matches as that command.
  const alternatives = [operands];
  for (const [key, value] of EQUIVALENTS) {
    if (key[0] !== head[0]) continue;
    const used = leads(operands, key);
    if (used !== undefined) alternatives.push([...value.slice(1).map((v) => ({ value: v, maybeValue: false })), ...operands.slice(used)]);
  }
  if (!alternatives.some((list) => leads(list, head) !== undefined)) return false;
  const synonyms = SYNONYMS.get(head.join(' ')) ?? SYNONYMS.get(head[0]!);
  const canon = (o: string): string => synonyms?.get(o) ?? o;
  const ruleOptions = words.slice(firstOption).flatMap(splitOption);
  const have = effectiveOptions(head, ruleOptions, options, operands.map((o) => o.value), canon);
  return ruleOptions.every((o) => have.has(canon(o)));
}
