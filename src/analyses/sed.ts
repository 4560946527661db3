/**
 * sed validation on parsed words. Two views of one `sed` command:
 *
 * - {@link analyseSed} / {@link sedAllowed}: Claude Code's read-only/acceptEdits allowlist
 *   (`sedCommandIsAllowedByAllowlist` in sedValidation.ts, claude-code-reference.md §4.2), reproduced
 *   item by item, including its quirks (any `-e` fails both patterns' flag allowlists; only the
 *   first `#` is looked at; the unanchored substitution-flag match).
 * - {@link sedHazards}: what the script really does, read the way GNU sed reads its options and
 *   script: `w`/`W` commands and the `s///w` flag write a file, the `e` command and the `s///e`
 *   flag run a shell command.
 *
 * Every scan is a hand-written loop, linear in the input (the regexes of the original are
 * rewritten because several of them backtrack quadratically on long input).
 */
import { hasUnquotedGlob, type Word } from '../parse/words.js';

/** How strict the allowlist is (claude-code-reference.md §4.1: `allowFileWrites` only in `acceptEdits` mode). */
export interface SedOptions {
  readonly allowFileWrites: boolean;
}

/** The allowlist verdict of a `sed` command and the facts it was based on. */
export interface SedAnalysis {
  /** claude-code-reference.md §4.2 result: true when the command matches an allowed pattern and no deny-list item. */
  readonly allowed: boolean;
  /** One sentence saying why it is not allowed; `''` when allowed. */
  readonly reason: string;
  /** The expressions, as Claude Code extracts them (claude-code-reference.md §4.2 item 1). */
  readonly expressions: readonly string[];
  /** claude-code-reference.md §4.2 item 2. */
  readonly hasFileArguments: boolean;
  /** `-i`, `--in-place`, `-i.bak`, `--in-place=SUF` (or a short cluster with `i`) is present. */
  readonly inPlace: boolean;
}

/** A write or execute hazard in a sed script. */
export interface SedHazard {
  readonly kind: 'write' | 'execute';
  /** The argument word holding the script (or the `-e…`/`--expression=…` word). */
  readonly word: Word;
  /**
   * For `write`: the file name. For `execute`: the shell command text; `''` when the command is
   * the pattern space (a bare `e`, or the `s///e` flag).
   */
  readonly detail: string;
}

// ---------------------------------------------------------------------------------------------
// Character helpers (ASCII; JavaScript's `\s` restricted to ASCII, `.` excluding line ends).

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isWs(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';
}

/** A character JavaScript's `.` does not match. */
function isLineEnd(c: string | undefined): boolean {
  return c === '\n' || c === '\r' || c === '\u2028' || c === '\u2029';
}

function skipWs(s: string, i: number): number {
  while (i < s.length && isWs(s[i])) i++;
  return i;
}

function skipDigits(s: string, i: number): number {
  while (i < s.length && isDigit(s[i])) i++;
  return i;
}

/** Skips `[IMim]*`. */
function skipRegexModifiers(s: string, i: number): number {
  while (i < s.length && 'IMim'.includes(s[i]!)) i++;
  return i;
}

// ---------------------------------------------------------------------------------------------
// Tokens: Claude Code parses the text after `sed` with shell-quote. A word with an unquoted glob
// is a glob object there (not a string); a word with an expansion is kept as its source text.

interface Token {
  readonly word: Word;
  /** Static value, or the source text of a word with an expansion. */
  readonly text: string;
  readonly glob: boolean;
  readonly isStatic: boolean;
}

function toTokens(args: readonly Word[]): Token[] {
  return args.map((word) => ({
    word,
    text: word.value ?? word.raw,
    glob: hasUnquotedGlob(word),
    isStatic: word.value !== undefined,
  }));
}

/**
 * `-e` followed by `w`/`W`/`e`, or `-w` followed by `e`/`E`, anywhere in the raw text of a word
 * that sed could read as an option. Claude Code runs this test over the whole command text, so a
 * file operand such as `a-web/x.md` (which contains `-we`) reads as the flags `-we`; a word whose
 * value is known and does not start with `-` is never an option to sed (GNU sed permutes
 * arguments, but only words starting with `-` are options), so it is skipped. Words with an
 * expansion (no static value) are still checked on their raw text.
 */
function dangerousFlagCombination(args: readonly Word[]): string | undefined {
  for (const w of args) {
    if (w.value !== undefined && !w.value.startsWith('-')) continue;
    const raw = w.raw;
    for (let i = 0; i + 2 < raw.length; i++) {
      if (raw[i] !== '-') continue;
      const a = raw[i + 1];
      const b = raw[i + 2]!;
      if ((a === 'e' && 'wWe'.includes(b)) || (a === 'w' && 'eE'.includes(b))) return raw.slice(i, i + 3);
    }
  }
  return undefined;
}

/** `extractSedExpressions` after the flag-combination check (claude-code-reference.md §4.2 item 1). */
function extractExpressions(tokens: readonly Token[]): { readonly expressions: readonly Token[] } {
  const expressions: Token[] = [];
  let foundE = false;
  let foundExpression = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.glob) continue;
    const arg = t.text;
    if ((arg === '-e' || arg === '--expression') && i + 1 < tokens.length) {
      foundE = true;
      const next = tokens[i + 1]!;
      if (!next.glob) {
        expressions.push(next);
        i++;
      }
      continue;
    }
    if (arg.startsWith('--expression=')) {
      foundE = true;
      expressions.push({ ...t, text: arg.slice('--expression='.length) });
      continue;
    }
    if (arg.startsWith('-e=')) {
      foundE = true;
      expressions.push({ ...t, text: arg.slice('-e='.length) });
      continue;
    }
    if (arg.startsWith('-')) continue;
    if (!foundE && !foundExpression) {
      expressions.push(t);
      foundExpression = true;
      continue;
    }
    break;
  }
  return { expressions };
}

/** `hasFileArgs` (claude-code-reference.md §4.2 item 2). */
function hasFileArgs(tokens: readonly Token[]): boolean {
  let count = 0;
  let usedE = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.glob) return true;
    const arg = t.text;
    if ((arg === '-e' || arg === '--expression') && i + 1 < tokens.length) {
      usedE = true;
      i++;
      continue;
    }
    if (arg.startsWith('--expression=') || arg.startsWith('-e=')) {
      usedE = true;
      continue;
    }
    if (arg.startsWith('-')) continue;
    count++;
    if (usedE || count > 1) return true;
  }
  return false;
}

/** Every string token that starts with `-` and is not `--` (expression values included, as in Claude Code). */
function flagTokens(tokens: readonly Token[]): string[] {
  return tokens.filter((t) => !t.glob && t.text.startsWith('-') && t.text !== '--').map((t) => t.text);
}

/** `validateFlagsAgainstAllowlist`: short bundles are checked letter by letter. */
function flagsAllowed(flags: readonly string[], allowed: ReadonlySet<string>): boolean {
  for (const flag of flags) {
    if (flag.startsWith('-') && !flag.startsWith('--') && flag.length > 2) {
      for (let i = 1; i < flag.length; i++) if (!allowed.has('-' + flag[i])) return false;
    } else if (!allowed.has(flag)) {
      return false;
    }
  }
  return true;
}

const PRINT_FLAGS: ReadonlySet<string> = new Set(['-n', '--quiet', '--silent', '-E', '--regexp-extended', '-r', '-z', '--zero-terminated', '--posix']);
const SUBST_FLAGS: ReadonlySet<string> = new Set(['-E', '--regexp-extended', '-r', '--posix']);
const SUBST_WRITE_FLAGS: ReadonlySet<string> = new Set([...SUBST_FLAGS, '-i', '--in-place']);

/** `isPrintCommand`: exactly `p`, `Np` or `N,Mp` (`/^(?:\d+|\d+,\d+)?p$/`). */
function isPrintCommand(cmd: string): boolean {
  if (!cmd.endsWith('p')) return false;
  const body = cmd.slice(0, -1);
  if (body === '') return true;
  const a = skipDigits(body, 0);
  if (a === 0) return false;
  if (a === body.length) return true;
  if (body[a] !== ',') return false;
  const b = skipDigits(body, a + 1);
  return b > a + 1 && b === body.length;
}

/** Pattern 1, line printing (claude-code-reference.md §4.2 item 3). */
function isLinePrinting(flags: readonly string[], expressions: readonly string[]): boolean {
  if (!flagsAllowed(flags, PRINT_FLAGS)) return false;
  const hasN = flags.some((f) => f === '-n' || f === '--quiet' || f === '--silent' || (f.startsWith('-') && !f.startsWith('--') && f.includes('n')));
  if (!hasN || expressions.length === 0) return false;
  return expressions.every((e) => e.split(';').every((piece) => isPrintCommand(piece.trim())));
}

/** Pattern 2, substitution (claude-code-reference.md §4.2 item 4). */
function isSubstitution(flags: readonly string[], expressions: readonly string[], hasFiles: boolean, allowFileWrites: boolean): boolean {
  if (!allowFileWrites && hasFiles) return false;
  if (!flagsAllowed(flags, allowFileWrites ? SUBST_WRITE_FLAGS : SUBST_FLAGS)) return false;
  if (expressions.length !== 1) return false;
  const expr = expressions[0]!.trim();
  // `^s\/(.*?)$`: `.` does not cross a line end, `$` is the end of the input.
  if (!expr.startsWith('s/')) return false;
  const rest = expr.slice(2);
  for (const c of rest) if (isLineEnd(c)) return false;
  let delimiters = 0;
  let last = -1;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '\\') {
      i++;
      continue;
    }
    if (rest[i] === '/') {
      delimiters++;
      last = i;
    }
  }
  if (delimiters !== 2) return false;
  // `^[gpimIM]*[1-9]?[gpimIM]*$`
  let digits = 0;
  for (const c of rest.slice(last + 1)) {
    if (c >= '1' && c <= '9') digits++;
    else if (!'gpimIM'.includes(c)) return false;
  }
  return digits <= 1;
}

// ---------------------------------------------------------------------------------------------
// The deny-list (`containsDangerousOperations`, claude-code-reference.md §4.2 item 6).

/**
 * End positions of the address forms the write/execute rules accept at the start of `cmd`:
 * none, `N`, `$`, `/re/[IMim]*`, `N,M`, `N,$`, `/re/[IMim]*,/re/[IMim]*`.
 */
function addressEnds(cmd: string): number[] {
  const ends = [0];
  const d = skipDigits(cmd, 0);
  if (d > 0) {
    ends.push(d);
    if (cmd[d] === ',') {
      const m = skipDigits(cmd, d + 1);
      if (m > d + 1) ends.push(m);
      if (cmd[d + 1] === '$') ends.push(d + 2);
    }
  }
  if (cmd[0] === '$') ends.push(1);
  if (cmd[0] === '/') {
    const close = cmd.indexOf('/', 1);
    if (close !== -1) {
      const a = skipRegexModifiers(cmd, close + 1);
      ends.push(a);
      if (cmd[a] === ',' && cmd[a + 1] === '/') {
        const close2 = cmd.indexOf('/', a + 2);
        if (close2 !== -1) ends.push(skipRegexModifiers(cmd, close2 + 1));
      }
    }
  }
  return ends;
}

/** `/^s([^\\\n]).*?\1.*?\1[^wWeE]*$/` for a `cmd` that ends in one of `wWeE`. */
function isProperSubstitutionEndingInFlagLetter(cmd: string): boolean {
  const d = cmd[1];
  if (d === undefined || d === '\\' || d === '\n') return false;
  // `[^wWeE]*$` after the third delimiter can only be empty: the last character is the delimiter.
  const n = cmd.length;
  if (n < 4 || cmd[n - 1] !== d) return false;
  // A middle delimiter in [2, n-2]; `.` crosses no line end (the delimiter here is a letter).
  let hasD = false;
  for (let i = 2; i <= n - 2; i++) {
    if (isLineEnd(cmd[i])) return false;
    if (cmd[i] === d) hasD = true;
  }
  return hasD;
}

/**
 * The flags of the unanchored `/s([^\\\n]).*?\1.*?\1(.*?)$/` match, or `undefined` when it does
 * not match. Leftmost `s` whose delimiter occurs twice more, with no line end crossed by `.`.
 */
function substitutionFlags(cmd: string): string | undefined {
  // Counts of each character in cmd[i+2..], kept as i advances.
  const counts = new Map<string, number>();
  for (let j = 2; j < cmd.length; j++) counts.set(cmd[j]!, (counts.get(cmd[j]!) ?? 0) + 1);
  for (let i = 0; i + 1 < cmd.length; i++) {
    if (i > 0) {
      const leaving = cmd[i + 1]!;
      counts.set(leaving, counts.get(leaving)! - 1);
    }
    if (cmd[i] !== 's') continue;
    const d = cmd[i + 1]!;
    if (d === '\\' || d === '\n') continue;
    const lineEnds = (counts.get('\n') ?? 0) + (counts.get('\r') ?? 0) + (counts.get('\u2028') ?? 0) + (counts.get('\u2029') ?? 0);
    const ok = isLineEnd(d) ? (counts.get(d) ?? 0) === 2 && lineEnds === 2 : (counts.get(d) ?? 0) >= 2 && lineEnds === 0;
    if (!ok) continue;
    const p = cmd.indexOf(d, i + 2);
    const q = cmd.indexOf(d, p + 1);
    return cmd.slice(q + 1);
  }
  return undefined;
}

/**
 * Why one sed expression hits the deny-list (Claude Code's `containsDangerousOperations`,
 * claude-code-reference.md §4.2 item 6), or `undefined` when it does not. The rules run in the
 * original's order on the trimmed expression; each may assume the earlier ones did not fire.
 * Linear in the length of the expression.
 */
export function sedDenyReason(expression: string): string | undefined {
  const cmd = expression.trim();
  if (cmd === '') return undefined;
  const n = cmd.length;
  for (let i = 0; i < n; i++) {
    const code = cmd.charCodeAt(i);
    if (code === 0 || code > 0x7f) return 'it contains a non-ASCII character or a NUL byte';
  }
  if (cmd.includes('{') || cmd.includes('}')) return 'it contains a `{ }` block';
  if (cmd.includes('\n')) return 'it contains a newline';
  const hash = cmd.indexOf('#');
  if (hash !== -1 && !(hash > 0 && cmd[hash - 1] === 's')) return 'it contains a `#` comment';
  if (cmd[0] === '!') return 'it uses `!` negation';
  for (let i = 1; i < n; i++) {
    if (cmd[i] === '!' && (cmd[i - 1] === '/' || cmd[i - 1] === '$' || isDigit(cmd[i - 1]))) return 'it uses `!` negation';
  }
  for (let i = 0; i < n; i++) {
    if (cmd[i] !== '~') continue;
    let b = i - 1;
    while (b >= 0 && isWs(cmd[b])) b--;
    const before = b >= 0 ? cmd[b] : undefined;
    if ((isDigit(before) || before === ',' || before === '$') && isDigit(cmd[skipWs(cmd, i + 1)])) return 'it uses a GNU step address (`first~step`)';
  }
  if (cmd[0] === ',') return 'it starts with `,`';
  for (let i = 0; i < n; i++) {
    if (cmd[i] === ',') {
      const c = cmd[skipWs(cmd, i + 1)];
      if (c === '+' || c === '-') return 'it uses a GNU offset address (`,+N` / `,-N`)';
    }
  }
  for (let i = 0; i + 1 < n; i++) {
    if ((cmd[i] === 's' && cmd[i + 1] === '\\') || (cmd[i] === '\\' && '|#%@'.includes(cmd[i + 1]!))) {
      return 'it uses a backslash delimiter or escapes an alternative delimiter';
    }
  }
  // `\\\/.*[wW]`
  let escapedSlash = false;
  for (let i = 0; i < n; i++) {
    const c = cmd[i]!;
    if (isLineEnd(c)) escapedSlash = false;
    else if (escapedSlash && (c === 'w' || c === 'W')) return 'it has an escaped slash followed by `w`/`W`';
    else if (c === '\\' && cmd[i + 1] === '/') {
      escapedSlash = true;
      i++;
    }
  }
  // `\/[^/]*\s+[wWeE]`
  let slash = false;
  for (let i = 0; i < n; i++) {
    const c = cmd[i]!;
    if (c === '/') slash = true;
    else if (slash && 'wWeE'.includes(c) && isWs(cmd[i - 1])) return 'it has `/…/` followed by whitespace and `w`, `W`, `e` or `E`';
  }
  // `^s\/` without exactly `^s\/[^/]*\/[^/]*\/[^/]*$`
  if (cmd.startsWith('s/')) {
    let slashes = 0;
    for (const c of cmd) if (c === '/') slashes++;
    if (slashes !== 3) return 'it is a substitution without exactly three `/`';
  }
  if (n >= 2 && cmd[0] === 's' && !isLineEnd(cmd[1]) && 'wWeE'.includes(cmd[n - 1]!) && !isProperSubstitutionEndingInFlagLetter(cmd)) {
    return 'it is an `s` command ending in `w`, `W`, `e` or `E` that is not a well-formed substitution';
  }
  const ends = addressEnds(cmd);
  for (const a of ends) {
    const b = skipWs(cmd, a);
    if ((cmd[b] === 'w' || cmd[b] === 'W') && skipWs(cmd, b + 1) < n) return 'it has a `w`/`W` command, which writes a file';
  }
  for (const a of ends) {
    if (cmd[skipWs(cmd, a)] === 'e') return 'it has an `e` command, which runs a shell command';
  }
  const flags = substitutionFlags(cmd);
  if (flags !== undefined && /[wWeE]/.test(flags)) return 'it is a substitution whose flags contain `w`, `W`, `e` or `E`';
  for (let i = 0; i + 1 < n; i++) {
    if (cmd[i] === 'y' && cmd[i + 1] !== '\\' && cmd[i + 1] !== '\n') {
      if (/[wWeE]/.test(cmd)) return 'it has a `y` command and contains `w`, `W`, `e` or `E`';
      break;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// GNU option reading, for `inPlace` and the hazards.

interface GnuScript {
  readonly word: Word;
  readonly text: string;
}

interface GnuOptions {
  readonly scripts: readonly GnuScript[];
  readonly inPlace: boolean;
  readonly sandbox: boolean;
}

const LONG_OPTIONS = [
  'binary', 'debug', 'expression', 'file', 'follow-symlinks', 'help', 'in-place', 'line-length', 'null-data',
  'zero-terminated', 'quiet', 'posix', 'regexp-extended', 'sandbox', 'separate', 'silent', 'unbuffered', 'version',
];
const LONG_WITH_VALUE = new Set(['expression', 'file', 'line-length']);

/** getopt_long's resolution of an abbreviated long option; `undefined` when unknown or ambiguous. */
function longOption(name: string): string | undefined {
  if (LONG_OPTIONS.includes(name)) return name;
  const hits = LONG_OPTIONS.filter((o) => o.startsWith(name));
  return hits.length === 1 ? hits[0] : undefined;
}

/**
 * Stands for an expansion in a script's text: a private-use character that is no sed command,
 * address or delimiter, so `sed "$prog"` is not read as the `$` address and an `e` command,
 * while the literal `w` of `sed "s/a/b/w $out"` still is.
 */
const EXPANSION = '\uE000';

/** Text of a word for the GNU reading: every expansion as {@link EXPANSION}. */
function scriptText(word: Word): string {
  if (word.value !== undefined) return word.value;
  return word.parts.map((p) => (p.kind === 'literal' ? p.value : EXPANSION)).join('');
}

/** Reads `args` as GNU sed does (getopt_long with permutation; short options `bsnrzuEe:f:l:i::`). */
function gnuOptions(args: readonly Word[]): GnuOptions {
  const scripts: GnuScript[] = [];
  let inPlace = false;
  let sandbox = false;
  let scriptFile = false;
  let firstOperand: Word | undefined;
  let endOfOptions = false;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    const v = scriptText(word);
    if (endOfOptions || v.length < 2 || !v.startsWith('-')) {
      firstOperand ??= word;
      continue;
    }
    if (v === '--') {
      endOfOptions = true;
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = longOption(eq === -1 ? v.slice(2) : v.slice(2, eq));
      const value = eq === -1 ? undefined : v.slice(eq + 1);
      if (name === 'in-place') inPlace = true;
      else if (name === 'sandbox') sandbox = true;
      else if (name !== undefined && LONG_WITH_VALUE.has(name)) {
        const next = value === undefined ? args[++i] : undefined;
        const text = value ?? (next ? scriptText(next) : undefined);
        if (name === 'expression' && text !== undefined) scripts.push({ word: next ?? word, text });
        if (name === 'file') scriptFile = true;
      }
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const c = v[j]!;
      if (c === 'i') {
        inPlace = true; // an attached rest is the backup suffix
        break;
      }
      if (c === 'e' || c === 'f' || c === 'l') {
        const rest = v.slice(j + 1);
        const next = rest === '' ? args[++i] : undefined;
        const text = rest !== '' ? rest : next ? scriptText(next) : undefined;
        if (c === 'e' && text !== undefined) scripts.push({ word: next ?? word, text });
        if (c === 'f') scriptFile = true;
        break;
      }
    }
  }
  if (scripts.length === 0 && !scriptFile && firstOperand) scripts.push({ word: firstOperand, text: scriptText(firstOperand) });
  return { scripts, inPlace, sandbox };
}

// ---------------------------------------------------------------------------------------------
// A small GNU sed script reader, for the hazards.

interface RawHazard {
  readonly kind: 'write' | 'execute' | 'read';
  readonly detail: string;
}

/** Index of the end of the line at or after `i`. */
function lineEnd(s: string, i: number): number {
  const e = s.indexOf('\n', i);
  return e === -1 ? s.length : e;
}

/** Skips a delimited part (`re` of `/re/`, `s`'s parts) closed by an unescaped `d`; returns the index after the delimiter. */
function skipDelimited(s: string, i: number, d: string): number {
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\') i += 2;
    else if (c === d) return i + 1;
    else if (c === '\n' && d !== '\n') return s.length; // unterminated: a sed syntax error
    else i++;
  }
  return s.length;
}

/** Skips one address; returns the index after it (unchanged when there is none). */
function skipAddress(s: string, i: number): number {
  const c = s[i];
  if (isDigit(c)) {
    i = skipDigits(s, i);
    if (s[i] === '~') i = skipDigits(s, i + 1);
    return i;
  }
  if (c === '$') return i + 1;
  if (c === '/') return skipRegexModifiers(s, skipDelimited(s, i + 1, '/'));
  if (c === '\\' && i + 1 < s.length) return skipRegexModifiers(s, skipDelimited(s, i + 2, s[i + 1]!));
  return i;
}

/** The text from `i` (leading blanks skipped) to the end of the line, and where the line ends. */
function textToLineEnd(s: string, i: number): { text: string; end: number } {
  while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  const end = lineEnd(s, i);
  return { text: s.slice(i, end), end };
}

/** The write/execute commands and flags, and the file-reading `r`/`R` commands, of a GNU sed script. Linear; stops at a syntax error. */
function scriptHazards(s: string): RawHazard[] {
  const out: RawHazard[] = [];
  let i = 0;
  while (i < s.length) {
    while (i < s.length && (isWs(s[i]) || s[i] === ';' || s[i] === '}')) i++;
    if (i >= s.length) break;
    if (s[i] === '#') {
      i = lineEnd(s, i);
      continue;
    }
    const start = i;
    const a1 = skipAddress(s, i);
    i = a1;
    if (a1 > start && s[i] === ',') {
      i = skipWs(s, i + 1);
      if (s[i] === '+' || s[i] === '~') i = skipDigits(s, i + 1);
      else i = skipAddress(s, i);
    }
    i = skipWs(s, i);
    while (s[i] === '!') i = skipWs(s, i + 1);
    const c = s[i];
    if (c === undefined) break;
    i++;
    switch (c) {
      case '{':
        break;
      case 'w':
      case 'W': {
        const t = textToLineEnd(s, i);
        if (t.text !== '/dev/stdout' && t.text !== '/dev/stderr') out.push({ kind: 'write', detail: t.text });
        i = t.end;
        break;
      }
      case 'e': {
        const t = textToLineEnd(s, i);
        out.push({ kind: 'execute', detail: t.text });
        i = t.end;
        break;
      }
      case 'r':
      case 'R': {
        // The file name is the rest of the line (https://www.gnu.org/software/sed/manual/sed.html#Other-Commands);
        // `/dev/stdin` is standard input.
        const t = textToLineEnd(s, i);
        if (t.text !== '' && t.text !== '/dev/stdin') out.push({ kind: 'read', detail: t.text });
        i = t.end;
        break;
      }
      case 'a':
      case 'i':
      case 'c': {
        // To the end of the line; a backslash-newline continues the text.
        while (i < s.length && s[i] !== '\n') i += s[i] === '\\' ? 2 : 1;
        break;
      }
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        while (i < s.length && s[i] !== ';' && s[i] !== '\n') i++;
        break;
      case 's': {
        const d = s[i];
        if (d === undefined || d === '\n' || d === '\\') return out;
        i = skipDelimited(s, i + 1, d);
        i = skipDelimited(s, i, d);
        // Flags up to `;`, a newline, `}` or `#`; `w` takes the rest of the line.
        while (i < s.length) {
          const f = s[i]!;
          if (f === 'e') {
            out.push({ kind: 'execute', detail: '' });
            i++;
          } else if (f === 'w') {
            const t = textToLineEnd(s, i + 1);
            if (t.text !== '/dev/stdout' && t.text !== '/dev/stderr') out.push({ kind: 'write', detail: t.text });
            i = t.end;
            break;
          } else if (f === ';' || f === '\n' || f === '}' || f === '#') {
            break;
          } else {
            i++;
          }
        }
        break;
      }
      case 'y': {
        const d = s[i];
        if (d === undefined || d === '\n' || d === '\\') return out;
        i = skipDelimited(s, skipDelimited(s, i + 1, d), d);
        break;
      }
      default:
        // Commands without arguments (`p`, `d`, `q5`, `l`, `=` …): their digits are skipped by the loop.
        i = skipDigits(s, i);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Exports.

/**
 * Claude Code's `sedCommandIsAllowedByAllowlist` (sedValidation.ts, claude-code-reference.md §4.2) on
 * parsed words. `args` are the words after `sed` (wrappers already stripped by the caller).
 * Returns the verdict with a one-sentence reason, the extracted expressions, whether there are
 * file arguments, and whether `-i`/`--in-place` is present. An expression that is not static
 * (contains an expansion) is never allowed. Never throws; linear in the input.
 */
export function analyseSed(args: readonly Word[], options: SedOptions): SedAnalysis {
  const tokens = toTokens(args);
  const inPlace = gnuOptions(args).inPlace;
  const hasFileArguments = args.length > 0 && hasFileArgs(tokens);
  const result = (expressions: readonly string[], reason: string): SedAnalysis => ({
    allowed: reason === '',
    reason,
    expressions,
    hasFileArguments,
    inPlace,
  });
  if (args.length === 0) return result([], 'A `sed` command without arguments has no expression.');
  const combination = dangerousFlagCombination(args);
  if (combination !== undefined) return result([], `The flags \`${combination}\` combine \`-e\`/\`-w\` with a write or execute command.`);
  const { expressions: exprTokens } = extractExpressions(tokens);
  const expressions = exprTokens.map((t) => t.text);
  if (exprTokens.some((t) => !t.isStatic)) return result(expressions, 'The sed expression is not static (it contains an expansion).');
  const flags = flagTokens(tokens);
  const pattern1 = !options.allowFileWrites && isLinePrinting(flags, expressions);
  const pattern2 = isSubstitution(flags, expressions, hasFileArguments, options.allowFileWrites);
  if (!pattern1 && !pattern2) {
    return result(
      expressions,
      options.allowFileWrites
        ? 'The command is not a plain `s/…/…/` substitution with allowed flags.'
        : 'The command is neither `-n` line printing (`Np`, `N,Mp`) nor a plain `s/…/…/` substitution of stdin with allowed flags.',
    );
  }
  if (pattern2 && expressions.some((e) => e.includes(';'))) return result(expressions, 'The substitution contains `;`.');
  for (const e of expressions) {
    const why = sedDenyReason(e);
    if (why !== undefined) return result(expressions, `The expression \`${e}\` is denied: ${why}.`);
  }
  return result(expressions, '');
}

/** `analyseSed(args, options).allowed`: Claude Code's `sedCommandIsAllowedByAllowlist` (claude-code-reference.md §4.2). */
export function sedAllowed(args: readonly Word[], options: SedOptions): boolean {
  return analyseSed(args, options).allowed;
}

/**
 * The write (`w`/`W` commands, the `s///w file` flag) and execute (`e` command, `s///e` flag)
 * hazards of a `sed` command's script: the items of the claude-code-reference.md §4.2 item 6 deny-list that really
 * write a file or run a command. `args` are the words after `sed`; the scripts are found as GNU
 * sed finds them (`-e`, `--expression`, attached values, otherwise the first operand; a `-f`
 * script file is not read). None under `--sandbox`, where sed refuses these commands; writes to
 * `/dev/stdout` and `/dev/stderr` are not file writes. Linear in the input.
 */
export function sedHazards(args: readonly Word[]): SedHazard[] {
  const gnu = gnuOptions(args);
  if (gnu.sandbox) return [];
  return gnu.scripts.flatMap((s) =>
    scriptHazards(s.text).flatMap((h) => (h.kind === 'read' ? [] : [{ kind: h.kind, word: s.word, detail: h.detail.replaceAll(EXPANSION, '$…') }])),
  );
}

/**
 * The files a `sed` command's script reads with the `r` and `R` commands (GNU sed: the file name
 * is the rest of the line; `/dev/stdin` is standard input and not listed): each with the argument
 * word holding the script and the name as written (`$…` where the script has an expansion).
 * Scripts are found as {@link sedHazards} finds them; `--sandbox` refuses these commands too
 * (https://www.gnu.org/software/sed/manual/sed.html#Command_002dLine-Options), so none then.
 * Linear in the input.
 */
export function sedReadFiles(args: readonly Word[]): { readonly word: Word; readonly file: string }[] {
  const gnu = gnuOptions(args);
  if (gnu.sandbox) return [];
  return gnu.scripts.flatMap((s) => scriptHazards(s.text).flatMap((h) => (h.kind === 'read' ? [{ word: s.word, file: h.detail.replaceAll(EXPANSION, '$…') }] : [])));
}
