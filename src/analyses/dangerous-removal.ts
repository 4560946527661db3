/**
 * Dangerous removals: `rm`/`rmdir` of `/`, the home directory, `/*`, a direct child of `/`, or a
 * path that becomes one of those when an unguarded variable is empty. Mirrors Claude Code's
 * non-overridable rm/rmdir hard limit (pathValidation.ts, claude-code-reference.md §3.4.2 item 4),
 * judged on the unresolved path, and ShellCheck SC2115 (`rm -r "$dir/"` with `$dir` empty).
 */
import { posix } from 'node:path';
import type { SimpleCommand } from '../parse/nodes.js';
import { resolveCommand } from '../parse/command-name.js';
import type { Word, WordPart } from '../parse/words.js';

/** Why a removal target is dangerous. */
export type DangerKind = 'root' | 'home' | 'root-child' | 'root-file' | 'glob-all' | 'empty-variable';

/** One dangerous operand of a removal command. */
export interface DangerousRemoval {
  /** The program, `rm` or `rmdir`. */
  readonly command: string;
  /** The options given to it, as written (`-rf`, `--force`), for messages. */
  readonly options: readonly string[];
  readonly word: Word;
  readonly kind: DangerKind;
  /** The path as judged: the literal path, or the path with the empty variable removed. */
  readonly path: string;
  /** For `empty-variable`: the variables that may be empty. */
  readonly variables: readonly string[];
}

const HOME_VARS = new Set(['HOME']);

/**
 * Top-level directories whose loss breaks the system (cf. ShellCheck's list of important
 * paths in checkCatastrophicRm). Used for the empty-variable case, where `"$dir/build"` →
 * `/build` is harmless but `"$prefix/usr"` → `/usr` is not.
 */
const SYSTEM_DIRS = new Set([
  '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/media', '/mnt',
  '/opt', '/proc', '/root', '/run', '/sbin', '/srv', '/sys', '/tmp', '/usr', '/var',
  '/Applications', '/Library', '/System', '/Users', '/Volumes',
]);

/** Classifies a lexical path (`~` means the home directory); `undefined` when not dangerous. */
function classifyPath(raw: string): Exclude<DangerKind, 'empty-variable' | 'root-file'> | undefined {
  if (raw === '*') return 'glob-all';
  let path = raw;
  let glob = false;
  if (path.endsWith('/*')) {
    glob = true;
    path = path.slice(0, -2);
    if (path === '') return 'glob-all';
  }
  if (path === '~' || path.startsWith('~/')) {
    const rest = posix.normalize('/' + path.slice(1));
    return rest === '/' ? (glob ? 'glob-all' : 'home') : undefined;
  }
  if (!path.startsWith('/')) return undefined;
  const norm = posix.normalize(path).replace(/\/+$/, '') || '/';
  if (norm === '/') return glob ? 'glob-all' : 'root';
  if (/^\/[^/]+$/.test(norm)) return glob ? 'glob-all' : 'root-child';
  return undefined;
}

/** Renders the word's parts as a path: `$HOME` → `~`, other parameters → `''` when `emptyVars`. */
function render(parts: readonly WordPart[], emptyVars: boolean): { path: string; vars: string[] } | undefined {
  let path = '';
  const vars: string[] = [];
  for (const [i, p] of parts.entries()) {
    if (p.kind === 'literal') path += p.value;
    else if (p.kind === 'parameter') {
      if (HOME_VARS.has(p.name) && i === 0) path += '~';
      else if (emptyVars && !p.guarded && p.name !== '') {
        vars.push(p.name);
      } else return undefined;
    } else return undefined;
  }
  return { path, vars };
}

const RECURSIVE = new Set(['-r', '-R', '--recursive']);
/** Options with which `rm` removes directories (recursively, or empty ones with `-d`). */
const REMOVES_DIRS = new Set(['-r', '-R', '--recursive', '-d', '--dir']);

/**
 * The dangerous operands of `cmd` when it runs `rm` or `rmdir` (through any wrapper);
 * an empty list otherwise. A direct child of `/` removed without `-r`/`-d` (`rm /zerofile`) is
 * `root-file`: rm removes no directory that way. Pure.
 */
export function dangerousRemovals(cmd: SimpleCommand): DangerousRemoval[] {
  const resolved = resolveCommand(cmd);
  if (!resolved || (resolved.name !== 'rm' && resolved.name !== 'rmdir')) return [];
  const operands: Word[] = [];
  const options: string[] = [];
  let recursive = false;
  let removesDirs = resolved.name === 'rmdir';
  let endOfOptions = false;
  for (const w of resolved.args) {
    const v = w.value;
    if (!endOfOptions && v !== undefined && v.startsWith('-') && v.length > 1) {
      if (v === '--') {
        endOfOptions = true;
        continue;
      }
      options.push(v);
      if (RECURSIVE.has(v) || (!v.startsWith('--') && /[rR]/.test(v))) recursive = true;
      if (REMOVES_DIRS.has(v) || (!v.startsWith('--') && /[rRd]/.test(v)) || (v.startsWith('--') && v.length > 3 && ('--recursive'.startsWith(v) || '--dir'.startsWith(v)))) removesDirs = true;
      continue;
    }
    operands.push(w);
  }
  const out: DangerousRemoval[] = [];
  for (const word of operands) {
    const literal = render(word.parts, false);
    if (literal) {
      const kind = classifyPath(literal.path);
      // A plain `rm /x` removes a file (it refuses directories): not a top-level directory.
      if (kind) out.push({ command: resolved.name, options, word, kind: kind === 'root-child' && !removesDirs ? 'root-file' : kind, path: literal.path, variables: [] });
      continue;
    }
    if (!recursive) continue;
    const emptied = render(word.parts, true);
    if (!emptied || emptied.vars.length === 0) continue;
    const path = emptied.path;
    const kind = path === '' ? undefined : classifyPath(path);
    if (!kind) continue;
    if (kind === 'root-child' && !SYSTEM_DIRS.has(posix.normalize(path).replace(/\/+$/, ''))) continue;
    out.push({ command: resolved.name, options, word, kind: 'empty-variable', path, variables: emptied.vars });
  }
  return out;
}
