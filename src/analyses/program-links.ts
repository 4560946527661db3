/**
 * Programs under another name: a command that makes a link to a file or a copy of it (`ln -s
 * /bin/rm m`, `ln /bin/rm m`, `cp /bin/rm m`, `cp -s`, `install`, `mv`, `link`), and a command
 * word that is a path (`./m`) naming a file that a command of the same unit may create or write.
 * Deny rules match the program's name, so `ln -s /bin/rm m && ./m x` runs a denied program under
 * a name no rule names; the permission decision denies the link when its source visibly is a
 * denied program and asks when it may be (src/rules/decide.ts). Pure; linear in the words.
 */
import { commandBasename, resolveCommand } from '../parse/command-name.js';
import type { SimpleCommand } from '../parse/nodes.js';
import type { Word } from '../parse/words.js';

/**
 * Per program: options taking a value (GNU coreutils spellings), and the options naming the
 * target directory, so that every operand is a source
 * (https://www.gnu.org/software/coreutils/manual/html_node/ln-invocation.html, cp-invocation,
 * install-invocation, mv-invocation, link-invocation).
 */
const LINKERS: Readonly<Record<string, { readonly values: readonly string[]; readonly targetDir: readonly string[] }>> = {
  ln: { values: ['-S', '--suffix', '-t', '--target-directory'], targetDir: ['-t', '--target-directory'] },
  cp: { values: ['-S', '--suffix', '-t', '--target-directory', '--backup', '--sparse', '--reflink', '--preserve', '--no-preserve', '--update'], targetDir: ['-t', '--target-directory'] },
  mv: { values: ['-S', '--suffix', '-t', '--target-directory', '--backup', '--update'], targetDir: ['-t', '--target-directory'] },
  install: { values: ['-S', '--suffix', '-t', '--target-directory', '-m', '--mode', '-o', '--owner', '-g', '--group', '--strip-program', '-Z', '--context', '--backup'], targetDir: ['-t', '--target-directory'] },
  link: { values: [], targetDir: [] },
};

/** Options of GNU `--backup`/`--reflink`…-style that take their value only when attached (`--backup=numbered`). */
const ATTACHED_ONLY: ReadonlySet<string> = new Set(['--backup', '--sparse', '--reflink', '--preserve', '--no-preserve', '--update', '--context']);

/** A link or copy one command makes. */
export interface ProgramLink {
  /** The program making it: `ln`, `cp`, `install`, `mv`, `link`. */
  readonly command: string;
  /** The files linked or copied (the link's target for `ln -s`). */
  readonly sources: readonly Word[];
  /** The new name, or the directory the new names go in; absent for `ln SOURCE` alone (a link of the same name in the working directory). */
  readonly target?: Word;
  /** True when `target` is a directory (`-t DIR`), so each new name is the source's base name inside it. */
  readonly targetIsDirectory: boolean;
}

/**
 * The link or copy `cmd` makes, when its program (through any wrapper) is `ln`, `cp`, `install`,
 * `mv` or `link`; `undefined` otherwise, or for `install -d` (which makes directories) and
 * commands with no operand. A word that is not known before the command runs counts as an operand.
 */
export function programLink(cmd: SimpleCommand): ProgramLink | undefined {
  const resolved = resolveCommand(cmd);
  if (!resolved) return undefined;
  const spec = LINKERS[resolved.name];
  if (!spec) return undefined;
  const operands: Word[] = [];
  let targetDir: Word | undefined;
  let options = true;
  const args = resolved.args;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (options && v === '--') {
      options = false;
      continue;
    }
    if (options && v?.startsWith('-') && v.length > 1) {
      if (v.startsWith('--')) {
        const eq = v.indexOf('=');
        const name = eq > 0 ? v.slice(0, eq) : v;
        if (resolved.name === 'install' && name === '--directory') return undefined;
        const takes = spec.values.includes(name) && !ATTACHED_ONLY.has(name);
        if (spec.targetDir.includes(name)) targetDir = eq > 0 ? { ...w, value: v.slice(eq + 1) } : args[i + 1];
        if (takes && eq < 0) i++;
        continue;
      }
      for (let k = 1; k < v.length; k++) {
        const o = `-${v[k]}`;
        if (resolved.name === 'install' && o === '-d') return undefined;
        if (spec.values.includes(o)) {
          const rest = v.slice(k + 1);
          if (spec.targetDir.includes(o)) targetDir = rest !== '' ? { ...w, value: rest } : args[i + 1];
          if (rest === '') i++;
          break;
        }
      }
      continue;
    }
    operands.push(w);
  }
  if (targetDir) return operands.length > 0 ? { command: resolved.name, sources: operands, target: targetDir, targetIsDirectory: true } : undefined;
  if (operands.length === 0) return undefined;
  if (operands.length === 1) return resolved.name === 'ln' ? { command: resolved.name, sources: operands, targetIsDirectory: false } : undefined;
  return { command: resolved.name, sources: operands.slice(0, -1), target: operands[operands.length - 1]!, targetIsDirectory: operands.length > 2 };
}

/** `p` with `./` segments, doubled and trailing slashes removed (`./bin//m/` → `bin/m`); not `..`. */
export function normalizeRelative(p: string): string {
  const parts = p.split('/');
  const out: string[] = [];
  parts.forEach((s, k) => {
    if (s === '.' || (s === '' && k > 0)) return;
    out.push(s);
  });
  const joined = out.join('/');
  return joined === '' ? (p.startsWith('/') ? '/' : '.') : joined;
}

/**
 * Whether the file a link or copy makes may be `path` (a command word with a slash, as written):
 * the target is not known before the command runs, or it is `path`, or it is the directory `path`
 * is in and a source's base name is `path`'s (or not known).
 */
export function linkMayMake(link: ProgramLink, path: string): boolean {
  const p = normalizeRelative(path);
  const base = commandBasename(p);
  const dir = p.includes('/') ? normalizeRelative(p.slice(0, p.lastIndexOf('/')) || '/') : '.';
  const sourceNamed = (): boolean => link.sources.some((s) => s.value === undefined || commandBasename(normalizeRelative(s.value)) === base);
  if (link.target === undefined) return dir === '.' && sourceNamed();
  if (link.target.value === undefined) return true;
  const t = normalizeRelative(link.target.value);
  if (!link.targetIsDirectory && t === p) return true;
  return t === dir && sourceNamed();
}
