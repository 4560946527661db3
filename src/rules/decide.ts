/**
 * The permission decision for one command (SPEC-bashtool.md §2.4–2.8), on the parse tree.
 *
 * Mirrors Claude Code's `bashToolHasPermission` (tree-sitter path) with these steps:
 * 1. an exact deny of the whole command, then a deny rule on any simple command anywhere in the
 *    tree (nested ones included: subshells, `$(…)`, pipelines) → `deny`. Denies come before the
 *    50-subcommand cap and before the complexity gate, so neither can hide one;
 * 2. an exact ask of the whole command, then an ask rule on any simple command → `ask`;
 * 3. an exact allow of the whole command → `allow` when the gates of step 4 would stop the command
 *    (Claude Code's misparsing gate and too-complex path return the full-command exact result);
 *    otherwise it decides after the cap, the cd checks and the path asks of step 7 (§2.6 item 11);
 * 4. the gates: a command that is not `simple` (§1.7; subshells and groups included, §2.7 item 1)
 *    or that the caller marks as a misparsing security ask → `ask` with no suggestions;
 * 5. more than 50 subcommands → `ask` (`MAX_SUBCOMMANDS_FOR_SECURITY_CHECK`);
 * 6. more than one `cd`/`pushd`/`popd`, or a `cd` with a `git` → `ask` (§2.6 item 7); a
 *    subcommand exactly `cd <cwd>` is dropped first;
 * 7. each subcommand in order (§2.8 `bashToolCheckPermission`):
 *    a. path constraints (§3.4.2, only when {@link DecisionContext.paths} is given): `mv`/`cp`
 *       with an option → ask; a write in a compound that changes directory → ask; a path that
 *       {@link validatePath} does not allow (outside the working directories, a variable, a glob
 *       written to, or — outside `acceptEdits` mode — any write) → ask. They come before the allow
 *       rules: no allow rule overrides them;
 *    b. an allow rule (exact, then prefix/wildcard) → allow;
 *    c. sed constraints (§4): a `sed` its allowlist rejects → ask;
 *    d. `acceptEdits` mode: `mkdir`, `touch`, `rm`, `rmdir`, `mv`, `cp`, `sed` → allow;
 *    e. a read-only subcommand (§3.3, {@link simpleCommandReadOnly}, with the unit-level git
 *       guards and no security ask) → allow;
 *    the first ask of a subcommand decides; all allowed → `allow`; otherwise `passthrough` with at
 *    most 5 suggestions, leftmost first (§2.6 item 14).
 *
 * Deviation, in the safe direction: the path constraints of step 7a check the paths of
 * shellward's extension extractors too, not only Claude Code's 36.
 *
 * Not modelled (absent in shellward, said here rather than faked): `Read(…)`/`Edit(…)` rules in
 * path validation, Claude Code's internal editable paths and auto-edit safety checks, the
 * sandbox auto-allow. Pure (symlinks only through the injected host); never throws for any parse.
 */
import type { Span } from '../core/types.js';
import type { ParsedScript, SimpleCommand } from '../parse/nodes.js';
import { resolveCommand } from '../parse/command-name.js';
import { candidatesFor, firstExactMatch, firstMatch, prefixAllowCovers } from './match.js';
import type { PermissionRule } from './parse.js';
import type { PermissionPolicy } from './policy.js';
import { MAX_SUGGESTED_RULES_FOR_COMPOUND, suggestionForExactCommand } from './suggest.js';
import { optionSetMatches } from './option-match.js';
import { gitGuard, simpleCommandReadOnly, unitReadOnly } from '../analyses/read-only.js';
import { extractPaths, protectedPath, validatePath, type PathCheck, type PathContext } from '../analyses/paths.js';
import { sedAllowed } from '../analyses/sed.js';
import { optionEffectConstraint } from './effect-constraint.js';

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
  | 'path-constraint'
  | 'sed-constraint'
  | 'option-effect'
  | 'read-only'
  | 'accept-edits'
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
  /**
   * Whether the whole unit is read-only (§3.3.1): no security ask, a simple parse, the git guards,
   * and every simple command read-only. Independent of the rules.
   */
  readonly readOnly: boolean;
  /** Every path the unit touches, validated (empty when {@link DecisionContext.paths} is absent). */
  readonly paths: readonly PathCheck[];
}

/** Claude Code's permission modes that change a Bash decision (`bypassPermissions` is out of scope). */
export type PermissionMode = 'default' | 'acceptEdits';

/** What the caller knows beyond the parse. */
export interface DecisionContext {
  /** The working directory; a subcommand exactly `cd <cwd>` is dropped (§2.6 item 6). */
  readonly cwd?: string;
  /** True when a security check raised a misparsing ask on the command (§2.6 item 5). */
  readonly misparsing?: boolean;
  /**
   * True when any Claude Code security check asked (misparsing or not): `bashCommandIsSafe` is not
   * passthrough, so the command is not read-only (§3.3.1 item 2).
   */
  readonly securityAsk?: boolean;
  /**
   * Where paths resolve and which directories are allowed; path constraints (§3.4) are checked
   * only when given. `paths.cwd` should equal {@link cwd}.
   */
  readonly paths?: PathContext;
  /** The permission mode (default `default`). */
  readonly mode?: PermissionMode;
  /**
   * True when git run in the working directory would use a repository it must not trust for
   * read-only commands: a bare repository there or in a parent, or a repository config that
   * names programs git runs (src/analyses/git-repository.ts).
   */
  readonly bareRepository?: boolean;
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

/** The names `checkPermissionMode` allows in `acceptEdits` mode (§2.8 step 7), by first word. */
const ACCEPT_EDITS_COMMANDS: ReadonlySet<string> = new Set(['mkdir', 'touch', 'rm', 'rmdir', 'mv', 'cp', 'sed']);

function quoteCode(s: string): string {
  const t = s.length > 80 ? `${s.slice(0, 77)}...` : s;
  return `\`${t.replace(/`/g, "'")}\``;
}

const VERB: Readonly<Record<PathCheck['operation'], string>> = { read: 'reads', write: 'writes to', create: 'creates' };

/** Why `check` stops the command, as one sentence; `undefined` when the path passes (§3.4.3). */
function pathProblem(p: PathCheck, ctx: PathContext, mode: PermissionMode): string | undefined {
  // Built only for a path that fails (most pass: a message per path would be wasted work).
  const what = (): string => `${quoteCode(p.command)} ${VERB[p.operation]} ${quoteCode(p.path)}`;
  if (!p.allowed) {
    switch (p.reason) {
      case 'outside':
        return `${what()}${p.resolved && p.resolved !== p.path ? ` (${p.resolved})` : ''}, outside the allowed working directories (${ctx.workingDirectories.join(', ') || 'none known: the working directory is not absolute'}).`;
      case 'variable':
        return `${what()}: a path with a variable or \`%\`/\`=\` cannot be checked before it runs.`;
      case 'tilde-user':
        return `${what()}: \`~user\`, \`~+\` and \`~-\` paths are not resolved, so they need approval.`;
      case 'glob-write':
        return `${what()}: a glob in a path that is written to cannot be checked before it runs.`;
      case 'unknown-cwd':
        return `${what()}: the working directory is not known here.`;
      default:
        return `${what()}: the path is not allowed.`;
    }
  }
  if (p.operation === 'read' || p.reason !== 'inside') return undefined;
  if (p.resolved !== null && protectedPath(p.resolved)) {
    return `${what()}: it configures git, Claude Code, shellward's policy, an editor or a shell, or runs code later (hooks, CI, Makefile), so a write there needs approval even in acceptEdits mode.`;
  }
  if (mode !== 'acceptEdits') {
    return `${what()}: writes need approval unless the session is in acceptEdits mode (Claude Code auto-allows only reads in the working directories).`;
  }
  return undefined;
}

/**
 * The path constraints of one subcommand (§3.4.2 items 1–3), or `undefined` when they pass.
 * `checks` are the subcommand's validated paths.
 */
function pathConstraint(c: SimpleCommand, checks: readonly PathCheck[], compoundHasCd: boolean, ctx: PathContext, mode: PermissionMode): string | undefined {
  const resolved = resolveCommand(c);
  if (resolved && (resolved.name === 'mv' || resolved.name === 'cp') && resolved.args.some((a) => (a.value ?? a.raw).startsWith('-'))) {
    return `${quoteCode(resolved.name)} with options needs approval: options such as \`--target-directory\` move files where the path checks do not look.`;
  }
  if (compoundHasCd && checks.some((p) => p.operation !== 'read')) {
    return 'A command that changes directory and then writes needs approval: its relative paths cannot be checked against the working directory.';
  }
  for (const p of checks) {
    const problem = pathProblem(p, ctx, mode);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * The permission decision for the unit `text` parsed as `parsed` under `policy` (see the module
 * comment for the steps). Work is linear in the number of simple commands times the number of
 * rules times the candidate lengths. Never throws.
 */
export function decide(text: string, parsed: ParsedScript, policy: PermissionPolicy, ctx: DecisionContext = {}): PermissionDecision {
  const whole = wholeCommandText(text);
  const all = parsed.commands;
  const mode = ctx.mode ?? 'default';
  const pathCtx = ctx.paths;
  const pathsOf = new Map<SimpleCommand, PathCheck[]>();
  const paths: PathCheck[] = [];
  if (pathCtx) {
    for (const c of all) {
      const checks = extractPaths(c).map((a) => validatePath(a, pathCtx));
      // Every path fact decides: shellward's extension extractors (tac, tree, du, fd, grep -f …,
      // brace alternatives) too, so a read outside the working directories asks (stricter than Claude Code).
      pathsOf.set(c, checks);
      for (const x of checks) paths.push(x);
    }
  }
  const readOnly =
    !ctx.securityAsk &&
    parsed.complexity.status === 'simple' &&
    unitReadOnly(parsed, ctx.bareRepository ? { bareRepository: true } : {}).readOnly &&
    // Option effects (src/rules/effect-constraint.ts): an option that writes, runs a program or reads outside.
    all.every((c) => optionEffectConstraint(c, { kind: 'read-only' }, pathCtx) === undefined);
  const facts = { readOnly, paths };

  // 1. deny: whole command exactly, then every simple command in the tree.
  const wholeDeny = firstExactMatch(policy.deny, whole);
  if (wholeDeny) return { behavior: 'deny', reason: 'deny-rule', message: `Denied by rule ${ruleText(wholeDeny)}.`, rule: wholeDeny, suggestions: [], wholeCommand: true, ...facts };
  for (const c of all) {
    const r = denyFor(text, c, policy);
    if (r) return { behavior: 'deny', reason: 'deny-rule', message: `Denied by rule ${ruleText(r)}.`, rule: r, span: c.span, suggestions: [], ...facts };
  }
  // 2. ask rules.
  const wholeAsk = firstExactMatch(policy.ask, whole);
  if (wholeAsk) return { behavior: 'ask', reason: 'ask-rule', message: `Rule ${ruleText(wholeAsk)} asks for approval.`, rule: wholeAsk, suggestions: [], wholeCommand: true, ...facts };
  for (const c of all) {
    const r = askFor(text, c, policy);
    if (r) return { behavior: 'ask', reason: 'ask-rule', message: `Rule ${ruleText(r)} asks for approval.`, rule: r, span: c.span, suggestions: [], ...facts };
  }
  // 3. exact allow of the whole command.
  // An exact allow of the whole command answers the gates (Claude Code's too-complex path and
  // misparsing gate return the full-command exact result, §2.6 items 0 and 5); otherwise it comes
  // after the cap, the cd checks and the per-subcommand path asks (§2.6 items 6–11).
  const wholeAllow = firstExactMatch(policy.allow, whole);
  const allowWhole = (): PermissionDecision => ({
    behavior: 'allow',
    reason: 'allow-rule',
    message: `Allowed by rule ${ruleText(wholeAllow!)}.`,
    rule: wholeAllow!,
    suggestions: [],
    wholeCommand: true,
    ...facts,
  });
  if (wholeAllow && (parsed.complexity.status !== 'simple' || ctx.misparsing)) return allowWhole();
  // 4. gates.
  if (parsed.complexity.status !== 'simple') {
    return { behavior: 'ask', reason: 'not-simple', message: 'The command cannot be split into simple commands safely.', suggestions: [], ...facts };
  }
  if (ctx.misparsing) {
    return { behavior: 'ask', reason: 'misparsing', message: 'A security check found text that shells may parse differently.', suggestions: [], ...facts };
  }
  // 5. the cap.
  const subs = all.filter((c) => !isCdTo(c, ctx.cwd));
  if (subs.length > MAX_SUBCOMMANDS) {
    return {
      behavior: 'ask',
      reason: 'too-many-subcommands',
      message: `The command has ${subs.length} subcommands, more than ${MAX_SUBCOMMANDS} to check individually.`,
      suggestions: [],
      ...facts,
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
    return { behavior: 'ask', reason: 'multiple-cd', message: 'Multiple directory changes in one command need approval.', span: firstCd!.span, suggestions: [], ...facts };
  }
  if (cds === 1 && git) {
    return {
      behavior: 'ask',
      reason: 'cd-git',
      message: 'A `cd` combined with `git` needs approval (a repository in the target directory could run code through its config).',
      span: firstCd!.span,
      suggestions: [],
      ...facts,
    };
  }
  // 7. each subcommand: path constraints, allow rules, sed, mode, read-only (git only when the
  // unit passes the git guards: no planted HEAD/objects/refs/hooks, no bare repository).
  let gitSafeMemo: boolean | undefined;
  const gitSafe = (): boolean => (gitSafeMemo ??= gitGuard(parsed, ctx.bareRepository ? { bareRepository: true } : {}).readOnly);
  let firstAllow: PermissionRule | undefined;
  let viaReadOnly = false;
  let viaMode = false;
  const suggestions: string[] = [];
  let undecided: SimpleCommand | undefined;
  for (const c of subs) {
    if (pathCtx) {
      const problem = pathConstraint(c, pathsOf.get(c) ?? [], cds > 0, pathCtx, mode);
      if (problem) return { behavior: 'ask', reason: 'path-constraint', message: problem, span: c.span, suggestions: [], ...facts };
    }
    // Past the path asks, an exact allow of the whole command decides (§2.6 item 11).
    if (wholeAllow) continue;
    const r = allowFor(text, c, policy);
    if (r) {
      // Option effects (src/rules/effect-constraint.ts): a prefix rule does not cover an option that runs code or writes outside.
      const effect = optionEffectConstraint(c, { kind: 'allow-rule', rule: r, strictExec: policy.deny.length + policy.ask.length > 0 }, pathCtx);
      if (effect) return { behavior: 'ask', reason: 'option-effect', message: effect, span: c.span, suggestions: [], ...facts };
      firstAllow ??= r;
      continue;
    }
    const first = c.name?.value;
    if (first === 'sed' && !sedAllowed(c.args, { allowFileWrites: mode === 'acceptEdits' })) {
      return {
        behavior: 'ask',
        reason: 'sed-constraint',
        message: 'This `sed` command needs approval: only line printing (`sed -n 1,5p`) and plain substitutions without files are allowed without it.',
        span: c.span,
        suggestions: [],
        ...facts,
      };
    }
    // Claude Code looks at the first word, so `PATH=./bin mkdir x` (first word `PATH=./bin`) is not a file edit.
    if (mode === 'acceptEdits' && first !== undefined && c.assignments.length === 0 && ACCEPT_EDITS_COMMANDS.has(first)) {
      viaMode = true;
      continue;
    }
    if (
      !ctx.securityAsk &&
      simpleCommandReadOnly(c, text).readOnly &&
      (resolveCommand(c)?.name !== 'git' || gitSafe()) &&
      optionEffectConstraint(c, { kind: 'read-only' }, pathCtx) === undefined
    ) {
      viaReadOnly = true;
      continue;
    }
    undecided ??= c;
    const s = suggestionForExactCommand(text.slice(c.span.start, c.span.end));
    if (s !== undefined && !suggestions.includes(s) && suggestions.length < MAX_SUGGESTED_RULES_FOR_COMPOUND) suggestions.push(s);
  }
  if (wholeAllow) return allowWhole();
  if (!undecided && firstAllow) {
    return { behavior: 'allow', reason: 'allow-rule', message: `Allowed by rule ${ruleText(firstAllow)}${subs.length > 1 ? ' and the rules of the other subcommands' : ''}.`, rule: firstAllow, suggestions: [], ...facts };
  }
  if (!undecided && viaMode) {
    return { behavior: 'allow', reason: 'accept-edits', message: 'File edits are allowed in acceptEdits mode.', suggestions: [], ...facts };
  }
  if (!undecided && viaReadOnly) {
    return { behavior: 'allow', reason: 'read-only', message: 'Read-only command is allowed.', suggestions: [], ...facts };
  }
  return {
    behavior: 'passthrough',
    reason: 'no-matching-rule',
    message: 'No permission rule decided.',
    ...(undecided ? { span: undecided.span } : {}),
    suggestions,
    ...facts,
  };
}
