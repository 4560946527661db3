/**
 * Shell code embedded in a command: the string of `sh -c '…'` / `bash -lc "…"`, the words of
 * `eval …`, and a here-document or here-string fed to a shell (`bash <<'EOF'`, `sh -s <<<'…'`).
 * Agents write these constantly, and a check that only looks at the outer command would see
 * `bash` where `rm -rf /` runs. Pure: returns the embedded texts with where they sit in the
 * unit's text; the linter parses them.
 */
import { arithmeticGaps } from './arithmetic.js';
import type { Span } from '../core/types.js';
import { commandBasename, resolveCommand, wrapperLevels, wrapperSpec, type WrapperLevel } from './command-name.js';
import type { ParsedScript, SimpleCommand, Unmodelled } from './nodes.js';
import type { SubstitutionCode } from './substitution-code.js';
import type { Word } from './words.js';
import { visibleStdin, wordCode } from './stdin-code.js';
import { interpreterCode, interpreterKnown } from './interpreters.js';

/** Programs that run their `-c` string or their standard input as shell code. */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);

/** Shell options that take the next word as their value. */
const SHELL_VALUE_OPTIONS: ReadonlySet<string> = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

/** A piece of shell code found inside a command. */
export interface EmbeddedCode {
  /** The code, after quote removal. */
  readonly text: string;
  /**
   * Offset of `text`'s first character in the unit's text when `exact` (every offset of `text`
   * maps to `base + offset`); otherwise findings inside are placed on `span`.
   */
  readonly base: number;
  /** True when `text` is a verbatim slice of the unit's text starting at `base`. */
  readonly exact: boolean;
  /** The word, words or heredoc body that holds the code. */
  readonly span: Span;
  /**
   * How it was embedded: `sh -c`, `eval`, `heredoc`, `here-string`, or another entry point of
   * rules/commands/wrappers.json (`trap`, `alias`, `env -S`, `flock -c`, `pipe` for `echo … | sh` …).
   */
  readonly via: string;
  /** For `alias` definitions: the alias name whose body `text` is. */
  readonly alias?: string;
}

/** What a shell invocation runs: its `-c` string word, or its standard input. */
function shellInvocation(args: readonly Word[]): { kind: 'string'; word: Word } | { kind: 'stdin' } | undefined {
  let sawC = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return undefined;
    if (sawC) return { kind: 'string', word: args[i]! };
    if (v === '--' || v === '-') return { kind: 'stdin' };
    if (SHELL_VALUE_OPTIONS.has(v)) {
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(v)) {
      if (v.startsWith('-') && v.includes('c')) sawC = true;
      if (v.startsWith('-') && v.includes('s')) return { kind: 'stdin' };
      continue;
    }
    if (v.startsWith('--')) continue;
    // A script file operand: the code is in that file, not here.
    return undefined;
  }
  return sawC ? undefined : { kind: 'stdin' };
}

/** Quotes `v` for the shell (single quotes) unless it is plain. */
function shellQuote(v: string): string {
  return /^[A-Za-z0-9_@%+=:,./{}-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`;
}

/** Code words of one wrapper level (`flock -c CODE`, `trap CODE SIG`, `alias n=CODE`, `find -exec … ;`, `parallel ::: CODE`). */
function levelCode(level: WrapperLevel, source: string): EmbeddedCode[] {
  const out: EmbeddedCode[] = [];
  const via = level.name;
  for (const w of level.scan.code) {
    const c = wordCode(w, source);
    if (c) out.push({ ...c, span: w.span, via: `${via} code option` });
  }
  const spec = level.spec;
  const args = level.words.slice(1);
  if (spec.codeArgument === 'first') {
    // trap [--] CODE SIG…; `trap -p`/`trap -l` and `trap SIG` (one operand: reset) run nothing.
    let k = 0;
    if (args[0]?.value === '--') k = 1;
    const code = args[k];
    if (code && args.length - k >= 2 && code.value !== undefined && code.value !== '-' && !code.value.startsWith('-')) {
      const c = wordCode(code, source);
      if (c) out.push({ ...c, span: code.span, via: 'trap' });
    }
  } else if (spec.codeArgument === 'assignments') {
    for (const a of args) {
      const v = a.value;
      const eq = v?.indexOf('=') ?? -1;
      if (v === undefined || eq <= 0) continue;
      out.push({ text: v.slice(eq + 1), base: a.span.start, exact: false, span: a.span, via: 'alias', alias: v.slice(0, eq) });
    }
  }
  if (spec.execOptions) {
    for (let i = 0; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined || !spec.execOptions.includes(v)) continue;
      const seg: string[] = [];
      let j = i + 1;
      // find puts each file name where `{}` stands (GNU find: anywhere in a word with `;`) before
      // the program runs. A file name is data only as a plain program's whole argument
      // (`cat {}`); as the command word, inside a longer word, or handed to a shell, a wrapper or
      // an interpreter (`sh -c 'cat {}'`, `env {}`) it is a program or code the command does not
      // show, so such a word is not known.
      const head = args[i + 1]?.value;
      const base = head === undefined ? undefined : commandBasename(head);
      const plain = base !== undefined && !head!.includes('{}') && !SHELLS.has(base) && base !== 'eval' && wrapperSpec(base) === undefined && !interpreterKnown(base);
      for (; j < args.length; j++) {
        const x = args[j]!.value;
        if (x === ';' || x === '+') break;
        seg.push(x === undefined || (x.includes('{}') && !(plain && x === '{}')) ? '"$UNKNOWN"' : shellQuote(x));
      }
      if (seg.length > 0) {
        const span = { start: args[i + 1]!.span.start, end: args[Math.min(j, args.length) - 1]!.span.end };
        out.push({ text: seg.join(' '), base: span.start, exact: false, span, via: `find ${v}` });
      }
      i = j;
    }
  }
  if (spec.codeAfterSeparator && level.scan.start === undefined) {
    const sep = args.findIndex((a) => a.value !== undefined && spec.codeAfterSeparator!.includes(a.value));
    if (sep >= 0) {
      for (const a of args.slice(sep + 1)) {
        if (a.value !== undefined && spec.argvUntil?.includes(a.value)) break;
        const c = wordCode(a, source);
        if (c) out.push({ ...c, span: a.span, via: `${via} :::` });
      }
    }
  }
  return out;
}

/** Code a command's standard input carries, when it is visible (src/parse/stdin-code.ts). */
function stdinCode(cmd: SimpleCommand, source: string, siblings: readonly SimpleCommand[] | undefined): EmbeddedCode[] {
  return visibleStdin(cmd, source, siblings).map(({ expands: _expands, ...c }) => c);
}

/**
 * The shell code embedded in `cmd` (through any wrapper: `sudo bash -c …`, `xargs sh -c …`), in
 * source order: a shell's `-c` string or the code on its standard input (heredoc, here-string,
 * `echo … |`, `cat <<EOF |`), `eval`'s words, and the code entry points of
 * rules/commands/wrappers.json (`flock -c`, `su -c`, `env -S`, `trap`, `alias`, `mapfile -C`,
 * `find -exec`, `parallel ::: …`). `source` is the unit's text; `siblings` the command list
 * `cmd.place.pipeline.previous` indexes (the unit's, or the embedding code's). Empty when there
 * is none or it is not static (the command model reports that as code it cannot see).
 */
export function embeddedCode(cmd: SimpleCommand, source: string, siblings?: readonly SimpleCommand[]): EmbeddedCode[] {
  const hidden = heredocHiddenCode(cmd);
  const own = embeddedCodeOf(cmd, source, siblings);
  return hidden.length === 0 ? own : [...hidden, ...own];
}

/**
 * The command substitutions of `cmd`'s unquoted here-document bodies that the parser did not give
 * as nodes (`Heredoc.hidden`, src/parse/substitution-code.ts): bash runs them when it reads the
 * body, whatever program reads the document.
 */
function heredocHiddenCode(cmd: SimpleCommand): EmbeddedCode[] {
  const out: EmbeddedCode[] = [];
  for (const r of cmd.redirects) for (const h of r.heredoc?.hidden ?? []) out.push({ text: h.text, base: h.span.start, exact: false, span: h.span, via: h.via });
  return out;
}

function embeddedCodeOf(cmd: SimpleCommand, source: string, siblings?: readonly SimpleCommand[]): EmbeddedCode[] {
  const words = cmd.name ? [cmd.name, ...cmd.args] : [];
  const { levels, inner } = wrapperLevels(words);
  const fromLevels = levels.flatMap((l) => levelCode(l, source));
  const stdinLevel = inner === undefined && levels.length > 0 && levels[levels.length - 1]!.spec.stdinCode && levels[levels.length - 1]!.scan.code.length === 0 && !levels[levels.length - 1]!.scan.opaque;
  if (stdinLevel) return [...fromLevels, ...stdinCode(cmd, source, siblings)];
  const resolved = resolveCommand(cmd);
  if (!resolved) return fromLevels;
  const out: EmbeddedCode[] = [...fromLevels];
  // Shell code given to a program that is no shell (`git filter-branch --tree-filter CODE`; rules/commands/interpreters.json).
  const interpreted = interpreterCode(cmd, source, siblings);
  if (interpreted?.spec.shell) {
    for (const c of interpreted.code) out.push({ text: c.text, base: c.base, exact: c.exact, span: c.span, via: `${interpreted.key} ${c.via}` });
    return out;
  }
  if (resolved.name === 'eval') {
    const words = resolved.args;
    if (words.length === 0 || words.some((w) => w.value === undefined)) return out;
    const first = words[0]!;
    const last = words[words.length - 1]!;
    const span = { start: first.span.start, end: last.span.end };
    if (words.length === 1) {
      const c = wordCode(first, source)!;
      out.push({ ...c, span, via: 'eval' });
    } else {
      out.push({ text: words.map((w) => w.value).join(' '), base: span.start, exact: false, span, via: 'eval' });
    }
    return out;
  }
  let name = resolved.name;
  let args = resolved.args;
  if (name === 'busybox' || name === 'toybox') {
    const applet = args[0]?.value;
    if (applet === undefined || !SHELLS.has(commandBasename(applet))) return out;
    name = commandBasename(applet);
    args = args.slice(1);
  }
  if (!SHELLS.has(name)) return out;
  const inv = shellInvocation(args);
  if (!inv) return out;
  if (inv.kind === 'string') {
    const c = wordCode(inv.word, source);
    if (c) out.push({ ...c, span: inv.word.span, via: 'sh -c' });
    return out;
  }
  return [...out, ...stdinCode(cmd, source, siblings)];
}

/** Parses embedded code into views; `undefined` when it cannot (time-out). */
export type ParseViews = (text: string) => ParsedScript | undefined;

/** Limits on how much embedded code is expanded, so nothing a user writes can blow up the work. */
export const EMBEDDED_LIMITS = {
  /** Nesting depth: `sh -c "bash -c '…'"` is depth 2. */
  maxDepth: 4,
  /** Total characters of embedded code parsed per unit (a unit's own text bounds `sh -c`, but not `eval` joins). */
  maxChars: 1_000_000,
} as const;

function shiftWord(w: Word, map: (s: Span) => Span): Word {
  return { ...w, span: map(w.span) };
}

function shiftCommand(c: SimpleCommand, map: (s: Span) => Span, statement: number, host: number, via: string, offset: number): SimpleCommand {
  const place = c.place;
  return {
    host: c.host !== undefined ? c.host + offset : host,
    via: c.host !== undefined ? (c.via ?? via) : via,
    ...(place ? { place: { ...place, ...(place.pipeline ? { pipeline: { stage: place.pipeline.stage, ...(place.pipeline.previous !== undefined ? { previous: place.pipeline.previous + offset } : {}) } } : {}) } } : {}),
    span: map(c.span),
    name: c.name ? shiftWord(c.name, map) : undefined,
    args: c.args.map((w) => shiftWord(w, map)),
    assignments: c.assignments.map((a) => ({ ...a, span: map(a.span), value: a.value ? shiftWord(a.value, map) : undefined })),
    redirects: c.redirects.map((r) => ({
      ...r,
      span: map(r.span),
      target: r.target ? shiftWord(r.target, map) : undefined,
      heredoc: r.heredoc ? { ...r.heredoc, bodySpan: map(r.heredoc.bodySpan) } : undefined,
    })),
    statement,
    embedded: true,
    ...(c.pipeline ? { pipeline: c.pipeline } : {}),
  };
}

/**
 * `parsed` with the simple commands of all embedded shell code appended (recursively, up to
 * {@link EMBEDDED_LIMITS}), their spans placed in the unit's text: exactly where the code is a
 * verbatim slice of it, else on the word or body that holds the code. Embedded commands carry
 * `embedded: true` and the statement index of the command that embeds them. Statements,
 * problems and comments are the outer unit's only: a syntax error inside `sh -c '…'` is
 * bash's business at run time, and the text-level checks already see the whole string.
 * The body of an `alias` definition is code only when some command of the unit uses the alias
 * name (see `unusedAliases`): `alias nuke='rm -rf /'` alone runs nothing.
 */
export function withEmbedded(parsed: ParsedScript, source: string, parse: ParseViews, extraCode?: (cmd: SimpleCommand, source: string) => readonly EmbeddedCode[]): ParsedScript {
  const defined = new Set<string>();
  const all = embedAll(parsed, source, parse, extraCode, undefined, defined);
  if (defined.size === 0) return all;
  const unused = unusedAliases(all, defined);
  return unused.size === 0 ? all : embedAll(parsed, source, parse, extraCode, unused, new Set());
}

/** Reserved words: an alias with such a name may expand where no simple command shows it. */
const RESERVED_WORDS: ReadonlySet<string> = new Set(['!', '[[', ']]', '{', '}', 'case', 'coproc', 'do', 'done', 'elif', 'else', 'esac', 'fi', 'for', 'function', 'if', 'in', 'select', 'then', 'time', 'until', 'while']);

/**
 * The names of `defined` that no command of `parsed` uses: no simple command anywhere (embedded
 * code included, alias bodies too) has a word whose static value is the name. An alias is
 * expanded only where its name is an unquoted literal command word (or follows an alias whose
 * body ends in a space) in code the same shell reads after the definition
 * (https://www.gnu.org/software/bash/manual/bash.html#Aliases), and a definition does not outlive
 * the shell (each agent command, each script, each `sh -c` runs in its own), so the body of an
 * alias that is never named runs nowhere. Any word equal to the name counts as a use, whatever
 * its position, so this over-approximates: it does not depend on whether alias expansion is on
 * (off in non-interactive bash without `shopt -s expand_aliases`, but on in POSIX mode —
 * `sh script` — and in Claude Code's shell, whose snapshot restores the user's aliases).
 */
function unusedAliases(parsed: ParsedScript, defined: ReadonlySet<string>): Set<string> {
  const unused = new Set([...defined].filter((n) => !RESERVED_WORDS.has(n)));
  for (const c of parsed.commands) {
    if (unused.size === 0) break;
    for (const w of c.name ? [c.name, ...c.args] : c.args) if (w.value !== undefined) unused.delete(w.value);
  }
  return unused;
}

const UNHOSTED = 'holds a command substitution that bash reads differently from the parser, outside any simple command: what it runs is not modelled.';

/**
 * The `substitutionCode` of `parsed` (src/parse/nodes.ts) as embedded code, keyed by the index of
 * the command that holds each substitution: the innermost simple command whose span contains it
 * (the parser's own reading of the substitution's text, if it gave one, is a command inside it
 * too). `orphan` is called for one with no such command (a `for` word list, a `[[ … ]]` test).
 */
function hostSubstitutions(parsed: ParsedScript, orphan: (s: SubstitutionCode) => void): Map<number, EmbeddedCode[]> {
  const out = new Map<number, EmbeddedCode[]>();
  for (const s of parsed.substitutionCode ?? []) {
    let host = -1;
    let width = Infinity;
    parsed.commands.forEach((c, i) => {
      if (c.span.start <= s.span.start && s.span.end <= c.span.end && c.span.end - c.span.start < width) {
        host = i;
        width = c.span.end - c.span.start;
      }
    });
    if (host < 0) {
      orphan(s);
      continue;
    }
    const list = out.get(host) ?? [];
    list.push({ text: s.text, base: s.span.start, exact: false, span: s.span, via: s.via });
    out.set(host, list);
  }
  return out;
}

function embedAll(
  parsed: ParsedScript,
  source: string,
  parse: ParseViews,
  extraCode: ((cmd: SimpleCommand, source: string) => readonly EmbeddedCode[]) | undefined,
  skipAliases: ReadonlySet<string> | undefined,
  defined: Set<string>,
): ParsedScript {
  const extra: SimpleCommand[] = [];
  const caps: string[] = [];
  let budget = EMBEDDED_LIMITS.maxChars;
  // `statement` is the unit's top-level statement that (transitively) embeds the code; `index`
  // the command's index in the returned list.
  const unhosted: Unmodelled[] = [];
  const outerHosted = hostSubstitutions(parsed, (s) => unhosted.push({ span: s.span, reason: UNHOSTED }));
  const queue: { cmd: SimpleCommand; depth: number; map: (s: Span) => Span; source: string; statement: number; index: number; siblings: readonly SimpleCommand[]; hosted?: readonly EmbeddedCode[] }[] = parsed.commands.map((cmd, index) => ({
    cmd,
    siblings: parsed.commands,
    depth: 0,
    map: (s: Span) => s,
    source,
    statement: cmd.statement,
    index,
    ...(outerHosted.has(index) ? { hosted: outerHosted.get(index)! } : {}),
  }));
  const done = (): ParsedScript =>
    extra.length === 0 && caps.length === 0 && unhosted.length === 0
      ? parsed
      : { ...parsed, commands: [...parsed.commands, ...extra], ...(caps.length > 0 ? { embeddedCaps: caps } : {}), ...(unhosted.length > 0 ? { unmodelled: [...(parsed.unmodelled ?? []), ...unhosted] } : {}) };
  for (let next = 0; next < queue.length; next++) {
    const { cmd, depth, map, source: src, statement, index, siblings, hosted } = queue[next]!;
    const codes = [...(hosted ?? []), ...embeddedCode(cmd, src, siblings), ...(extraCode ? extraCode(cmd, src) : [])].filter((c) => {
      if (c.alias === undefined) return true;
      defined.add(c.alias);
      return !skipAliases?.has(c.alias);
    });
    if (codes.length === 0) continue;
    if (depth >= EMBEDDED_LIMITS.maxDepth) {
      caps.push(`Shell code is nested more than ${EMBEDDED_LIMITS.maxDepth} levels deep (\`sh -c\`, \`eval\`, heredocs fed to a shell); the deeper levels were not analysed.`);
      continue;
    }
    for (const code of codes) {
      if (code.text.length > budget) {
        caps.push(`The embedded shell code exceeds the ${EMBEDDED_LIMITS.maxChars}-character budget per unit; the rest was not analysed.`);
        return done();
      }
      budget -= code.text.length;
      const inner = parse(code.text);
      if (!inner) {
        caps.push('Parsing embedded shell code timed out; it was not analysed.');
        continue;
      }
      if (inner.problems.length > 0) caps.push(`Embedded shell code (${code.via}) does not parse; what it runs is not known.`);
      const arith = arithmeticGaps(inner);
      if (arith.length > 0) caps.push(`Embedded shell code (${code.via}) evaluates a value that is not known to be a number as arithmetic (${arith[0]!.reason.replace(/\.$/, '')}).`);
      if (inner.unmodelled) caps.push(`Embedded shell code (${code.via}) holds a construct that is not modelled (${inner.unmodelled[0]!.reason.replace(/\.$/, "")}).`);
      // Inner spans → the embedding text's spans → the unit's spans.
      const outer = map(code.span);
      const innerMap = code.exact
        ? (s: Span): Span => map({ start: code.base + s.start, end: code.base + s.end })
        : (): Span => outer;
      const offset = parsed.commands.length + extra.length;
      const innerHosted = hostSubstitutions(inner, () => caps.push(`Embedded shell code (${code.via}) holds a command substitution outside any simple command; what it runs is not analysed.`));
      for (let k = 0; k < inner.commands.length; k++) {
        const c = inner.commands[k]!;
        const at = parsed.commands.length + extra.length;
        extra.push(shiftCommand(c, innerMap, statement, index, code.via, offset));
        queue.push({ cmd: c, depth: depth + 1, map: innerMap, source: code.text, statement, index: at, siblings: inner.commands, ...(innerHosted.has(k) ? { hosted: innerHosted.get(k)! } : {}) });
      }
    }
  }
  return done();
}
