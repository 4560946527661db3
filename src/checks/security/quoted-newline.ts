/**
 * quoted-newline: a newline inside quotes whose next line starts with `#`, which Claude Code's
 * line-based comment stripper would drop. Claude Code's `validateQuotedNewline` (ID 23
 * QUOTED_NEWLINE, claude-code-reference.md §1.6).
 */
import { isJsSpace, scanQuoted } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/**
 * Tracks quotes on the raw command; at a LF inside quotes whose next line, trimmed, starts with
 * `#`, a hit on that line. With a parse tree, the bodies of quoted heredocs are skipped (they are
 * stdin text, not arguments). Mirrors `validateQuotedNewline`.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const t = cmd.text;
  if (!t.includes('\n') || !t.includes('#')) return undefined;
  let hit: Hit | undefined;
  scanQuoted(t, cmd.tree?.heredocs ?? [], (i, inSingle, inDouble) => {
    if (t[i] !== '\n' || (!inSingle && !inDouble)) return undefined;
    let k = i + 1;
    while (k < t.length && t[k] !== '\n' && isJsSpace(t.charCodeAt(k))) k++;
    if (t[k] !== '#') return undefined;
    const nl = t.indexOf('\n', k);
    hit = {
      start: i + 1,
      end: nl < 0 ? t.length : nl,
      message:
        'Quoted newline followed by a line starting with `#`: line-based comment stripping (as in Claude Code\'s ' +
        'permission matching) drops that line although bash passes it as part of an argument. Avoid newlines in arguments here.',
    };
    return false;
  });
  return hit;
}

export default defineSecurityCheck(
  {
    id: 'quoted-newline',
    code: 'S223',
    title: 'Quoted newline followed by a #-line',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'Claude Code strips comment lines before matching permission rules and checking paths, line by ' +
        'line and without tracking quotes. In `mv ./decoy \'<newline>#\' ~/.ssh/id_rsa ./exfil_dir` the ' +
        'second line starts with `#` and is dropped, so only `mv ./decoy \'` is checked while bash moves ' +
        'the SSH key. Claude Code asks (ID 23, misparsing).',
      fix: 'Keep each argument on one line, or put multi-line text in a file or a quoted heredoc.',
      exceptions:
        'Other multi-line quoted arguments pass, as in Claude Code. Deviation: with the parse tree, lines ' +
        'inside a quoted heredoc body are skipped (they are stdin text, not arguments). In the `script` ' +
        'profile the rule is off: the differential is in Claude Code\'s comment stripper, which does not ' +
        'run on scripts.',
    },
    sources: ['claude-code:validateQuotedNewline'],
    examples: {
      valid: ["echo 'line1\nline2'", "printf 'a\n  b #x'", "cat <<'EOF'\nit's\n# note\nEOF"],
      invalid: ["mv ./decoy '\n#' ~/.ssh/id_rsa ./exfil_dir", 'echo "a\n   # b"'],
    },
    claudeCode: { id: 23, name: 'validateQuotedNewline', misparsing: true, order: ORDER['quoted-newline'] },
  },
  detect,
);
