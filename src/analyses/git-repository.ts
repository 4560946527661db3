/**
 * Whether git, run in a directory, would use a repository whose own configuration can name
 * programs that "read-only" git commands run: `core.fsmonitor` (run by `git status`/`git diff` to
 * list changes), `core.pager` and `pager.*`, `diff.external` and `diff.<driver>.textconv` /
 * `.command` (selected for paths by `.gitattributes`), `filter.<driver>.*`, `core.sshCommand`,
 * the remote keys `git ls-remote`/`git remote show` use (`remote.<name>.uploadpack`, a
 * `remote.<name>.url` of the `ext::` form, which runs a shell command, `url.<base>.insteadOf`,
 * `protocol.<name>.allow`), `include.path`/`includeIf` (any other file's keys) …
 * (https://git-scm.com/docs/git-config). A repository that was unpacked rather than cloned
 * brings its `.git/config` with it.
 *
 * The files read are those git reads (https://git-scm.com/docs/git-worktree#_configuration_file,
 * https://git-scm.com/docs/gitrepository-layout): the git directory's `commondir` (in a `.git`
 * directory too, not only in a linked worktree's), the common directory's `config`, and the
 * `config.worktree` of the git directory and of the common directory (git reads it when
 * `extensions.worktreeConfig` is set; it is read here whatever that key says). `core.worktree`
 * pointing anywhere but the directory that holds `.git` is a hazard too (git then lists and
 * diffs files there).
 *
 * Also a bare repository (HEAD, objects, refs and no `.git`) anywhere from the directory up to the
 * root: git discovers it the same way
 * (https://git-scm.com/docs/git#Documentation/git.txt-GITDIR). A `.git` directory that is not a
 * git directory (no HEAD, objects, refs) is skipped, as git skips it and goes on to the parent.
 * A config file that is there but cannot be read in full (over the host's size cap, not a regular
 * file) is a hazard. Checked-out submodules listed in `.gitmodules` are checked the same way
 * (their git directories under `modules/` too), since `git status`/`git diff` run git in them;
 * a gitlink that `.gitmodules` does not list is not seen (that needs the index).
 * Files are read only through the injected {@link PathHost}; without `readFile` the configuration
 * is not known, and `undefined` (no hazard seen) is returned for it. Pure.
 */
import { posix } from 'node:path';
import type { PathHost } from './paths.js';

/**
 * Section (lower case), subsection and key of config entries that name a program, a file of more
 * configuration, or a file git reads and prints from. The remote keys whose danger depends on the
 * value are in {@link valueHazard}.
 */
const HAZARDS: readonly RegExp[] = [
  /^core\.(?:fsmonitor|pager|editor|sshcommand|askpass|gitproxy|attributesfile|excludesfile|alternaterefscommand)$/,
  /^diff\.external$/,
  /^diff\..+\.(?:textconv|command)$/,
  /^(?:difftool|mergetool)\..+\.(?:cmd|path)$/,
  /^filter\..+\.(?:clean|smudge|process)$/,
  /^merge\..+\.driver$/,
  /^pager\./,
  /^include\.path$/,
  /^includeif\..+\.path$/,
  /^(?:gpg|gpg\..+)\.program$/,
  /^gpg\.ssh\.defaultkeycommand$/,
  /^interactive\.difffilter$/,
  /^sequence\.editor$/,
  /^credential(?:\..+)?\.helper$/,
  /^uploadpack\.packobjectshook$/,
  /^alias\./,
  /^remote\..+\.(?:uploadpack|receivepack|vcs)$/,
  /^tar\..+\.command$/,
  /^trailer\..+\.(?:command|cmd)$/,
  /^(?:man|browser)\..+\.(?:cmd|path)$/,
  /^(?:man\.viewer|web\.browser|imap\.tunnel)$/,
  /^sendemail\.(?:.+\.)?(?:smtpserver|tocmd|cccmd|headercmd)$/,
  /^instaweb\./,
];

/**
 * A transport git hands to a helper program (`ext::sh -c …` runs the command; `<name>::<address>`
 * runs `git-remote-<name>`), or a value that starts with `-` (read as an option by the program it
 * is passed to). https://git-scm.com/docs/git-remote-ext, https://git-scm.com/docs/gitremote-helpers
 */
const HELPER_URL = /^(?:[A-Za-z][A-Za-z0-9+.-]*::|-)/;

/** Whether key `key` (section lower case) with value `value` is a hazard because of the value. */
function valueHazard(key: string, value: string): boolean {
  const lower = key.toLowerCase();
  if (/^remote\..+\.(?:url|pushurl)$/.test(lower)) return HELPER_URL.test(value);
  // `[url "ext::sh -c …"] insteadOf = https://x`: the base (the subsection) replaces the URL.
  const m = /^url\.(.+)\.(?:insteadof|pushinsteadof)$/i.exec(key);
  if (m) return HELPER_URL.test(m[1]!);
  // `protocol.ext.allow` (or a default for every protocol) lets an `ext::` URL run its command;
  // `protocol.file.allow` and the like do not.
  if (/^protocol\.ext\.allow$/.test(lower)) return !/^never$/i.test(value);
  if (lower === 'protocol.allow') return /^always$/i.test(value);
  // `update = !command` runs the command; `checkout`, `rebase`, `merge`, `none` do not.
  if (/^submodule\..+\.update$/.test(lower)) return value.startsWith('!');
  // Files git reads and prints from for `git log`/`git blame`: a hazard only when they lie
  // elsewhere (absolute, `~`, or climbing out with `..`); `.git-blame-ignore-revs` is common.
  if (/^(?:blame\.ignorerevsfile|mailmap\.file|commit\.template)$/.test(lower)) return /^(?:\/|~)/.test(value) || value.split('/').includes('..');
  return false;
}

/** One `key = value` of a git config text: the key as `section.sub.name` (section and name lower case). */
interface ConfigEntry {
  readonly key: string;
  readonly value: string;
}

/** The entries of git config text `text`: `[section "sub"]` and `[section.sub]` headers, `key = value` lines. Linear. */
function configEntries(text: string): ConfigEntry[] {
  const out: ConfigEntry[] = [];
  let section = '';
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      // `[section.sub]` (the old form) names subsection `sub` in lower case.
      const name = header[1]!.toLowerCase();
      section = header[2] !== undefined ? `${name}.${header[2].replace(/\\(.)/g, '$1')}` : name;
      line = header[3]!.trim();
      if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    }
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!m) continue;
    const value = (m[2] ?? '').replace(/\s+[#;].*$/, '').trim().replace(/^"|"$/g, '');
    out.push({ key: `${section}.${m[1]!.toLowerCase()}`, value });
  }
  return out;
}

/**
 * The first key of the git config text `text` that names a program or includes other
 * configuration (`core.fsmonitor`, `diff.x.textconv`, `remote.origin.uploadpack`, an `ext::`
 * remote URL …), or `undefined`. A boolean `core.fsmonitor = false` is not a hazard. Reads
 * `[section "sub"]` headers and `key = value` lines; linear in the text.
 */
export function gitConfigHazard(text: string): string | undefined {
  for (const { key, value } of configEntries(text)) {
    const lowered = key.toLowerCase();
    if (lowered === 'core.fsmonitor' && /^(?:false|no|off|0|)$/i.test(value)) continue;
    if (HAZARDS.some((h) => h.test(lowered)) || valueHazard(key, value)) return key;
  }
  return undefined;
}

/** The value of `core.worktree` in config text `text`, the last one given, or `undefined`. */
function coreWorktree(text: string): string | undefined {
  let found: string | undefined;
  for (const { key, value } of configEntries(text)) if (key.toLowerCase() === 'core.worktree') found = value;
  return found;
}

/** Most `.git`-file and `commondir` indirections followed. */
const MAX_INDIRECTIONS = 8;

/**
 * Why git run in `cwd` (absolute) would use a repository whose configuration can run programs,
 * as a short phrase, or `undefined`. Walks from `cwd` up to `/` as git's discovery does: the
 * first directory with a `.git` that is a git directory (or a `.git` file naming one) decides; a
 * bare repository on the way is a hazard of its own (its config and hooks are whoever unpacked
 * it). Bounded by the path's depth.
 */
export function gitRepositoryHazard(cwd: string, host: PathHost): string | undefined {
  for (let dir = posix.normalize(cwd); ; ) {
    const dotGit = posix.join(dir, '.git');
    if (host.realpath?.(dotGit) !== undefined) {
      const asFile = host.readFile?.(dotGit);
      if (asFile !== undefined) {
        const m = /^gitdir:\s*(.+)$/m.exec(asFile);
        // git stops with "invalid gitfile format": nothing runs.
        if (!m) return undefined;
        return repositoryHazard(dir, posix.resolve(dir, m[1]!.trim()), host);
      }
      // A `.git` directory git does not take for a git directory is skipped (git goes on upwards).
      if (host.isBareRepository === undefined || host.isBareRepository(dotGit)) return repositoryHazard(dir, dotGit, host);
    } else if (host.isBareRepository?.(dir)) return `${dir} looks like a bare repository, whose config and hooks git uses`;
    const up = posix.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * The directory holding the shared config of the repository whose git directory is `gitDir`
 * (absolute): `$GIT_DIR/commondir` names it, relative to the git directory (git's
 * get_common_dir, https://git-scm.com/docs/gitrepository-layout#_commondir), followed at most
 * {@link MAX_INDIRECTIONS} times; `gitDir` itself when there is none. Pure (reads through `host`).
 */
function commonDirOf(gitDir: string, host: PathHost): string {
  let common = gitDir;
  for (let k = 0; k < MAX_INDIRECTIONS; k++) {
    const next = host.readFile?.(posix.join(common, 'commondir'));
    if (next === undefined || next.trim() === '') break;
    const resolved = posix.resolve(common, next.trim());
    if (resolved === common) break;
    common = resolved;
  }
  return common;
}

/** The hazard of the repository with git directory `gitDir` found in `top` (see {@link gitRepositoryHazard}). */
function repositoryHazard(top: string, gitDir: string, host: PathHost, depth = 0): string | undefined {
  const common = commonDirOf(gitDir, host);
  const files = [...new Set([posix.join(common, 'config'), posix.join(gitDir, 'config.worktree'), posix.join(common, 'config.worktree')])];
  for (const file of files) {
    const text = host.readFile?.(file);
    if (text === undefined) {
      // There but not readable in full (over the host's size cap, a FIFO, a directory): not known to be inert.
      if (host.readFile !== undefined && host.realpath?.(file) !== undefined) return `the repository's ${posix.basename(file)} cannot be read in full, so the programs it names are not known`;
      continue;
    }
    const key = gitConfigHazard(text);
    if (key) return `the repository's ${posix.basename(file)} sets \`${key}\`, a program git runs`;
    const worktree = coreWorktree(text);
    if (worktree !== undefined && worktree !== '' && posix.resolve(gitDir, worktree) !== top && host.realpath?.(posix.resolve(gitDir, worktree)) !== host.realpath?.(top)) {
      return `the repository's ${posix.basename(file)} sets \`core.worktree\` to \`${worktree}\`, outside the directory that holds it`;
    }
  }
  if (depth < MAX_SUBMODULE_DEPTH) {
    // `git status` and `git diff` recurse into checked-out submodules and run git there with the
    // submodule's own config: each path `.gitmodules` lists, and each directory under `modules/`
    // named after a submodule (https://git-scm.com/docs/gitsubmodules).
    const gitmodules = host.readFile?.(posix.join(top, '.gitmodules'));
    let seen = 0;
    for (const { key, value } of gitmodules === undefined ? [] : configEntries(gitmodules)) {
      const m = /^submodule\.(.+)\.path$/i.exec(key);
      if (!m || value === '' || ++seen > MAX_SUBMODULES) continue;
      const subTop = posix.resolve(top, value);
      if (!subTop.startsWith(`${top}/`)) continue;
      const dotGit = posix.join(subTop, '.git');
      const asFile = host.readFile?.(dotGit);
      const gitLink = asFile === undefined ? undefined : /^gitdir:\s*(.+)$/m.exec(asFile)?.[1]?.trim();
      const candidates = [gitLink !== undefined ? posix.resolve(subTop, gitLink) : dotGit, posix.join(common, 'modules', m[1]!)];
      for (const subGitDir of new Set(candidates)) {
        if (host.realpath?.(subGitDir) === undefined) continue;
        const hazard = repositoryHazard(subTop, subGitDir, host, depth + 1);
        if (hazard) return `submodule ${value}: ${hazard}`;
      }
    }
  }
  return undefined;
}

/** Submodules followed below the top repository (nested ones included), and how many per repository. */
const MAX_SUBMODULE_DEPTH = 3;
const MAX_SUBMODULES = 64;

/**
 * The directory git takes hooks from for a repository whose `core.hooksPath` names one, for git
 * run in `cwd` (absolute): the repository is found as git's discovery finds it (the first `.git`
 * from `cwd` up), its config files read as {@link gitRepositoryHazard} reads them, and the last
 * `core.hooksPath` value taken (`~/` is the host's home; a relative path is relative to the root
 * of the working tree, where git runs hooks: https://git-scm.com/docs/githooks#_description and
 * https://git-scm.com/docs/git-config#Documentation/git-config.txt-corehooksPath). Returns the
 * absolute directory and, when it differs, its symlink-resolved form; `[]` when no repository,
 * no such key, or no `readFile` on the host. Bounded by the path's depth. Pure.
 */
export function gitHooksDirectories(cwd: string, host: PathHost): string[] {
  if (!host.readFile) return [];
  for (let dir = posix.normalize(cwd); ; ) {
    const dotGit = posix.join(dir, '.git');
    if (host.realpath?.(dotGit) !== undefined) {
      const asFile = host.readFile(dotGit);
      let gitDir = dotGit;
      if (asFile !== undefined) {
        const m = /^gitdir:\s*(.+)$/m.exec(asFile);
        if (!m) return [];
        gitDir = posix.resolve(dir, m[1]!.trim());
      }
      if (asFile !== undefined || host.isBareRepository === undefined || host.isBareRepository(dotGit)) return hooksPathOf(dir, gitDir, host);
    }
    const up = posix.dirname(dir);
    if (up === dir) return [];
    dir = up;
  }
}

/** The `core.hooksPath` directories of the repository with git directory `gitDir` and work tree `top` (see {@link gitHooksDirectories}). */
function hooksPathOf(top: string, gitDir: string, host: PathHost): string[] {
  const common = commonDirOf(gitDir, host);
  let value: string | undefined;
  for (const file of [posix.join(common, 'config'), posix.join(common, 'config.worktree'), posix.join(gitDir, 'config.worktree')]) {
    const text = host.readFile?.(file);
    if (text === undefined) continue;
    for (const e of configEntries(text)) if (e.key.toLowerCase() === 'core.hookspath') value = e.value;
  }
  if (value === undefined || value === '') return [];
  let path = value;
  if (path === '~' || path.startsWith('~/')) {
    if (host.home === undefined) return [];
    path = host.home + path.slice(1);
  }
  const abs = posix.resolve(top, path);
  const real = host.realpath?.(abs);
  return real !== undefined && real !== abs ? [abs, real] : [abs];
}
