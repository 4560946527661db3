/**
 * `Read(…)` and `Edit(…)` permission rules applied to the paths a Bash command reads and writes,
 * as Claude Code's path validation does: a read of a path a `Read` deny rule names is denied, a
 * write or create of a path an `Edit` deny rule names is denied, ask rules ask, and an allow rule
 * lets a path outside the working directories pass the path constraint
 * (https://code.claude.com/docs/en/permissions, "Read & Edit").
 *
 * The rule content follows the gitignore specification (https://git-scm.com/docs/gitignore) with
 * four anchors: `//path` is absolute, `~/path` is under the home directory, `/path` is relative
 * to the project the settings file belongs to (the directory holding `.claude/`, or the config
 * file's own directory), and `path` or `./path` is relative to the working directory. A pattern
 * with no slash but a trailing one matches a name at any depth; a pattern that names a directory
 * also names everything inside it.
 *
 * Deliberate choices, in the safe direction: deny and ask rules match a path in its lexical and
 * its symlink-resolved form; a glob operand (`cat ~/.ssh/*`) that may expand to a path a deny or
 * ask rule names is asked about (it cannot be proven either way before it runs); allow rules
 * match only fully known paths. Pure; never throws.
 */
import { posix } from 'node:path';
import picomatch from 'picomatch';
import type { PathCheck } from '../analyses/paths.js';
import type { PermissionRule } from './parse.js';

/** Where relative rule patterns and `~` resolve: absolute directories, `undefined` when unknown. */
export interface FileRuleBases {
  /** The working directory (`path`, `./path`; also `/path` when the rule's file is not known). */
  readonly cwd: string | undefined;
  /** The home directory (`~/path`). */
  readonly home: string | undefined;
}

/** How a file rule relates to one path access. */
export type FileRuleMatch = { readonly rule: PermissionRule; readonly certain: boolean };

interface Compiled {
  readonly base: string;
  readonly pattern: string;
  readonly test: (relative: string) => boolean;
  /** The pattern's literal directory prefix (before its first glob character), absolute. */
  readonly literal: string;
}

const GLOB = /[*?[\]{}]/;
const cache = new Map<string, ((relative: string) => boolean) | undefined>();

function matcher(pattern: string): ((relative: string) => boolean) | undefined {
  if (cache.has(pattern)) return cache.get(pattern);
  let m: ((relative: string) => boolean) | undefined;
  try {
    // gitignore: a pattern without a slash (a trailing one aside) matches a name at any depth.
    const trimmed = pattern.replace(/\/+$/, '');
    const anywhere = !trimmed.includes('/');
    const test = picomatch(anywhere ? `**/${trimmed}` : trimmed.replace(/^\/+/, ''), { dot: true });
    m = (rel) => test(rel);
  } catch {
    m = undefined;
  }
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, m);
  return m;
}

/** The project a rule's file belongs to: the parent of a `.claude/` directory, else the file's own directory. */
function projectOf(rule: PermissionRule): string | undefined {
  const file = rule.origin.file;
  if (!file.startsWith('/')) return undefined;
  const dir = posix.dirname(file);
  return posix.basename(dir) === '.claude' ? posix.dirname(dir) : dir;
}

/** The last compilation of each rule, with the bases it was made for (rules live as long as their policy). */
const COMPILED = new WeakMap<PermissionRule, { readonly cwd: string | undefined; readonly home: string | undefined; readonly compiled: Compiled | undefined }>();

/** {@link compileRule}, once per rule and bases. */
function compile(rule: PermissionRule, bases: FileRuleBases): Compiled | undefined {
  const known = COMPILED.get(rule);
  if (known && known.cwd === bases.cwd && known.home === bases.home) return known.compiled;
  const compiled = compileRule(rule, bases);
  COMPILED.set(rule, { cwd: bases.cwd, home: bases.home, compiled });
  return compiled;
}

function compileRule(rule: PermissionRule, bases: FileRuleBases): Compiled | undefined {
  const content = rule.content;
  if (content === undefined || content === '') return undefined;
  let base: string | undefined;
  let pattern: string;
  if (content.startsWith('//')) {
    base = '/';
    pattern = content.slice(2);
  } else if (content === '~' || content.startsWith('~/')) {
    base = bases.home;
    pattern = content.slice(2);
  } else if (content.startsWith('/')) {
    base = projectOf(rule) ?? bases.cwd;
    pattern = content.slice(1);
  } else {
    base = bases.cwd;
    pattern = content.startsWith('./') ? content.slice(2) : content;
  }
  if (base === undefined) return undefined;
  if (pattern === '' || pattern === '**' || pattern === '**/*') pattern = '**';
  const test = matcher(pattern);
  if (!test) return undefined;
  const g = pattern.search(GLOB);
  const head = g === -1 ? pattern : pattern.slice(0, g);
  const literal = posix.join(base, head.includes('/') || g === -1 ? head.slice(0, head.lastIndexOf('/') + 1) || head : '');
  return { base, pattern, test, literal: literal.replace(/(.)\/+$/, '$1') };
}

/** Whether the absolute `path` or a directory above it (up to the rule's base) is named by `c`. */
function names(c: Compiled, path: string): boolean {
  const rel = posix.relative(c.base, path);
  if (rel.startsWith('..') || posix.isAbsolute(rel)) return false;
  if (rel === '') return c.pattern === '**';
  const parts = rel.split('/');
  for (let i = parts.length; i >= 1; i--) if (c.test(parts.slice(0, i).join('/'))) return true;
  return c.pattern === '**';
}

/** `p.path` made absolute (tilde expanded), unresolved; `undefined` when it cannot be. */
function lexicalPath(p: PathCheck, bases: FileRuleBases): string | undefined {
  if (!p.static) return undefined;
  let raw = p.path;
  if ((raw === '~' || raw.startsWith('~/')) && bases.home !== undefined) raw = bases.home + raw.slice(1);
  if (raw.startsWith('/')) return posix.normalize(raw).replace(/(.)\/+$/, '$1');
  if (bases.cwd !== undefined && !raw.startsWith('~')) return posix.join(bases.cwd, raw).replace(/(.)\/+$/, '$1');
  return undefined;
}

/** The absolute forms of a known access worth matching: its symlink-resolved path and its lexical one. */
function forms(p: PathCheck, bases: FileRuleBases): string[] {
  const out: string[] = [];
  if (p.resolved !== null) out.push(p.resolved.replace(/(.)\/+$/, '$1'));
  const lexical = lexicalPath(p, bases);
  if (lexical !== undefined) out.push(lexical);
  return out;
}

/**
 * Whether the glob access `p` may expand to a path `c` names. With a rule pattern free of glob
 * characters this is decided by matching the access's glob (bash's rules: `*` and `?` skip a
 * leading dot) against the rule's path; with a glob in both, an overlap of their literal
 * directories is enough (not provable either way).
 */
function globMayReach(c: Compiled, p: PathCheck, bases: FileRuleBases): boolean {
  const dir = p.resolved;
  const glob = lexicalPath(p, bases);
  if (dir === null || glob === undefined) return true;
  // Everything the glob expands to lies below its literal directory: a rule naming that directory names them.
  if (names(c, `${dir === '/' ? '' : dir}/x`) && !GLOB.test(c.pattern)) return true;
  const anywhereGlob = !c.pattern.replace(/\/+$/, '').includes('/') && GLOB.test(c.pattern);
  if (anywhereGlob) {
    // `*.pem` at any depth against `src/*.py`: the glob's own name patterns must be able to meet it.
    const name = c.pattern.replace(/\/+$/, '');
    return glob.includes('**') || glob.split('/').some((part) => GLOB.test(part) && mayIntersect(part, name));
  }
  if (GLOB.test(c.pattern)) return c.literal === dir || c.literal.startsWith(`${dir === '/' ? '' : dir}/`) || dir.startsWith(`${c.literal === '/' ? '' : c.literal}/`) || names(c, `${dir === '/' ? '' : dir}/x`);
  const expands = picomatch(glob, { dot: false });
  const anywhere = !c.pattern.replace(/\/+$/, '').includes('/');
  if (!anywhere) {
    // The rule's path, or a file inside it when it is a directory.
    const target = posix.join(c.base, c.pattern);
    return expands(target) || expands(`${target}/x`) || target.startsWith(`${dir === '/' ? '' : dir}/`) && glob.split('/').includes('**');
  }
  // A name at any depth below the base: a component of the glob that can be that name.
  const name = c.pattern.replace(/\/+$/, '');
  return glob.split('/').some((part) => GLOB.test(part) && picomatch(part, { dot: false })(name)) || glob.includes('**');
}

/**
 * Whether a recursive read of `p` (`grep -r`, `diff -r`) may read a path `c` names: the files
 * below a directory cannot be listed here, so the test is whether the rule's pattern can name
 * anything below it. A pattern that matches a name at any depth (`.env`) can, for any directory
 * that overlaps the rule's base; an anchored one (`secrets/**`) only when its literal directory
 * and the read directory overlap (one contains the other). An unknown path may hold anything.
 */
function subtreeMayHold(c: Compiled, p: PathCheck, bases: FileRuleBases): boolean {
  const dirs = forms(p, bases);
  if (dirs.length === 0) return true;
  const overlap = (a: string, b: string): boolean => a === b || a.startsWith(`${b === '/' ? '' : b}/`) || b.startsWith(`${a === '/' ? '' : a}/`);
  const anywhere = !c.pattern.replace(/\/+$/, '').includes('/');
  return dirs.some((d) => (anywhere ? overlap(d, c.base) : overlap(d, c.literal)));
}

/**
 * Whether two glob names may match one string: false only when their literal prefixes (before
 * the first glob character) or literal suffixes (after the last) cannot both hold. Sound: every
 * match of a glob starts with its prefix and ends with its suffix.
 */
function mayIntersect(a: string, b: string): boolean {
  const affixes = (g: string): [string, string] => {
    const first = g.search(GLOB);
    let last = -1;
    for (let i = 0; i < g.length; i++) if (GLOB.test(g[i]!)) last = i;
    return first === -1 ? [g, g] : [g.slice(0, first), g.slice(last + 1)];
  };
  const [pa, sa] = affixes(a);
  const [pb, sb] = affixes(b);
  return (pa.startsWith(pb) || pb.startsWith(pa)) && (sa.endsWith(sb) || sb.endsWith(sa));
}

function isGlob(p: PathCheck): boolean {
  return p.glob ?? GLOB.test(p.path);
}

/** The tool whose rules govern an access: `Read` for reads, `Edit` for writes and creates. */
export function fileToolFor(p: PathCheck): 'Read' | 'Edit' {
  return p.operation === 'read' ? 'Read' : 'Edit';
}

/** The file rules of `rules` whose tool governs `p`, in order, each with its compiled pattern (a rule that compiles to nothing is left out). */
function* governing(rules: readonly PermissionRule[], p: PathCheck, bases: FileRuleBases): Generator<readonly [PermissionRule, Compiled]> {
  const tool = fileToolFor(p);
  for (const rule of rules) {
    if (rule.toolName !== tool || rule.bash !== undefined) continue;
    const c = compile(rule, bases);
    if (c) yield [rule, c];
  }
}

/**
 * The first rule of `rules` (a deny or ask list) whose tool governs `p` and that names it:
 * `certain` when a known path matches (or a name the glob `p` matches under every shell setting,
 * when it was expanded on the path host: {@link PathCheck.matches}), `certain: false` when `p` is
 * a glob whose expansion may reach what the rule names (one of its possible matches, or its
 * directory is inside the rule's literal prefix or around it).
 * `undefined` when no rule applies.
 */
export function restrictingFileRule(rules: readonly PermissionRule[], p: PathCheck, bases: FileRuleBases): FileRuleMatch | undefined {
  let fs: string[] | undefined;
  for (const [rule, c] of governing(rules, p, bases)) {
    // A glob expanded on this machine: each name it may match, as a literal path would be judged
    // (certain only for a name it matches under every shell setting).
    const hit = p.matches?.find((m) => names(c, m.resolved) || names(c, m.lexical));
    if (hit) return { rule, certain: hit.certain };
    fs ??= forms(p, bases);
    if (fs.some((f) => names(c, f))) return { rule, certain: !isGlob(p) };
    if (isGlob(p) && globMayReach(c, p, bases)) return { rule, certain: false };
    if (p.recursive && p.operation === 'read' && subtreeMayHold(c, p, bases)) return { rule, certain: false };
  }
  return undefined;
}

/**
 * The first allow rule of `rules` whose tool governs `p` and that names its known, resolved path
 * (a glob or an unresolved path never matches); `undefined` otherwise.
 */
export function permittingFileRule(rules: readonly PermissionRule[], p: PathCheck, bases: FileRuleBases): PermissionRule | undefined {
  if (p.resolved === null || isGlob(p) || !p.static) return undefined;
  let fs: string[] | undefined;
  for (const [rule, c] of governing(rules, p, bases)) {
    fs ??= forms(p, bases);
    if (fs.every((f) => names(c, f))) return rule;
  }
  return undefined;
}
