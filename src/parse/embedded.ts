/**
 * Shell code embedded in a command: the string of `sh -c '…'` / `bash -lc "…"`, the words of
 * `eval …`, and a here-document or here-string fed to a shell (`bash <<'EOF'`, `sh -s <<<'…'`).
 * Agents write these constantly, and a check that only looks at the outer command would see
 * `bash` where `rm -rf /` runs. Pure: returns the embedded texts with where they sit in the
 * unit's text; the linter parses them.
 */
import type { Span } from '../core/types.js';
import { commandBasename, resolveCommand } from './command-name.js';
import type { ParsedScript, SimpleCommand } from './nodes.js';
import type { Word } from './words.js';

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
  /** How it was embedded: `sh -c`, `eval`, `heredoc`, `here-string`. */
  readonly via: 'sh -c' | 'eval' | 'heredoc' | 'here-string';
}

/** The code of a static word, with whether it is a verbatim slice of the source (and where). */
function wordCode(w: Word, source: string): { text: string; base: number; exact: boolean } | undefined {
  if (w.value === undefined) return undefined;
  const inner = w.raw.length >= 2 && (w.raw[0] === "'" || w.raw[0] === '"') && w.raw.endsWith(w.raw[0]!) ? 1 : 0;
  const base = w.span.start + inner;
  const exact = source.slice(base, base + w.value.length) === w.value;
  return { text: w.value, base, exact };
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

/**
 * The shell code embedded in `cmd` (through any wrapper: `sudo bash -c …`, `xargs sh -c …`),
 * in source order. `source` is the unit's text. Empty when there is none or it is not static.
 */
export function embeddedCode(cmd: SimpleCommand, source: string): EmbeddedCode[] {
  const resolved = resolveCommand(cmd);
  if (!resolved) return [];
  const out: EmbeddedCode[] = [];
  if (resolved.name === 'eval') {
    const words = resolved.args;
    if (words.length === 0 || words.some((w) => w.value === undefined)) return [];
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
  if (name === 'busybox') {
    const applet = args[0]?.value;
    if (applet === undefined || !SHELLS.has(commandBasename(applet))) return [];
    name = commandBasename(applet);
    args = args.slice(1);
  }
  if (!SHELLS.has(name)) return [];
  const inv = shellInvocation(args);
  if (!inv) return [];
  if (inv.kind === 'string') {
    const c = wordCode(inv.word, source);
    if (c) out.push({ ...c, span: inv.word.span, via: 'sh -c' });
    return out;
  }
  for (const r of cmd.redirects) {
    if (r.heredoc && (r.fd === undefined || r.fd === '0')) {
      out.push({ text: r.heredoc.body, base: r.heredoc.bodySpan.start, exact: true, span: r.heredoc.bodySpan, via: 'heredoc' });
    } else if (r.operator === '<<<' && r.target) {
      const c = wordCode(r.target, source);
      if (c) out.push({ ...c, span: r.target.span, via: 'here-string' });
    }
  }
  return out;
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

function shiftCommand(c: SimpleCommand, map: (s: Span) => Span, statement: number): SimpleCommand {
  return {
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
 */
export function withEmbedded(parsed: ParsedScript, source: string, parse: ParseViews): ParsedScript {
  const extra: SimpleCommand[] = [];
  let budget = EMBEDDED_LIMITS.maxChars;
  // `statement` is the unit's top-level statement that (transitively) embeds the code.
  const queue: { cmd: SimpleCommand; depth: number; map: (s: Span) => Span; source: string; statement: number }[] = parsed.commands.map((cmd) => ({
    cmd,
    depth: 0,
    map: (s: Span) => s,
    source,
    statement: cmd.statement,
  }));
  for (let next = 0; next < queue.length; next++) {
    const { cmd, depth, map, source: src, statement } = queue[next]!;
    if (depth >= EMBEDDED_LIMITS.maxDepth) continue;
    for (const code of embeddedCode(cmd, src)) {
      if (code.text.length > budget) return { ...parsed, commands: [...parsed.commands, ...extra] };
      budget -= code.text.length;
      const inner = parse(code.text);
      if (!inner) continue;
      // Inner spans → the embedding text's spans → the unit's spans.
      const outer = map(code.span);
      const innerMap = code.exact
        ? (s: Span): Span => map({ start: code.base + s.start, end: code.base + s.end })
        : (): Span => outer;
      for (const c of inner.commands) {
        extra.push(shiftCommand(c, innerMap, statement));
        queue.push({ cmd: c, depth: depth + 1, map: innerMap, source: code.text, statement });
      }
    }
  }
  return extra.length === 0 ? parsed : { ...parsed, commands: [...parsed.commands, ...extra] };
}
