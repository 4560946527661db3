/**
 * Recorded argv arrays → the shell text a POSIX shell would parse (transcript-formats.md §5 item 2):
 * `[sh, flags…, -c, SCRIPT, …]` unwraps to SCRIPT; `apply_patch` argv and scripts are file edits,
 * not commands; PowerShell and cmd.exe wrappers are another dialect; anything else is a direct
 * exec, quote-joined like Python's `shlex.join`. Every character of the result maps back into
 * the recorded JSON text. Pure.
 */
import type { Dialect } from '../../core/types.js';
import { MappedText } from '../mapped-text.js';

const POSIX_SHELLS: Readonly<Record<string, Dialect>> = { bash: 'bash', sh: 'sh', zsh: 'zsh', dash: 'dash', ksh: 'ksh', ash: 'sh', busybox: 'sh' };

/** What an argv (or a shell string) turned out to be. */
export type ShellText =
  | { readonly kind: 'script'; readonly text: MappedText; readonly dialect: Dialect; readonly directExec: boolean }
  /** A file edit (`apply_patch`): not a command. */
  | { readonly kind: 'edit' }
  /**
   * A PowerShell or cmd.exe script: not POSIX shell, not analysed. `shell` is `powershell` (also
   * for `pwsh`) or `cmd`; `text` is the script (the element after `-Command`/`-c`, `/c`), or the
   * whole argv quote-joined when there is no such element.
   */
  | { readonly kind: 'foreign'; readonly shell: string; readonly text: MappedText };

function basename(p: string): string {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1).replace(/\.exe$/i, '').toLowerCase();
}

/**
 * The name of a shell program path as a session's shell: `/bin/zsh` → `zsh`, `pwsh` /
 * `powershell.exe` → `powershell`, `cmd.exe` → `cmd`; other names lower-cased without `.exe`.
 */
export function shellName(program: string): string {
  const b = basename(program.trim());
  return b === 'pwsh' || b === 'powershell' ? 'powershell' : b;
}

/** The dialect of a shell program path (`/bin/zsh` → `zsh`), or undefined for non-POSIX or unknown shells. */
export function dialectOfShell(program: string | undefined): Dialect | undefined {
  return program === undefined ? undefined : POSIX_SHELLS[basename(program)];
}

/** True when a script is only an `apply_patch` / `applypatch` heredoc or call (an edit). */
export function isApplyPatchScript(script: string): boolean {
  return /^\s*(?:cd\s+\S+\s*&&\s*)?(?:apply_patch|applypatch)\b/.test(script);
}

const BARE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quote-joins `argv` like `shlex.join`: an element is bare when it matches
 * `[A-Za-z0-9_@%+=:,./-]+`, else wrapped in `'…'` with each `'` written `'\''`. Inserted quotes
 * and spaces map to the element they belong to.
 */
export function quoteJoin(argv: readonly MappedText[]): MappedText {
  const out = new MappedText();
  argv.forEach((a, n) => {
    const s = a.text;
    const first = a.hostAt(0) ?? 0;
    if (n > 0) out.push(' ', first);
    if (s !== '' && BARE.test(s)) {
      for (let i = 0; i < a.length; i++) out.pushFrom(a, i);
      return;
    }
    out.push("'", first);
    for (let i = 0; i < a.length; i++) {
      if (s[i] === "'") {
        const h = a.hostAt(i) ?? first;
        for (const ch of "'\\''") out.push(ch, h);
      } else out.pushFrom(a, i);
    }
    out.push("'", a.hostAt(a.length - 1) ?? first);
  });
  return out;
}

/**
 * Turns a recorded argv into shell text. `defaultDialect` applies to a direct exec. Returns
 * `undefined` for an empty argv.
 */
export function argvToShell(argv: readonly MappedText[], defaultDialect: Dialect = 'bash'): ShellText | undefined {
  if (argv.length === 0) return undefined;
  const prog = basename(argv[0]!.text);
  if (prog === 'apply_patch' || prog === 'applypatch') return { kind: 'edit' };
  const dialect = POSIX_SHELLS[prog];
  if (dialect) {
    // busybox sh -c …
    let i = prog === 'busybox' && argv[1]?.text === 'sh' ? 2 : 1;
    for (; i < argv.length; i++) {
      const f = argv[i]!.text;
      if (!f.startsWith('-') || f === '--') break;
      if (/^-[A-Za-z]*c[A-Za-z]*$/.test(f)) {
        const script = argv[i + 1];
        if (!script) break;
        if (isApplyPatchScript(script.text)) return { kind: 'edit' };
        return { kind: 'script', text: script, dialect, directExec: false };
      }
    }
  }
  if (prog === 'pwsh' || prog === 'powershell' || prog === 'cmd') {
    const flag = prog === 'cmd' ? /^\/[cCkK]$/ : /^-(?:c|command|encodedcommand|ec)$/i;
    const at = argv.findIndex((a, i) => i > 0 && flag.test(a.text));
    const script = at !== -1 ? argv[at + 1] : undefined;
    return { kind: 'foreign', shell: prog === 'cmd' ? 'cmd' : 'powershell', text: script ?? quoteJoin(argv) };
  }
  return { kind: 'script', text: quoteJoin(argv), dialect: defaultDialect, directExec: true };
}
