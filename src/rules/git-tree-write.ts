/**
 * git commands that rewrite tracked files of the work tree with content the command does not
 * show: `git checkout REV`, `git switch BRANCH`, `git merge`, `git pull`, `git rebase`,
 * `git cherry-pick`, `git revert`, `git am`, `git apply`, `git filter-branch` (it checks out
 * the rewritten HEAD), `git stash` (push, pop, apply),
 * `git reset --hard|--merge|--keep`, `git restore`, `git read-tree -u`, `git checkout-index -a`,
 * `git bisect`. When the repository tracks a protected file (the policy's own files,
 * `.claude/settings.json`, `Makefile`, `.husky/`, `.github/workflows/` … —
 * src/analyses/git-tracked.ts), such a command may rewrite it (removing deny rules, adding a hook)
 * as a redirection to it would, so beside deny or ask rules an allow rule other than an exact one
 * does not pass it. Forms that keep the work tree (`git checkout -b x`, `git switch -c x`,
 * `git reset` without `--hard`, `git restore --staged`, `git stash list`, `git apply --check`)
 * are not writers. Pure apart from the path host's reads; never throws.
 */
import { posix } from 'node:path';
import { trackedProtectedFiles } from '../analyses/git-tracked.js';
import type { PathContext } from '../analyses/paths.js';
import { resolveCommand } from '../parse/command-name.js';
import { gitSubcommand } from '../parse/interpreters.js';
import type { SimpleCommand } from '../parse/nodes.js';

/** What a tree writer may rewrite: every tracked file, or the files below its pathspecs. */
type Scope = 'tree' | readonly string[];

/** Whether `word` spells `option` (`--hard`, or an abbreviation git accepts such as `--har`; `--x=v` spells `--x`). */
function spells(word: string, ...options: readonly string[]): boolean {
  const name = word.startsWith('--') && word.includes('=') ? word.slice(0, word.indexOf('=')) : word;
  return options.some((o) => name === o || (o.startsWith('--') && name.length >= 3 && name.startsWith('--') && o.startsWith(name)));
}

/** The operands of `args` (git parse-options: `--` ends the options), skipping the values of `valueOptions`; `dd` is the index in `operands` where those after `--` start. */
function operandsOf(args: readonly string[], valueOptions: readonly string[]): { readonly operands: readonly string[]; readonly dd: number } {
  const operands: string[] = [];
  let dd = -1;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (dd < 0 && a === '--') {
      dd = operands.length;
      continue;
    }
    if (dd < 0 && a.startsWith('-') && a !== '-') {
      if (valueOptions.includes(a)) i++;
      continue;
    }
    operands.push(a);
  }
  return { operands, dd: dd < 0 ? operands.length : dd };
}

/**
 * What `git <sub> args…` may rewrite in the work tree, or `undefined` when it keeps it. `args`
 * are the words after the subcommand; a word not known before the command runs makes a writer
 * rewrite the whole tree.
 */
export function treeWriteScope(sub: string, args: readonly (string | null)[]): Scope | undefined {
  const known = args.every((a) => a !== null);
  const words = args.map((a) => a ?? '');
  if (known && words.some((w) => w === '-h' || spells(w, '--help'))) return undefined;
  const has = (...options: string[]): boolean => words.some((w) => spells(w, ...options));
  switch (sub) {
    case 'checkout': {
      if (has('--pathspec-from-file') || !known) return 'tree';
      const { operands, dd } = operandsOf(words, ['-b', '-B', '--orphan', '--conflict']);
      if (dd < operands.length) return operands.slice(dd);
      return operands.length === 0 ? (has('-p', '--patch') ? 'tree' : undefined) : 'tree';
    }
    case 'switch': {
      if (!known || has('--orphan')) return 'tree';
      const { operands } = operandsOf(words, ['-c', '-C', '--create', '--force-create', '--conflict']);
      return operands.length === 0 ? undefined : 'tree';
    }
    case 'restore': {
      if (!known || has('--pathspec-from-file')) return 'tree';
      if (has('-S', '--staged') && !has('-W', '--worktree')) return undefined;
      const { operands } = operandsOf(words, ['-s', '--source', '--conflict']);
      return operands.length === 0 ? undefined : operands;
    }
    case 'reset':
      return !known || has('--hard', '--merge', '--keep') ? 'tree' : undefined;
    case 'stash': {
      const first = words.find((w) => !w.startsWith('-'));
      return known && first !== undefined && ['list', 'show', 'drop', 'clear', 'create', 'store'].includes(first) ? undefined : 'tree';
    }
    case 'apply':
      if (!known) return 'tree';
      if (has('--cached') && !has('--index')) return undefined;
      return has('--check', '--stat', '--numstat', '--summary') && !has('--apply') ? undefined : 'tree';
    case 'bisect': {
      const first = words.find((w) => !w.startsWith('-'));
      return known && first !== undefined && ['log', 'visualize', 'view', 'terms', 'help'].includes(first) ? undefined : 'tree';
    }
    case 'read-tree':
      return !known || has('-u') ? 'tree' : undefined;
    case 'checkout-index': {
      if (!known || has('-a', '--all', '--stdin')) return 'tree';
      const { operands } = operandsOf(words, ['--prefix', '--stage']);
      return operands;
    }
    case 'merge':
    case 'pull':
    case 'rebase':
    case 'cherry-pick':
    case 'revert':
    case 'am':
    case 'filter-branch':
      return 'tree';
    default:
      return undefined;
  }
}

/** Whether the tracked file `file` (relative to `top`) is below one of `pathspecs` (relative to `cwd`). */
function inScope(file: string, top: string, cwd: string, pathspecs: readonly string[]): boolean {
  const abs = posix.join(top, file);
  return pathspecs.some((p) => {
    // Pathspec magic (`:(glob)…`, `:/`) and wildcards match more than a prefix: take them as the whole tree.
    if (p.startsWith(':') || /[*?[]/.test(p)) return true;
    const at = posix.resolve(cwd, p);
    return abs === at || abs.startsWith(at === '/' ? '/' : `${at}/`);
  });
}

/**
 * Why `cmd` (one instance of a model command) may rewrite a protected file the repository
 * tracks, as one sentence, or `undefined`. `cwds` are the model command's working directories
 * (`undefined`: not known, so the repository is not known either); `ctx` gives the path host.
 */
export function gitTreeWriteProblem(cmd: SimpleCommand, cwds: readonly string[] | undefined, ctx: PathContext): string | undefined {
  const resolved = resolveCommand(cmd);
  if (resolved?.name !== 'git') return undefined;
  const sub = gitSubcommand(resolved.args);
  if (!sub) return undefined;
  const scope = treeWriteScope(sub.name, resolved.args.slice(sub.index + 1).map((w) => w.value ?? null));
  if (scope === undefined) return undefined;
  const what = `\`git ${sub.name}\` rewrites tracked files of the work tree with content the command does not show`;
  const dirs = cwds ?? (ctx.cwd !== undefined ? [ctx.cwd] : undefined);
  if (dirs === undefined || dirs.length === 0) return `${what}, and the directory it runs in is not known, so neither is the repository or the protected files it tracks; it needs approval while deny or ask rules exist.`;
  for (const cwd of dirs) {
    const t = trackedProtectedFiles(cwd, ctx.host);
    if (t.kind === 'none') continue;
    if (t.kind === 'unknown') return `${what}, and which files the repository tracks is not known (${t.reason}); a protected file among them (such as \`.claude/settings.json\` or a git hook) could be rewritten, so it needs approval while deny or ask rules exist.`;
    const hit = scope === 'tree' ? t.files : t.files.filter((f) => inScope(f, t.top, cwd, scope));
    if (hit.length > 0) {
      const names = hit.slice(0, 3).map((f) => `\`${f}\``).join(', ');
      return `${what}; the repository tracks ${names}${hit.length > 3 ? ` and ${hit.length - 3} more` : ''}, which configure${hit.length === 1 ? 's' : ''} the policy or a tool that runs code, so it needs approval while deny or ask rules exist.`;
    }
  }
  return undefined;
}
