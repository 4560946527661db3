/**
 * The permission decision for one command (SPEC-bashtool.md §2.4–2.8), on the parse tree.
 *
 * Mirrors Claude Code's `bashToolHasPermission` (tree-sitter path) with these steps:
 * 1. an exact deny of the whole command, then a deny rule on any simple command anywhere in the
 *    tree (nested ones included: subshells, `$(…)`, pipelines) → `deny`. Denies come before the
 *    50-subcommand cap and before the complexity gate, so neither can hide one;
 * 2. an exact ask of the whole command, then an ask rule on any simple command → `ask`;
 * 3. an exact allow of the whole command → `allow` (it also outranks the gates below, as Claude
 *    Code's misparsing gate and too-complex path return the full-command exact result);
 * 4. the gates: a command that is not `simple` (§1.7; subshells and groups included, §2.7 item 1)
 *    or that the caller marks as a misparsing security ask → `ask` with no suggestions;
 * 5. more than 50 subcommands → `ask` (`MAX_SUBCOMMANDS_FOR_SECURITY_CHECK`);
 * 6. more than one `cd`/`pushd`/`popd`, or a `cd` with a `git` → `ask` (§2.6 item 7); a
 *    subcommand exactly `cd <cwd>` is dropped first;
 * 7. each subcommand against the allow rules (exact, then prefix/wildcard, §2.8): all allowed →
 *    `allow`; otherwise `passthrough` with at most 5 suggestions, leftmost first (§2.6 item 14).
 *
 * Not modelled (absent in shellward, said here rather than faked): path constraints (§3.4) other
 * than the dangerous-removal limit the verdict applies, sed constraints (§4), permission modes,
 * read-only auto-allow (§3.3), the sandbox auto-allow. A command those would allow comes back
 * `passthrough`. Pure; never throws for any parse.
 */
import type { Span } from '../core/types.js';
import type { ParsedScript, SimpleCommand } from '../parse/nodes.js';
import { resolveCommand } from '../parse/command-name.js';
import { candidatesFor, firstExactMatch, firstMatch, prefixAllowCovers } from './match.js';
import type { PermissionRule } from './parse.js';
import type { PermissionPolicy } from './policy.js';
import { MAX_SUGGESTED_RULES_FOR_COMPOUND, suggestionForExactCommand } from './suggest.js';
import { optionSetMatches } from './option-match.js';

/** Claude Code's MAX_SUBCOMMANDS_FOR_SECURITY_CHECK. */
export const MAX_SUBCOMMANDS = 50;

/** Claude Code's outcome; `passthrough` means no rule decided (reported as `ask` by the verdict). */
export type PermissionBehavior = 'allow' | 'ask' | 'deny' | 'passthrough';

/**
 * Why the decision came out as it did:
 * - `deny-rule`, `ask-rule`, `allow-rule`: a rule matched (`rule` is set);
 * - `not-simple`: the parse is `too-complex` or `parse-error` (the verdict names the construct);
 * - `misparsing`: the caller's misparsing security ask gated the command;
 * - `too-many-subcommands`, `multiple-cd`, `cd-git`: the structural asks of §2.5–2.6;
 * - `no-matching-rule`: nothing decided.
 */
export type DecisionReason =
  | 'deny-rule'
  | 'ask-rule'
  | 'allow-rule'
  | 'not-simple'
  | 'misparsing'
  | 'too-many-subcommands'
  | 'multiple-cd'
  | 'cd-git'
  | 'no-matching-rule';

/** The decision for one command. */
export interface PermissionDecision {
  readonly behavior: PermissionBehavior;
  readonly reason: DecisionReason;
  /** A one-sentence explanation for people. */
  readonly message: string;
  /** The rule that decided, for the `*-rule` reasons. */
  readonly rule?: PermissionRule;
  /** The subcommand the decision is about (UTF-16 offsets into the unit text), when there is one. */
  readonly span?: Span;
  /** Suggested allow rules (rule strings), at most 5; empty for every ask that is not `no-matching-rule`. */
  readonly suggestions: readonly string[];
  /** True when the rule matched the whole command exactly (Claude Code's full-command exact match). */
  readonly wholeCommand?: boolean;
}

/** What the caller knows beyond the parse. */
export interface DecisionContext {
  /** The working directory; a subcommand exactly `cd <cwd>` is dropped (§2.6 item 6). */
  readonly cwd?: string;
  /** True when a security check raised a misparsing ask on the command (§2.6 item 5). */
  readonly misparsing?: boolean;
}

/**
 * The command text used for whole-command exact matching: trimmed, with blank and `#` comment
 * lines dropped (SPEC §2.3 item 6; the original when every line would be dropped).
 */
export function wholeCommandText(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  return (lines.length === 0 ? text : lines.join('\n')).trim();
}

function ruleText(r: PermissionRule): string {
  return `${r.raw} (${r.origin.file}${r.origin.path ? ` ${r.origin.path}` : ''})`;
}

/** The first deny rule matching one simple command of `text` (aggressive stripping, §2.3 item 4). */
export function denyFor(text: string, cmd: SimpleCommand, policy: PermissionPolicy): PermissionRule | undefined {
  if (policy.deny.length === 0) return undefined;
  return firstMatch(policy.deny, candidatesFor(text, cmd, 'deny')) ?? policy.deny.find((r) => optionSetMatches(r, cmd));
}

/** The first ask rule matching one simple command of `text` (aggressive stripping, as for deny). */
export function askFor(text: string, cmd: SimpleCommand, policy: PermissionPolicy): PermissionRule | undefined {
  if (policy.ask.length === 0) return undefined;
  return firstMatch(policy.ask, candidatesFor(text, cmd, 'ask')) ?? policy.ask.find((r) => optionSetMatches(r, cmd));
}

/** Allow rule matching one simple command (safe stripping only). */
export function allowFor(text: string, cmd: SimpleCommand, policy: PermissionPolicy): PermissionRule | undefined {
  if (policy.allow.length === 0) return undefined;
  return firstMatch(policy.allow, { ...candidatesFor(text, cmd, 'allow'), prefixAllowed: prefixAllowCovers(cmd) });
}

function isCdTo(cmd: SimpleCommand, cwd: string | undefined): boolean {
  if (cwd === undefined || cmd.assignments.length > 0 || cmd.name?.value !== 'cd' || cmd.args.length !== 1) return false;
  const target = cmd.args[0]!.value;
  const norm = (p: string): string => (p.length > 1 ? p.replace(/\/+$/, '') : p);
  return target !== undefined && norm(target) === norm(cwd);
}

const CD_LIKE: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd']);

/**
 * The permission decision for the unit `text` parsed as `parsed` under `policy` (see the module
 * comment for the steps). Work is linear in the number of simple commands times the number of
 * rules times the candidate lengths. Never throws.
 */
export function decide(text: string, parsed: ParsedScript, policy: PermissionPolicy, ctx: DecisionContext = {}): PermissionDecision {
  const whole = wholeCommandText(text);
  const all = parsed.commands;

  // 1. deny: whole command exactly, then every simple command in the tree.
  const wholeDeny = firstExactMatch(policy.deny, whole);
  if (wholeDeny) return { behavior: 'deny', reason: 'deny-rule', message: `Denied by rule ${ruleText(wholeDeny)}.`, rule: wholeDeny, suggestions: [], wholeCommand: true };
  for (const c of all) {
    const r = denyFor(text, c, policy);
    if (r) return { behavior: 'deny', reason: 'deny-rule', message: `Denied by rule ${ruleText(r)}.`, rule: r, span: c.span, suggestions: [] };
  }
  // 2. ask rules.
  const wholeAsk = firstExactMatch(policy.ask, whole);
  if (wholeAsk) return { behavior: 'ask', reason: 'ask-rule', message: `Rule ${ruleText(wholeAsk)} asks for approval.`, rule: wholeAsk, suggestions: [], wholeCommand: true };
  for (const c of all) {
    const r = askFor(text, c, policy);
    if (r) return { behavior: 'ask', reason: 'ask-rule', message: `Rule ${ruleText(r)} asks for approval.`, rule: r, span: c.span, suggestions: [] };
  }
  // 3. exact allow of the whole command.
  const wholeAllow = firstExactMatch(policy.allow, whole);
  if (wholeAllow) return { behavior: 'allow', reason: 'allow-rule', message: `Allowed by rule ${ruleText(wholeAllow)}.`, rule: wholeAllow, suggestions: [], wholeCommand: true };
  // 4. gates.
  if (parsed.complexity.status !== 'simple') {
    return { behavior: 'ask', reason: 'not-simple', message: 'The command cannot be split into simple commands safely.', suggestions: [] };
  }
  if (ctx.misparsing) {
    return { behavior: 'ask', reason: 'misparsing', message: 'A security check found text that shells may parse differently.', suggestions: [] };
  }
  // 5. the cap.
  const subs = all.filter((c) => !isCdTo(c, ctx.cwd));
  if (subs.length > MAX_SUBCOMMANDS) {
    return {
      behavior: 'ask',
      reason: 'too-many-subcommands',
      message: `The command has ${subs.length} subcommands, more than ${MAX_SUBCOMMANDS} to check individually.`,
      suggestions: [],
    };
  }
  // 6. cd checks.
  let cds = 0;
  let git = false;
  let firstCd: SimpleCommand | undefined;
  for (const c of subs) {
    const name = resolveCommand(c)?.name;
    if (name !== undefined && CD_LIKE.has(name)) {
      cds++;
      firstCd ??= c;
    }
    if (name === 'git') git = true;
  }
  if (cds > 1) {
    return { behavior: 'ask', reason: 'multiple-cd', message: 'Multiple directory changes in one command need approval.', span: firstCd!.span, suggestions: [] };
  }
  if (cds === 1 && git) {
    return {
      behavior: 'ask',
      reason: 'cd-git',
      message: 'A `cd` combined with `git` needs approval (a repository in the target directory could run code through its config).',
      span: firstCd!.span,
      suggestions: [],
    };
  }
  // 7. allow rules per subcommand.
  let firstAllow: PermissionRule | undefined;
  const suggestions: string[] = [];
  let undecided: SimpleCommand | undefined;
  for (const c of subs) {
    const r = allowFor(text, c, policy);
    if (r) {
      firstAllow ??= r;
      continue;
    }
    undecided ??= c;
    const s = suggestionForExactCommand(text.slice(c.span.start, c.span.end));
    if (s !== undefined && !suggestions.includes(s) && suggestions.length < MAX_SUGGESTED_RULES_FOR_COMPOUND) suggestions.push(s);
  }
  if (!undecided && firstAllow) {
    return { behavior: 'allow', reason: 'allow-rule', message: `Allowed by rule ${ruleText(firstAllow)}${subs.length > 1 ? ' and the rules of the other subcommands' : ''}.`, rule: firstAllow, suggestions: [] };
  }
  return {
    behavior: 'passthrough',
    reason: 'no-matching-rule',
    message: 'No permission rule decided.',
    ...(undecided ? { span: undecided.span } : {}),
    suggestions,
  };
}
