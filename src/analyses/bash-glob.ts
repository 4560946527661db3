/**
 * Pathname expansion as the shell does it (bash manual, "Pathname Expansion" and "Pattern
 * Matching": https://www.gnu.org/software/bash/manual/html_node/Filename-Expansion.html), over
 * directory listings of an injected host, bounded. Pure: the file system is only reached through
 * the `list` and `resolve` callbacks the caller passes.
 *
 * What a word expands to depends on shell options this analysis cannot see (the agent's shell may
 * have `dotglob`, `nocaseglob`, `nullglob`, `failglob`, `globskipdots`, `GLOBIGNORE` or `set -f`
 * set, or be zsh). The expansion is therefore a superset: every name the pattern matches under any
 * setting of those options, each marked `certain` only when it matches under every setting that
 * expands at all (bash's defaults, case-sensitive, leading dot matched only by a literal dot).
 * Patterns whose meaning the options change beyond that — a whole component `**` (bash's
 * `globstar`, zsh's recursive glob), extglob and zsh operators (`(`, `)`, `|`, `#`, `^`, `~`,
 * `<`, `>` outside brackets), an unclosed `[` — are not expanded (`undefined`): the caller keeps
 * judging the word from its text.
 *
 * Patterns are given in escaped form: a character that was quoted in the word is preceded by a
 * backslash (`'*'x*` is `\*x*`), every other character stands for itself.
 */

/** At most this many names a host's `list` returns for one directory; more → `undefined`. */
export const MAX_LISTED_ENTRIES = 1024;

/** At most this many directory listings per expanded word. */
export const MAX_GLOB_LISTINGS = 32;

/** At most this many matches per expanded word; more → not expanded. */
export const MAX_GLOB_MATCHES = 256;

/** One name a glob word may expand to. */
export interface GlobMatch {
  /** The word as bash would produce it: the pattern's own directory spelling with each glob component replaced by a name (`etclink/passwd`). */
  readonly path: string;
  /** Whether it matches under every shell setting that expands the word (see the module comment). */
  readonly certain: boolean;
}

/** What {@link expandGlob} needs of the machine. */
export interface GlobHost {
  /**
   * The names in directory `dir` (absolute, resolved), without `.` and `..`; `undefined` when it
   * cannot be listed in full (not a directory, unreadable, more than {@link MAX_LISTED_ENTRIES}).
   */
  list(dir: string): readonly string[] | undefined;
  /** The absolute directory `path` (absolute, possibly with `..` and symbolic links) names, as the kernel resolves it; `undefined` when not certain. */
  resolve(path: string): string | undefined;
}

type Token = { readonly t: 'char'; readonly c: string } | { readonly t: 'star' } | { readonly t: 'any' } | { readonly t: 'set'; readonly negated: boolean; readonly chars: string; readonly wide: boolean };

/** Characters that extglob or zsh's extended globbing give a meaning outside a bracket expression. */
const OPERATORS = new Set(['(', ')', '|', '#', '^', '~', '<', '>']);

/**
 * The tokens of one component (no `/`) in escaped form; `undefined` when the component holds an
 * operator whose meaning depends on options (see {@link OPERATORS}) or an unclosed `[`.
 */
function tokenize(component: string): Token[] | undefined {
  const out: Token[] = [];
  for (let i = 0; i < component.length; i++) {
    const c = component[i]!;
    if (c === '\\') {
      if (i + 1 < component.length) out.push({ t: 'char', c: component[++i]! });
      continue;
    }
    if (c === '*') out.push({ t: 'star' });
    else if (c === '?') out.push({ t: 'any' });
    else if (c === '[') {
      const set = bracket(component, i);
      if (!set) return undefined;
      out.push(set.token);
      i = set.end;
    } else if (OPERATORS.has(c)) return undefined;
    else out.push({ t: 'char', c });
  }
  return out;
}

/**
 * The bracket expression starting at `s[start]` (`[`): its token and the index of its closing
 * `]`; `undefined` when it does not close. `!` or `^` first negates; a `]` first is literal; a
 * backslash quotes the next character. A range, a class (`[:alpha:]`), an equivalence class or a
 * collating symbol depends on the locale and on `globasciiranges`/`nocaseglob`: such a set is
 * `wide` (taken to match any one character, a superset).
 */
function bracket(s: string, start: number): { token: Token; end: number } | undefined {
  let i = start + 1;
  let negated = false;
  if (s[i] === '!' || s[i] === '^') {
    negated = true;
    i++;
  }
  let chars = '';
  let wide = false;
  let first = true;
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c === ']' && !first) return { token: { t: 'set', negated, chars, wide }, end: i };
    first = false;
    if (c === '\\' && i + 1 < s.length) {
      chars += s[++i]!;
      continue;
    }
    if (c === '[' && (s[i + 1] === ':' || s[i + 1] === '=' || s[i + 1] === '.')) {
      const close = s.indexOf(`${s[i + 1]}]`, i + 2);
      if (close === -1) return undefined;
      wide = true;
      i = close + 1;
      continue;
    }
    if (c === '-' && chars !== '' && i + 1 < s.length && s[i + 1] !== ']') wide = true;
    chars += c;
  }
  return undefined;
}

/** Whether one character `c` of a name can be matched by set token `k` (`fold`: without case; `wide` sets match anything, a superset). */
function inSet(k: Extract<Token, { t: 'set' }>, c: string, fold: boolean): boolean {
  if (k.wide) return true;
  const has = fold ? k.chars.toLowerCase().includes(c.toLowerCase()) || k.chars.toUpperCase().includes(c.toUpperCase()) : k.chars.includes(c);
  return k.negated ? !has : has;
}

/**
 * Whether `name` matches `tokens` whole. `fold`: case-insensitive (nocaseglob); `loose`: `?` and
 * sets may match any run of characters (for a name with non-ASCII characters, where a locale
 * decides what one character is). Dynamic programming over (token, position): O(tokens × length).
 */
function matches(tokens: readonly Token[], name: string, fold: boolean, loose: boolean): boolean {
  const n = name.length;
  // reach[j]: the tokens so far can consume exactly name[0..j).
  let reach = new Uint8Array(n + 1);
  reach[0] = 1;
  for (const k of tokens) {
    const next = new Uint8Array(n + 1);
    for (let j = 0; j <= n; j++) {
      if (!reach[j]) continue;
      if (k.t === 'star' || (loose && k.t !== 'char')) {
        // Any run, checked character by character for a set (a loose set still skips `/`-free text: names hold no `/`).
        for (let e = j; e <= n; e++) next[e] = 1;
        break;
      }
      if (j >= n) continue;
      const c = name[j]!;
      if (k.t === 'any' || (k.t === 'char' && (fold ? c.toLowerCase() === k.c.toLowerCase() : c === k.c)) || (k.t === 'set' && inSet(k, c, fold))) next[j + 1] = 1;
    }
    reach = next;
  }
  return reach[n] === 1;
}

/**
 * How `name` (an entry of a directory, or `.`/`..`) relates to component `tokens`: `certain`
 * (matched under bash's defaults), `possible` (only under some option: dotglob, nocaseglob, a
 * locale, an older bash matching `.`/`..`), or `no`.
 */
function componentMatch(tokens: readonly Token[], name: string): 'certain' | 'possible' | 'no' {
  const literalDot = tokens[0]?.t === 'char' && tokens[0].c === '.';
  const dotName = name.startsWith('.');
  const ascii = /^[\x20-\x7e]*$/.test(name);
  const wide = tokens.some((k) => k.t === 'set' && k.wide);
  if (matches(tokens, name, false, false)) {
    // A leading dot must be matched by a literal dot (bash, unless dotglob); `.` and `..` only by
    // a pattern starting with one, and bash 5.2 skips them by default (globskipdots).
    if (name === '.' || name === '..') return literalDot ? 'possible' : 'no';
    if (dotName && !literalDot) return 'possible';
    return ascii && !wide ? 'certain' : 'possible';
  }
  if (name === '.' || name === '..') return 'no';
  return matches(tokens, name, true, !ascii) ? 'possible' : 'no';
}

/** Characters escaped in a pattern's escaped form when they were quoted in the word. */
const SPECIAL = /[\\*?[\]()|#^~<>]/;

/** `text` with every character that has a meaning in a pattern escaped (for a home directory put in front of a pattern). */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]()|#^~<>]/g, '\\$&');
}

/**
 * The escaped form of a word's text after quote removal, given which characters were quoted
 * (`quoted[i]` non-zero for `text[i]`): each quoted character with a meaning in a pattern gets a
 * backslash before it. Offsets are UTF-16 code units.
 */
export function patternOf(text: string, quoted: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    out += (quoted[i] && SPECIAL.test(c)) || c === '\\' ? `\\${c}` : c;
  }
  return out;
}

/** The component `c` (escaped form, no glob character) as plain text. */
function unescapeComponent(c: string): string {
  return c.replace(/\\(.)/g, '$1');
}

/** Whether component `c` (escaped form) holds an unescaped glob character. */
function hasGlob(c: string): boolean {
  for (let i = 0; i < c.length; i++) {
    if (c[i] === '\\') i++;
    else if (c[i] === '*' || c[i] === '?' || c[i] === '[') return true;
  }
  return false;
}

/**
 * The names the glob `pattern` (escaped form; relative to `cwd`, or absolute) may expand to, as
 * a superset over the shell's options (see the module comment); in pattern order, each directory's
 * names in listing order. `[]` when nothing matches (the shell then passes the word unchanged, or
 * drops it with nullglob). `undefined` when the pattern is not expanded here: a component this
 * module does not model, a directory that cannot be listed in full, more than
 * {@link MAX_GLOB_LISTINGS} listings or {@link MAX_GLOB_MATCHES} matches, or a relative pattern
 * with no `cwd`. Never throws.
 */
export function expandGlob(pattern: string, cwd: string | undefined, host: GlobHost): GlobMatch[] | undefined {
  const absolute = pattern.startsWith('/');
  if (!absolute && cwd === undefined) return undefined;
  // Split at unescaped slashes.
  const components: string[] = [];
  let cur = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) {
      cur += c + pattern[++i]!;
    } else if (c === '/') {
      components.push(cur);
      cur = '';
    } else cur += c;
  }
  components.push(cur);
  // Each partial expansion: the spelling so far (as the word would read) and whether it is certain.
  let partial: { spelled: string; certain: boolean }[] = [{ spelled: absolute ? '/' : '', certain: true }];
  let listings = 0;
  const start = absolute ? 1 : 0;
  for (let k = start; k < components.length; k++) {
    const comp = components[k]!;
    const join = (base: string, name: string): string => (base === '' || base.endsWith('/') ? base + name : `${base}/${name}`);
    if (comp === '') {
      // A repeated or trailing slash: kept in the spelling.
      partial = partial.map((p) => ({ ...p, spelled: p.spelled.endsWith('/') ? p.spelled : `${p.spelled}/` }));
      continue;
    }
    if (!hasGlob(comp)) {
      if (OPERATORS_IN(comp)) return undefined;
      const text = unescapeComponent(comp);
      partial = partial.map((p) => ({ ...p, spelled: join(p.spelled, text) }));
      continue;
    }
    if (comp === '**' || /(^|[^\\])\*\*/.test(comp)) {
      // globstar / zsh recursive glob when the component is `**`; `a**b` is `a*b` in bash but
      // `**` followed by `/` recurses in zsh: not modelled.
      return undefined;
    }
    const tokens = tokenize(comp);
    if (!tokens) return undefined;
    const next: { spelled: string; certain: boolean }[] = [];
    for (const p of partial) {
      if (++listings > MAX_GLOB_LISTINGS) return undefined;
      const dirText = p.spelled === '' ? cwd! : p.spelled.startsWith('/') ? p.spelled : `${cwd!}/${p.spelled}`;
      const dir = host.resolve(dirText);
      if (dir === undefined) return undefined;
      const names = host.list(dir);
      if (names === undefined) return undefined;
      for (const name of ['.', '..', ...names]) {
        const m = componentMatch(tokens, name);
        if (m === 'no') continue;
        next.push({ spelled: join(p.spelled, name), certain: p.certain && m === 'certain' });
        if (next.length > MAX_GLOB_MATCHES) return undefined;
      }
    }
    partial = next;
    if (partial.length === 0) return [];
  }
  return partial.map((p) => ({ path: p.spelled, certain: p.certain }));
}

/** Whether a component without glob characters still holds an unescaped operator (an extglob or zsh pattern such as `@(a|b)` or `^x`). */
function OPERATORS_IN(c: string): boolean {
  for (let i = 0; i < c.length; i++) {
    if (c[i] === '\\') i++;
    else if (OPERATORS.has(c[i]!)) return true;
  }
  return false;
}
