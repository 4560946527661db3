/**
 * The text a command's standard input carries when it is written in the command: a heredoc or
 * here-string on the command itself, or the previous pipeline stage when that is `echo`/`printf`
 * of fixed words or `cat` of a heredoc (`echo 'rm x' | sh`, `cat <<EOF | sh`). Shared by the
 * embedded shell code (src/parse/embedded.ts) and the interpreters that read their code from
 * standard input (src/parse/interpreters.ts). Pure.
 */
import type { Span } from '../core/types.js';
import { commandBasename } from './command-name.js';
import type { SimpleCommand } from './nodes.js';
import type { Word } from './words.js';

/** A piece of text found in a command, with where it sits in the text it was read from. */
export interface VisibleText {
  /** The text, after quote removal. */
  readonly text: string;
  /**
   * Offset of `text`'s first character in the source when `exact` (every offset of `text` maps
   * to `base + offset`); otherwise positions inside are placed on `span`.
   */
  readonly base: number;
  /** True when `text` is a verbatim slice of the source starting at `base`. */
  readonly exact: boolean;
  /** The word, words or heredoc body that holds the text. */
  readonly span: Span;
  /** `heredoc`, `here-string` or `pipe`. */
  readonly via: string;
  /** For an unquoted heredoc: true when its body holds an expansion (`$`, a backquote), so bash changes the text before the program reads it. */
  readonly expands?: boolean;
}

/**
 * The value of a static word, with whether it is a verbatim slice of `source` (and where);
 * `undefined` for a word with an expansion.
 */
export function wordCode(w: Word, source: string): { text: string; base: number; exact: boolean } | undefined {
  if (w.value === undefined) return undefined;
  const inner = w.raw.length >= 2 && (w.raw[0] === "'" || w.raw[0] === '"') && w.raw.endsWith(w.raw[0]!) ? 1 : 0;
  const base = w.span.start + inner;
  const exact = source.slice(base, base + w.value.length) === w.value;
  return { text: w.value, base, exact };
}

/**
 * What `cmd`'s standard input visibly carries (see the module comment), in source order; empty
 * when nothing is visible. `source` is the text `cmd`'s spans index; `siblings` the command list
 * `cmd.place.pipeline.previous` indexes. A here-string whose word has an expansion is not
 * visible (empty result).
 */
export function visibleStdin(cmd: SimpleCommand, source: string, siblings: readonly SimpleCommand[] | undefined): VisibleText[] {
  const out: VisibleText[] = [];
  for (const r of cmd.redirects) {
    if (r.heredoc && (r.fd === undefined || r.fd === '0')) {
      out.push({ text: r.heredoc.body, base: r.heredoc.bodySpan.start, exact: true, span: r.heredoc.bodySpan, via: 'heredoc', ...(!r.heredoc.quoted && /[$`]/.test(r.heredoc.body) ? { expands: true } : {}) });
    } else if (r.operator === '<<<' && r.target) {
      const c = wordCode(r.target, source);
      if (c) out.push({ ...c, span: r.target.span, via: 'here-string' });
    }
  }
  if (out.length > 0) return out;
  const prev = cmd.place?.pipeline?.previous;
  const p = prev !== undefined ? siblings?.[prev] : undefined;
  if (!p) return out;
  const name = p.name?.value !== undefined ? commandBasename(p.name.value) : undefined;
  if ((name === 'echo' || name === 'printf') && p.args.length > 0 && p.args.every((a) => a.value !== undefined)) {
    const args = p.args.filter((a, k) => !(k === 0 && name === 'echo' && /^-[neE]+$/.test(a.value!)));
    const text = args.map((a) => a.value!).join(' ');
    const span = { start: p.args[0]!.span.start, end: p.args[p.args.length - 1]!.span.end };
    if (args.length === 1) {
      const c = wordCode(args[0]!, source)!;
      out.push({ ...c, span, via: 'pipe' });
    } else out.push({ text, base: span.start, exact: false, span, via: 'pipe' });
  } else if (name === 'cat' && p.args.length === 0) {
    for (const r of p.redirects) {
      if (r.heredoc) out.push({ text: r.heredoc.body, base: r.heredoc.bodySpan.start, exact: true, span: r.heredoc.bodySpan, via: 'pipe', ...(!r.heredoc.quoted && /[$`]/.test(r.heredoc.body) ? { expands: true } : {}) });
    }
  }
  return out;
}

