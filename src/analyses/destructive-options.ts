/**
 * How GNU `getopt_long` and git's parse-options read a long option that is written shorter than
 * its name: an unambiguous prefix names the option (`rm --rec --for` is `rm --recursive --force`,
 * `git reset --har` is `--hard`, `git push --force-w` is `--force-with-lease`). An exact name
 * always wins; a prefix of two or more names is ambiguous and names none (both programs then
 * refuse to run). See the GNU C Library manual, "Getopt Long Options"
 * (https://www.gnu.org/software/libc/manual/html_node/Getopt-Long-Options.html), and git's
 * gitcli(7) "you can abbreviate long options" (https://git-scm.com/docs/gitcli).
 */

/**
 * The long option `written` (`--rec`, without any `=value`) resolved against `known` (the
 * program's long options, each starting with `--`): itself when it is one of them, the single
 * option it is a prefix of, else `undefined` (unknown or ambiguous). Linear in `known`.
 */
export function resolveLongOption(written: string, known: readonly string[]): string | undefined {
  if (!written.startsWith('--') || written.length < 3) return undefined;
  let found: string | undefined;
  for (const k of known) {
    if (k === written) return k;
    if (k.startsWith(written)) {
      if (found !== undefined && found !== k) return undefined;
      found = k;
    }
  }
  return found;
}

/**
 * `options` (a set of options as scanned: `--rec`, `-r` …) with every abbreviated long option
 * replaced by the name it abbreviates among `known`. Options that resolve to nothing stay as
 * written. Returns `options` itself when `known` is empty.
 */
export function expandLongOptions(options: ReadonlySet<string>, known: readonly string[]): ReadonlySet<string> {
  if (known.length === 0) return options;
  let out: Set<string> | undefined;
  for (const o of options) {
    if (!o.startsWith('--')) continue;
    const full = resolveLongOption(o, known);
    if (full === undefined || full === o) continue;
    out ??= new Set(options);
    out.add(full);
  }
  return out ?? options;
}
