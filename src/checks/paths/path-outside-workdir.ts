/**
 * path-outside-workdir: a write or create (`rm`, `mv`, `cp`, `mkdir`, `touch`, `sed -i`, an
 * output redirection …) of a path established to lie outside the working directories. Claude
 * Code asks before such a command (claude-code-reference.md §3.4.2 item 3, §3.4.3): it may only write
 * inside the working directory and its `additionalDirectories`.
 *
 * The working directories are the unit's recorded cwd plus its `additionalDirectories` and the
 * policy's; a script without a recorded cwd uses its own directory (and the runner adds the
 * directory shellward lints from as an additional one). A command unit without a cwd
 * is skipped: nothing is known to be outside. Resolution is lexical (no file-system access); the
 * home directory for `~` is the unit's recorded home, else the run's (`ctx.host.home`), and a
 * relative script path is relative to the run's directory (`ctx.host.cwd`): both come from the
 * edge, never from `os` or `process`.
 */
import { posix } from 'node:path';
import { toPosixPath } from '../../core/session-paths.js';
import { dangerousRemovals } from '../../analyses/dangerous-removal.js';
import { unitPaths, type PathCheck, type PathHost } from '../../analyses/paths.js';
import type { CommandUnit, Span } from '../../core/types.js';
import { resolveCommand } from '../../parse/command-name.js';
import type { SimpleCommand } from '../../parse/nodes.js';
import type { PermissionPolicy } from '../../rules/policy.js';
import { defineCheck, type CheckHost } from '../define.js';

/**
 * The (lexical) path host for a unit: a recorded session's `~` is its user's home (unknown when
 * the record has none), not the home of the user running shellward.
 */
function hostOf(unit: CommandUnit, host: CheckHost): PathHost {
  const h = unit.context?.home;
  if (h === undefined) return { home: host.home };
  return { home: h === null ? undefined : toPosixPath(h) };
}

/** The cwd of a unit and its working directories; `undefined` when the cwd is not known. */
function workingDirectories(unit: CommandUnit, policy: PermissionPolicy, host: CheckHost): { cwd: string; dirs: string[] } | undefined {
  let cwd = unit.context?.cwd;
  if (cwd === undefined && (unit.origin.kind === 'script' || unit.origin.kind === 'makefile')) {
    // A script (or a Makefile recipe) is taken to run from its own directory.
    const file = toPosixPath(unit.origin.file.split('\\').join('/'));
    if (file !== undefined) cwd = posix.dirname(file.startsWith('/') ? posix.normalize(file) : posix.join(host.cwd, file));
  }
  cwd = cwd === undefined ? undefined : toPosixPath(cwd);
  if (cwd === undefined || !cwd.startsWith('/')) return undefined;
  const extra = [...(unit.context?.additionalDirectories ?? []), ...policy.additionalDirectories.map((d) => d.path)];
  const dirs = [cwd];
  const home = hostOf(unit, host).home;
  for (const d of extra) {
    if ((d === '~' || d.startsWith('~/')) && home === undefined) continue;
    const p = toPosixPath(d === '~' || d.startsWith('~/') ? home + d.slice(1) : d);
    if (p === undefined || p.startsWith('~')) continue;
    dirs.push(p.startsWith('/') ? posix.normalize(p) : posix.join(cwd, p));
  }
  return { cwd, dirs };
}

/**
 * True when `cmd` is a `sed` that edits files in place (`-i`, `-i.bak`, `-ni`, `--in-place`).
 * Claude Code validates every sed outside its read-only allowlist as a write; a linter only
 * calls it a write when it is one.
 */
function sedInPlace(cmd: SimpleCommand): boolean {
  const r = resolveCommand(cmd);
  if (r?.name !== 'sed') return false;
  for (const w of r.args) {
    const v = w.value;
    if (v === undefined) continue;
    if (v === '--') break;
    if (v === '--in-place' || v.startsWith('--in-place=')) return true;
    if (!/^-[A-Za-z]/.test(v)) continue;
    for (const c of v.slice(1)) {
      if (c === 'i') return true;
      if (c === 'e' || c === 'f' || c === 'l') break;
    }
  }
  return false;
}

/**
 * The system temporary directories. Writing there is how scripts and agents make scratch files
 * (Claude Code's sandbox allows it too), so it is not reported; the verdict still asks, as Claude
 * Code does outside its sandbox.
 */
const TEMP_DIRS: readonly string[] = ['/tmp', '/var/tmp', '/private/tmp', '/dev/shm'];

function inTemp(resolved: string | null): boolean {
  return resolved !== null && TEMP_DIRS.some((d) => resolved === d || resolved.startsWith(`${d}/`));
}

/**
 * Make variables that name an installation directory (GNU Coding Standards, "Variables for
 * Installation Directories": https://www.gnu.org/prep/standards/html_node/Directory-Variables.html,
 * and `DESTDIR`, https://www.gnu.org/prep/standards/html_node/DESTDIR.html): `DESTDIR`, `prefix`,
 * `exec_prefix`, and every `…dir` (`bindir`, `BINDIR`, `mandir` …) or `…PREFIX` name.
 */
export const INSTALL_DIR_VAR: RegExp = /\$[({](?:DESTDIR|[A-Za-z_]*(?:PREFIX|prefix)|[A-Za-z_]*(?:DIR|dir)|[A-Za-z_]*ROOT)[)}]/;

/**
 * True when the path at `span` of a Makefile recipe is written through an installation-directory
 * variable (`$(DESTDIR)$(PREFIX)/bin`): `make install` writes where the user asked (a staging
 * directory, a prefix), so it is not a write outside the project even when the Makefile gives the
 * variable an absolute default.
 */
function viaInstallDir(unit: CommandUnit, span: Span): boolean {
  if (unit.origin.kind !== 'makefile') return false;
  const host = unit.hostText.slice(unit.sourceMap.toHost(span.start), unit.sourceMap.toHost(Math.max(span.start, span.end - 1)) + 1);
  return INSTALL_DIR_VAR.test(host);
}

function within(s: Span, spans: readonly Span[]): boolean {
  return spans.some((o) => o.start <= s.start && s.end <= o.end);
}

function verb(c: PathCheck): string {
  if (c.source === 'redirect') return `\`${c.command}\` redirects output to`;
  return c.operation === 'create' ? `\`${c.command}\` creates` : `\`${c.command}\` writes`;
}

/**
 * The message names the path as written and, for an agent command with a recorded cwd, the
 * resolved path and the working directories. A script's directories are machine paths (where the
 * checkout happens to be), so they stay in `data` and out of the message, which must not change
 * from one machine to the next (golden files, baselines).
 */
function message(c: PathCheck, dirs: readonly string[], recorded: boolean, kind: CommandUnit['origin']['kind']): string {
  if (!recorded) return `${verb(c)} \`${c.path}\`, outside the ${kind === 'makefile' ? "Makefile's" : "script's"} directory and the project.`;
  // A relative path is shown resolved; `~` stays as written (the home directory differs per machine).
  const where = c.resolved !== null && c.resolved !== c.path && !c.path.startsWith('~') ? ` (\`${c.resolved}\`)` : '';
  const list = dirs.map((d) => `\`${d}\``).join(', ');
  return `${verb(c)} \`${c.path}\`${where}, outside the working ${dirs.length === 1 ? 'directory' : 'directories'} ${list}.`;
}

export default defineCheck(
  {
    id: 'path-outside-workdir',
    code: 'F402',
    title: 'Write outside the working directories',
    category: 'paths',
    severity: { agent: 'warning', script: 'warning' },
    docs: {
      rationale:
        'An agent works in a project directory. A command that removes, moves, copies over, creates or ' +
        'redirects output to a file outside it (`/etc/…`, `~/.bashrc`, `../other-repo`) changes things ' +
        'the user did not hand over. Claude Code asks before any such write: it may only write inside ' +
        'the working directory and its `additionalDirectories`. The paths are those of its 36 ' +
        'path-checked commands (`rm`, `rmdir`, `mv`, `cp`, `mkdir`, `touch`, `sed` with `-i` …) and ' +
        'output redirections.',
      fix:
        'Write inside the project (a build or temp directory under it), or add the directory to ' +
        '`additionalDirectories` when the agent is meant to work there.',
      exceptions:
        'Only paths established to be outside are reported: a path with a variable, a glob, `~user`, or ' +
        'a relative path after a `cd` whose target is unknown is not. A `cd` with a static target ' +
        'moves the cwd for what runs after it as bash runs it: after `cd d && …`, `cd d || exit` or ' +
        'under `set -e` the command runs in `d`; after `cd d; …` it may run in either directory (the ' +
        'cd may fail), so a relative path is reported only when it is outside from both; a cd in a ' +
        'subshell, pipeline or background job does not leak, and one in a function body counts where ' +
        'the function is called (Claude Code resolves every path against the original cwd and asks ' +
        'about any `cd` with a write instead). A script or Makefile is taken to run from ' +
        'its own directory, and the directory shellward lints from counts as a working directory too; ' +
        'an agent command without a recorded cwd is not checked. Removals of `/`, `~` and top-level ' +
        'directories are left to `path-dangerous-removal`. Writes under the system temporary directories ' +
        '(`/tmp`, `/var/tmp`, `/dev/shm`) are not reported (the verdict of an agent command still asks, as Claude Code does). Paths are ' +
        'resolved lexically, without following symlinks. `/dev/null` and the other pseudo-devices are ' +
        'not files. A `sed` counts as a write only with `-i`/`--in-place` (Claude Code asks about any ' +
        'sed outside its read-only allowlist). Beyond Claude Code\'s 36 commands, output files of `tree -o`, `info -o`, `less -o` ' +
        'and `xxd` and each alternative of a brace expansion (`rm {a,/etc/x}`) are seen; `tee`, `ln`, `install`, `dd of=` and ' +
        'redirections of compound commands (`{ …; } > f`) are not. In a Makefile recipe, a path written through an installation-directory ' +
        'variable (`$(DESTDIR)`, `$(PREFIX)`, `$(BINDIR)`, `$(mandir)` …) is where `make install` was asked to write, not outside the project.',
    },
    sources: ['claude-code:pathValidation.validatePath', 'claude-code:pathValidation.PATH_EXTRACTORS'],
    examples: {
      valid: ['touch notes.txt', 'rm -rf ./build', 'echo hi > /dev/null', 'cat /etc/hosts', 'cp "$src" "$dst"', "sed 's/a/b/' /etc/hosts"],
      invalid: ['touch /etc/motd', 'rm -f ../other/file.txt', 'echo export X=1 >> ~/.bashrc', 'mkdir /opt/tool', 'cd /etc && touch x', "sed -i 's/a/b/' /etc/hosts"],
    },
  },
  (ctx) => {
    const wd = workingDirectories(ctx.unit, ctx.policy, ctx.host);
    if (!wd) return;
    const host = hostOf(ctx.unit, ctx.host);
    const checks = unitPaths(ctx.parsed, { cwd: wd.cwd, workingDirectories: wd.dirs, host }, { trackCd: true, ...(ctx.modelAt ? { model: ctx.modelAt(wd.cwd, host.home) } : {}) });
    const inPlace = ctx.parsed.commands.filter(sedInPlace).map((c) => c.span);
    // path-dangerous-removal already reports `rm -rf /` and its kin, as an error.
    const removals = new Set(ctx.parsed.commands.flatMap((c) => dangerousRemovals(c).map((d) => d.word.span.start)));
    const recorded = ctx.unit.context?.cwd !== undefined;
    for (const c of checks) {
      if (c.operation === 'read' || c.reason !== 'outside') continue;
      if (c.source === 'argument' && removals.has(c.span.start)) continue;
      if (inTemp(c.resolved)) continue;
      if (viaInstallDir(ctx.unit, c.span)) continue;
      if (c.command === 'sed' && c.source === 'argument' && !within(c.span, inPlace)) continue;
      ctx.report({
        ruleId: 'path-outside-workdir',
        message: message(c, wd.dirs, recorded, ctx.unit.origin.kind),
        span: c.span,
        data: { path: c.path, resolved: c.resolved, operation: c.operation, workingDirectories: wd.dirs },
      });
    }
  },
);
