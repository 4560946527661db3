/**
 * Path validation (claude-code-reference.md §3.4): which paths a simple command touches (Claude Code's 36
 * PATH_EXTRACTORS, rules/path-extractors.json, plus output-redirection targets), how each one
 * resolves, and whether it stays inside the working directories. Pure: the file system is only
 * reached through an injected {@link PathHost} (`realpath`); without one, resolution is lexical.
 *
 * Besides Claude Code's paths, shellward lists extension paths ({@link PathAccess.extension}):
 * the operands of read-only commands outside the 36 (`tac`, `tree`, `fd` …), option values Claude
 * Code skips although they name a file read (`grep -f FILE`), and each alternative of a brace
 * expansion (`cat {x,/etc/passwd}`). They are facts only; the permission decision ignores them.
 */
import { posix } from 'node:path';
import protectedTable from '../../rules/protected-paths.json' with { type: 'json' };
import table from '../../rules/path-extractors.json' with { type: 'json' };
import type { Span } from '../core/types.js';
import { hasDriveLetter, toPosixPath } from '../core/session-paths.js';
import { resolveCommand } from '../parse/command-name.js';
import type { CommandModel } from '../model/command-model.js';
import { buildModel } from '../model/build.js';
import type { ParsedScript, Redirect, SimpleCommand } from '../parse/nodes.js';
import { decodeAnsiC, type Word } from '../parse/words.js';
import { sedAllowed } from './sed.js';
import { effectEntry } from './option-effects.js';
import { spellOptions, type OptionArity, type OptionOccurrence, type OptionSpec } from './option-spelling.js';
import { escapeGlob, expandGlob, patternOf } from './bash-glob.js';

export type PathOperation = 'read' | 'write' | 'create';

/** One path a simple command touches. `span` = UTF-16 offsets into the unit text (end exclusive). */
export interface PathAccess {
  /** The argument after quote removal (Word.value), or the raw text when not static. */
  readonly path: string;
  /** False when the word has an expansion. */
  readonly static: boolean;
  readonly operation: PathOperation;
  readonly source: 'argument' | 'redirect' | 'cd' | 'default';
  /** Resolved command name (after wrappers), or the redirect operator. */
  readonly command: string;
  readonly span: Span;
  /**
   * True when the word has an unquoted glob (`*`, `?`, `[`) or brace expansion, so the path
   * names several files; absent: judged from the text as Claude Code does (any of `* ? [ ] { }`).
   */
  readonly glob?: boolean;
  /**
   * On a glob access whose quoting is known: the path as a pattern in escaped form (each quoted
   * character with a meaning in a pattern preceded by a backslash: `'*'x*` → `\*x*`; see
   * src/analyses/bash-glob.ts), so that it can be expanded on the path host.
   */
  readonly pattern?: string;
  /**
   * A shellward extension, not a path Claude Code checks: an operand of a command outside its 36
   * PATH_EXTRACTORS (rules/path-extractors.json rows with `extension: true`), an option value it
   * skips although it names a file read (`grep -f FILE`), or one alternative of a brace expansion
   * (`{x,/etc/passwd}` gives `x` and `/etc/passwd`, with the word's span). Facts only (the
   * verdict's `paths`, `outsideCwd`): the permission decision must skip these to mirror Claude Code.
   */
  readonly extension?: true;
  /**
   * A word of a program without a path row ({@link unlistedPathAccesses}): `path` when it looks
   * like a path (what the program does with it is not known, so a path that is not inside cannot
   * be checked), `word` for any other word of a program with no row at all (operation `write`:
   * it may name a file the program writes, so a protected file among them needs approval).
   */
  readonly unlisted?: 'path' | 'word';
  /** On an extension access standing for a brace expansion too large to list (over {@link MAX_BRACE_ALTERNATIVES}): unknown, reason `brace`. */
  readonly braceOverflow?: true;
  /**
   * The command reads everything below the path when it is a directory (`grep -r`, `rg`,
   * `diff -r`, `git grep`, `git diff --no-index`): a `Read(…)` rule naming anything there applies.
   */
  readonly recursive?: true;
}

/** Host facts for resolution. `realpath` returns the resolved path or undefined when it does not exist; absent → lexical only. */
export interface PathHost {
  /** What `~` expands to (POSIX form); `undefined` when not known (a recorded session's home): `~` paths are then unknown. */
  readonly home: string | undefined;
  realpath?(path: string): string | undefined;
  /**
   * The text of the symbolic link at `path` (not followed), or `undefined` when `path` is not a
   * symlink or cannot be read. Used with {@link realpath} to judge a dangling link by the target
   * it would create. Absent → dangling links are judged by their own location.
   */
  readlink?(path: string): string | undefined;
  /**
   * The text of the regular file at `path` (at most 64 KiB; larger, a FIFO, a device or a
   * directory → `undefined`), never blocking. Used to read a repository's `.git/config`. Absent →
   * such files are not known.
   */
  readFile?(path: string): string | undefined;
  /**
   * The bytes of the regular file at `path` when it has at most `limit` bytes (larger, a FIFO, a
   * device or a directory → `undefined`), never blocking. Used to read a repository's index (the
   * files it tracks). Absent → such files are not known.
   */
  readBytes?(path: string, limit: number): Uint8Array | undefined;
  /**
   * Whether `dir` is a git directory as git's discovery judges one (a valid `HEAD`, and `objects`
   * and `refs` of its common directory accessible, whatever their file type) with no `.git` in it:
   * a bare repository, whose config and hooks git run there uses; also asked of a `.git`
   * directory, which git skips when it is not one. Absent → not known.
   */
  isBareRepository?(dir: string): boolean;
  /**
   * The names in directory `dir` (absolute, symbolic links resolved), without `.` and `..`, at
   * most {@link MAX_LISTED_ENTRIES}; `undefined` when it cannot be listed in full (not a
   * directory, unreadable, more entries than that, a name that is not UTF-8). Never blocks on
   * anything but the directory read. Used to expand globs in read paths (what `cat etcl*` reads).
   * Absent → globs are judged from their text.
   */
  list?(dir: string): readonly string[] | undefined;
}

export interface PathContext {
  /** Absolute; `undefined` = unknown (after a dynamic cd). */
  readonly cwd: string | undefined;
  /** Absolute; cwd is NOT implied, the caller includes it. */
  readonly workingDirectories: readonly string[];
  readonly host: PathHost;
  /**
   * Absolute directories whose files are protected writes besides rules/protected-paths.json
   * ({@link protectedIn}): the directory the repository's `core.hooksPath` names
   * (src/analyses/git-repository.ts `gitHooksDirectories`). Absent → none.
   */
  readonly protectedDirectories?: readonly string[];
}

/**
 * Why a path is (not) allowed: `inside`/`outside` the working directories (established),
 * `variable` (an expansion, `%` or a leading `=`: unknown), `tilde-user` (`~user`, `~+` …),
 * `glob-write` (a glob written to), `unknown-cwd` (a relative path where the working directory is
 * not known, or where it depends on whether a `cd` before it succeeded or ran at all),
 * `device` (a pseudo-device such as `/dev/null`: allowed), `brace` (a brace expansion with more
 * than {@link MAX_BRACE_ALTERNATIVES} alternatives or one longer than PATH_MAX: unknown; only on
 * extension accesses), `unresolved` (the kernel's resolution of the path is not certain: a `..`
 * after a component that does not exist yet, or more than {@link MAX_SYMLINK_HOPS} symlinks).
 */
export type PathReason = 'inside' | 'outside' | 'variable' | 'tilde-user' | 'glob-write' | 'unknown-cwd' | 'device' | 'brace' | 'unresolved';

export interface PathCheck extends PathAccess {
  /** The resolved absolute path that was judged; `null` when it cannot be known. */
  readonly resolved: string | null;
  readonly allowed: boolean;
  readonly reason: PathReason;
  /**
   * On a glob read expanded on the path host ({@link PathHost.list}): each name it may expand to,
   * absolute, in its lexical and its symlink-resolved form, `certain` when it matches under every
   * shell setting (src/analyses/bash-glob.ts). Absent when the glob was not expanded.
   */
  readonly matches?: readonly { readonly lexical: string; readonly resolved: string; readonly certain: boolean }[];
}

// ---------------------------------------------------------------------------------------------
// The extractor table

type Extractor = ExtractorKind & { readonly extension?: true };

type ExtractorKind =
  | { readonly operation: PathOperation; readonly kind: 'allArgs'; readonly skipOptions?: readonly string[] }
  | { readonly operation: PathOperation; readonly kind: 'filterOutFlags'; readonly default?: string }
  | {
      readonly operation: PathOperation;
      readonly kind: 'find';
      readonly default?: string;
      readonly globalOptions: readonly string[];
      readonly pathValuedOptions: readonly string[];
      readonly pathValuedPattern?: string;
    }
  | { readonly operation: PathOperation; readonly kind: 'tr'; readonly deleteOptions: readonly string[]; readonly deleteLetter: string }
  | {
      readonly operation: PathOperation;
      readonly kind: 'patternThenPaths';
      readonly patternOptions: readonly string[];
      readonly valueOptions: readonly string[];
      readonly twoValueOptions?: readonly string[];
      readonly recursiveOptions?: readonly string[];
      readonly recursiveDefault?: string;
      readonly default?: string;
      readonly extensionReadOptions?: readonly string[];
    }
  | {
      readonly operation: PathOperation;
      readonly kind: 'sed';
      readonly readWhenAllowlisted?: boolean;
      readonly scriptOptions: readonly string[];
      readonly scriptFileOptions: readonly string[];
      readonly valueOptions: readonly string[];
    }
  | { readonly operation: PathOperation; readonly kind: 'gitDiffNoIndex' }
  | GetoptRow
  | {
      readonly operation: PathOperation;
      readonly kind: 'operands';
      readonly valueOptions?: readonly string[];
      readonly pathOptions?: Readonly<Record<string, PathOperation>>;
      readonly skipOperands?: number;
      readonly operandOperations?: readonly PathOperation[];
      readonly operandsWhen?: readonly string[];
      readonly commandOptions?: readonly string[];
      readonly plusOptions?: boolean;
      readonly clusters?: boolean;
      readonly default?: string;
      readonly defaultUnless?: readonly string[];
    };

/** What a `getopt` row does with an operand: a path operation, or `none` (not a path). */
type OperandOperation = PathOperation | 'none';

/** Which operands of a `getopt` row are paths (see rules/schema/path-extractors.schema.json). */
interface OperandShape {
  readonly operands?: readonly OperandOperation[];
  readonly rest?: OperandOperation;
  readonly last?: OperandOperation;
}

/** A `getopt` row: options and operands read with the program's own option parser (src/analyses/option-spelling.ts). */
interface GetoptRow extends OperandShape {
  readonly operation: PathOperation;
  readonly kind: 'getopt';
  readonly options: readonly { readonly names: readonly string[]; readonly arity: OptionArity; readonly path?: PathOperation }[];
  readonly variants?: readonly (OperandShape & { readonly when: readonly string[] })[];
  readonly recursiveWith?: readonly string[];
  readonly linkTargets?: { readonly when: readonly string[]; readonly unless?: readonly string[] };
  readonly plusOperands?: boolean;
  readonly urlOperands?: boolean;
  readonly longPrefixes?: boolean;
  readonly singleDashLong?: boolean;
  readonly stopAtOperand?: boolean;
  readonly oldStyleFirst?: boolean;
  readonly partial?: boolean;
}

const TABLE: readonly [string, Extractor][] = Object.entries(table.commands as unknown as Record<string, Extractor>);

/** Other names of a row's program (`gunzip` → `gzip`), from the table's `aliases`. */
const ALIASES: Readonly<Record<string, string>> = (table as { aliases?: Record<string, string> }).aliases ?? {};

/** The `getopt` rows of git's subcommands (`git init`, `git clone` …), from the table's `gitSubcommands`. */
const GIT_SUBCOMMANDS: ReadonlyMap<string, GetoptRow> = new Map(Object.entries((table as { gitSubcommands?: Record<string, GetoptRow> }).gitSubcommands ?? {}));

/** Programs none of whose words names a file they open (the table's `noPathOperands`). */
const NO_PATH_OPERANDS: ReadonlySet<string> = new Set((table as { noPathOperands?: string[] }).noPathOperands ?? []);

/** The row of program `name`, aliases followed. */
function extractorFor(name: string): Extractor | undefined {
  return EXTRACTORS.get(Object.hasOwn(ALIASES, name) ? ALIASES[name]! : name);
}

/** The extractor of each of Claude Code's 36 commands (rules/path-extractors.json). */
export const PATH_EXTRACTORS: ReadonlyMap<string, Extractor> = new Map(TABLE.filter(([, e]) => !e.extension));

/** shellward's extension extractors (rules/path-extractors.json rows with `extension: true`): facts only. */
export const EXTENSION_EXTRACTORS: ReadonlyMap<string, Extractor> = new Map(TABLE.filter(([, e]) => e.extension));

const EXTRACTORS: ReadonlyMap<string, Extractor> = new Map(TABLE);

// ---------------------------------------------------------------------------------------------
// Extraction

/**
 * The text a word shows to an option parser: its static value, or its leading literal text
 * followed by `$` for a word with an expansion (so `"-$x"` still reads as an option and `--`
 * only when static). Mirrors shell-quote keeping variables as text.
 */
function lead(w: Word): string {
  if (w.value !== undefined) return w.value;
  let out = '';
  for (const p of w.parts) {
    if (p.kind !== 'literal') break;
    out += p.value;
  }
  return out + '$';
}

function isOption(v: string): boolean {
  return v.startsWith('-') && v.length > 1;
}

/** True when a word names several files: an unquoted glob character or brace expansion. */
function wordGlob(w: Word): boolean {
  return w.parts.some((p) => p.kind === 'literal' && !p.quoted && (/[*?[]/.test(p.value) || /\{[^{}]*(,|\.\.)[^{}]*\}/.test(p.value)));
}

/**
 * The access of word `w`. `prefix`: option text the value follows in the same word (`--file=`
 * of `--file=x`, `-nf` of `-nfx`), removed from a static value.
 */
function access(w: Word, operation: PathOperation, command: string, source: PathAccess['source'] = 'argument', prefix = ''): PathAccess {
  if (w.value === undefined) return { path: w.raw, static: false, operation, source, command, span: w.span };
  const path = w.value.startsWith(prefix) ? w.value.slice(prefix.length) : w.value;
  const glob = wordGlob(w);
  const pattern = glob ? wordPattern(w, w.value.startsWith(prefix) ? prefix.length : 0) : undefined;
  return { path, static: true, operation, source, command, span: w.span, glob, ...(pattern !== undefined ? { pattern } : {}) };
}

/** The escaped-form pattern of static word `w` from offset `from` of its value (see {@link PathAccess.pattern}); `undefined` when its quoting cannot be read. */
function wordPattern(w: Word, from: number): string | undefined {
  const lexed = lexWord(w.raw);
  if (!lexed || lexed.text !== w.value) return undefined;
  return patternOf(lexed.text.slice(from), lexed.quoted.subarray(from));
}

/**
 * The access of argument word `w` (see {@link access}; marked `extension` when asked), followed
 * by one extension access per alternative of its brace expansion, if any (bash expands braces
 * before the command sees its arguments; Claude Code judges the unexpanded text).
 */
function argAccesses(w: Word, operation: PathOperation, command: string, prefix = '', extension = false): PathAccess[] {
  const a = access(w, operation, command, 'argument', prefix);
  const out: PathAccess[] = [extension ? { ...a, extension: true } : a];
  const alts = braceAlternatives(w);
  if (alts === undefined) return out;
  if (alts === 'overflow') {
    out.push({ ...a, extension: true, braceOverflow: true });
    return out;
  }
  const seen = new Set<string>();
  for (const alt of alts) {
    if (!alt.text.startsWith(prefix)) continue;
    const path = alt.text.slice(prefix.length);
    // bash drops an unquoted empty word; a repeated alternative names the same file.
    if (path === '' || seen.has(path)) continue;
    seen.add(path);
    const pattern = alt.glob && alt.quoted ? patternOf(path, alt.quoted.slice(prefix.length)) : undefined;
    out.push({ path, static: true, operation, source: 'argument', command, span: w.span, glob: alt.glob, ...(pattern !== undefined ? { pattern } : {}), extension: true });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Brace expansion (bash manual, "Brace Expansion")

/** Linux's PATH_MAX: no file system resolves a longer path. */
const PATH_MAX = 4096;

/** At most this many alternatives per word are listed; more (or one longer than PATH_MAX) gives one access with reason `brace`. */
export const MAX_BRACE_ALTERNATIVES = 64;

interface BraceAlternative {
  readonly text: string;
  /** An unquoted `*`, `?` or `[` is left in it. */
  readonly glob: boolean;
  /** Per character of `text`, 1 when it was quoted; `undefined` when not known (a sequence word holding a glob character). */
  readonly quoted: readonly number[] | undefined;
}

/** A word's text after quote removal, with which characters were quoted; `undefined` for a syntax not handled. */
function lexWord(raw: string): { text: string; quoted: Uint8Array } | undefined {
  let text = '';
  const quoted = new Uint8Array(raw.length + 1);
  const put = (t: string, q: boolean): void => {
    if (q) quoted.fill(1, text.length, text.length + t.length);
    text += t;
  };
  let i = 0;
  while (i < raw.length) {
    const c = raw[i]!;
    if (c === '\\') {
      if (i + 1 >= raw.length) {
        put(c, false);
        i++;
      } else {
        if (raw[i + 1] !== '\n') put(raw[i + 1]!, true);
        i += 2;
      }
    } else if (c === "'") {
      const end = raw.indexOf("'", i + 1);
      if (end === -1) return undefined;
      put(raw.slice(i + 1, end), true);
      i = end + 1;
    } else if (c === '$' && raw[i + 1] === "'") {
      let end = i + 2;
      while (end < raw.length && raw[end] !== "'") end += raw[end] === '\\' ? 2 : 1;
      if (end >= raw.length) return undefined;
      put(decodeAnsiC(raw.slice(i + 2, end)), true);
      i = end + 1;
    } else if (c === '"' || (c === '$' && raw[i + 1] === '"')) {
      let k = c === '"' ? i + 1 : i + 2;
      let body = '';
      while (k < raw.length && raw[k] !== '"') {
        if (raw[k] === '\\' && k + 1 < raw.length && '$`"\\\n'.includes(raw[k + 1]!)) {
          if (raw[k + 1] !== '\n') body += raw[k + 1];
          k += 2;
        } else if (raw[k] === '$' || raw[k] === '`') {
          return undefined;
        } else body += raw[k++];
      }
      if (k >= raw.length) return undefined;
      put(body, true);
      i = k + 1;
    } else {
      put(c, false);
      i++;
    }
  }
  return { text, quoted };
}

const SEQ_NUMBERS = /^([-+]?\d{1,15})\.\.([-+]?\d{1,15})(?:\.\.([-+]?\d{1,15}))?$/;
const SEQ_LETTERS = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.([-+]?\d{1,15}))?$/;

/** The words of a sequence expression body (`1..3`, `a..e..2`, `01..10`), `undefined` when it is not one, `null` when too long. */
function sequence(body: string): string[] | null | undefined {
  const num = SEQ_NUMBERS.exec(body);
  const let_ = num ? null : SEQ_LETTERS.exec(body);
  const m = num ?? let_;
  if (!m) return undefined;
  const step = Math.abs(m[3] !== undefined ? Number(m[3]) : 1) || 1;
  const from = num ? Number(m[1]) : m[1]!.charCodeAt(0);
  const to = num ? Number(m[2]) : m[2]!.charCodeAt(0);
  if (Math.floor(Math.abs(to - from) / step) + 1 > MAX_BRACE_ALTERNATIVES) return null;
  // bash pads to the wider end when either has a leading zero.
  const bare = (x: string): string => x.replace(/^[-+]/, '');
  const width = num && [m[1]!, m[2]!].some((x) => bare(x).length > 1 && bare(x).startsWith('0')) ? Math.max(m[1]!.replace(/^\+/, '').length, m[2]!.replace(/^\+/, '').length) : 0;
  const out: string[] = [];
  const dir = to >= from ? 1 : -1;
  for (let v = from; dir > 0 ? v <= to : v >= to; v += dir * step) {
    if (!num) out.push(String.fromCharCode(v));
    else {
      const sign = v < 0 ? '-' : '';
      out.push(sign + String(Math.abs(v)).padStart(width - sign.length, '0'));
    }
  }
  return out;
}

/**
 * The words bash's brace expansion makes of `w` (comma lists, `{x..y[..n]}` sequences, nested
 * braces; quoted or escaped braces and commas are literal, `${` is not a brace), `undefined` when
 * it expands nothing (or has an expansion other than a brace sequence), `'overflow'` when there
 * would be more than {@link MAX_BRACE_ALTERNATIVES} words or one longer than PATH_MAX. Linear in
 * the word's length times the (bounded) number of brace expressions.
 */
function braceAlternatives(w: Word): readonly BraceAlternative[] | 'overflow' | undefined {
  if (!w.raw.includes('{')) return undefined;
  if (!w.parts.every((p) => p.kind === 'literal' || (p.kind === 'dynamic' && p.node === 'brace_expression'))) return undefined;
  const lexed = lexWord(w.raw);
  if (!lexed || (w.value !== undefined && lexed.text !== w.value)) return undefined;
  const { text, quoted } = lexed;
  const n = text.length;
  // Matching braces and which pairs hold a comma of their own (one pass, a stack).
  const match = new Int32Array(n).fill(-1);
  const comma = new Uint8Array(n);
  const stack: number[] = [];
  for (let k = 0; k < n; k++) {
    if (quoted[k]) continue;
    const c = text[k];
    if (c === '{') stack.push(k);
    else if (c === '}' && stack.length > 0) match[stack.pop()!] = k;
    else if (c === ',' && stack.length > 0) comma[stack[stack.length - 1]!] = 1;
  }
  // Which braces open an expansion: a matched pair with a comma of its own, or a sequence.
  const sequences = new Map<number, string[] | null>();
  const open = new Uint8Array(n);
  let pairs = 0;
  for (let k = 0; k < n; k++) {
    const j = match[k]!;
    if (j === -1 || (k > 0 && text[k - 1] === '$' && !quoted[k - 1])) continue;
    if (!comma[k]) {
      if (j - k - 1 > 40 || quoted.subarray(k + 1, j).some((q) => q === 1)) continue;
      const seq = sequence(text.slice(k + 1, j));
      if (seq === undefined) continue;
      sequences.set(k, seq);
    }
    open[k] = 1;
    // Each brace expression adds at least one word, so more than the cap of them overflows;
    // this also bounds the recursion depth below.
    if (++pairs > MAX_BRACE_ALTERNATIVES) return 'overflow';
  }
  if (pairs === 0) return undefined;
  const globIn = (lo: number, hi: number): boolean => {
    for (let k = lo; k < hi; k++) if (!quoted[k] && (text[k] === '*' || text[k] === '?' || text[k] === '[')) return true;
    return false;
  };
  const expand = (lo: number, hi: number): BraceAlternative[] | null => {
    let k = lo;
    while (k < hi && !open[k]) k++;
    if (k >= hi) return [{ text: text.slice(lo, hi), glob: globIn(lo, hi), quoted: Array.from(quoted.subarray(lo, hi)) }];
    const j = match[k]!;
    let alts: BraceAlternative[] = [];
    if (comma[k]) {
      let start = k + 1;
      for (let m = k + 1; m <= j; m++) {
        if (m === j || (!quoted[m] && text[m] === ',')) {
          const r = expand(start, m);
          if (!r) return null;
          for (const x of r) alts.push(x);
          if (alts.length > MAX_BRACE_ALTERNATIVES) return null;
          start = m + 1;
        } else if (!quoted[m] && text[m] === '{' && match[m] !== -1) m = match[m]! - 1;
      }
    } else {
      const seq = sequences.get(k);
      if (!seq) return null;
      alts = seq.map((x) => ({ text: x, glob: /[*?[]/.test(x), quoted: /[*?[\]\\]/.test(x) ? undefined : new Array<number>(x.length).fill(0) }));
    }
    const post = expand(j + 1, hi);
    if (!post) return null;
    if (alts.length * post.length > MAX_BRACE_ALTERNATIVES) return null;
    const pre = text.slice(lo, k);
    const preGlob = globIn(lo, k);
    const preQuoted = Array.from(quoted.subarray(lo, k));
    const out: BraceAlternative[] = [];
    for (const a of alts) {
      for (const p of post) {
        if (pre.length + a.text.length + p.text.length > PATH_MAX) return null;
        out.push({ text: pre + a.text + p.text, glob: preGlob || a.glob || p.glob, quoted: a.quoted && p.quoted ? [...preQuoted, ...a.quoted, ...p.quoted] : undefined });
      }
    }
    return out;
  };
  return expand(0, n) ?? 'overflow';
}

function defaultAccess(path: string, operation: PathOperation, command: string, at: Word): PathAccess {
  return { path, static: true, operation, source: 'default', command, span: at.span, glob: false };
}

/** Claude Code's filterOutFlags: operands are the words not starting with `-`, and everything after `--`. */
function filterOutFlags(args: readonly Word[]): Word[] {
  const out: Word[] = [];
  let rest = false;
  for (const w of args) {
    const v = lead(w);
    if (rest) out.push(w);
    else if (v === '--') rest = true;
    else if (!v.startsWith('-')) out.push(w);
  }
  return out;
}

function extractCd(args: readonly Word[], skip: readonly string[], name: string, nameWord: Word): PathAccess[] {
  let i = 0;
  while (i < args.length && args[i]!.value !== undefined && skip.includes(args[i]!.value!)) i++;
  if (args[i]?.value === '--') i++;
  const words = args.slice(i);
  if (words.length === 0) return [{ path: '~', static: true, operation: 'read', source: 'cd', command: name, span: nameWord.span, glob: false }];
  if (words.length === 1) return [access(words[0]!, 'read', name, 'cd')];
  const isStatic = words.every((w) => w.value !== undefined);
  return [
    {
      path: words.map((w) => w.value ?? w.raw).join(' '),
      static: isStatic,
      operation: 'read',
      source: 'cd',
      command: name,
      span: { start: words[0]!.span.start, end: words[words.length - 1]!.span.end },
      ...(isStatic ? { glob: words.some(wordGlob) } : {}),
    },
  ];
}

const FIND_ROOT_END = new Set(['(', ')', '!', ',']);

function extractFind(e: Extract<Extractor, { kind: 'find' }>, args: readonly Word[], name: string, nameWord: Word): PathAccess[] {
  const out: PathAccess[] = [];
  const pattern = e.pathValuedPattern !== undefined ? new RegExp(e.pathValuedPattern) : undefined;
  let i = 0;
  // GNU find's leading options (https://www.gnu.org/software/findutils/manual/html_mono/find.html#Invoking-find):
  // -H -L -P, -D DEBUGOPTS (the next word), -OLEVEL (attached); the starting points follow them.
  for (;;) {
    const v = i < args.length ? lead(args[i]!) : '';
    if (e.globalOptions.includes(v) || /^-O\d*$/.test(v)) i++;
    else if (v === '-D') i += 2;
    else break;
  }
  let roots = 0;
  for (; i < args.length; i++) {
    const v = lead(args[i]!);
    if (v === '--') {
      // After `--` every argument is a path (claude-code-reference.md §3.4.4).
      for (const w of args.slice(i + 1)) append(out, argAccesses(w, e.operation, name));
      return out.length > 0 || e.default === undefined ? out : [defaultAccess(e.default, e.operation, name, nameWord)];
    }
    if (isOption(v) || FIND_ROOT_END.has(v)) break;
    append(out, argAccesses(args[i]!, e.operation, name));
    roots++;
  }
  for (; i < args.length; i++) {
    const v = lead(args[i]!);
    if (v === '--') {
      for (const w of args.slice(i + 1)) append(out, argAccesses(w, e.operation, name));
      break;
    }
    if ((e.pathValuedOptions.includes(v) || pattern?.test(v)) && i + 1 < args.length) {
      append(out, argAccesses(args[i + 1]!, e.operation, name));
      i++;
    }
  }
  if (roots === 0 && e.default !== undefined) out.unshift(defaultAccess(e.default, e.operation, name, nameWord));
  return out;
}

function extractTr(e: Extract<Extractor, { kind: 'tr' }>, args: readonly Word[], name: string): PathAccess[] {
  const del = args.some((w) => {
    const v = lead(w);
    return e.deleteOptions.includes(v) || (v.startsWith('-') && !v.startsWith('--') && v.slice(1).includes(e.deleteLetter));
  });
  return filterOutFlags(args)
    .slice(del ? 1 : 2)
    .flatMap((w) => argAccesses(w, e.operation, name));
}

/** The option name of `--long=value`, or the token itself. */
function optionName(v: string): { name: string; inline: boolean } {
  const eq = v.startsWith('--') ? v.indexOf('=') : -1;
  return eq === -1 ? { name: v, inline: false } : { name: v.slice(0, eq), inline: true };
}

/**
 * The extension read of option token `args[i]` (its text `v`) when it is one of `fileOptions`:
 * `--opt=FILE`, `--opt FILE`, `-o FILE`, `-oFILE` or a short cluster ending in `o` (`-if FILE`);
 * for a `twoValueOptions` entry the second value. `-` (stdin) is not a file. Appended to `out`.
 */
function optionFileReads(
  args: readonly Word[],
  i: number,
  v: string,
  fileOptions: readonly string[],
  valueOptions: readonly string[],
  twoValueOptions: readonly string[],
  name: string,
  out: PathAccess[],
): void {
  const w = args[i]!;
  const push = (word: Word | undefined, prefix = ''): void => {
    if (word !== undefined && word.value !== prefix + '-') append(out, argAccesses(word, 'read', name, prefix, true));
  };
  if (v.startsWith('--') || fileOptions.includes(v)) {
    const { name: opt, inline } = optionName(v);
    if (!fileOptions.includes(opt)) return;
    if (inline) push(w, `${opt}=`);
    else push(args[i + (twoValueOptions.includes(opt) ? 2 : 1)]);
    return;
  }
  for (let k = 1; k < v.length; k++) {
    const letter = `-${v[k]}`;
    if (fileOptions.includes(letter)) {
      if (k + 1 < v.length) push(w, v.slice(0, k + 1));
      else push(args[i + 1]);
      return;
    }
    if (valueOptions.includes(letter)) return;
  }
}

function extractPattern(e: Extract<Extractor, { kind: 'patternThenPaths' }>, args: readonly Word[], name: string, nameWord: Word): PathAccess[] {
  const reads: PathAccess[] = [];
  const operands: Word[] = [];
  let patternGiven = false;
  let recursive = false;
  let rest = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = lead(w);
    if (rest || !isOption(v)) {
      operands.push(w);
      continue;
    }
    if (v === '--') {
      rest = true;
      continue;
    }
    const { name: opt, inline } = optionName(v);
    if (e.extensionReadOptions) optionFileReads(args, i, v, e.extensionReadOptions, e.valueOptions, e.twoValueOptions ?? [], name, reads);
    if (e.patternOptions.includes(opt)) patternGiven = true;
    if (e.recursiveOptions && (e.recursiveOptions.includes(opt) || (/^-[A-Za-z]+$/.test(v) && /[rR]/.test(v)))) recursive = true;
    if (!inline && e.valueOptions.includes(opt)) i += e.twoValueOptions?.includes(opt) ? 2 : 1;
  }
  const paths = patternGiven ? operands : operands.slice(1);
  const out = paths.flatMap((w) => argAccesses(w, e.operation, name));
  if (out.length === 0) {
    const d = e.default ?? (recursive ? e.recursiveDefault : undefined);
    if (d !== undefined) out.push(defaultAccess(d, e.operation, name, nameWord));
  }
  // ripgrep searches directories recursively without an option.
  if (recursive || name === 'rg') for (let k = 0; k < out.length; k++) out[k] = { ...out[k]!, recursive: true };
  append(reads, out);
  return reads;
}

/**
 * A shellward extension row (kind `operands`): options parsed as GNU getopt does (clusters,
 * attached values, `--opt=value`, `--`), operands are paths (see
 * rules/schema/path-extractors.schema.json for the fields). `-` (stdin) is no path but counts
 * as an operand.
 */
function extractOperands(e: Extract<Extractor, { kind: 'operands' }>, args: readonly Word[], name: string, nameWord: Word): PathAccess[] {
  const values = e.valueOptions ?? [];
  const pathOptions = e.pathOptions ?? {};
  const pathOp = (o: string): PathOperation | undefined => (Object.hasOwn(pathOptions, o) ? pathOptions[o] : undefined);
  const given = new Set<string>();
  const out: PathAccess[] = [];
  const operands: Word[] = [];
  const valuePath = (word: Word | undefined, op: PathOperation, prefix = ''): void => {
    if (word !== undefined && word.value !== prefix + '-') append(out, argAccesses(word, op, name, prefix));
  };
  let rest = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = lead(w);
    if (rest) {
      operands.push(w);
      continue;
    }
    if (v === '--') {
      rest = true;
      continue;
    }
    if (e.plusOptions && v.startsWith('+') && v.length > 1) continue;
    if (!isOption(v)) {
      operands.push(w);
      continue;
    }
    const { name: opt, inline } = optionName(v);
    if (e.commandOptions?.includes(opt)) {
      // `fd -x cmd args ;`: the command's words are not paths.
      while (i + 1 < args.length && args[i + 1]!.value !== ';') i++;
      i++;
      continue;
    }
    if (v.startsWith('--') || e.clusters === false || v.length === 2 || values.includes(v) || pathOp(v) !== undefined) {
      given.add(opt);
      const op = pathOp(opt);
      if (op !== undefined) {
        if (inline) valuePath(w, op, `${opt}=`);
        else valuePath(args[++i], op);
      } else if (!inline && values.includes(opt)) i++;
      continue;
    }
    // A short cluster: the first letter that takes a value takes the rest, or the next word.
    for (let k = 1; k < v.length; k++) {
      const letter = `-${v[k]}`;
      given.add(letter);
      const op = pathOp(letter);
      if (op === undefined && !values.includes(letter)) continue;
      if (k + 1 < v.length) {
        if (op !== undefined) valuePath(w, op, v.slice(0, k + 1));
      } else if (op !== undefined) valuePath(args[++i], op);
      else i++;
      break;
    }
  }
  const when = e.operandsWhen;
  if (when === undefined || when.some((o) => given.has(o))) {
    const ops = operands.slice(e.skipOperands ?? 0);
    const operations = e.operandOperations;
    const count = operations ? Math.min(operations.length, ops.length) : ops.length;
    let paths = 0;
    for (let k = 0; k < count; k++) {
      const w = ops[k]!;
      if (w.value === '-') continue;
      append(out, argAccesses(w, operations ? operations[k]! : e.operation, name));
      paths++;
    }
    if (paths === 0 && e.default !== undefined && !e.defaultUnless?.some((o) => given.has(o))) out.push(defaultAccess(e.default, e.operation, name, nameWord));
  }
  return out;
}

/**
 * The local path a git repository operand names, or `null` when it is remote (git's URL rules,
 * https://git-scm.com/docs/git-clone#_git_urls): `scheme://…` is remote except `file://PATH`
 * (PATH, a suffix of `text`), `transport::address` is remote, and `[user@]host:path` is scp-like
 * (remote) when no `/` comes before the first `:`. Anything else is a local path, returned as given.
 */
function localPathOfUrl(text: string): string | null {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text);
  if (scheme) return scheme[1]!.toLowerCase() === 'file' ? text.slice(scheme[0].length) : null;
  const colon = text.indexOf(':');
  if (colon > 0 && !text.slice(0, colon).includes('/')) return null;
  return text;
}

/**
 * A `getopt` row (rules/schema/path-extractors.schema.json): the words read as the program's
 * parser reads them ({@link spellOptions}: clusters, attached values, unambiguous long prefixes,
 * `--`, and the options' arities of rules/option-effects.json for the program when it has a row
 * there), then the values of the row's path options and the operands its shape names as paths.
 * `-` (standard input or output) is no path. A word that is not static is an operand of unknown
 * text (its access is not static, so it is never judged inside).
 */
function extractGetopt(e: GetoptRow, args: readonly Word[], name: string): PathAccess[] {
  const out: PathAccess[] = [];
  const listed = new Set(e.options.flatMap((o) => o.names));
  const borrowed = (effectEntry(name)?.options ?? []).filter((o) => !o.names.some((n) => listed.has(n))).map((o) => ({ names: o.names, arity: o.arity, ...(o.terminators ? { terminators: o.terminators } : {}) }));
  const specs: OptionSpec[] = [...e.options.map((o) => ({ names: o.names, arity: o.arity })), ...borrowed];
  const words = args.map((w) => w.value ?? null);
  const spelled = spellOptions(words, {
    options: specs,
    ...(e.longPrefixes !== undefined ? { longPrefixes: e.longPrefixes } : {}),
    ...(e.singleDashLong ? { singleDashLong: true } : {}),
    ...(e.stopAtOperand ? { stopAtOperand: true } : {}),
    ...(e.oldStyleFirst ? { oldStyleFirst: true } : {}),
  });
  const present = new Set(spelled.options.map((o) => o.option));
  for (const occ of spelled.options) {
    const spec = occ.known ? e.options.find((o) => o.names[0] === occ.option) : undefined;
    if (!spec?.path || occ.valueIndex === undefined || occ.value === '-') continue;
    const w = args[occ.valueIndex]!;
    const prefix = occ.valueIndex === occ.argIndex && w.value !== undefined && typeof occ.value === 'string' ? w.value.slice(0, w.value.length - occ.value.length) : '';
    append(out, argAccesses(w, spec.path, name, prefix));
  }
  const indexes = spelled.operands.map((o) => o.argIndex);
  // With stopAtOperand the parser stops at the first operand: every later word is an operand too.
  if (e.stopAtOperand && spelled.rest < words.length) for (let i = spelled.rest + 1; i < words.length; i++) indexes.push(i);
  const operands = e.plusOperands ? indexes.filter((i) => !(args[i]!.value ?? '').startsWith('+')) : indexes;
  const shape: OperandShape = e.variants?.find((v) => v.when.some((o) => present.has(o))) ?? e;
  const first = shape.operands ?? [];
  const rest = shape.rest ?? e.operation;
  const recursive = e.recursiveWith?.some((o) => present.has(o)) ?? false;
  const linkDirs = e.linkTargets?.when.some((o) => present.has(o)) && !(e.linkTargets.unless ?? []).some((o) => present.has(o)) ? linkDirectories(spelled.options, args, operands) : undefined;
  operands.forEach((argIndex, k) => {
    const op = k < first.length ? first[k]! : shape.last !== undefined && k === operands.length - 1 && operands.length - first.length >= 2 ? shape.last : rest;
    const w = args[argIndex]!;
    if (op === 'none' || w.value === '-') return;
    let prefix = '';
    if (e.urlOperands && w.value !== undefined) {
      const local = localPathOfUrl(w.value);
      if (local === null) return;
      prefix = w.value.slice(0, w.value.length - local.length);
    }
    let accesses = argAccesses(w, op, name, prefix);
    // A symbolic link's target, judged from the directory the link is made in.
    if (linkDirs !== undefined && linkDirs !== 'cwd' && !(linkDirs.link !== undefined && argIndex === linkDirs.link)) accesses = accesses.flatMap((a) => fromLinkDirectories(a, linkDirs.dirs));
    append(out, recursive ? accesses.map((a) => ({ ...a, recursive: true as const })) : accesses);
  });
  return out;
}

/** git subcommands that print the content of files their operands name (see {@link gitContentReads}). */
const GIT_CONTENT_SHOWERS: ReadonlySet<string> = new Set(['show', 'cat-file', 'log', 'whatchanged', 'blame', 'annotate', 'diff-tree']);

/**
 * The files whose content `git SUB ARGS` prints, named outright (a shellward extension: facts for
 * `Read(…)` rules and the path checks): the path of an object name `REV:PATH` or `:PATH`/`:N:PATH`
 * (the index) in `git show`/`git cat-file` (https://git-scm.com/docs/gitrevisions, `<rev>:<path>`),
 * the pathspecs after `--` of `log`, `show`, `blame` …, and the file of `git blame`/`git annotate`
 * (its last operand). A `REV:PATH` path is relative to the repository's top, a `./`-path to the
 * current directory; both are resolved from the current directory here (the same file when the
 * command runs at the top). Content these commands print without naming a file (`git log -p`,
 * `git show HEAD`) is not listed.
 */
function gitContentReads(sub: string, args: readonly Word[]): PathAccess[] {
  if (!GIT_CONTENT_SHOWERS.has(sub)) return [];
  const out: PathAccess[] = [];
  const read = (w: Word, path: string): void => {
    if (path !== '') out.push({ path, static: true, operation: 'read', source: 'argument', command: `git ${sub}`, span: w.span, glob: false, extension: true });
  };
  const dash = args.findIndex((w) => w.value === '--');
  args.forEach((w, i) => {
    const v = w.value;
    if (v === undefined || v.startsWith('-')) return;
    if (dash !== -1 && i > dash) {
      read(w, v);
      return;
    }
    if (sub !== 'show' && sub !== 'cat-file') return;
    // `:PATH`, `:N:PATH` (index stage N), `REV:PATH`; not a URL-like `a://b`.
    const m = /^:(?:[0-3]:)?(.+)$/.exec(v) ?? (/^[^:/][^:]*:(?!\/\/)(.+)$/.exec(v) ?? undefined);
    if (m) read(w, m[1]!);
  });
  if ((sub === 'blame' || sub === 'annotate') && dash === -1) {
    const operands = args.filter((w) => w.value !== undefined && !w.value.startsWith('-'));
    const last = operands[operands.length - 1];
    if (last) read(last, last.value!);
  }
  return out;
}

/**
 * Where `ln -s` makes its links (GNU coreutils ln: a relative target is stored as written and
 * resolved from the link's directory when the link is followed,
 * https://www.gnu.org/software/coreutils/manual/html_node/ln-invocation.html): the `-t`
 * directory; else, with two or more operands, the last one (`link`, its index in `args`) — as
 * the link's parent directory, or as a directory the link is made in (always so with several
 * targets or a trailing `/`); `cwd` with one operand (the link is made in the cwd). A directory
 * that is not known before the command runs is `null`.
 */
function linkDirectories(options: readonly OptionOccurrence[], args: readonly Word[], operands: readonly number[]): 'cwd' | { readonly dirs: readonly (string | null)[]; readonly link?: number } {
  const t = options.find((o) => o.option === '-t');
  if (t) return { dirs: [typeof t.value === 'string' ? t.value : null] };
  if (operands.length < 2) return 'cwd';
  const link = operands[operands.length - 1]!;
  const v = args[link]!.value;
  if (v === undefined) return { dirs: [null], link };
  const parent = posix.dirname(v);
  return { dirs: operands.length > 2 || v.endsWith('/') ? [v] : [parent, v], link };
}

/**
 * `a` (a symbolic link's target) as the file it names from each of `dirs` (see
 * {@link linkDirectories}): an absolute target unchanged; a relative one joined to each
 * directory, or not static when the directory is not known.
 */
function fromLinkDirectories(a: PathAccess, dirs: readonly (string | null)[]): PathAccess[] {
  if (!a.static || a.path.startsWith('/') || a.path.startsWith('~')) return [a];
  return dirs.map((d) => (d === null ? { ...a, static: false } : d === '.' ? a : { ...a, path: `${d.replace(/\/+$/, '')}/${a.path}` }));
}

/**
 * git subcommands that write or delete work-tree files named by their operands (`git checkout
 * REV -- F`, `git restore F`, `git mv A B`, `git rm F`, `git checkout-index F`, `git clean -f F`
 * deletes F when untracked, `git stash push -- F` reverts it): a protected file among the
 * operands is a write of it.
 */
const GIT_WORKTREE_WRITERS: ReadonlySet<string> = new Set(['checkout', 'restore', 'mv', 'rm', 'checkout-index', 'switch', 'clean', 'stash']);

/**
 * How far the path rows cover the words of `name args` (see {@link unlistedPathAccesses}):
 * `covered` (every path word is in a row), `paths` (a partial row, or a git subcommand without
 * one: words that name a path outright still count), `words` (no row: any word may be a file
 * the program writes).
 */
function tableCoverage(name: string, args: readonly Word[]): 'covered' | 'paths' | 'words' {
  if (NO_PATH_OPERANDS.has(name)) return 'covered';
  const e = extractorFor(name);
  if (!e) return 'words';
  if (e.kind === 'getopt') return e.partial ? 'paths' : 'covered';
  if (e.kind === 'gitDiffNoIndex') {
    const at = gitSubcommandIndex(args);
    const sub = at === undefined ? undefined : args[at]!.value!;
    if (sub === 'diff' || sub === 'grep') return 'covered';
    if (sub !== undefined && GIT_WORKTREE_WRITERS.has(sub)) return 'words';
    const row = sub === undefined ? undefined : GIT_SUBCOMMANDS.get(sub);
    return row !== undefined && !row.partial ? 'covered' : 'paths';
  }
  return 'covered';
}

/** The home directory written as a variable at the start of a word: `$HOME/…`, `${HOME}…`. */
const HOME_VARIABLE = /^["']?\$(?:HOME\b|\{HOME\})/;

/**
 * Whether the text of a word names a path whatever the program does with it: absolute, `~…`, or
 * with a `..` component (which may leave the working directories).
 */
function pathLike(v: string): boolean {
  return v.startsWith('/') || v.startsWith('~') || v.split('/').includes('..');
}

/**
 * The words of a command whose program has no path row covering them (not in
 * rules/path-extractors.json, a row marked `partial`, or a git subcommand without a row) that
 * look like paths: a static argument that is absolute, starts with `~` or has a `..` component
 * (also as the value of `--opt=VALUE`, `-oVALUE` and `key=VALUE`), and a word that is not static
 * but starts with `/`, `~` or `$HOME` (marked `unlisted: 'path'`, operation `read`); and, for a
 * program with no row at all and for the git subcommands that write the files their operands
 * name (`checkout`, `restore`, `mv`, `rm` …), every other static word (`unlisted: 'word'`,
 * operation `write`). The caller judges them with {@link validatePath}: a `path` access that is
 * not inside cannot be checked before the command runs; a `word` access that resolves to a
 * protected file ({@link protectedPath}) may write it.
 * Redirections and the command word are not included. Linear in the words.
 */
export function unlistedPathAccesses(cmd: SimpleCommand): PathAccess[] {
  const resolved = resolveCommand(cmd);
  const coverage = resolved ? tableCoverage(resolved.name, resolved.args) : 'covered';
  if (!resolved || coverage === 'covered') return [];
  const { name, args } = resolved;
  const out: PathAccess[] = [];
  const mark = (a: PathAccess, kind: 'path' | 'word' = 'path'): PathAccess => ({ ...a, unlisted: kind });
  for (const w of args) {
    if (w.value === undefined) {
      const v = lead(w);
      if (v.startsWith('/') || v.startsWith('~') || HOME_VARIABLE.test(w.raw) || /^(?:-[^=]*|[A-Za-z_][A-Za-z0-9_]*)=["']?(?:\/|~|\$HOME\b|\$\{HOME\})/.test(w.raw)) out.push(mark(access(w, 'read', name)));
      continue;
    }
    const v = w.value;
    const candidates: { text: string; prefix: string }[] = [{ text: v, prefix: '' }];
    const eq = v.indexOf('=');
    if (v.startsWith('-') && eq > 0) candidates.push({ text: v.slice(eq + 1), prefix: v.slice(0, eq + 1) });
    else if (/^-[A-Za-z0-9]./.test(v) && !v.startsWith('--')) candidates.push({ text: v.slice(2), prefix: v.slice(0, 2) });
    else if (eq > 0 && /^[A-Za-z_][A-Za-z0-9_.-]*=/.test(v)) candidates.push({ text: v.slice(eq + 1), prefix: v.slice(0, eq + 1) });
    for (const c of candidates) {
      if (c.prefix === '' && v.startsWith('-')) continue;
      if (!pathLike(c.text) && coverage === 'words' && c.text !== '' && (c.prefix === '' || c.prefix.endsWith('='))) {
        // Any other word may name a file the program writes: judged against the protected files only.
        out.push(mark(access(w, 'write', name, 'argument', c.prefix), 'word'));
        continue;
      }
      if (!pathLike(c.text)) {
        // A brace alternative may be absolute (`{x,/etc/passwd}`).
        if (!c.text.includes('{')) continue;
        const alts = argAccesses(w, 'read', name, c.prefix).filter((a) => a.braceOverflow || pathLike(a.path));
        for (const a of alts) out.push(mark(a));
        continue;
      }
      for (const a of argAccesses(w, 'read', name, c.prefix)) if (a.braceOverflow || pathLike(a.path)) out.push(mark(a));
    }
  }
  return out;
}

function extractSed(e: Extract<Extractor, { kind: 'sed' }>, args: readonly Word[], name: string): PathAccess[] {
  const operation: PathOperation = e.readWhenAllowlisted && sedAllowed(args, { allowFileWrites: false }) ? 'read' : e.operation;
  const out: PathAccess[] = [];
  const operands: Word[] = [];
  let scriptGiven = false;
  let rest = false;
  // The backup suffix of `-iSUF` / `--in-place=SUF`: `null` when it is not static.
  let suffix: { text: string | null; word: Word } | undefined;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = lead(w);
    if (rest || !isOption(v)) {
      operands.push(w);
      continue;
    }
    if (v === '--') {
      rest = true;
      continue;
    }
    if (v.startsWith('--')) {
      const { name: opt, inline } = optionName(v);
      // `--in-place` and its unambiguous abbreviations (`--i`, `--in-pl`): sed has no other long option starting with `i`.
      if (inline && opt.length >= 3 && '--in-place'.startsWith(opt)) suffix = { text: w.value === undefined ? null : w.value.slice(w.value.indexOf('=') + 1), word: w };
      if (e.scriptOptions.includes(opt)) scriptGiven = true;
      if (e.scriptFileOptions.includes(opt)) {
        scriptGiven = true;
        if (inline) {
          append(out, argAccesses(w, 'read', name, `${opt}=`));
        } else if (i + 1 < args.length) append(out, argAccesses(args[++i]!, 'read', name));
        continue;
      }
      if (!inline && (e.scriptOptions.includes(opt) || e.valueOptions.includes(opt))) i++;
      continue;
    }
    // A short cluster, read as GNU sed does: `i` takes the rest as its suffix; `e`, `f`, `l`
    // take the rest of the cluster or the next argument.
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (c === 'i') {
        if (k + 1 < v.length) suffix = { text: w.value === undefined ? null : w.value.slice(k + 1), word: w };
        break;
      }
      const letter = `-${c}`;
      const isScript = e.scriptOptions.includes(letter);
      const isFile = e.scriptFileOptions.includes(letter);
      if (!isScript && !isFile && !e.valueOptions.includes(letter)) continue;
      if (isScript || isFile) scriptGiven = true;
      const attached = v.slice(k + 1);
      if (attached === '') {
        if (i + 1 < args.length) {
          i++;
          if (isFile) append(out, argAccesses(args[i]!, 'read', name));
        }
      } else if (isFile) {
        append(out, argAccesses(w, 'read', name, v.slice(0, k + 1)));
      }
      break;
    }
  }
  const files = scriptGiven ? operands : operands.slice(1);
  for (const w of files) append(out, argAccesses(w, operation, name));
  // GNU sed renames each input to its backup name: the suffix appended to the name, or, when the
  // suffix holds `*`, the suffix with every `*` replaced by the name as given (so `--in-place=/tmp/*`
  // and `-i'.git/*'` put the original elsewhere). GNU sed manual, "Command-Line Options", --in-place
  // (https://www.gnu.org/software/sed/manual/sed.html#Command_002dLine-Options); verified with sed 4.9.
  if (suffix !== undefined) {
    for (const w of files) {
      const text = suffix.text !== null && w.value !== undefined ? (suffix.text.includes('*') ? suffix.text.replaceAll('*', w.value) : w.value + suffix.text) : undefined;
      out.push(text !== undefined ? { path: text, static: true, operation: 'write', source: 'argument', command: name, span: suffix.word.span } : { path: suffix.word.raw, static: false, operation: 'write', source: 'argument', command: name, span: suffix.word.span });
    }
  }
  return out;
}

/** `git grep` options whose value is the next word (git-grep(1)). */
const GIT_GREP_VALUED: ReadonlySet<string> = new Set(['-e', '-f', '-A', '-B', '-C', '-m', '--max-count', '--max-depth', '--threads', '--context', '--after-context', '--before-context']);

/**
 * The files `git diff` and `git grep` may read, as reads. `git diff A B` run outside a work tree
 * compares the two paths as files, like `--no-index` ("when the command is run outside a working
 * tree controlled by Git", git-diff(1)), and inside one the operands are revisions or pathspecs
 * whose content it prints; which applies is not known here, so every operand is a read. `git grep`
 * operands after the pattern are revisions or pathspecs (with `--untracked`/`--no-index`, files).
 * https://git-scm.com/docs/git-diff https://git-scm.com/docs/git-grep
 */
function extractGitDiff(args: readonly Word[], name: string): PathAccess[] {
  const at = gitSubcommandIndex(args);
  const sub = at === undefined ? undefined : args[at]?.value;
  if (sub === 'diff') {
    // With `--no-index` the operands are compared as files or whole directories.
    const after = args.slice(at! + 1);
    const recursive = after.some((w) => w.value === '--no-index');
    return filterOutFlags(after)
      .flatMap((w) => argAccesses(w, 'read', name))
      .map((x) => (recursive ? { ...x, recursive: true as const } : x));
  }
  if (sub !== 'grep') return [];
  // A pathspec may name a directory, searched recursively.
  return gitGrepPathspecs(args.slice(at! + 1))
    .flatMap((w) => argAccesses(w, 'read', name))
    .map((x) => ({ ...x, recursive: true as const }));
}

/** Global options of git(1) whose value is the next word when not attached with `=`. */
const GIT_GLOBAL_VALUED: ReadonlySet<string> = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);

/**
 * The index in `args` (the words after `git`) of the subcommand word: the first word that is not
 * a global option or its value (`git -C dir --no-pager grep …` → 3); `undefined` when every word
 * is an option or a word is not known.
 */
function gitSubcommandIndex(args: readonly Word[]): number | undefined {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return undefined;
    if (!v.startsWith('-')) return i;
    if (GIT_GLOBAL_VALUED.has(v)) i++;
  }
  return undefined;
}

/**
 * The pathspec (or, with `--untracked`/`--no-index`, file) operands of `git grep`, given the words
 * after `grep`: every operand after the pattern, which is the first operand unless `-e`/`-f`/
 * `--and`/`--or`/`--not` gave it. Revisions among them count as paths too (over-approximation).
 */
function gitGrepPathspecs(args: readonly Word[]): Word[] {
  const operands: Word[] = [];
  let patternGiven = false;
  let rest = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = lead(w);
    if (rest || !v.startsWith('-')) operands.push(w);
    else if (v === '--') rest = true;
    else {
      if (v === '-e' || v === '-f' || /^-(?:e|f).|^--regexp?=|^--file=/.test(v) || v === '--and' || v === '--or' || v === '--not') patternGiven = true;
      if (GIT_GREP_VALUED.has(v)) {
        if (v === '-e' || v === '-f') patternGiven = true;
        i++;
      }
    }
  }
  return patternGiven ? operands : operands.slice(1);
}

const OUTPUT_OPERATORS = new Set(['>', '>|', '>>', '&>', '&>>', '>&', '<>']);
const EXEMPT_TARGET = /^(\/dev\/(null|stdout|stderr|fd\/\d+)|\d+-?|-)$/;

function redirectAccess(r: Redirect): PathAccess | undefined {
  if (!OUTPUT_OPERATORS.has(r.operator) || !r.target) return undefined;
  const t = r.target;
  // `>&2`, `2>&1`, `>&-`: a descriptor duplication, not a file.
  if (r.operator === '>&' && t.value !== undefined && /^(\d+-?|-)$/.test(t.value)) return undefined;
  if (t.value !== undefined && EXEMPT_TARGET.test(t.value) && (t.value.startsWith('/') || r.operator === '>&')) return undefined;
  return access(t, 'write', r.operator, 'redirect');
}

const PROTECTED_DIRS: ReadonlySet<string> = new Set(protectedTable.directories);
const PROTECTED_FILES: ReadonlySet<string> = new Set(protectedTable.files);
const PROTECTED_PREFIXES: readonly string[] = (protectedTable as { filePrefixes?: string[] }).filePrefixes ?? [];

/**
 * Whether writing `resolved` (an absolute path) is one of Claude Code's protected writes that ask
 * even in acceptEdits mode (rules/protected-paths.json; claude-code-reference.md §3.4.3 step 7.3): a segment names a
 * tool-configuration directory (`.git`, `.claude`, `.vscode`, `.idea`) or the base name is a shell
 * or tool dotfile (`.bashrc`, `.gitconfig`, `.mcp.json` …); shellward adds its own policy files
 * (`shellward.config.*`, `.shellwardrc*`, `package.json`) and files that run code later (`.husky/`,
 * `.github/`, `.gitattributes`, `.envrc`, `.npmrc`, `Makefile`, `.pre-commit-config.yaml`).
 */
export function protectedPath(resolved: string): boolean {
  // Compared without case: on case-insensitive file systems (macOS, Windows) `.GIT/hooks` is `.git/hooks`.
  const segments = resolved.toLowerCase().split('/').filter((x) => x !== '');
  if (segments.some((x) => PROTECTED_DIRS.has(x))) return true;
  const base = segments[segments.length - 1];
  return base !== undefined && (PROTECTED_FILES.has(base) || PROTECTED_PREFIXES.some((p) => base.startsWith(p)));
}

/**
 * {@link protectedPath}, or `resolved` lies in one of `ctx.protectedDirectories` (the repository's
 * `core.hooksPath` directory: a hook written there runs at the next `git commit`). Compared as
 * given and in lower case (case-insensitive file systems).
 */
export function protectedIn(resolved: string, ctx: PathContext | undefined): boolean {
  if (protectedPath(resolved)) return true;
  const lower = resolved.toLowerCase();
  return ctx?.protectedDirectories?.some((d) => isInside(resolved, d) || isInside(lower, d.toLowerCase())) ?? false;
}

/** Appends `items` to `out` one by one (a spread `push(...items)` overflows the stack past ~100 000 items). */
function append<T>(out: T[], items: readonly T[]): void {
  for (const x of items) out.push(x);
}

/**
 * claude-code-reference.md §3.4.4 extractors + output-redirection targets (write; /dev/null, /dev/stdout,
 * /dev/stderr, /dev/fd/N and fd duplications exempt) for one simple command. Wrappers stripped
 * via resolveCommand (src/parse/command-name.ts). Flag values are not skipped by
 * `filterOutFlags`: in `head -n 5 f` the `5` counts as a path, as in Claude Code. Also the
 * extension paths (`extension: true`, facts only): the rows of the extension extractors, option
 * values such as `grep -f FILE`, and each alternative of an argument's brace expansion (not of a
 * redirection target or a `cd` argument: bash refuses those with several words). Filter them
 * out to get exactly the paths Claude Code checks.
 *
 * Remembered per command object (a function of the command alone): the path check and the
 * permission decisions of one unit ask for the same commands. The array must not be modified.
 */
export function extractPaths(cmd: SimpleCommand): readonly PathAccess[] {
  let known = extracted.get(cmd);
  if (!known) {
    known = extractPathsOf(cmd);
    extracted.set(cmd, known);
  }
  return known;
}

const extracted = new WeakMap<SimpleCommand, readonly PathAccess[]>();

function extractPathsOf(cmd: SimpleCommand): PathAccess[] {
  const out: PathAccess[] = [];
  const resolved = resolveCommand(cmd);
  const e = resolved ? extractorFor(resolved.name) : undefined;
  if (resolved && e) {
    const { name, args, nameWord } = resolved;
    const start = out.length;
    switch (e.kind) {
      case 'allArgs':
        append(out, extractCd(args, e.skipOptions ?? [], name, nameWord));
        break;
      case 'filterOutFlags': {
        const ops = filterOutFlags(args).flatMap((w) => argAccesses(w, e.operation, name));
        if (ops.length === 0 && e.default !== undefined) ops.push(defaultAccess(e.default, e.operation, name, nameWord));
        append(out, ops);
        break;
      }
      case 'find':
        append(out, extractFind(e, args, name, nameWord));
        break;
      case 'tr':
        append(out, extractTr(e, args, name));
        break;
      case 'patternThenPaths':
        append(out, extractPattern(e, args, name, nameWord));
        break;
      case 'sed':
        append(out, extractSed(e, args, name));
        break;
      case 'gitDiffNoIndex':
        append(out, extractGitDiff(args, name));
        break;
      case 'operands':
        append(out, extractOperands(e, args, name, nameWord));
        break;
      case 'getopt':
        append(out, extractGetopt(e, args, name));
        break;
    }
    if (e.extension) for (let k = start; k < out.length; k++) out[k] = { ...out[k]!, extension: true };
    // `diff -r` compares directories recursively.
    if (name === 'diff' && args.some((w) => w.value !== undefined && (w.value === '--recursive' || /^-[A-Za-z]*[rR]/.test(w.value) && !w.value.startsWith('--')))) {
      for (let k = start; k < out.length; k++) out[k] = { ...out[k]!, recursive: true };
    }
  }
  // `git grep` searches the files of the working tree below the current directory (with
  // --untracked or --no-index untracked ones too): a recursive read of `.`, for Read() rules.
  // With pathspecs, only those are searched (each read above).
  const grepAt = resolved?.name === 'git' ? gitSubcommandIndex(resolved.args) : undefined;
  const gitRow = grepAt !== undefined ? GIT_SUBCOMMANDS.get(resolved!.args[grepAt]?.value ?? '') : undefined;
  if (gitRow) append(out, extractGetopt(gitRow, resolved!.args.slice(grepAt! + 1), `git ${resolved!.args[grepAt!]!.value}`).map((a) => ({ ...a, extension: true as const })));
  if (resolved && grepAt !== undefined && resolved.args[grepAt]?.value === 'grep' && gitGrepPathspecs(resolved.args.slice(grepAt + 1)).length === 0) {
    out.push({ ...defaultAccess('.', 'read', 'git', resolved.nameWord), recursive: true, extension: true });
  }
  if (resolved && grepAt !== undefined) append(out, gitContentReads(resolved.args[grepAt]!.value ?? '', resolved.args.slice(grepAt + 1)));
  // bash lists the directories a glob word walks before any program runs, whatever the program
  // does with the names (`echo ~/.ssh/*` lists `~/.ssh` as `ls ~/.ssh` does): a glob argument no
  // row above covers is a read of the directory before its first glob (the pattern is left out,
  // so its matches are not taken for files read). Only a glob that names a directory (a `/` or a
  // leading `~` before its first glob character): one without lists the working directory itself.
  if (resolved) {
    for (const w of resolved.args) {
      if (w.value === undefined || !wordGlob(w) || out.some((a) => a.span.start === w.span.start && a.span.end === w.span.end)) continue;
      const head = w.value.slice(0, Math.max(0, w.value.search(/[*?[]/)));
      if (!head.includes('/') && !head.startsWith('~')) continue;
      const { pattern: _pattern, ...listed } = access(w, 'read', resolved.name);
      out.push({ ...listed, extension: true });
    }
  }
  for (const r of cmd.redirects) {
    const a = redirectAccess(r);
    if (a) out.push(a);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Validation

const GLOB_CHARS = /[*?[\]{}]/;
/** Pseudo-devices that are not files: writing or reading them touches nothing on disk. */
const DEVICES = /^\/dev\/(null|zero|full|random|urandom|tty|stdin|stdout|stderr|fd\/\d+)$/;

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/** True when `p` is `dir` or below it (at a path-segment boundary). Both normalised and absolute. */
export function isInside(p: string, dir: string): boolean {
  const d = trimSlash(dir);
  return p === d || p.startsWith(d === '/' ? '/' : d + '/');
}

/** Symlinks followed in one resolution before giving up, as Linux's ELOOP limit (40). */
export const MAX_SYMLINK_HOPS = 40;

/** Most `..` components resolved one by one in a path (each costs a realpath); more is `unresolved`. */
const MAX_DOTDOT_WALK = 256;

/**
 * `p` with symlinks resolved through `host.realpath`: the deepest existing ancestor is resolved
 * and the rest appended (a path being created does not exist yet). Lexical `p` without a host.
 * `p` is absolute and normalised (no `..`). The first missing component, when it is a dangling
 * symlink ({@link PathHost.readlink}), is followed: writing through it creates its target.
 */
function realResolve(p: string, host: PathHost, hops = 0): string | undefined {
  // No file system resolves a path longer than PATH_MAX; walking its ancestors would cost
  // O(length²) (a realpath per segment), so such a path stays lexical.
  if (!host.realpath || p.length > PATH_MAX) return p;
  let head = p;
  const tail: string[] = [];
  for (;;) {
    const r = host.realpath(head);
    if (r !== undefined) {
      if (tail.length === 0) return r;
      const first = posix.join(r, tail[tail.length - 1]!);
      const link = host.readlink?.(first);
      if (link !== undefined) {
        if (hops >= MAX_SYMLINK_HOPS) return undefined;
        const rest = tail.slice(0, -1).reverse();
        return kernelResolve(posix.join(link.startsWith('/') ? link : posix.join(r, link), ...rest), host, hops + 1);
      }
      return posix.join(r, ...tail.reverse());
    }
    if (head === '/') return p;
    tail.push(posix.basename(head));
    head = posix.dirname(head);
  }
}

/**
 * The absolute path `raw` (not normalised: `..` still in it) as the kernel resolves it: component
 * by component, each symlink followed before the next `..` is applied, so `l/..` is the parent
 * of `l`'s target, not the directory holding `l`. `undefined` when that is not certain: a `..`
 * after a component that does not exist, more than {@link MAX_SYMLINK_HOPS} links, or more than
 * 256 `..` components. Without `host.realpath`, the lexical normalisation (as before).
 */
function kernelResolve(raw: string, host: PathHost, hops = 0): string | undefined {
  const parts = raw.split('/').filter((x) => x !== '' && x !== '.');
  const firstDotDot = parts.indexOf('..');
  if (!host.realpath || firstDotDot === -1) return realResolve(posix.normalize('/' + parts.join('/')), host, hops);
  if (parts.filter((x) => x === '..').length > MAX_DOTDOT_WALK || raw.length > PATH_MAX) return undefined;
  // Everything before the first `..` resolves at once.
  let current = firstDotDot === 0 ? (host.realpath('/') ?? '/') : host.realpath('/' + parts.slice(0, firstDotDot).join('/'));
  if (current === undefined) {
    // Something before the `..` does not exist (or is a dangling link): the kernel would fail or follow it.
    const before = realResolve('/' + parts.slice(0, firstDotDot).join('/'), host, hops);
    if (before === undefined || host.realpath(before) === undefined) return undefined;
    current = before;
  }
  for (let i = firstDotDot; i < parts.length; i++) {
    const name = parts[i]!;
    if (name === '..') {
      current = posix.dirname(current);
      continue;
    }
    const candidate = posix.join(current, name);
    const r = host.realpath(candidate);
    if (r !== undefined) {
      current = r;
      continue;
    }
    // The rest does not exist yet: certain only when no `..` follows (a path being created).
    const rest = parts.slice(i + 1);
    if (rest.includes('..')) return undefined;
    return realResolve(posix.join(candidate, ...rest), host, hops);
  }
  return current;
}

const DIRECTORIES = new WeakMap<PathContext, readonly string[]>();

/** The working directories of `ctx`, normalised, plus their symlink-resolved forms; computed once per context. */
function resolvedDirectories(ctx: PathContext): readonly string[] {
  const known = DIRECTORIES.get(ctx);
  if (known) return known;
  const dirs: string[] = [];
  for (const d of ctx.workingDirectories) {
    const n = trimSlash(posix.normalize(d.startsWith('/') || ctx.cwd === undefined ? d : posix.join(ctx.cwd, d)));
    dirs.push(n);
    const r = realResolve(n, ctx.host);
    if (r !== undefined && trimSlash(r) !== n) dirs.push(trimSlash(r));
  }
  DIRECTORIES.set(ctx, dirs);
  return dirs;
}

function stripQuotes(p: string): string {
  let s = p;
  if (s.length > 0 && (s[0] === '"' || s[0] === "'")) s = s.slice(1);
  if (s.length > 0 && (s.endsWith('"') || s.endsWith("'"))) s = s.slice(0, -1);
  return s;
}

/**
 * claude-code-reference.md §3.4.3 validatePath minus rules/modes: strip one quote each end (raw text of non-static
 * words only), `~` expansion, `~user`/`~+` → not allowed, `$`/`%`/leading `=` or any expansion
 * → not allowed (reason `variable`), globs (write/create → not allowed; read → the directory
 * before the first glob, or the whole path when it holds `..`), lexical resolution against
 * `ctx.cwd` (path.posix), then `host.realpath` when given, then inside `ctx.workingDirectories`
 * (prefix at a path-segment boundary) → allowed. A path is inside when both its lexical and
 * its symlink-resolved forms are inside some working directory (lexical or resolved), so a
 * symlink inside the project that points out of it is outside.
 */
/**
 * Whether the glob pattern of one path component `c` can match `..`. Only a pattern that starts
 * with a literal `.` matches names starting with a dot; then `.*`, `.?`, `.[!a]`, `..*` match `..`
 * in dash (Debian's sh), in bash before 5.2 and in bash 5.2 with `shopt -u globskipdots` (bash 5.2
 * skips `.` and `..` by default; https://www.gnu.org/software/bash/manual/html_node/The-Shopt-Builtin.html).
 * The shell that runs the command is not known, so such a component is taken as `..`.
 */
function mayMatchDotDot(c: string): boolean {
  if (!c.startsWith('.') || !/[*?[]/.test(c)) return false;
  let src = '';
  for (let i = 0; i < c.length; i++) {
    const ch = c[i]!;
    if (ch === '*') src += '.*';
    else if (ch === '?') src += '.';
    else if (ch === '[') {
      const close = c.indexOf(']', i + 2);
      if (close < 0) {
        src += '\\[';
        continue;
      }
      let body = c.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      // Whether the bracket expression may match `.`: a negated one unless it lists `.`; any other
      // unless it is a plain list of letters and digits without `.` (ranges and classes: assume it may).
      const plain = /^[A-Za-z0-9_]*$/.test(body);
      const dot = negated ? !body.includes('.') : !plain || body.includes('.');
      src += dot ? '\\.' : '[^\\s\\S]';
      i = close;
    } else src += ch.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${src}$`).test('..');
}

export function validatePath(a: PathAccess, ctx: PathContext): PathCheck {
  let matches: PathCheck['matches'];
  const result = (resolved: string | null, allowed: boolean, reason: PathReason): PathCheck => ({ ...a, resolved, allowed, reason, ...(matches ? { matches } : {}) });
  if (a.braceOverflow) return result(null, false, 'brace');
  let p = a.static ? a.path : stripQuotes(a.path);
  if (a.source === 'cd' && p === '-') return result(null, false, 'unknown-cwd');
  if (p === '~' || p.startsWith('~/')) {
    if (ctx.host.home === undefined) return result(null, false, 'variable');
    p = ctx.host.home + p.slice(1);
  }
  if (p.startsWith('~')) return result(null, false, 'tilde-user');
  if (hasDriveLetter(p)) {
    // A Windows drive path is absolute (Git Bash's `/c/…`), never a relative name; `C:foo`
    // depends on the drive's own current directory, which is not known.
    const posixForm = toPosixPath(p);
    if (posixForm === undefined) return result(null, false, 'unknown-cwd');
    p = posixForm;
  }
  if (!a.static || p.includes('$') || p.includes('%') || p.startsWith('=')) return result(null, false, 'variable');
  const glob = a.glob ?? GLOB_CHARS.test(p);
  if (glob && a.operation === 'read' && a.pattern !== undefined && ctx.host.list) {
    // What the glob can match on this machine: each match judged as the literal path would be.
    const expanded = expandedMatches(a, a.pattern, ctx);
    if (expanded?.outside) return { ...a, resolved: expanded.outside.resolved, allowed: false, reason: expanded.outside.reason };
    if (expanded) matches = expanded.matches;
  }
  if (glob) {
    if (a.operation !== 'read') return result(null, false, 'glob-write');
    p = p.split('/').map((c) => (mayMatchDotDot(c) ? '..' : c)).join('/');
    if (!p.split('/').includes('..')) {
      const first = p.search(a.glob === undefined ? GLOB_CHARS : /[*?[{]/);
      const before = first === -1 ? p : p.slice(0, first);
      const slash = before.lastIndexOf('/');
      p = slash === -1 ? '.' : before.slice(0, slash + 1) || '/';
    }
  }
  if (!p.startsWith('/') && ctx.cwd === undefined) return result(null, false, 'unknown-cwd');
  const lexical = trimSlash(p.startsWith('/') ? posix.normalize(p) : posix.join(ctx.cwd!, p));
  if (DEVICES.test(lexical)) return result(lexical, true, 'device');
  // As the kernel sees it: each symlink followed before the next `..` (`l/..` is the parent of l's target).
  const kernel = ctx.host.realpath ? kernelResolve(p.startsWith('/') ? p : `${ctx.cwd!}/${p}`, ctx.host) : lexical;
  if (kernel === undefined) return result(null, false, 'unresolved');
  const real = trimSlash(kernel);
  const dirs = resolvedDirectories(ctx);
  const inside = dirs.some((d) => isInside(lexical, d)) && dirs.some((d) => isInside(real, d));
  return result(real, inside, inside ? 'inside' : 'outside');
}

/**
 * The matches of glob read `a` (its escaped-form `pattern`, `~` expanded) on `ctx.host`
 * (src/analyses/bash-glob.ts), each validated as the literal path: the first one that is not
 * allowed as `outside`, else every match with its resolved form. `undefined` when the glob is not
 * expanded (no listing, a cap, a form not modelled, no match: the word is then judged from its
 * text, as without a listing).
 */
function expandedMatches(a: PathAccess, pattern: string, ctx: PathContext): { outside?: PathCheck; matches: NonNullable<PathCheck['matches']> } | undefined {
  const found = expandOnHost(pattern, ctx.cwd, ctx.host);
  if (found === undefined || found.length === 0) return undefined;
  const matches: { lexical: string; resolved: string; certain: boolean }[] = [];
  for (const m of found) {
    const c = validatePath({ path: m.path, static: true, operation: 'read', source: a.source, command: a.command, span: a.span, glob: false, ...(a.recursive ? { recursive: true as const } : {}) }, ctx);
    if (!c.allowed || c.resolved === null) return { outside: c, matches };
    matches.push({ lexical: trimSlash(m.path.startsWith('/') ? posix.normalize(m.path) : posix.join(ctx.cwd!, m.path)), resolved: c.resolved, certain: m.certain });
  }
  return { matches };
}

/** {@link expandGlob} of escaped-form `pattern` in `cwd` on `host` (`~/` expanded to its home); `undefined` when not expanded. */
function expandOnHost(pattern: string, cwd: string | undefined, host: PathHost): ReturnType<typeof expandGlob> {
  if (!host.list) return undefined;
  let pat = pattern;
  if (pat === '~' || pat.startsWith('~/')) {
    if (host.home === undefined) return undefined;
    pat = escapeGlob(host.home) + pat.slice(1);
  }
  if (pat.startsWith('~') || hasDriveLetter(pat)) return undefined;
  return expandGlob(pat, cwd, {
    list: (dir) => host.list!(dir),
    resolve: (path) => (host.realpath ? kernelResolve(path, host) : posix.normalize(path)),
  });
}

/**
 * Whether the static glob word `w` provably expands to no word starting with `-` when run in
 * each of `dirs` (the model's possible working directories; `undefined` or an unknown one → not
 * proven): its pattern does not start with a literal `-`, it can be expanded on `ctx.host` (no
 * brace expansion, a listing of every directory it walks, within the caps of
 * src/analyses/bash-glob.ts), and no name it may match — under any shell setting — starts with
 * `-`. (With no match the shell passes the pattern itself, or drops it with nullglob.) What a
 * listing shows holds only until something creates a file: the caller must know that nothing does
 * before the word is expanded.
 */
export function globSpellsNoOption(w: Word, dirs: readonly (string | undefined)[] | undefined, ctx: PathContext): boolean {
  if (!ctx.host.list || w.value === undefined || dirs === undefined || dirs.length === 0 || !wordGlob(w) || braceAlternatives(w) !== undefined) return false;
  const pattern = wordPattern(w, 0);
  if (pattern === undefined || pattern.startsWith('-') || pattern.startsWith('\\-')) return false;
  for (const d of dirs) {
    if (d === undefined) return false;
    const found = expandOnHost(pattern, d, ctx.host);
    if (found === undefined || found.some((m) => m.path.startsWith('-'))) return false;
  }
  return true;
}

/**
 * Whether a listing of the path host shows that the static glob word `w`, run in one of `dirs`,
 * may match a name starting with `-` (so it may spell options). `false` when it cannot be told
 * (no listing, a form not expanded): the caller keeps its judgement from the text.
 */
export function globListingShowsOption(w: Word, dirs: readonly (string | undefined)[] | undefined, ctx: PathContext): boolean {
  if (!ctx.host.list || w.value === undefined || dirs === undefined || !wordGlob(w)) return false;
  const pattern = wordPattern(w, 0);
  if (pattern === undefined) return false;
  return dirs.some((d) => d !== undefined && (expandOnHost(pattern, d, ctx.host)?.some((m) => m.path.startsWith('-')) ?? false));
}

// ---------------------------------------------------------------------------------------------
// Walking a unit

/**
 * One check of access `a` for a command that may run in any of `dirs` (`undefined`: not known):
 * the check itself when every directory gives the same answer (its `resolved` kept only when that
 * is the same too), else not allowed with reason `unknown-cwd` (where the path lands depends on
 * whether a `cd` before it succeeded or ran at all).
 */
function judgeIn(a: PathAccess, dirs: readonly string[] | undefined, contextOf: (cwd: string | undefined) => PathContext): PathCheck {
  if (dirs === undefined || dirs.length === 0) return validatePath(a, contextOf(undefined));
  const checks = dirs.map((d) => validatePath(a, contextOf(d)));
  const first = checks[0]!;
  if (checks.every((c) => c.reason === first.reason && c.allowed === first.allowed)) {
    return checks.every((c) => c.resolved === first.resolved) ? first : { ...first, resolved: null };
  }
  return { ...first, resolved: null, allowed: false, reason: 'unknown-cwd' };
}

/**
 * Every simple command's accesses of a parsed unit, validated, in document order. With
 * `trackCd`, each command's paths are resolved against the working directories the command model
 * gives it (src/model/working-directory.ts: `cd`/`pushd`/`popd` followed through lists,
 * branches, loops, subshells and function calls, a `cd` that may fail leaving the old directory
 * possible): a path is `inside` or `outside` only when it is so from every directory the command
 * may run in, else `unknown-cwd`; a relative path where the directory is not known is
 * `unknown-cwd` too. `options.model` is the unit's model when the caller built it with the same
 * start directory (`ctx.cwd`) and home; otherwise it is built here. Without `trackCd` every path
 * is resolved against `ctx.cwd` (Claude Code's view).
 */
export function unitPaths(parsed: ParsedScript, ctx: PathContext, options?: { readonly trackCd?: boolean; readonly model?: CommandModel }): PathCheck[] {
  const commands = parsed.commands;
  if (!options?.trackCd) return commands.flatMap((c) => extractPaths(c).map((a) => validatePath(a, ctx)));
  const model = options.model ?? buildModel(parsed, { ...(ctx.cwd !== undefined ? { cwd: ctx.cwd } : {}), home: ctx.host.home });
  const contexts = new Map<string | undefined, PathContext>();
  const contextOf = (cwd: string | undefined): PathContext => {
    let c = contexts.get(cwd);
    if (!c) {
      c = cwd === ctx.cwd ? ctx : { ...ctx, cwd };
      contexts.set(cwd, c);
    }
    return c;
  };
  const out: PathCheck[] = [];
  commands.forEach((c, k) => {
    const dirs = model.commands[k]?.cwd;
    for (const a of extractPaths(c)) out.push(judgeIn(a, dirs, contextOf));
  });
  return out;
}
