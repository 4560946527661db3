/**
 * Commands that write files under names the command does not show: an archive's members
 * (`tar -x`, `unzip`, `cpio -i`, `7z x`) and the files a patch names (`patch < p`). GNU tar and
 * unzip keep members below the extraction directory by default
 * (https://www.gnu.org/software/tar/manual/html_node/absolute.html,
 * https://linux.die.net/man/1/unzip), but any member may be a protected file there
 * (`.claude/settings.json`, `.git/hooks/pre-commit`, `Makefile`), which a redirection could not
 * write without approval. So beside deny or ask rules an allow rule other than an exact one does
 * not pass such a command. Listing, testing and printing forms (`tar -t`, `unzip -l`, `unzip -p`,
 * `patch --dry-run`, `patch FILE`, `patch -o OUT`) name what they write, or write nothing.
 * Pure; never throws.
 */
import { resolveCommand } from '../parse/command-name.js';
import type { SimpleCommand } from '../parse/nodes.js';

/** Whether some short-option cluster of `words` (`-xzf`, old-style `xzf` first word for tar) holds one of `letters`. */
function clusterHas(words: readonly string[], letters: string, oldStyleFirst = false): boolean {
  return words.some((w, i) => ((w.startsWith('-') && !w.startsWith('--')) || (oldStyleFirst && i === 0 && !w.startsWith('-'))) && [...w.replace(/^-/, '')].some((c) => letters.includes(c)));
}

/** Whether `words` hold a long option that `option` is spelled by (an unambiguous prefix of at least 4 characters, or the whole name, `=value` allowed). */
function longHas(words: readonly string[], ...options: readonly string[]): boolean {
  return words.some((w) => {
    const name = w.includes('=') ? w.slice(0, w.indexOf('=')) : w;
    return name.startsWith('--') && name.length >= 4 && options.some((o) => o.startsWith(name));
  });
}

/**
 * What `cmd` writes under names it does not show (`the archive's members`, `the files the patch
 * names`) with the program's name, or `undefined`. A word not known before the command runs is
 * taken as one that may select extraction.
 */
export function unseenMemberWrites(cmd: SimpleCommand): { readonly program: string; readonly what: string } | undefined {
  const resolved = resolveCommand(cmd);
  if (!resolved) return undefined;
  const name = resolved.name;
  const known = resolved.args.every((w) => w.value !== undefined);
  const words = resolved.args.map((w) => w.value ?? '');
  const members = { program: name, what: "the archive's members" };
  switch (name) {
    case 'tar':
    case 'gtar':
    case 'bsdtar':
      return !known || clusterHas(words, 'x', true) || longHas(words, '--extract', '--get') ? members : undefined;
    case 'unzip':
      return !known || !(clusterHas(words, 'ltvpczZ') || words.includes('-hh')) ? members : undefined;
    case 'cpio':
      return !known || clusterHas(words, 'i') || longHas(words, '--extract') ? members : undefined;
    case '7z':
    case '7za':
    case '7zr': {
      const first = words.find((w) => !w.startsWith('-'));
      return !known || first === 'x' || first === 'e' ? members : undefined;
    }
    case 'patch': {
      if (!known) return { program: name, what: 'the files the patch names' };
      if (longHas(words, '--dry-run') || clusterHas(words, 'o') || longHas(words, '--output')) return undefined;
      // `patch FILE [PATCHFILE]`: the file to patch is named (the path rows judge it).
      const operands = words.filter((w, i) => !w.startsWith('-') && !/^-[pFDBYzgrVdi]$/.test(words[i - 1] ?? ''));
      return operands.length > 0 ? undefined : { program: name, what: 'the files the patch names' };
    }
    default:
      return undefined;
  }
}

/**
 * Why `cmd` may not pass an allow rule beside deny or ask rules because it writes files under
 * names it does not show, as one sentence; `undefined` when it names what it writes.
 */
export function memberWriteProblem(cmd: SimpleCommand): string | undefined {
  const w = unseenMemberWrites(cmd);
  if (!w) return undefined;
  return `\`${w.program}\` writes ${w.what} under names the command does not show; one may be a protected file (\`.claude/settings.json\`, a git hook, a Makefile) that a write could not change without approval, so it needs approval while deny or ask rules exist.`;
}
