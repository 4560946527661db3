/**
 * Path validation (SPEC-bashtool.md §3.4): which paths a simple command touches (Claude Code's 36
 * PATH_EXTRACTORS, rules/path-extractors.json, plus output-redirection targets), how each one
 * resolves, and whether it stays inside the working directories. Pure: the file system is only
 * reached through an injected {@link PathHost} (`realpath`); without one, resolution is lexical.
 */
import { posix } from 'node:path';
import protectedTable from '../../rules/protected-paths.json' with { type: 'json' };
import table from '../../rules/path-extractors.json' with { type: 'json' };
import type { Span } from '../core/types.js';
import { resolveCommand } from '../parse/command-name.js';
import type { ParsedScript, Redirect, SimpleCommand } from '../parse/nodes.js';
import type { Word } from '../parse/words.js';
import { sedAllowed } from './sed.js';

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
}

/** Host facts for resolution. `realpath` returns the resolved path or undefined when it does not exist; absent → lexical only. */
export interface PathHost {
  readonly home: string;
  realpath?(path: string): string | undefined;
}

export interface PathContext {
  /** Absolute; `undefined` = unknown (after a dynamic cd). */
  readonly cwd: string | undefined;
  /** Absolute; cwd is NOT implied, the caller includes it. */
  readonly workingDirectories: readonly string[];
  readonly host: PathHost;
}

/**
 * Why a path is (not) allowed: `inside`/`outside` the working directories (established),
 * `variable` (an expansion, `%` or a leading `=`: unknown), `tilde-user` (`~user`, `~+` …),
 * `glob-write` (a glob written to), `unknown-cwd` (a relative path after a dynamic `cd`),
 * `device` (a pseudo-device such as `/dev/null`: allowed).
 */
export type PathReason = 'inside' | 'outside' | 'variable' | 'tilde-user' | 'glob-write' | 'unknown-cwd' | 'device';

export interface PathCheck extends PathAccess {
  /** The resolved absolute path that was judged; `null` when it cannot be known. */
  readonly resolved: string | null;
  readonly allowed: boolean;
  readonly reason: PathReason;
}

// ---------------------------------------------------------------------------------------------
// The extractor table

type Extractor =
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
    }
  | {
      readonly operation: PathOperation;
      readonly kind: 'sed';
      readonly readWhenAllowlisted?: boolean;
      readonly scriptOptions: readonly string[];
      readonly scriptFileOptions: readonly string[];
      readonly valueOptions: readonly string[];
    }
  | { readonly operation: PathOperation; readonly kind: 'gitDiffNoIndex' };

/** The extractor of each of the 36 commands (rules/path-extractors.json). */
export const PATH_EXTRACTORS: ReadonlyMap<string, Extractor> = new Map(
  Object.entries(table.commands as unknown as Record<string, Extractor>),
);

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

function access(w: Word, operation: PathOperation, command: string, source: PathAccess['source'] = 'argument'): PathAccess {
  return w.value !== undefined
    ? { path: w.value, static: true, operation, source, command, span: w.span, glob: wordGlob(w) }
    : { path: w.raw, static: false, operation, source, command, span: w.span };
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
  while (i < args.length && e.globalOptions.includes(lead(args[i]!))) i++;
  let roots = 0;
  for (; i < args.length; i++) {
    const v = lead(args[i]!);
    if (v === '--') {
      // After `--` every argument is a path (SPEC §3.4.4).
      for (const w of args.slice(i + 1)) out.push(access(w, e.operation, name));
      return out.length > 0 || e.default === undefined ? out : [defaultAccess(e.default, e.operation, name, nameWord)];
    }
    if (isOption(v) || FIND_ROOT_END.has(v)) break;
    out.push(access(args[i]!, e.operation, name));
    roots++;
  }
  for (; i < args.length; i++) {
    const v = lead(args[i]!);
    if (v === '--') {
      for (const w of args.slice(i + 1)) out.push(access(w, e.operation, name));
      break;
    }
    if ((e.pathValuedOptions.includes(v) || pattern?.test(v)) && i + 1 < args.length) {
      out.push(access(args[i + 1]!, e.operation, name));
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
    .map((w) => access(w, e.operation, name));
}

/** The option name of `--long=value`, or the token itself. */
function optionName(v: string): { name: string; inline: boolean } {
  const eq = v.startsWith('--') ? v.indexOf('=') : -1;
  return eq === -1 ? { name: v, inline: false } : { name: v.slice(0, eq), inline: true };
}

function extractPattern(e: Extract<Extractor, { kind: 'patternThenPaths' }>, args: readonly Word[], name: string, nameWord: Word): PathAccess[] {
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
    if (e.patternOptions.includes(opt)) patternGiven = true;
    if (e.recursiveOptions && (e.recursiveOptions.includes(opt) || /^-[A-Za-z]*[rR][A-Za-z]*$/.test(v))) recursive = true;
    if (!inline && e.valueOptions.includes(opt)) i += e.twoValueOptions?.includes(opt) ? 2 : 1;
  }
  const paths = patternGiven ? operands : operands.slice(1);
  const out = paths.map((w) => access(w, e.operation, name));
  if (out.length === 0) {
    const d = e.default ?? (recursive ? e.recursiveDefault : undefined);
    if (d !== undefined) out.push(defaultAccess(d, e.operation, name, nameWord));
  }
  return out;
}

function extractSed(e: Extract<Extractor, { kind: 'sed' }>, args: readonly Word[], name: string): PathAccess[] {
  const operation: PathOperation = e.readWhenAllowlisted && sedAllowed(args, { allowFileWrites: false }) ? 'read' : e.operation;
  const out: PathAccess[] = [];
  const operands: Word[] = [];
  let scriptGiven = false;
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
    if (v.startsWith('--')) {
      const { name: opt, inline } = optionName(v);
      if (e.scriptOptions.includes(opt)) scriptGiven = true;
      if (e.scriptFileOptions.includes(opt)) {
        scriptGiven = true;
        if (inline) {
          if (w.value !== undefined) out.push({ ...access(w, 'read', name), path: w.value.slice(w.value.indexOf('=') + 1) });
          else out.push(access(w, 'read', name));
        } else if (i + 1 < args.length) out.push(access(args[++i]!, 'read', name));
        continue;
      }
      if (!inline && (e.scriptOptions.includes(opt) || e.valueOptions.includes(opt))) i++;
      continue;
    }
    // A short cluster, read as GNU sed does: `i` takes the rest as its suffix; `e`, `f`, `l`
    // take the rest of the cluster or the next argument.
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (c === 'i') break;
      const letter = `-${c}`;
      const isScript = e.scriptOptions.includes(letter);
      const isFile = e.scriptFileOptions.includes(letter);
      if (!isScript && !isFile && !e.valueOptions.includes(letter)) continue;
      if (isScript || isFile) scriptGiven = true;
      const attached = v.slice(k + 1);
      if (attached === '') {
        if (i + 1 < args.length) {
          i++;
          if (isFile) out.push(access(args[i]!, 'read', name));
        }
      } else if (isFile) {
        out.push(w.value !== undefined ? { ...access(w, 'read', name), path: attached } : access(w, 'read', name));
      }
      break;
    }
  }
  const files = scriptGiven ? operands : operands.slice(1);
  for (const w of files) out.push(access(w, operation, name));
  return out;
}

function extractGitDiff(args: readonly Word[], name: string): PathAccess[] {
  if (args[0]?.value !== 'diff') return [];
  const after = args.slice(1);
  if (!after.some((w) => w.value === '--no-index')) return [];
  return filterOutFlags(after)
    .slice(0, 2)
    .map((w) => access(w, 'read', name));
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

/**
 * Whether writing `resolved` (an absolute path) is one of Claude Code's protected writes that ask
 * even in acceptEdits mode (rules/protected-paths.json; SPEC §3.4.3 step 7.3): a segment names a
 * tool-configuration directory (`.git`, `.claude`, `.vscode`, `.idea`) or the base name is a shell
 * or tool dotfile (`.bashrc`, `.gitconfig`, `.mcp.json` …).
 */
export function protectedPath(resolved: string): boolean {
  const segments = resolved.split('/').filter((x) => x !== '');
  if (segments.some((x) => PROTECTED_DIRS.has(x))) return true;
  const base = segments[segments.length - 1];
  return base !== undefined && PROTECTED_FILES.has(base);
}

/** Appends `items` to `out` one by one (a spread `push(...items)` overflows the stack past ~100 000 items). */
function append<T>(out: T[], items: readonly T[]): void {
  for (const x of items) out.push(x);
}

/**
 * SPEC §3.4.4 extractors + output-redirection targets (write; /dev/null, /dev/stdout,
 * /dev/stderr, /dev/fd/N and fd duplications exempt) for one simple command. Wrappers stripped
 * via resolveCommand (src/parse/command-name.ts). Flag values are not skipped by
 * `filterOutFlags`: in `head -n 5 f` the `5` counts as a path, as in Claude Code.
 */
export function extractPaths(cmd: SimpleCommand): PathAccess[] {
  const out: PathAccess[] = [];
  const resolved = resolveCommand(cmd);
  const e = resolved ? PATH_EXTRACTORS.get(resolved.name) : undefined;
  if (resolved && e) {
    const { name, args, nameWord } = resolved;
    switch (e.kind) {
      case 'allArgs':
        append(out, extractCd(args, e.skipOptions ?? [], name, nameWord));
        break;
      case 'filterOutFlags': {
        const ops = filterOutFlags(args).map((w) => access(w, e.operation, name));
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

/**
 * `p` with symlinks resolved through `host.realpath`: the deepest existing ancestor is resolved
 * and the rest appended (a path being created does not exist yet). Lexical `p` without a host.
 */
function realResolve(p: string, host: PathHost): string {
  if (!host.realpath) return p;
  let head = p;
  const tail: string[] = [];
  for (;;) {
    const r = host.realpath(head);
    if (r !== undefined) return tail.length === 0 ? r : posix.join(r, ...tail.reverse());
    if (head === '/') return p;
    tail.push(posix.basename(head));
    head = posix.dirname(head);
  }
}

function stripQuotes(p: string): string {
  let s = p;
  if (s.length > 0 && (s[0] === '"' || s[0] === "'")) s = s.slice(1);
  if (s.length > 0 && (s.endsWith('"') || s.endsWith("'"))) s = s.slice(0, -1);
  return s;
}

/**
 * SPEC §3.4.3 validatePath minus rules/modes: strip one quote each end (raw text of non-static
 * words only), `~` expansion, `~user`/`~+` → not allowed, `$`/`%`/leading `=` or any expansion
 * → not allowed (reason `variable`), globs (write/create → not allowed; read → the directory
 * before the first glob, or the whole path when it holds `..`), lexical resolution against
 * `ctx.cwd` (path.posix), then `host.realpath` when given, then inside `ctx.workingDirectories`
 * (prefix at a path-segment boundary) → allowed. A path is inside when both its lexical and
 * its symlink-resolved forms are inside some working directory (lexical or resolved), so a
 * symlink inside the project that points out of it is outside.
 */
export function validatePath(a: PathAccess, ctx: PathContext): PathCheck {
  const result = (resolved: string | null, allowed: boolean, reason: PathReason): PathCheck => ({ ...a, resolved, allowed, reason });
  let p = a.static ? a.path : stripQuotes(a.path);
  if (a.source === 'cd' && p === '-') return result(null, false, 'unknown-cwd');
  if (p === '~' || p.startsWith('~/')) p = ctx.host.home + p.slice(1);
  if (p.startsWith('~')) return result(null, false, 'tilde-user');
  if (!a.static || p.includes('$') || p.includes('%') || p.startsWith('=')) return result(null, false, 'variable');
  const glob = a.glob ?? GLOB_CHARS.test(p);
  if (glob) {
    if (a.operation !== 'read') return result(null, false, 'glob-write');
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
  const real = trimSlash(realResolve(lexical, ctx.host));
  const dirs: string[] = [];
  for (const d of ctx.workingDirectories) {
    const n = trimSlash(posix.normalize(d.startsWith('/') || ctx.cwd === undefined ? d : posix.join(ctx.cwd, d)));
    dirs.push(n);
    const r = trimSlash(realResolve(n, ctx.host));
    if (r !== n) dirs.push(r);
  }
  const inside = dirs.some((d) => isInside(lexical, d)) && dirs.some((d) => isInside(real, d));
  return result(real, inside, inside ? 'inside' : 'outside');
}

// ---------------------------------------------------------------------------------------------
// Walking a unit

/** Extent of a command in the text: its span and its redirections (those of a redirected_statement lie outside it). */
function extent(c: SimpleCommand): Span {
  let { start, end } = c.span;
  for (const r of c.redirects) {
    start = Math.min(start, r.span.start);
    end = Math.max(end, r.span.end, r.heredoc ? r.heredoc.bodySpan.end : 0);
  }
  return { start, end };
}

/** Text of `text[from, to)` with comments blanked out (`comments` sorted, as the views give them). */
function gapText(text: string, from: number, to: number, comments: readonly Span[]): string {
  let s = text.slice(from, to);
  // Binary search for the first comment that ends after `from`.
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comments[mid]!.end <= from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < comments.length && comments[i]!.start < to; i++) {
    const c = comments[i]!;
    const a = Math.max(c.start, from) - from;
    const b = Math.min(c.end, to) - from;
    s = s.slice(0, a) + ' '.repeat(b - a) + s.slice(b);
  }
  return s;
}

type GapToken = '(' | ')' | '|' | '&' | 'seq' | 'other';

/**
 * The shell syntax between two top-level commands, as tokens. Only `;`, `&&`, `||`, newlines,
 * `(`, `)`, `|`, `|&` and `&` are understood; anything else (`{`, keywords, `!`, assignments,
 * test brackets …) is `other`, after which the nesting is not known.
 */
function gapTokens(s: string): GapToken[] {
  const out: GapToken[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    const two = s.slice(i, i + 2);
    if (/\s/.test(c) || c === ';') i++;
    else if (two === '\\\n') i += 2;
    else if (two === '&&' || two === '||') {
      out.push('seq');
      i += 2;
    } else if (two === '|&') {
      out.push('|');
      i += 2;
    } else if (c === '(' || c === ')' || c === '|' || c === '&') {
      out.push(c);
      i++;
    } else {
      out.push('other');
      i++;
      while (i < s.length && !/[\s;&|()]/.test(s[i]!)) i++;
    }
  }
  return out;
}

const PATH_MAX = 4096;

/** The cwd a `cd` access leads to: a path, `null` for unknown. */
function cdTarget(a: PathAccess, cwd: string | undefined, home: string): string | null {
  if (!a.static || a.path === '-' || a.glob) return null;
  let p = a.path;
  if (p === '~' || p.startsWith('~/')) p = home + p.slice(1);
  if (p.startsWith('~') || p.includes('$') || p.includes('%') || p.startsWith('=')) return null;
  if (p === '') return cwd ?? null;
  if (!p.startsWith('/') && cwd === undefined) return null;
  // A relative cd may also go through CDPATH; scripts rarely set it, so it is ignored.
  const out = trimSlash(p.startsWith('/') ? posix.normalize(p) : posix.join(cwd!, p));
  // Longer than PATH_MAX: the cd fails on Linux; unknown (also bounds the work per path).
  return out.length > PATH_MAX ? null : out;
}

/**
 * Walks a parsed unit in order: every simple command's accesses validated. With `trackCd`, a
 * `cd` with a static target changes the cwd for the later commands; a dynamic cd (or `cd -`)
 * makes it unknown (reason `unknown-cwd` for later relative paths); `cd` with no arguments goes
 * home. Nesting is read from the syntax between top-level commands: a cd inside `( … )` ends with
 * it, a cd in a pipeline or run with `&` changes nothing, a cd inside `$( … )` or `sh -c '…'`
 * makes the cwd unknown for the rest of that command only, and a cd inside anything else (a
 * brace group, `if`, a loop, a function body, `eval` …) makes it unknown from there on — never
 * guessed. Without `trackCd` every path is resolved against `ctx.cwd` (Claude Code's view).
 */
export function unitPaths(parsed: ParsedScript, ctx: PathContext, options?: { readonly trackCd?: boolean }): PathCheck[] {
  const commands = parsed.commands;
  if (!options?.trackCd) return commands.flatMap((c) => extractPaths(c).map((a) => validatePath(a, ctx)));
  const home = ctx.host.home;
  const accesses = commands.map(extractPaths);
  const isCd = (k: number): boolean => accesses[k]!.some((a) => a.source === 'cd');
  const extents = commands.map(extent);
  const top: number[] = [];
  const embedded: number[] = [];
  commands.forEach((c, k) => (c.embedded ? embedded : top).push(k));
  /** The innermost top-level command whose extent holds span `s`. */
  const hostOf = (s: Span): number | undefined => {
    let best: number | undefined;
    for (const j of top) {
      const e = extents[j]!;
      if (e.start <= s.start && e.end >= s.end && (best === undefined || e.start >= extents[best]!.start)) best = j;
    }
    return best;
  };
  const embeddedHost = new Map<number, number | undefined>(embedded.map((k) => [k, hostOf(commands[k]!.span)]));
  /** Top-level commands that run a cd of embedded code in the current shell (`eval 'cd x'`). */
  const evalCd = new Set<number>();
  for (const k of embedded) {
    const h = embeddedHost.get(k);
    if (h !== undefined && isCd(k) && resolveCommand(commands[h]!)?.name === 'eval') evalCd.add(h);
  }

  const cwdAt = new Map<number, string | undefined>();
  /** The cwd at each `(` depth of the current statement; [0] is the unit level. */
  let stack: (string | undefined)[] = [ctx.cwd];
  let sticky = false; // the cwd is unknown for good
  let complex = false; // the statement so far has syntax not understood, so the nesting is unknown
  let statement = -1;
  let prevEnd = 0;
  /** While inside a top-level command that contains nested ones (`$( … )`): its end and the cwd after it. */
  let nested: { end: number; cwd: string | undefined } | undefined;
  const cwd = (): string | undefined => (sticky ? undefined : stack[stack.length - 1]);
  const setCwd = (v: string | undefined): void => {
    stack[stack.length - 1] = v;
  };
  for (let ti = 0; ti < top.length; ti++) {
    const k = top[ti]!;
    const nextTop = top[ti + 1];
    const c = commands[k]!;
    const ext = extents[k]!;
    const isNested = nested !== undefined && ext.start < nested.end;
    let gap: GapToken[] = [];
    if (!isNested) {
      if (nested) {
        setCwd(nested.cwd);
        nested = undefined;
      }
      if (c.statement !== statement) {
        statement = c.statement;
        complex = false;
        stack = [stack[0]];
        const st = parsed.statements[statement];
        if (st) prevEnd = Math.max(prevEnd, st.span.start);
      }
      gap = gapTokens(gapText(parsed.text, Math.min(prevEnd, ext.start), ext.start, parsed.comments));
      for (const t of gap) {
        if (t === 'other') complex = true;
        else if (t === '(') stack.push(cwd());
        else if (t === ')' && stack.length > 1) stack.pop();
      }
      prevEnd = Math.max(prevEnd, ext.end);
      if (nextTop !== undefined && extents[nextTop]!.start < ext.end) nested = { end: ext.end, cwd: undefined };
      else nested = undefined;
    }
    cwdAt.set(k, cwd());
    if (evalCd.has(k)) sticky = true;
    const cd = accesses[k]!.find((a) => a.source === 'cd');
    if (cd) {
      if (isNested) {
        // A cd in `$( … )` (a subshell): unknown for the rest of the enclosing command only.
        setCwd(undefined);
      } else {
        // A cd next to `|` or followed by `&` runs in a subshell of its own.
        const afterEnd = nextTop !== undefined ? Math.min(extents[nextTop]!.start, parsed.text.length) : (parsed.statements[statement]?.span.end ?? parsed.text.length);
        const after = gapTokens(gapText(parsed.text, ext.end, Math.max(ext.end, afterEnd), parsed.comments));
        if (gap[gap.length - 1] === '|' || after[0] === '|' || after[0] === '&') {
          // no effect
        } else if (complex) sticky = true;
        else setCwd(cdTarget(cd, cwd(), home) ?? undefined);
      }
    }
    // The cwd after a command holding nested ones is its own effect, whatever the nested did.
    if (nested && !isNested) nested.cwd = cwd();
  }

  // Embedded code (`sh -c '…'`) runs where its host runs, until a cd of its own.
  const cdSeen = new Set<number>();
  for (const k of embedded) {
    const h = embeddedHost.get(k);
    cwdAt.set(k, h === undefined || cdSeen.has(h) ? undefined : cwdAt.get(h));
    if (h !== undefined && isCd(k)) cdSeen.add(h);
  }
  const out: PathCheck[] = [];
  commands.forEach((_c, k) => {
    const here: PathContext = { ...ctx, cwd: cwdAt.get(k) };
    for (const a of accesses[k]!) out.push(validatePath(a, here));
  });
  return out;
}
