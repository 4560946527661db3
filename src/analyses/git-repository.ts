/**
 * Whether git, run in a directory, would use a repository whose own configuration can name
 * programs that "read-only" git commands run: `core.fsmonitor` (run by `git status`/`git diff` to
 * list changes), `core.pager` and `pager.*`, `diff.external` and `diff.<driver>.textconv` /
 * `.command` (selected for paths by `.gitattributes`), `filter.<driver>.*`,
 * `core.sshCommand`, `include.path`/`includeIf` (any other file's keys) …
 * (https://git-scm.com/docs/git-config). A repository that was unpacked rather than cloned
 * brings its `.git/config` with it. Also a bare repository (HEAD, objects/, refs/ and no `.git`)
 * anywhere from the directory up to the root: git discovers it the same way
 * (https://git-scm.com/docs/git#Documentation/git.txt-GITDIR). Files are read only through the
 * injected {@link PathHost}; without `readFile` the configuration is not known, and `undefined`
 * (no hazard seen) is returned for it. Pure.
 */
import { posix } from 'node:path';
import type { PathHost } from './paths.js';

/** Section (lower case) and key of config entries that name a program or more configuration. */
const HAZARDS: readonly RegExp[] = [
  /^core\.(?:fsmonitor|pager|editor|sshcommand|askpass|gitproxy|attributesfile|excludesfile)$/,
  /^diff\.external$/,
  /^diff\..+\.(?:textconv|command)$/,
  /^filter\..+\.(?:clean|smudge|process)$/,
  /^merge\..+\.driver$/,
  /^pager\./,
  /^include\.path$/,
  /^includeif\..+\.path$/,
  /^(?:gpg|gpg\..+)\.program$/,
  /^interactive\.difffilter$/,
  /^sequence\.editor$/,
  /^credential(?:\..+)?\.helper$/,
  /^uploadpack\.packobjectshook$/,
  /^alias\./,
];

/**
 * The first key of the git config text `text` that names a program or includes other
 * configuration (`core.fsmonitor`, `diff.x.textconv` …), or `undefined`. A boolean
 * `core.fsmonitor = false` is not a hazard. Reads `[section "sub"]` headers and `key = value`
 * lines; linear in the text.
 */
export function gitConfigHazard(text: string): string | undefined {
  let section = '';
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]\s*(.*)$/.exec(line);
    if (header) {
      section = header[2] !== undefined ? `${header[1]!.toLowerCase()}.${header[2]}` : header[1]!.toLowerCase();
      line = header[3]!.trim();
      if (line === '') continue;
    }
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!m) continue;
    const key = `${section}.${m[1]!.toLowerCase()}`;
    const lowered = key.replace(/^([^.]+)/, (s) => s.toLowerCase());
    const value = (m[2] ?? '').trim().replace(/^"|"$/g, '');
    if (/^core\.fsmonitor$/.test(lowered) && /^(?:false|no|off|0|)$/i.test(value)) continue;
    if (HAZARDS.some((h) => h.test(lowered.toLowerCase()))) return key;
  }
  return undefined;
}

/**
 * Why git run in `cwd` (absolute) would use a repository whose configuration can run programs,
 * as a short phrase, or `undefined`. Walks from `cwd` up to `/` as git's discovery does: the
 * first directory with a `.git` (its `config`, or for a `.git` file the `gitdir:` it names)
 * decides; a bare repository on the way is a hazard of its own (its config and hooks are
 * whoever unpacked it). Bounded by the path's depth.
 */
export function gitRepositoryHazard(cwd: string, host: PathHost): string | undefined {
  for (let dir = posix.normalize(cwd); ; ) {
    const dotGit = posix.join(dir, '.git');
    if (host.realpath?.(dotGit) !== undefined) {
      let gitDir = dotGit;
      const asFile = host.readFile?.(dotGit);
      if (asFile !== undefined) {
        const m = /^gitdir:\s*(.+)$/m.exec(asFile);
        if (!m) return undefined;
        gitDir = posix.resolve(dir, m[1]!.trim());
        // A linked worktree keeps its config in the common directory.
        const common = host.readFile?.(posix.join(gitDir, 'commondir'));
        if (common !== undefined) gitDir = posix.resolve(gitDir, common.trim());
      }
      const config = host.readFile?.(posix.join(gitDir, 'config'));
      const key = config === undefined ? undefined : gitConfigHazard(config);
      return key ? `the repository's config sets \`${key}\`, a program git runs` : undefined;
    }
    if (host.isBareRepository?.(dir)) return `${dir} looks like a bare repository, whose config and hooks git uses`;
    const up = posix.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}
