/**
 * Matching permission rules against one subcommand (claude-code-reference.md §2.2–2.4), on the parse tree.
 *
 * Claude Code re-tokenises text (`filterRulesByContentsMatchingInput`, `stripSafeWrappers`,
 * `stripAllLeadingEnvVars`). shellward builds the candidate strings from the parsed simple command
 * instead: its source text (with output redirections cut out), and its argv rendered with
 * canonical quoting, then peeled — assignments, wrappers, directory prefixes — as each rule list
 * allows:
 * - allow rules see past safe env assignments (claude-code-reference.md §3.1) and then the safe wrapper forms of
 *   rules/commands/wrappers.json `allowRule` (claude-code-reference.md §3.2), nothing else;
 * - deny and ask rules see past any assignment, every wrapper of the table, a directory prefix
 *   (`/usr/bin/curl`) and zsh's `=curl`, repeated to a fixed point.
 * Pure; never throws.
 */
import table from '../../rules/commands/wrappers.json' with { type: 'json' };
import facts from '../../rules/permissions.json' with { type: 'json' };
import type { SimpleCommand } from '../parse/nodes.js';
import { commandBasename, wrapperCommandStart, wrapperSpec } from '../parse/command-name.js';
import type { Word } from '../parse/words.js';
import type { BashMatcher, PermissionRule, RuleBehavior } from './parse.js';
import { classifyAssignment } from '../model/environment.js';
import { equivalentArgv } from './option-match.js';

/** SAFE_ENV_VARS (claude-code-reference.md §3.1), from rules/permissions.json. */
export const SAFE_ENV_VARS: ReadonlySet<string> = new Set(facts.safeEnvVars);

/** The form of a wrapper that allow rules may see through (rules/commands/wrappers.json `allowRule`). */
interface AllowRuleForm {
  readonly flags?: readonly string[];
  readonly options?: readonly string[];
  readonly fusedOptions?: readonly string[];
  readonly valuePattern?: string;
  readonly numericFlag?: boolean;
  readonly minOptions?: number;
  readonly operandPattern?: string;
  readonly prefixRulesOnly?: boolean;
}

interface WrapperRow {
  readonly optionsWithValue: readonly string[];
  readonly stopFlags: readonly string[];
  readonly positionalsBeforeCommand?: number;
  readonly allowsAssignments?: boolean;
  readonly allowRule?: AllowRuleForm;
}

const WRAPPERS: ReadonlyMap<string, WrapperRow> = new Map(Object.entries(table.wrappers as Record<string, WrapperRow>));

/**
 * Whether a matcher accepts `candidate` in the given mode (Claude Code shellRuleMatching.ts).
 * In `exact` mode a prefix rule matches only its prefix exactly and wildcard rules never match
 * (claude-code-reference.md §2.2, so `foo *` cannot match an unsplit compound). Linear in `candidate` times the
 * number of wildcard segments (no regular expressions, so no backtracking).
 */
export function matcherAccepts(m: BashMatcher, candidate: string, mode: 'exact' | 'prefix'): boolean {
  switch (m.kind) {
    case 'any':
      return true;
    case 'exact':
      return candidate === m.command;
    case 'prefix':
      if (candidate === m.prefix) return true;
      if (mode === 'exact') return false;
      return candidate.startsWith(m.prefix + ' ') || candidate.startsWith(`xargs ${m.prefix} `) || candidate === `xargs ${m.prefix}`;
    case 'wildcard':
      if (mode === 'exact') return false;
      if (m.optionalTail && candidate === m.segments[0]) return true;
      return globMatch(m.optionalTail ? [m.segments[0] + ' ', ''] : m.segments, candidate);
  }
}

/** Full-string match of literal `segments` joined by `*` (any sequence, newlines included). */
export function globMatch(segments: readonly string[], s: string): boolean {
  if (segments.length === 1) return s === segments[0];
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  if (s.length < first.length + last.length || !s.startsWith(first) || !s.endsWith(last)) return false;
  let pos = first.length;
  const end = s.length - last.length;
  for (let i = 1; i < segments.length - 1; i++) {
    const seg = segments[i]!;
    const at = s.indexOf(seg, pos);
    if (at === -1 || at + seg.length > end) return false;
    pos = at + seg.length;
  }
  return true;
}

/** Characters a word may hold and still be rendered without quotes. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A word as canonical shell text: its static value, single-quoted when needed; its source text when dynamic. */
export function renderWord(w: Word): string {
  const v = w.value;
  if (v === undefined) return w.raw;
  if (PLAIN_WORD.test(v)) return v;
  return `'${v.replace(/'/g, `'\\''`)}'`;
}

/** The value of a static word, or `undefined`. */
function staticValue(w: Word | undefined): string | undefined {
  return w?.value;
}


/**
 * Index of the first word after an allow-safe wrapper form at `words[0]` (claude-code-reference.md §3.2 text-level
 * table), or `undefined` when `words[0]` is not such a wrapper or its form is not one of those
 * listed (then allow rules must name the wrapper itself). `prefixOnly` admits bare `xargs`.
 */
function safeWrapperEnd(words: readonly Word[], prefixOnly: boolean): number | undefined {
  const name = staticValue(words[0]);
  if (name === undefined) return undefined;
  const form = WRAPPERS.get(name)?.allowRule;
  if (!form) return undefined;
  if (form.prefixRulesOnly) {
    // bare xargs: no option at all
    if (!prefixOnly) return undefined;
    const next = staticValue(words[1]);
    return next !== undefined && !next.startsWith('-') ? 1 : undefined;
  }
  const value = form.valuePattern ? new RegExp(form.valuePattern) : undefined;
  const okValue = (v: string | undefined): boolean => v !== undefined && (!value || value.test(v));
  let i = 1;
  let options = 0;
  while (i < words.length) {
    const v = staticValue(words[i]);
    if (v === undefined) return undefined;
    if (v === '--') {
      i++;
      break;
    }
    if (!v.startsWith('-') || v === '-') break;
    if (form.flags?.includes(v)) {
      i++;
      options++;
      continue;
    }
    if (form.numericFlag && /^-[0-9]+$/.test(v)) {
      i++;
      options++;
      continue;
    }
    const eq = v.indexOf('=');
    if (v.startsWith('--') && eq > 0 && form.options?.includes(v.slice(0, eq))) {
      if (!okValue(v.slice(eq + 1))) return undefined;
      i++;
      options++;
      continue;
    }
    if (form.options?.includes(v)) {
      if (!okValue(staticValue(words[i + 1]))) return undefined;
      i += 2;
      options++;
      continue;
    }
    const short = v.slice(0, 2);
    if (!v.startsWith('--') && v.length > 2 && (form.options?.includes(short) || form.fusedOptions?.includes(short))) {
      if (!okValue(v.slice(2))) return undefined;
      i++;
      options++;
      continue;
    }
    return undefined;
  }
  if (options < (form.minOptions ?? 0)) return undefined;
  if (form.operandPattern) {
    const op = staticValue(words[i]);
    if (op === undefined || !new RegExp(form.operandPattern).test(op)) return undefined;
    i++;
  }
  return i < words.length ? i : undefined;
}

/** Index of the first word of the command a wrapper runs (any wrapper of the table), or `undefined`. */
function anyWrapperEnd(words: readonly Word[]): number | undefined {
  const v = staticValue(words[0]);
  if (v === undefined) return undefined;
  const spec = wrapperSpec(commandBasename(v));
  return spec ? wrapperCommandStart(words, spec) : undefined;
}

/** Text of `cmd` in `text` with the output redirections inside its span cut out (claude-code-reference.md §2.3 item 1). */
function spanText(text: string, cmd: SimpleCommand, stripOutput: boolean): string {
  const cuts = stripOutput
    ? cmd.redirects.filter((r) => r.span.start >= cmd.span.start && r.span.end <= cmd.span.end && r.heredoc === undefined && /^(>|>>|>\||&>|&>>|>&)$/.test(r.operator))
    : [];
  let out = '';
  let pos = cmd.span.start;
  for (const r of [...cuts].sort((a, b) => a.span.start - b.span.start)) {
    out += text.slice(pos, r.span.start);
    pos = r.span.end;
  }
  out += text.slice(pos, cmd.span.end);
  return out.replace(/[ \t]+/g, ' ').trim();
}

/**
 * `s` with line continuations removed: a newline preceded by an odd number of backslashes loses
 * the last backslash and the newline, and the pieces are concatenated with no space (claude-code-reference.md §2.5
 * item 2). Linear.
 */
export function joinContinuations(s: string): string {
  if (!s.includes('\\\n')) return s;
  let out = '';
  let run = 0;
  for (const c of s) {
    if (c === '\n' && run % 2 === 1) {
      out = out.slice(0, -1);
      run = 0;
      continue;
    }
    run = c === '\\' ? run + 1 : 0;
    out += c;
  }
  return out;
}

/** True when `s` holds a shell operator or substitution outside the argv rendering (the compound guard of §2.3 item 5). */
function looksCompound(s: string): boolean {
  return /[;&|\n`]|\$\(/.test(s);
}

/** Candidate strings of one subcommand for one rule list, each with the matching mode it may use. */
export interface Candidates {
  /** Strings compared in exact mode (exact rules and a prefix rule's bare prefix). */
  readonly exact: readonly string[];
  /** Strings compared in prefix mode (prefix and wildcard rules). */
  readonly prefix: readonly string[];
  /** `false` when prefix and wildcard rules must not match at all (see {@link prefixAllowCovers}). */
  readonly prefixAllowed?: boolean;
}

const MAX_PEEL = 16;

/**
 * The candidate strings of simple command `cmd` (from the unit `text`) for rules of list
 * `behavior` (claude-code-reference.md §2.3), built from the parse:
 * - the source text, and the source text without output redirections;
 * - the argv (assignments and words) rendered by {@link renderWord}, and then, peeled one layer at
 *   a time — for `allow`: env assignments with static values that load no code (SAFE_ENV_VARS and
 *   rules/commands/environment.json; build flags for prefix rules only, src/model/environment.ts)
 *   then the allow-safe wrapper forms; for `deny`/`ask`: any assignment, any wrapper of the table,
 *   a directory prefix or zsh `=` on the program, to a fixed point (at most 16 layers).
 * Allow rules never see a source-text candidate that looks compound (the guard of §2.3 item 5).
 */
export function candidatesFor(text: string, cmd: SimpleCommand, behavior: RuleBehavior): Candidates {
  const exact = new Set<string>();
  const prefix = new Set<string>();
  const original = text.slice(cmd.span.start, cmd.span.end).trim();
  const stripped = spanText(text, cmd, true);
  const isAllow = behavior === 'allow';
  if (!isAllow) {
    // tree-sitter-bash splits a word at a line continuation (`tr\<newline>aceroute` → `tr aceroute`)
    // where bash joins it (`traceroute`): deny and ask rules also see the joined text (claude-code-reference.md §2.5 item 2).
    for (const t of [original, stripped]) {
      const joined = joinContinuations(t);
      if (joined !== t) {
        exact.add(joined);
        prefix.add(joined);
      }
    }
  }
  if (!(isAllow && looksCompound(original))) exact.add(original);
  if (!(isAllow && looksCompound(stripped))) {
    exact.add(stripped);
    prefix.add(stripped);
  }
  const assignments = cmd.assignments.map((a) => `${a.name}=${a.value ? renderWord(a.value) : ''}`);
  const words: Word[] = cmd.name ? [cmd.name, ...cmd.args] : [];
  const render = (as: readonly string[], ws: readonly Word[], name?: string): string =>
    [...as, ...(name !== undefined ? [name, ...ws.slice(1).map(renderWord)] : ws.map(renderWord))].join(' ');
  const add = (s: string, both = true): void => {
    if (s === '') return;
    prefix.add(s);
    if (both) exact.add(s);
  };
  add(render(assignments, words));
  if (words.length === 0) return { exact: [...exact], prefix: [...prefix] };

  if (isAllow) {
    // Phase 1: env assignments that load no code (Claude Code's safe list and
    // rules/commands/environment.json, static values); any other assignment stops the stripping.
    // Build flags (`prefix-only`) are seen past by prefix and wildcard rules only.
    let as = assignments;
    let flagsOnly = false;
    while (as.length > 0) {
      const a = cmd.assignments[cmd.assignments.length - as.length]!;
      const v = a.value ? a.value.value : '';
      const kind = classifyAssignment(a.name, v);
      if (kind !== 'harmless' && kind !== 'prefix-only') break;
      if (kind === 'prefix-only') flagsOnly = true;
      as = as.slice(1);
      add(render(as, words), !flagsOnly);
    }
    if (as.length > 0) return { exact: [...exact], prefix: [...prefix] };
    const assignmentsPrefixOnly = flagsOnly;
    // Phase 2: safe wrapper forms, never assignments after a wrapper.
    for (const prefixOnly of [false, true]) {
      let ws: readonly Word[] = words;
      for (let depth = 0; depth < MAX_PEEL; depth++) {
        const end = safeWrapperEnd(ws, prefixOnly);
        if (end === undefined) break;
        ws = ws.slice(end);
        if (prefixOnly || assignmentsPrefixOnly) prefix.add(render([], ws));
        else add(render([], ws));
      }
    }
    return { exact: [...exact], prefix: [...prefix] };
  }

  // deny / ask: aggressive peeling to a fixed point.
  let ws: readonly Word[] = words;
  add(render([], ws));
  for (let depth = 0; depth < MAX_PEEL; depth++) {
    const first = staticValue(ws[0]);
    if (first !== undefined) {
      const base = commandBasename(first);
      if (base !== first && base !== '') add(render([], ws, base));
    }
    // Inline assignments accepted by env/sudo are peeled by anyWrapperEnd.
    const end = anyWrapperEnd(ws);
    if (end === undefined) break;
    ws = ws.slice(end);
    // `env FOO=bar cmd` → also peel leading assignment-looking words left by a wrapper.
    while (ws.length > 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(staticValue(ws[0]) ?? '')) ws = ws.slice(1);
    add(render([], ws));
  }
  const first = staticValue(ws[0]);
  if (first !== undefined) {
    const base = commandBasename(first);
    if (base !== first && base !== '') add(render([], ws, base));
    // `/usr/lib/git-core/git-push x` is `git push x`; `git send-pack x` does what `git push x` does.
    if (base !== '') for (const argv of equivalentArgv([base, ...ws.slice(1).map(renderWord)])) add(argv.join(' '));
  }
  for (const piece of nestedCommandPieces(ws)) add(piece);
  return { exact: [...exact], prefix: [...prefix] };
}

/** Shells whose `-c STRING` runs STRING as a command. */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish']);
const SEPARATORS = /&&|\|\||\|&|[;&|\n]/;

/**
 * For deny and ask rules only (a shellward extension; Claude Code does not look inside strings):
 * the commands of a static `sh -c 'STRING'` / `bash -lc "STRING"` or `eval ARGS…`, split naively
 * on `&&`, `||`, `|&`, `;`, `&`, `|` and newlines, each trimmed, with leading `NAME=value` words
 * dropped and the program's directory removed. Naive splitting can only add candidates, so it
 * can make a deny or ask match more often, never less. At most 50 pieces.
 */
function nestedCommandPieces(ws: readonly Word[]): string[] {
  const name = staticValue(ws[0]);
  if (name === undefined) return [];
  const base = commandBasename(name);
  let code: string | undefined;
  if (base === 'eval') {
    const parts = ws.slice(1).map((w) => w.value);
    if (parts.every((p) => p !== undefined)) code = parts.join(' ');
  } else if (SHELLS.has(base)) {
    for (let i = 1; i < ws.length; i++) {
      const v = staticValue(ws[i]);
      if (v === undefined || !v.startsWith('-') || v === '-' || v === '--') break;
      if (/^-[a-z]*c[a-z]*$/.test(v)) {
        code = staticValue(ws[i + 1]);
        break;
      }
    }
  }
  if (code === undefined) return [];
  const out: string[] = [];
  for (const raw of code.split(SEPARATORS).slice(0, MAX_SUBCOMMANDS_IN_STRING)) {
    const tokens = raw.trim().split(/[ \t]+/).filter((t) => t !== '');
    while (tokens.length > 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[0]!)) tokens.shift();
    if (tokens.length === 0) continue;
    tokens[0] = commandBasename(tokens[0]!.replace(/^['"]|['"]$/g, '')) || tokens[0]!;
    out.push(tokens.join(' '));
  }
  return out;
}

const MAX_SUBCOMMANDS_IN_STRING = 50;

/** The first rule of `rules` (a single list) that matches any of the candidates, or `undefined`. */
export function firstMatch(rules: readonly PermissionRule[], c: Candidates): PermissionRule | undefined {
  for (const r of rules) {
    const m = r.bash;
    if (!m) continue;
    if (c.exact.some((s) => matcherAccepts(m, s, 'exact'))) return r;
    if (c.prefixAllowed !== false && (m.kind === 'prefix' || m.kind === 'wildcard') && c.prefix.some((s) => matcherAccepts(m, s, 'prefix'))) return r;
  }
  return undefined;
}

/** Exec wrappers a prefix or wildcard allow rule never approves (rules/permissions.json). */
const NEVER_PREFIX_ALLOWED: ReadonlySet<string> = new Set(facts.execWrappersNeverPrefixAllowed);
const EXEC_FLAGS: ReadonlyMap<string, readonly string[]> = new Map(Object.entries(facts.execFlagsNotCoveredByPrefixAllow));

/**
 * Whether prefix and wildcard allow rules may cover `cmd` at all (claude-code-reference.md §2.10, newer docs): not
 * when its program (the first word's basename, or the program after an allow-safe wrapper) is an
 * exec wrapper such as `watch`, `setsid`, `ionice`, `flock`, nor when it is `find` with `-exec`,
 * `-execdir`, `-ok`, `-okdir` or `-delete`. Exact rules still apply.
 */
export function prefixAllowCovers(cmd: SimpleCommand): boolean {
  let words: readonly Word[] = cmd.name ? [cmd.name, ...cmd.args] : [];
  // The program, and the program after each allow-safe wrapper (bare xargs included).
  for (let depth = 0; depth < MAX_PEEL && words.length > 0; depth++) {
    const v = words[0]!.value;
    if (v !== undefined) {
      const base = commandBasename(v);
      if (NEVER_PREFIX_ALLOWED.has(base)) return false;
      const flags = EXEC_FLAGS.get(base);
      if (flags && words.some((x) => x.value !== undefined && flags.includes(x.value))) return false;
    }
    const end = safeWrapperEnd(words, true) ?? safeWrapperEnd(words, false);
    if (end === undefined) break;
    words = words.slice(end);
  }
  return true;
}

/** The first rule of `rules` that matches `command` (the whole, trimmed command) exactly, or `undefined`. */
export function firstExactMatch(rules: readonly PermissionRule[], command: string): PermissionRule | undefined {
  const c = command.trim();
  return rules.find((r) => r.bash !== undefined && (r.bash.kind === 'any' || matcherAccepts(r.bash, c, 'exact')));
}
