/**
 * The shared per-command driver of the security checks (claude-code-reference.md §1.4–1.5).
 *
 * Claude Code's validators see one command string. shellward hands them:
 * - for a unit of granularity `command` (a transcript tool call, a `check` request, a Makefile
 *   recipe line): the whole unit text, exactly what Claude Code would have been given;
 * - for a unit of granularity `script`: each top-level statement (statements whose spans
 *   overlap, e.g. through a heredoc body, are merged), so comments and blank lines between
 *   statements are never part of a command string.
 *
 * For each command string the driver builds the quote-aware views once, collects what the parse
 * knows about it (comments, quoted heredocs, operator nodes, syntax problems), and runs the early
 * validators that can *allow*: `validateEmpty`, `validateSafeCommandSubstitution` and
 * `validateGitCommit`. An allow suppresses every check that Claude Code runs after that
 * validator, for that command string only. Asks never suppress anything: every check reports
 * what it sees, and the verdict picks the ask Claude Code would return from the rules' `order`
 * and `misparsing` metadata.
 *
 * The safe-substitution allow re-checks the text that remains after the heredoc is cut out with
 * the whole battery (as Claude Code recurses into `bashCommandIsSafe`). The battery is not
 * imported here: it is derived from the check registry the run passes in (`ctx.registry`, see
 * {@link securityBattery}), so the detectors and this driver do not import each other. The
 * detectors declare themselves with `defineSecurityCheck` (define-security-check.ts).
 */
import {
  buildSecurityViews,
  isJsSpace,
  isLineTerminator,
  isWordChar,
  type InertHeredoc,
  type SecurityViews,
  type View,
} from '../../analyses/security-views.js';
import type { Dialect, Profile, Span } from '../../core/types.js';
import { resolveCommand } from '../../parse/command-name.js';
import type { ParsedScript, Redirect } from '../../parse/nodes.js';
import type { Check, CheckContext, RuleMeta } from '../define.js';
import { ORDER } from './order.js';

export { ORDER };

/** Allows of the early validators: every rule whose order is at least this value is suppressed. */
const ALLOW_EMPTY = ORDER['incomplete-commands'];
const ALLOW_SAFE_SUBSTITUTION = ORDER['git-commit-substitution'];
const ALLOW_GIT_COMMIT = ORDER['jq-system-function'];

/**
 * What one detector found in one command string. `start`/`end` are UTF-16 code-unit offsets
 * into that string (end exclusive); the driver adds the string's offset in the unit.
 */
export interface Hit {
  readonly start: number;
  readonly end: number;
  readonly message: string;
  /** Claude Code's telemetry sub-id of the trigger, where it has one. */
  readonly subId?: number;
  /** Execution-order position of the validator that really raised the ask, when it is not the rule's own. */
  readonly order?: number;
  readonly data?: Readonly<Record<string, unknown>>;
}

/** Facts the parse tree gives about one command string (offsets relative to the string). */
export interface TreeFacts {
  /** Comment nodes. */
  readonly comments: readonly Span[];
  /** Quoted heredocs whose bodies are inert text. */
  readonly heredocs: readonly InertHeredoc[];
  /** True when the tree may have a `;`, `&&`, `||` or `list` node (Claude Code's `hasActualOperatorNodes`). */
  readonly hasOperatorNodes: boolean;
  /** True when an ERROR or MISSING node starts in the string. */
  readonly hasProblems: boolean;
  /**
   * The `<<` / `<<-` operators and the bodies (`[start, end)`, newline before the body to the end
   * of the closing delimiter) of
   * unquoted heredocs that are plain data: fed to a command that is not a shell, and holding no
   * `$`, backtick or backslash-newline, so bash expands nothing in them (bash manual, "Here
   * Documents": https://www.gnu.org/software/bash/manual/html_node/Redirections.html#Here-Documents).
   * A check of shell syntax may skip them; quoted heredocs are in {@link heredocs}.
   */
  readonly dataHeredocs: readonly Span[];
  /**
   * Spans of the arguments of `echo` / `printf` commands that stand alone on their line or
   * between `;`, `&&`, `||` (not in a pipeline, not inside `$( … )`): their words are printed,
   * never read as flags by another command.
   */
  readonly printedArgs: readonly Span[];
}

/** True when `[start, end)` lies inside one of `spans` (sorted or not). */
export function insideAny(spans: readonly Span[], start: number, end = start + 1): boolean {
  return spans.some((s) => start >= s.start && end <= s.end);
}

/** Programs that run a heredoc's body as shell code (directly, or on another host). */
const BODY_RUNNERS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'busybox', 'fish', 'source', '.', 'eval', 'ssh', 'sudo', 'su', 'doas', 'env', 'xargs', 'exec', 'command', 'nohup', 'time', 'timeout', 'nice', 'script', 'docker', 'kubectl', 'podman']);

/** Whether a separator or the string edge lies next to `[from, to)` on the side `dir` (spaces and tabs skipped). */
function standsAlone(text: string, from: number, to: number, start: number, end: number): boolean {
  let b = from - 1;
  while (b >= start && (text[b] === ' ' || text[b] === '\t')) b--;
  const before = b < start ? '' : text[b]!;
  const okBefore = before === '' || before === '\n' || before === ';' || (before === '&' && text[b - 1] === '&') || (before === '|' && text[b - 1] === '|');
  let a = to;
  while (a < end && (text[a] === ' ' || text[a] === '\t')) a++;
  const after = a >= end ? '' : text[a]!;
  const okAfter = after === '' || after === '\n' || after === ';' || after === '#' || (after === '&' && text[a + 1] === '&') || (after === '|' && text[a + 1] === '|');
  return okBefore && okAfter;
}

/** Result of Claude Code's `validateGitCommit` for one command string. */
export type GitCommitResult =
  | { readonly kind: 'not-applicable' | 'passthrough' | 'allow' }
  | { readonly kind: 'ask-substitution' | 'ask-dash-message'; readonly message: Span };

/** One command string as the security checks see it. */
export interface SecurityCommand {
  /** Offset of the string in the unit's text. */
  readonly start: number;
  /** The command string (Claude Code's `originalCommand`). */
  readonly text: string;
  readonly views: SecurityViews;
  /** What the parse knows; `undefined` for text re-checked without a parse (the safe-substitution remainder). */
  readonly tree: TreeFacts | undefined;
  readonly profile: Profile;
  /** Dialect of the unit (from the script's shebang or extension; `bash` for agent commands). */
  readonly dialect: Dialect;
  readonly gitCommit: GitCommitResult;
  /** Rules with `order >= allowOrder` are suppressed because an early validator allowed the command. */
  readonly allowOrder: number | undefined;
  /** Which early validator allowed it. */
  readonly allowedBy: 'empty' | 'safe-command-substitution' | 'git-commit' | undefined;
}

/**
 * A {@link Hit} for view indices `[start, end)` of `view`, mapped back to offsets in the command
 * string.
 */
export function viewHit(view: View, start: number, end: number, message: string, extra: Omit<Hit, 'start' | 'end' | 'message'> = {}): Hit {
  const span = view.span(start, end);
  return { ...extra, start: span.start, end: span.end, message };
}

/**
 * A command string analysed without a parse tree, as Claude Code's regex path sees it (used for
 * the safe-substitution remainder, and by tests to show the regex behaviour next to the
 * tree-informed one). `battery` is the one the safe-substitution allow re-runs on the remainder
 * (`SECURITY_BATTERY` of src/checks/index.ts for the built-in registry); `profile` defaults to
 * `agent`.
 */
export function commandForText(text: string, battery: SecurityBattery, profile: Profile = 'agent', dialect: Dialect = 'bash'): SecurityCommand {
  return makeCommand(text, 0, undefined, profile, 0, battery, dialect);
}

/** A check's pure detection function over one command string. */
export type Detector = (cmd: SecurityCommand) => Hit | undefined;

/** Metadata of a security rule: `claudeCode` is required. */
export type SecurityRuleMeta = RuleMeta & { readonly claudeCode: NonNullable<RuleMeta['claudeCode']> };

/**
 * A check declared with `defineSecurityCheck`: a {@link Check} that also exposes its detector and
 * its position in Claude Code's execution order, so that the battery can be derived from the
 * registry.
 */
export interface SecurityCheck extends Check {
  readonly security: { readonly order: number; readonly detect: Detector };
}

/** True when `check` was declared with `defineSecurityCheck`. */
export function isSecurityCheck(check: Check): check is SecurityCheck {
  const s = (check as Partial<SecurityCheck>).security;
  return typeof s === 'object' && s !== null && typeof s.detect === 'function' && typeof s.order === 'number';
}

/**
 * Every detector with its execution-order position, sorted by that position (Claude Code's
 * order): the battery Claude Code's `bashCommandIsSafe` runs on one command string.
 */
export type SecurityBattery = readonly (readonly [order: number, detect: Detector])[];

const BATTERIES = new WeakMap<readonly Check[], SecurityBattery>();

/**
 * The security battery of a check registry: the detector of every {@link SecurityCheck} in
 * `checks`, sorted by `claudeCode.order`. Memoised per registry array.
 */
export function securityBattery(checks: readonly Check[]): SecurityBattery {
  let battery = BATTERIES.get(checks);
  if (!battery) {
    battery = checks
      .filter(isSecurityCheck)
      .map((c) => [c.security.order, c.security.detect] as const)
      .sort((x, y) => x[0] - y[0]);
    BATTERIES.set(checks, battery);
  }
  return battery;
}

// ---------------------------------------------------------------------------------------------
// Command strings of a unit
// ---------------------------------------------------------------------------------------------

const CACHE = new WeakMap<ParsedScript, readonly SecurityCommand[]>();

/**
 * The command strings of the unit in `ctx`, each with its views and early-validator results.
 * Computed once per parse (memoised on the `ParsedScript` object, which is per unit), in time
 * linear in the unit's length.
 */
export function securityCommands(ctx: CheckContext): readonly SecurityCommand[] {
  const cached = CACHE.get(ctx.parsed);
  if (cached) return cached;
  const parsed = ctx.parsed;
  const ranges = commandRanges(parsed, ctx.unit.granularity);
  const battery = securityBattery(ctx.registry);
  const bucket = <T>(items: readonly T[], startOf: (x: T) => number): T[][] => {
    // Items and ranges are both in document order: one merge pass.
    const out: T[][] = ranges.map(() => []);
    let r = 0;
    for (const item of items) {
      const at = startOf(item);
      while (r < ranges.length && ranges[r]!.end <= at) r++;
      if (r === ranges.length) break;
      if (at >= ranges[r]!.start) out[r]!.push(item);
    }
    return out;
  };
  const comments = bucket(parsed.comments, (c) => c.start);
  const problems = bucket(parsed.problems, (p) => p.span.start);
  const commands = bucket(parsed.commands, (c) => c.span.start);
  const statements = bucket(parsed.statements, (st) => st.span.start);
  const out = ranges.map((r, i) => {
    const text = parsed.text.slice(r.start, r.end);
    // Found when a detector (or a view) first needs them: most command strings meet none that does.
    let facts: TreeFacts | undefined;
    const factsOf = (): TreeFacts => {
      facts ??= treeFacts(parsed.text, r, {
        comments: comments[i]!,
        problems: problems[i]!,
        commands: commands[i]!,
        statements: statements[i]!,
      });
      return facts;
    };
    return makeCommand(text, r.start, factsOf, ctx.unit.profile, 0, battery, ctx.unit.dialect);
  });
  CACHE.set(ctx.parsed, out);
  return out;
}

function commandRanges(parsed: ParsedScript, granularity: 'script' | 'command'): Span[] {
  if (granularity === 'command') return [{ start: 0, end: parsed.text.length }];
  const out: Span[] = [];
  for (const st of parsed.statements) {
    const last = out[out.length - 1];
    if (last && st.span.start < last.end) out[out.length - 1] = { start: last.start, end: Math.max(last.end, st.span.end) };
    else out.push({ start: st.span.start, end: st.span.end });
  }
  return out;
}

/**
 * Builds a {@link SecurityCommand}; `start` is its offset in the unit text. `tree` may be a
 * function that computes the facts, called once on first use (of `tree` or of a view that needs
 * the quoted heredocs).
 */
function makeCommand(
  text: string,
  start: number,
  tree: TreeFacts | undefined | (() => TreeFacts),
  profile: Profile,
  depth: number,
  battery: SecurityBattery,
  dialect: Dialect = 'bash',
): SecurityCommand {
  const views = buildSecurityViews(text, typeof tree === 'function' ? () => tree().heredocs : (tree?.heredocs ?? []));
  const gitCommit = analyseGitCommit(text, views.baseCommand);
  let allowOrder: number | undefined;
  let allowedBy: SecurityCommand['allowedBy'];
  if (text.trim() === '') {
    allowOrder = ALLOW_EMPTY;
    allowedBy = 'empty';
  } else if (depth === 0 && isSafeHeredocSubstitution(text, depth, battery)) {
    allowOrder = ALLOW_SAFE_SUBSTITUTION;
    allowedBy = 'safe-command-substitution';
  } else if (gitCommit.kind === 'allow') {
    allowOrder = ALLOW_GIT_COMMIT;
    allowedBy = 'git-commit';
  }
  if (typeof tree !== 'function') return { start, text, views, tree, profile, dialect, gitCommit, allowOrder, allowedBy };
  return {
    start,
    text,
    views,
    get tree() {
      return tree();
    },
    profile,
    dialect,
    gitCommit,
    allowOrder,
    allowedBy,
  };
}

// ---------------------------------------------------------------------------------------------
// Facts from the parse
// ---------------------------------------------------------------------------------------------

const WORD_END = ' \t\n|&;()<>';

/** Locates a heredoc's operator, delimiter word and body in the unit text, or `undefined`. */
function locateHeredoc(text: string, r: Redirect): (InertHeredoc & { quoted: boolean }) | undefined {
  const h = r.heredoc;
  if (!h) return undefined;
  const opStart = text.indexOf('<<', r.span.start);
  if (opStart < 0 || opStart >= r.span.end) return undefined;
  let k = opStart + 2;
  if (text[k] === '-') k++;
  while (text[k] === ' ' || text[k] === '\t') k++;
  while (k < r.span.end) {
    const c = text[k]!;
    if (c === '\\') {
      k += 2;
      continue;
    }
    if (c === "'") {
      const close = text.indexOf("'", k + 1);
      if (close < 0) return undefined;
      k = close + 1;
      continue;
    }
    if (c === '"') {
      let j = k + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) return undefined;
      k = j + 1;
      continue;
    }
    if (WORD_END.includes(c)) break;
    k++;
  }
  const opEnd = k;
  const contentEnd = r.span.end;
  const contentStart = text.lastIndexOf('\n', Math.max(h.bodySpan.start - 1, 0));
  if (contentStart < opEnd || contentStart >= contentEnd) return undefined;
  // The closing line must be the delimiter (tabs stripped for <<-).
  const closeLineStart = text.lastIndexOf('\n', contentEnd - 1) + 1;
  if (closeLineStart <= contentStart) return undefined;
  let closing = text.slice(closeLineStart, contentEnd);
  if (h.stripTabs) closing = closing.replace(/^\t+/, '');
  if (closing !== h.delimiter) return undefined;
  return { opStart, opEnd, contentStart, contentEnd, quoted: h.quoted };
}

/** The parts of a parse that fall in one command string (each list in document order). */
interface RangeParse {
  readonly comments: readonly Span[];
  readonly problems: readonly ParsedScript['problems'][number][];
  readonly commands: readonly ParsedScript['commands'][number][];
  readonly statements: readonly ParsedScript['statements'][number][];
}

/**
 * Facts of the parse for the command string at `range` of `text` (returned offsets relative to
 * the string). Quoted heredocs are inert only when the string has no syntax problem and no
 * heredoc operator sits inside (or on the line of) an earlier heredoc, as in Claude Code's
 * nesting filter.
 */
function treeFacts(text: string, range: Span, parse: RangeParse): TreeFacts {
  const { start, end } = range;
  const comments = parse.comments.filter((c) => c.end <= end).map((c) => ({ start: c.start - start, end: c.end - start }));
  const hasProblems = parse.problems.length > 0;
  const heredocs: InertHeredoc[] = [];
  if (!hasProblems) {
    const all: (InertHeredoc & { quoted: boolean })[] = [];
    for (const cmd of parse.commands) {
      for (const r of cmd.redirects) {
        const loc = locateHeredoc(text, r);
        if (loc && loc.opStart >= start && loc.contentEnd <= end) all.push(loc);
      }
    }
    all.sort((a, b) => a.opStart - b.opStart);
    let maxEnd = start;
    for (const h of all) {
      const nested = h.opStart < maxEnd;
      maxEnd = Math.max(maxEnd, h.contentEnd);
      if (!h.quoted || nested) continue;
      heredocs.push({
        opStart: h.opStart - start,
        opEnd: h.opEnd - start,
        contentStart: h.contentStart - start,
        contentEnd: h.contentEnd - start,
      });
    }
  }
  const dataHeredocs: Span[] = [];
  const printedArgs: Span[] = [];
  if (!hasProblems) {
    for (const cmd of parse.commands) {
      if (cmd.embedded) continue;
      const name = resolveCommand(cmd)?.name ?? cmd.name?.value;
      for (const r of cmd.redirects) {
        if (!r.heredoc || r.heredoc.quoted || name === undefined || BODY_RUNNERS.has(name)) continue;
        const loc = locateHeredoc(text, r);
        if (!loc || loc.opStart < start || loc.contentEnd > end) continue;
        // Only `$`, backtick and a backslash before a newline act in an unquoted heredoc body.
        if (/[$`]|\\\r?\n/.test(text.slice(loc.contentStart, loc.contentEnd))) continue;
        // The `<<` operator too: it reads no file.
        dataHeredocs.push({ start: loc.opStart - start, end: loc.opStart + 3 - start }, { start: loc.contentStart - start, end: loc.contentEnd - start });
      }
      const raw = cmd.name?.value;
      if ((raw === 'echo' || raw === 'printf') && cmd.args.length > 0 && cmd.span.start >= start && cmd.span.end <= end && standsAlone(text, cmd.span.start, cmd.span.end, start, end)) {
        printedArgs.push({ start: cmd.args[0]!.span.start - start, end: cmd.args[cmd.args.length - 1]!.span.end - start });
      }
    }
  }
  const listStatement = parse.statements.some((s) => s.type === 'list');
  const hasOperatorNodes = hasProblems || listStatement || hasOperatorText(text.slice(start, end), comments, heredocs);
  return { comments, heredocs, hasOperatorNodes, hasProblems, dataHeredocs, printedArgs };
}

/**
 * True when `command` has an unquoted, unescaped `;`, `&&` or `||` outside comments and inert
 * heredoc bodies: where tree-sitter-bash produces `;`, `&&` and `||` nodes (and `list` nodes).
 * Errs towards true (`;;` counts), which keeps the regex check in force.
 */
function hasOperatorText(command: string, comments: readonly Span[], heredocs: readonly InertHeredoc[]): boolean {
  const skips = [...comments.map((c) => ({ from: c.start, to: c.end })), ...heredocs.map((h) => ({ from: h.contentStart, to: h.contentEnd }))].sort(
    (a, b) => a.from - b.from,
  );
  let s = 0;
  let inSingle = false;
  let inDouble = false;
  for (let i = 0; i < command.length; i++) {
    while (s < skips.length && skips[s]!.to <= i) s++;
    const skip = skips[s];
    if (skip && i >= skip.from && !inSingle && !inDouble) {
      i = skip.to - 1;
      continue;
    }
    const c = command[i];
    if (inSingle) {
      if (c === "'") inSingle = false;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (inDouble) {
      if (c === '"') inDouble = false;
      continue;
    }
    if (c === "'") inSingle = true;
    else if (c === '"') inDouble = true;
    else if (c === ';') return true;
    else if ((c === '&' || c === '|') && command[i + 1] === c) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// validateGitCommit
// ---------------------------------------------------------------------------------------------

const GIT_PREFIX_FORBIDDEN = ';&|`$<>()\n\r';

/** Skips `[ \t]+` from `i`; returns the index after it, or -1 when there is none. */
function horizontalSpaces(t: string, i: number): number {
  let k = i;
  while (t[k] === ' ' || t[k] === '\t') k++;
  return k > i ? k : -1;
}

/** Skips `\s+` from `i`; returns the index after it, or -1 when there is none. */
function jsSpaces(t: string, i: number): number {
  let k = i;
  while (k < t.length && isJsSpace(t.charCodeAt(k))) k++;
  return k > i ? k : -1;
}

/**
 * Claude Code's `validateGitCommit` (claude-code-reference.md §1.5), without regular expressions: applies to
 * `git commit …` with no backslash anywhere; matches `git commit [flags] -m 'msg' [rest]` where
 * the flags hold no shell metacharacter and the rest no line break; asks when a double-quoted
 * message has `$(`, a backtick or `${`, or when the message starts with `-`; allows when the
 * rest is free of operators, substitutions and unquoted redirections.
 */
export function analyseGitCommit(command: string, baseCommand: string): GitCommitResult {
  if (baseCommand !== 'git' || !command.startsWith('git')) return { kind: 'not-applicable' };
  let k = jsSpaces(command, 3);
  if (k < 0 || !command.startsWith('commit', k) || jsSpaces(command, k + 6) < 0) return { kind: 'not-applicable' };
  if (command.includes('\\')) return { kind: 'passthrough' };
  k = horizontalSpaces(command, 3);
  if (k < 0 || !command.startsWith('commit', k)) return { kind: 'passthrough' };
  const prefixStart = horizontalSpaces(command, k + 6);
  if (prefixStart < 0) return { kind: 'passthrough' };
  let forbidden = command.length;
  for (let i = prefixStart; i < command.length; i++) {
    if (GIT_PREFIX_FORBIDDEN.includes(command[i]!)) {
      forbidden = i;
      break;
    }
  }
  let lastTerminator = -1;
  for (let i = command.length - 1; i >= 0; i--) {
    if (isLineTerminator(command.charCodeAt(i))) {
      lastTerminator = i;
      break;
    }
  }
  const lastQuote = { "'": command.lastIndexOf("'"), '"': command.lastIndexOf('"') };
  for (let m = prefixStart; m + 1 < forbidden; m++) {
    if (command[m] !== '-' || command[m + 1] !== 'm') continue;
    const j = horizontalSpaces(command, m + 2);
    if (j < 0) continue;
    const q = command[j];
    if (q !== "'" && q !== '"') continue;
    const lo = Math.max(j, lastTerminator) + 1;
    if (lastQuote[q] < lo) continue;
    const close = command.indexOf(q, lo);
    const message = command.slice(j + 1, close);
    const remainder = command.slice(close + 1);
    const messageSpan = { start: j, end: close + 1 };
    if (q === '"' && (message.includes('$(') || message.includes('`') || message.includes('${'))) {
      return { kind: 'ask-substitution', message: messageSpan };
    }
    if (remainder) {
      if (/[;|&()`]/.test(remainder) || remainder.includes('$(') || remainder.includes('${')) return { kind: 'passthrough' };
      let inSingle = false;
      let inDouble = false;
      for (const c of remainder) {
        if (c === "'" && !inDouble) inSingle = !inSingle;
        else if (c === '"' && !inSingle) inDouble = !inDouble;
        else if (!inSingle && !inDouble && (c === '<' || c === '>')) return { kind: 'passthrough' };
      }
    }
    if (message.startsWith('-')) return { kind: 'ask-dash-message', message: messageSpan };
    return { kind: 'allow' };
  }
  return { kind: 'passthrough' };
}

// ---------------------------------------------------------------------------------------------
// validateSafeCommandSubstitution
// ---------------------------------------------------------------------------------------------

/** `$(` followed by `<<` later on the same line (Claude Code's `/\$\(.*<</`). */
function heredocInSubstitution(command: string): boolean {
  let seen = false;
  for (let i = 0; i < command.length; i++) {
    const c = command.charCodeAt(i);
    if (isLineTerminator(c)) seen = false;
    else if (command[i] === '$' && command[i + 1] === '(') {
      seen = true;
      i++;
    } else if (seen && command[i] === '<' && command[i + 1] === '<') return true;
  }
  return false;
}

/** An identifier `[A-Za-z_]\w*` at `i`: its end, or -1. */
function identifierEnd(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (!((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f)) return -1;
  let k = i + 1;
  while (k < t.length && isWordChar(t.charCodeAt(k))) k++;
  return k;
}

/** The next `$(cat <<['…'|\…]DELIM` opener at or after `from`. */
function nextCatHeredoc(t: string, from: number): { start: number; opEnd: number; delimiter: string; dash: boolean } | undefined {
  for (let p = t.indexOf('$(cat', from); p >= 0; p = t.indexOf('$(cat', p + 1)) {
    let k = p + 5;
    while (t[k] === ' ' || t[k] === '\t') k++;
    if (t[k] !== '<' || t[k + 1] !== '<') continue;
    k += 2;
    const dash = t[k] === '-';
    if (dash) k++;
    while (t[k] === ' ' || t[k] === '\t') k++;
    if (t[k] === "'") {
      let q = k;
      while (t[q] === "'") q++;
      const e = identifierEnd(t, q);
      if (e < 0 || t[e] !== "'") continue;
      let r = e;
      while (t[r] === "'") r++;
      return { start: p, opEnd: r, delimiter: t.slice(q, e), dash };
    }
    if (t[k] === '\\') {
      const e = identifierEnd(t, k + 1);
      if (e < 0) continue;
      return { start: p, opEnd: e, delimiter: t.slice(k + 1, e), dash };
    }
  }
  return undefined;
}

const SAFE_REMAINDER = /^[a-zA-Z0-9 \t"'.\-/_@=,:+~]*$/;

/**
 * Claude Code's `isSafeHeredoc` (claude-code-reference.md §1.5, validateSafeCommandSubstitution): every
 * `$(cat <<'DELIM'` opener must have an empty rest of line, close at the first line equal to the
 * delimiter followed by a `)` line, or at a `DELIM)` line, with no ambiguous early closure; no
 * match may start inside another; the substitution may not be in command-name position when
 * text remains; the remainder may hold only plain word characters and must itself pass the
 * whole battery. Line-based and linear.
 */
function isSafeHeredocSubstitution(command: string, depth: number, battery: SecurityBattery): boolean {
  if (depth > 0 || !heredocInSubstitution(command)) return false;
  const verified: Span[] = [];
  let maxEnd = -1;
  for (let m = nextCatHeredoc(command, 0); m; m = nextCatHeredoc(command, m.opEnd)) {
    if (m.start < maxEnd) return false; // a match inside another one: rejected
    const nl = command.indexOf('\n', m.opEnd);
    if (nl < 0) return false;
    for (let i = m.opEnd; i < nl; i++) if (command[i] !== ' ' && command[i] !== '\t') return false;
    let end = -1;
    let lineStart = nl + 1;
    for (;;) {
      const nextNl = command.indexOf('\n', lineStart);
      const lineEnd = nextNl < 0 ? command.length : nextNl;
      let tabs = 0;
      if (m.dash) while (command[lineStart + tabs] === '\t') tabs++;
      const line = command.slice(lineStart + tabs, lineEnd);
      if (line === m.delimiter) {
        if (nextNl < 0) return false;
        let p = lineEnd + 1;
        while (command[p] === ' ' || command[p] === '\t') p++;
        if (command[p] !== ')') return false;
        end = p + 1;
        break;
      }
      if (line.startsWith(m.delimiter)) {
        const after = line.slice(m.delimiter.length);
        let p = 0;
        while (after[p] === ' ' || after[p] === '\t') p++;
        if (after[p] === ')') {
          end = lineStart + tabs + m.delimiter.length + p + 1;
          break;
        }
        if (after.length > 0 && ')}`|&;(<>'.includes(after[0]!)) return false;
      }
      if (nextNl < 0) return false;
      lineStart = nextNl + 1;
    }
    verified.push({ start: m.start, end });
    maxEnd = Math.max(maxEnd, end);
  }
  if (verified.length === 0) return false;
  let remaining = '';
  let pos = 0;
  for (const v of verified) {
    remaining += command.slice(pos, v.start);
    pos = v.end;
  }
  remaining += command.slice(pos);
  if (remaining.trim().length > 0 && command.slice(0, verified[0]!.start).trim().length === 0) return false;
  if (!SAFE_REMAINDER.test(remaining)) return false;
  return isPassthrough(remaining, battery, depth + 1);
}

/**
 * True when Claude Code's `bashCommandIsSafe_DEPRECATED(command)` would return passthrough:
 * no detector of `battery` fires before an early allow. Used for the text left after cutting out safe
 * heredoc substitutions; that text is checked without a parse (the regex behaviour, the
 * stricter one) and in the `agent` profile.
 */
export function isPassthrough(command: string, battery: SecurityBattery, depth = 1): boolean {
  const cmd = makeCommand(command, 0, undefined, 'agent', depth, battery);
  for (const [order, detect] of battery) {
    if (cmd.allowOrder !== undefined && order >= cmd.allowOrder) return true;
    if (detect(cmd)) return false;
  }
  return true;
}
