/**
 * Deny and ask rules whose prefix has more than one word (`Bash(git push:*)`, `Bash(git push
 * --force:*)`) against a command whose words where the rule needs a fixed word are not static:
 * `git $x`, `git ${x:-push}`, `git "$(echo push)"`, `git pus${u}h`, or a glob that the files
 * present may turn into the word (`git pus?`, `git p*sh`). Text matching cannot say such a rule
 * does not match, so the decision must not be better than `ask` — the same rule that makes an
 * unknown program word ask, applied to every word the rule's prefix covers. A word may stand for
 * the rule's word when its literal pieces fit around its expansions (`pus${u}h` may be `push`,
 * `pul${u}l` may not); an unquoted expansion that may be empty or split may also stand for no
 * word or an option. Pure; linear in the words of the command times the words of the rule.
 */
import type { Span } from '../core/types.js';
import type { ModelCommand } from '../model/command-model.js';
import { resolveCommand } from '../parse/command-name.js';
import type { Word } from '../parse/words.js';
import { dashedSubcommand, ruleOptionsPresent } from './option-match.js';
import type { PermissionRule } from './parse.js';
import { ruleText } from './hidden-programs.js';

/** A rule that may match a command through a word that is not static, and that word. */
export interface DynamicRuleHit {
  readonly rule: PermissionRule;
  readonly cmd: ModelCommand;
  /** The first word not static (or a glob) where the rule needs a fixed word or an option. */
  readonly word: Word;
  /** The rule's word it may stand for (`push`), or `an option` for the rule's options. */
  readonly needs: string;
}

const isOption = (w: string): boolean => w.length > 1 && w.startsWith('-') && w !== '--';

/** The rule's prefix as words (`['git', 'push', '--force']`), or `undefined` for other rule kinds. */
function ruleWords(rule: PermissionRule): string[] | undefined {
  const m = rule.bash;
  if (!m) return undefined;
  const text = m.kind === 'prefix' ? m.prefix : m.kind === 'exact' ? m.command : m.kind === 'wildcard' && m.segments.length === 2 && m.segments[1] === '' ? m.segments[0]! : undefined;
  const words = text?.trim().split(/\s+/).filter((w) => w !== '');
  return words && words.length >= 2 ? words : undefined;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An unquoted glob piece as a regular expression source: `*` any text, `?` and a bracket expression any one character. */
function globSource(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[' && s.indexOf(']', i + 2) !== -1) {
      out += '.';
      i = s.indexOf(']', i + 2);
    } else out += escapeRegExp(c);
  }
  return out;
}

/** What a word that is not fully known may expand to, as far as the rule matching needs it. */
interface WordShape {
  /** Matches each word the expansion may be (a whole-word test). */
  readonly fits: RegExp;
  /** The word may expand to no word at all (an unquoted expansion alone). */
  readonly mayVanish: boolean;
  /** The word may start with `-`. */
  readonly mayBeOption: boolean;
}

/** The shape of `w`, or `undefined` when it is static with no unquoted glob (matched as text already). */
function shapeOf(w: Word): WordShape | undefined {
  const glob = w.parts.some((p) => p.kind === 'literal' && !p.quoted && /[*?[]/.test(p.value));
  if (w.value !== undefined && !glob) return undefined;
  let source = '';
  for (const p of w.parts) {
    const piece = p.kind === 'literal' ? (p.quoted ? escapeRegExp(p.value) : globSource(p.value)) : '.*';
    source += piece === '.*' && source.endsWith('.*') ? '' : piece;
  }
  const first = w.parts[0];
  return {
    fits: new RegExp(`^(?:${source})$`, 's'),
    mayVanish: w.parts.every((p) => p.kind !== 'literal' && !p.quoted),
    mayBeOption: first === undefined || first.kind !== 'literal' || first.value.startsWith('-') || (!first.quoted && /^[*?[]/.test(first.value)),
  };
}

/** One reading of the words so far: how many of the rule's words are matched, whether a dynamic word was needed, whether the last word was an option that may take the next as its value. */
interface State {
  readonly next: number;
  readonly via: { readonly word: Word; readonly needs: string } | undefined;
  readonly afterOption: boolean;
}

/**
 * Whether `args` (a command's arguments after its program) may start with the rule's words
 * `head[1..]` and carry its `options`, with at least one word that is not static involved:
 * the word that is, or `undefined`. Options and their values may stand before and between the
 * subcommand words, as for {@link optionSetMatches}.
 */
function dynamicWordFor(args: readonly Word[], head: readonly string[], options: readonly string[]): { word: Word; needs: string } | undefined {
  let states: State[] = [{ next: 1, via: undefined, afterOption: false }];
  const key = (s: State): string => `${s.next}:${s.via ? 1 : 0}:${s.afterOption ? 1 : 0}`;
  const staticOptions = new Set<string>();
  let optionWord: Word | undefined;
  for (const w of args) {
    if (states.length === 0) return undefined;
    if (states.every((s) => s.next === head.length)) {
      // The subcommand words are matched: what is left is the rule's options.
      const v = w.value;
      if (v !== undefined && isOption(v)) {
        if (v.startsWith('--')) staticOptions.add(v.includes('=') ? v.slice(0, v.indexOf('=')) : v);
        else for (const c of v.slice(1)) staticOptions.add(`-${c}`);
      } else if (v === undefined && shapeOf(w)?.mayBeOption) optionWord ??= w;
      continue;
    }
    const shape = shapeOf(w);
    const out = new Map<string, State>();
    const add = (s: State): void => void out.set(key(s), s);
    for (const s of states) {
      if (s.next === head.length) {
        add({ ...s, afterOption: false });
        continue;
      }
      const want = head[s.next]!;
      const v = w.value;
      if (shape === undefined) {
        if (v === '--' || isOption(v!)) add({ ...s, afterOption: v !== '--' && !v!.includes('=') });
        else {
          if (v === want) add({ next: s.next + 1, via: s.via, afterOption: false });
          if (s.afterOption) add({ ...s, afterOption: false });
        }
        continue;
      }
      const via = s.via ?? { word: w, needs: want };
      if (shape.fits.test(want)) add({ next: s.next + 1, via, afterOption: false });
      if (shape.mayVanish) add({ ...s, via });
      if (shape.mayBeOption) add({ ...s, via, afterOption: true });
      if (s.afterOption) add({ ...s, afterOption: false });
    }
    states = [...out.values()];
  }
  const done = states.filter((s) => s.next === head.length);
  if (done.length === 0) return undefined;
  const via = done.find((s) => s.via !== undefined)?.via;
  if (options.length === 0) return via;
  // A rule with options: the command may carry them through a word that is not static, or has them
  // all and reached the subcommand through one.
  if (optionWord) return { word: optionWord, needs: 'an option' };
  return via && ruleOptionsPresent(head, options, staticOptions) ? via : undefined;
}

/**
 * The first of `rules` (deny or ask rules with a prefix of two words or more) that a command of
 * `cmds` may match only through a word that is not static or a glob — the command runs the rule's
 * program (wrappers stripped; `git-push` as `git push`) and its leading operands may be the
 * rule's words — or `undefined`. A command that matches the rule outright is the caller's
 * business (it is denied or asked before this runs).
 */
export function dynamicSubcommandRule(cmds: readonly ModelCommand[], rules: readonly PermissionRule[]): DynamicRuleHit | undefined {
  const parsed = rules.flatMap((rule) => {
    const words = ruleWords(rule);
    if (!words) return [];
    let firstOption = words.findIndex(isOption);
    if (firstOption === -1) firstOption = words.length;
    const head = words.slice(0, firstOption);
    const options = words.slice(firstOption);
    // Only options may follow the first option (`Bash(git push --force origin:*)` is matched as text).
    if (head.length < 1 || (head.length === 1 && options.length === 0) || !options.every(isOption)) return [];
    return [{ rule, head, options }];
  });
  if (parsed.length === 0) return undefined;
  for (const m of cmds) {
    for (const inst of m.instances) {
      const resolved = resolveCommand(inst);
      if (!resolved) continue;
      const dashed = dashedSubcommand(resolved.name);
      const program = dashed ? dashed[0] : resolved.name;
      for (const { rule, head, options } of parsed) {
        if (head[0] !== program) continue;
        const args = dashed ? [{ ...resolved.nameWord, raw: dashed[1], value: dashed[1], parts: [{ kind: 'literal' as const, value: dashed[1], quoted: true }] }, ...resolved.args] : resolved.args;
        const hit = dynamicWordFor(args, head, options);
        if (hit) return { rule, cmd: m, ...hit };
      }
    }
  }
  return undefined;
}

/**
 * The `ask` step for `hit`: reason `unknown-program` (what runs is not known), citing the rule,
 * the word and what it would have to be; the span is the command's.
 */
export function dynamicRuleAsk(hit: DynamicRuleHit): { behavior: 'ask'; reason: 'unknown-program'; code: 'unknown-program'; message: string; rule: PermissionRule; span: Span } {
  const what = hit.needs === 'an option' ? 'an option the rule names' : `\`${hit.needs}\``;
  return {
    behavior: 'ask',
    reason: 'unknown-program',
    code: 'unknown-program',
    message: `Rule ${ruleText(hit.rule)} may match: \`${hit.word.raw.slice(0, 60)}\` ${hit.word.value === undefined ? 'is not known before the command runs' : 'is a glob, whose words depend on the files present,'} and may be ${what}.`,
    rule: hit.rule,
    span: hit.cmd.cmd.span,
  };
}
