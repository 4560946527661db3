/**
 * What a branch changed (I/O edge, for `shellward lint --changed` and the Action on
 * `pull_request`): the files and the line ranges that `head` adds or changes relative to the
 * merge base of `base` and `head` — what a pull request shows. git runs through execa with argv
 * arrays (never a shell string), with `core.quotepath=false`, `-z` where git offers it, explicit
 * `a/`/`b/` prefixes and no external diff or textconv drivers, so user configuration cannot
 * change what is parsed. {@link onChangedLines} is pure.
 */
import { execa } from 'execa';
import type { Diagnostic } from '../core/types.js';

/** Options of {@link changedFiles} and {@link changedLines}. */
export interface ChangedOptions {
  /** A directory inside the work tree; git runs there. */
  readonly cwd: string;
  /** The ref the change is compared with (a branch, tag or commit: `origin/main`, a PR's base SHA). */
  readonly base: string;
  /** The changed ref (default `HEAD`). */
  readonly head?: string;
  /**
   * `base` is already the exact commit to compare with (the Action's merge-commit parent or a
   * merge base it computed): diff `base..head` without taking their merge base, which a shallow
   * clone may not be able to compute.
   */
  readonly exact?: boolean;
}

/** A 1-based inclusive line range `[start, end]`. */
export type LineRange = readonly [start: number, end: number];

/** Changed line ranges per repository-relative path. */
export type ChangedLines = ReadonlyMap<string, ReadonlyArray<LineRange>>;

/** Raised when git fails: a ref that does not resolve, no merge base, not a repository. */
export class GitChangeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GitChangeError';
  }
}

/** Prefix-independent, config-independent `git` options for every command here. */
const GIT_CONFIG = ['-c', 'core.quotepath=false', '-c', 'diff.noprefix=false', '-c', 'diff.mnemonicPrefix=false', '-c', 'diff.relative=false'];

const MAX_BUFFER = 512 * 1024 * 1024;

async function git(cwd: string, args: readonly string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  const r = await execa('git', [...GIT_CONFIG, ...args], { cwd, reject: false, stripFinalNewline: false, maxBuffer: MAX_BUFFER });
  return { ok: r.exitCode === 0 && !r.failed, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '').trim() };
}

/** The commit `ref` names, or a clear error naming it (a shallow clone is the usual cause in CI). */
async function resolveCommit(cwd: string, ref: string, role: 'base' | 'head'): Promise<string> {
  if (ref === '' || ref.startsWith('-')) throw new GitChangeError(`${role} ref ${JSON.stringify(ref)} is not a valid ref`);
  const r = await git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!r.ok) {
    const inside = await git(cwd, ['rev-parse', '--is-inside-work-tree']);
    if (!inside.ok) throw new GitChangeError(`not inside a git work tree (${cwd})`);
    throw new GitChangeError(
      `${role} ref ${JSON.stringify(ref)} does not resolve to a commit; fetch it first (in GitHub Actions, check out with \`fetch-depth: 0\`)`,
    );
  }
  return r.stdout.trim();
}

/** `[mergeBase, head]` as commit ids. */
async function range(options: ChangedOptions): Promise<[string, string]> {
  const head = await resolveCommit(options.cwd, options.head ?? 'HEAD', 'head');
  const base = await resolveCommit(options.cwd, options.base, 'base');
  if (options.exact) return [base, head];
  const mb = await git(options.cwd, ['merge-base', base, head]);
  if (!mb.ok) {
    throw new GitChangeError(
      `no merge base of ${JSON.stringify(options.base)} and ${JSON.stringify(options.head ?? 'HEAD')} (a shallow clone? in GitHub Actions, check out with \`fetch-depth: 0\`)`,
    );
  }
  return [mb.stdout.trim(), head];
}

/** Options of `git diff` that make its output independent of the user's configuration. */
const DIFF_OPTIONS = ['--no-color', '--no-ext-diff', '--no-textconv', '-M', '--src-prefix=a/', '--dst-prefix=b/', '--diff-filter=ACMR'];

/**
 * Repo-relative paths (forward slashes) of files added, copied, modified or renamed (the new
 * name) between merge-base(base, head) and head; head defaults to `HEAD`. Deleted files are not
 * included; binary files are. Sorted, without duplicates. Throws {@link GitChangeError} naming
 * the ref when a ref does not resolve (e.g. a shallow clone: check out with `fetch-depth: 0`).
 */
export async function changedFiles(options: ChangedOptions): Promise<string[]> {
  const [mb, head] = await range(options);
  return namesBetween(options.cwd, mb, head);
}

async function namesBetween(cwd: string, mb: string, head: string): Promise<string[]> {
  const r = await git(cwd, ['diff', '--name-only', '-z', ...DIFF_OPTIONS, mb, head, '--']);
  if (!r.ok) throw new GitChangeError(`git diff failed: ${r.stderr}`);
  return [...new Set(r.stdout.split('\0').filter((f) => f !== ''))].sort();
}

/**
 * Parses `git diff --numstat -z` output: the paths (new names) of binary files (`-\t-\t`), which
 * have no hunks.
 */
export function binaryFromNumstat(out: string): string[] {
  const fields = out.split('\0');
  const binary: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(f);
    if (!m) continue;
    let path = m[3]!;
    // A rename or copy: `added\tdeleted\t\0old\0new\0`.
    if (path === '') {
      path = fields[i + 2] ?? '';
      i += 2;
    }
    if (m[1] === '-' && m[2] === '-' && path !== '') binary.push(path);
  }
  return binary;
}

/**
 * Undoes git's C-style quoting of a path in a patch header (`"a\tb\303\274"`): `\a \b \t \n \v
 * \f \r \" \\` and octal escapes of bytes (UTF-8 sequences). An unquoted path is returned as is.
 */
export function unquoteGitPath(s: string): string {
  if (!(s.length >= 2 && s.startsWith('"') && s.endsWith('"'))) return s;
  const simple: Readonly<Record<string, number>> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  const bytes: number[] = [];
  const body = s.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    const oct = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (oct) {
      bytes.push(parseInt(oct[0], 8));
      i += 3;
    } else if (next in simple) {
      bytes.push(simple[next]!);
      i += 1;
    } else {
      bytes.push(92);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Parses a `git diff -U0` patch (with `a/`/`b/` prefixes) into the added or changed line ranges
 * of each new file: from each hunk header `@@ -a[,b] +c[,d] @@`, `[c, c+d-1]` (d defaults to 1;
 * d = 0 means lines were only removed, so nothing is added). Deleted files (`+++ /dev/null`) get
 * no entry.
 */
export function parseUnifiedZero(patch: string): Map<string, Array<[number, number]>> {
  const out = new Map<string, Array<[number, number]>>();
  let current: string | undefined;
  // Between `diff --git` and the first hunk: header lines. In a hunk every line starts with
  // ` `, `+`, `-` or `\`, so an added line `++ x` (`+++ x`) is not a header.
  let header = false;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      current = undefined;
      header = true;
    } else if (header && line.startsWith('+++ ')) {
      const raw = unquoteGitPath(line.slice(4).replace(/\t$/, ''));
      current = raw.startsWith('b/') ? raw.slice(2) : undefined;
      if (current !== undefined && !out.has(current)) out.set(current, []);
    } else if (line.startsWith('@@ ') && (header || current !== undefined)) {
      header = false;
      if (current === undefined) continue;
      const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!m) continue;
      const start = Number(m[1]);
      const count = m[2] === undefined ? 1 : Number(m[2]);
      if (count > 0) out.get(current)!.push([start, start + count - 1]);
    }
  }
  return out;
}

/**
 * 1-based inclusive `[start, end]` line ranges added or changed in head, per repo-relative file
 * (from `git diff -U0 --no-color --no-ext-diff merge-base head`), parsed from the hunk headers
 * `@@ -a,b +c,d @@` (d = 0: no added lines). A file changed only by a rename or a mode change has
 * an empty list; a binary file counts as changed everywhere (`[1, Infinity]`); deleted files
 * have no entry. Throws like {@link changedFiles}.
 */
export async function changedLines(options: ChangedOptions): Promise<Map<string, Array<[number, number]>>> {
  const [mb, head] = await range(options);
  const patch = await git(options.cwd, ['diff', '-U0', ...DIFF_OPTIONS, mb, head, '--']);
  if (!patch.ok) throw new GitChangeError(`git diff failed: ${patch.stderr}`);
  const parsed = parseUnifiedZero(patch.stdout);
  // Every changed file gets an entry, in path order: pure renames and new empty files have no `+++` line.
  const out = new Map<string, Array<[number, number]>>();
  for (const name of await namesBetween(options.cwd, mb, head)) out.set(name, parsed.get(name) ?? []);
  const numstat = await git(options.cwd, ['diff', '--numstat', '-z', ...DIFF_OPTIONS, mb, head, '--']);
  if (!numstat.ok) throw new GitChangeError(`git diff failed: ${numstat.stderr}`);
  for (const path of binaryFromNumstat(numstat.stdout)) if (out.has(path)) out.set(path, [[1, Number.POSITIVE_INFINITY]]);
  return out;
}

/** The last line a diagnostic covers: its end line, or the line before when it ends at column 1 of a later line. */
function lastLine(d: Diagnostic): number {
  const { start, end } = d.range;
  return end.line > start.line && end.column <= 1 ? end.line - 1 : Math.max(start.line, end.line);
}

/**
 * Pure: the diagnostics (of one file) whose line range overlaps a changed range of their file.
 * The file is looked up as `file` when given (the displayed, repository-relative path of a
 * `FileResult`), else as each diagnostic's own `file`. A file without an entry has no changed
 * lines, so nothing of it is kept.
 */
export function onChangedLines(diagnostics: readonly Diagnostic[], changed: ChangedLines, file?: string): Diagnostic[] {
  return diagnostics.filter((d) => {
    const ranges = changed.get(file ?? d.file);
    if (!ranges) return false;
    const first = d.range.start.line;
    const last = lastLine(d);
    return ranges.some(([a, b]) => first <= b && last >= a);
  });
}

/**
 * The default base for `--changed`: the branch `origin/HEAD` points at (`origin/main`), else the
 * first of `main`, `master`, `origin/main`, `origin/master` that resolves. `undefined` when none
 * does. `cwd` is inside the work tree.
 */
export async function defaultBase(cwd: string): Promise<string | undefined> {
  const sym = await git(cwd, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
  if (sym.ok) {
    const ref = sym.stdout.trim().replace(/^refs\/remotes\//, '');
    if (ref !== '' && (await git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).ok) return ref;
  }
  for (const ref of ['main', 'master', 'origin/main', 'origin/master']) {
    if ((await git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).ok) return ref;
  }
  return undefined;
}

/** The top of the work tree that contains `cwd` (git's real path), or `undefined` outside one. */
export async function repositoryRoot(cwd: string): Promise<string | undefined> {
  const r = await git(cwd, ['rev-parse', '--show-toplevel']);
  return r.ok ? r.stdout.trim() : undefined;
}
