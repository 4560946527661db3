/**
 * Command substitutions that bash runs but tree-sitter-bash does not give as code: the inner level
 * of nested backquotes (`` `echo \`rm x\`` ``), backquotes in an unquoted here-document body,
 * `$(…)` in the body of a here-document whose delimiter is spelled with `$` (`<<$x`), and a
 * substitution split by a backslash-newline (`$\⏎(cmd)`) in a here-document body, in double
 * quotes or in `${…}`. Pure text scanning; the caller parses the code it returns (as embedded
 * code, src/parse/embedded.ts).
 */

/**
 * The code bash parses for a backquote substitution whose source text is `raw` (with both
 * backquotes), when that differs from the text between the backquotes, else `undefined`. Inside
 * backquotes a backslash keeps its literal meaning except before `$`, `` ` `` and `\`, where bash
 * removes it before it parses the body (and, in a backquote inside double quotes, before `"`
 * too): so an escaped backquote pair is a command substitution of its own one level down (bash
 * manual, "Command Substitution",
 * https://www.gnu.org/software/bash/manual/html_node/Command-Substitution.html). `inDoubleQuotes`:
 * the substitution is inside `"…"`. Never throws.
 */
export function backquoteCode(raw: string, inDoubleQuotes: boolean): string | undefined {
  if (raw.length < 2 || raw[0] !== '`') return undefined;
  const body = raw.endsWith('`') ? raw.slice(1, -1) : raw.slice(1);
  const special = inDoubleQuotes ? '$`\\"' : '$`\\';
  let out = '';
  let changed = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\' && i + 1 < body.length && special.includes(body[i + 1]!)) {
      out += body[++i];
      changed = true;
    } else out += c;
  }
  return changed ? out : undefined;
}

/** A command substitution found by {@link hiddenSubstitutions}. */
export interface HiddenSubstitution {
  /** The code bash runs (the inner level of a backquote pair already unescaped once). */
  readonly text: string;
  /** Where the substitution is in the scanned text: UTF-16 offsets, `$(` or the backquote to the closing one (exclusive). */
  readonly start: number;
  readonly end: number;
}

/**
 * The command substitutions (`$(…)` and `` `…` ``) of `text` read as bash reads the body of an
 * unquoted here-document or the inside of double quotes: every backslash-newline pair removed
 * first, a backslash quoting `$`, `` ` `` and `\` (and `"` when `dquote`), quotes otherwise plain
 * characters, `${…}` and `$((…))` scanned through (substitutions inside them count). Returns those
 * whose start offset `seen` rejects (the ones tree-sitter-bash already gave as nodes), in order.
 * A substitution with no closing parenthesis or backquote runs to the end of `text` (the code
 * then does not parse, which the caller reports). The closing `)` of `$(…)` is found by counting
 * parentheses outside quotes, an over-approximation of bash's parser (a `case` pattern's `)`
 * ends it early; the code is then cut short and still parsed). At most `limit` are returned.
 * Never throws; linear in `text`'s length plus the returned code.
 */
export function hiddenSubstitutions(text: string, dquote: boolean, seen: (start: number) => boolean, limit = 256): HiddenSubstitution[] {
  // Joined text and, per joined offset, the offset in `text`.
  let joined = '';
  const at: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === '\n') {
      i++;
      continue;
    }
    joined += text[i];
    at.push(i);
  }
  at.push(text.length);
  const escapable = dquote ? '$`\\"' : '$`\\';
  const out: HiddenSubstitution[] = [];
  for (let i = 0; i < joined.length && out.length < limit; i++) {
    const c = joined[i]!;
    if (c === '\\') {
      if (escapable.includes(joined[i + 1] ?? '')) i++;
      continue;
    }
    if (c === '`') {
      let j = i + 1;
      for (; j < joined.length && joined[j] !== '`'; j++) if (joined[j] === '\\') j++;
      const end = Math.min(j + 1, joined.length);
      if (!seen(at[i]!)) {
        const raw = joined.slice(i, end);
        out.push({ text: backquoteCode(raw, dquote) ?? raw.slice(1, raw.endsWith('`') && raw.length > 1 ? -1 : undefined), start: at[i]!, end: at[end]! });
      }
      i = end - 1;
      continue;
    }
    if (c === '$' && joined[i + 1] === '(' && joined[i + 2] !== '(') {
      const close = closingParen(joined, i + 2);
      const end = close === undefined ? joined.length : close + 1;
      if (!seen(at[i]!)) out.push({ text: joined.slice(i + 2, close ?? joined.length), start: at[i]!, end: at[end]! });
      i = end - 1;
    }
  }
  return out;
}

/** Offset of the `)` that closes a `(` whose content starts at `from`, counting parentheses outside quotes; `undefined` when there is none. */
function closingParen(s: string, from: number): number | undefined {
  let depth = 1;
  for (let i = from; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\') i++;
    else if (c === "'") {
      const j = s.indexOf("'", i + 1);
      if (j < 0) return undefined;
      i = j;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < s.length && s[j] !== '"'; j++) if (s[j] === '\\') j++;
      i = j;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return undefined;
}

/** True when `text` holds a `$` followed by one or more backslash-newline pairs: a substitution or expansion bash joins across the line break. */
export function hasContinuedDollar(text: string): boolean {
  return /\$(?:\\\n)+/.test(text);
}

/** Code of a command substitution the parse views record for the embedded-code expansion (src/parse/embedded.ts). */
export interface SubstitutionCode {
  /** The substitution's extent in the unit's text (UTF-16 offsets). */
  readonly span: { readonly start: number; readonly end: number };
  /** The code bash runs. */
  readonly text: string;
  /** `backquote` (an inner backquote level) or `continued line` (a substitution split by backslash-newline). */
  readonly via: string;
}

/**
 * The hidden code of a word-level node the parse walk meets: a backquote `command_substitution`
 * whose body bash unescapes before parsing ({@link backquoteCode}), or a `string` / `expansion`
 * whose text holds a `$` followed by backslash-newline ({@link hasContinuedDollar}), scanned for
 * the substitutions the parser did not give as nodes. `type` is the node's type, `start` its
 * start offset and `text` its source text; `seenStarts` gives the start offsets (in the unit's
 * text) of the node's `command_substitution` descendants, called only for the second kind;
 * `inDoubleQuotes` whether it sits in `"…"`. Empty when there is nothing hidden. Never throws.
 */
export function substitutionCodeOf(type: string, start: number, text: string, inDoubleQuotes: boolean, seenStarts: () => ReadonlySet<number>): SubstitutionCode[] {
  if (type === 'command_substitution') {
    const code = text.startsWith('`') ? backquoteCode(text, inDoubleQuotes) : undefined;
    return code === undefined ? [] : [{ span: { start, end: start + text.length }, text: code, via: 'backquote' }];
  }
  if ((type !== 'string' && type !== 'expansion') || !hasContinuedDollar(text)) return [];
  const seen = seenStarts();
  return hiddenSubstitutions(text, type === 'string', (s) => seen.has(start + s)).map((h) => ({ span: { start: start + h.start, end: start + h.end }, text: h.text, via: 'continued line' }));
}

/**
 * Command substitutions of an unquoted here-document body `body` (starting at offset `start` of
 * the unit's text) that tree-sitter-bash did not give as nodes: backquotes, a `$(…)` split by a
 * backslash-newline, and every `$(…)` of a body whose delimiter the parser took as quoted
 * (`<<$x`). `seenStarts` gives the start offsets (in the unit's text) of the body's
 * `command_substitution` nodes. Never throws.
 */
export function heredocSubstitutions(body: string, start: number, seenStarts: () => ReadonlySet<number>): SubstitutionCode[] {
  if (!body.includes('`') && !body.includes('$(') && !hasContinuedDollar(body)) return [];
  let seen: ReadonlySet<number> | undefined;
  const isSeen = (s: number): boolean => {
    seen ??= seenStarts();
    return seen.has(start + s);
  };
  return hiddenSubstitutions(body, false, isSeen).map((h) => ({
    span: { start: start + h.start, end: start + h.end },
    text: h.text,
    via: body[h.start] === '`' ? 'heredoc backquote' : 'heredoc substitution',
  }));
}
