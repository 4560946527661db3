/**
 * newlines: an unquoted newline followed by more text, which can separate commands. Claude
 * Code's `validateNewlines` (ID 7 NEWLINES, claude-code-reference.md §1.6), a non-misparsing ask, on the
 * `fullyUnquotedPreStrip` view.
 */
import { isJsSpace } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import { viewHit, type Hit, type SecurityCommand } from './statement.js';

/**
 * The first LF or CR of the fully unquoted view (before redirect stripping) that has
 * non-whitespace text after it and is not a line continuation at a word boundary (whitespace,
 * backslash, newline). Mirrors `validateNewlines`; linear.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const v = cmd.views.fullyUnquotedPreStrip;
  const u = v.text;
  let last = u.length - 1;
  while (last >= 0 && isJsSpace(u.charCodeAt(last))) last--;
  for (let i = 0; i < last; i++) {
    const c = u[i];
    if (c !== '\n' && c !== '\r') continue;
    if (u[i - 1] === '\\' && i >= 2 && isJsSpace(u.charCodeAt(i - 2))) continue;
    return viewHit(v, i, i + 1, 'Unquoted newline followed by more text: it can separate multiple commands, and each needs its own review. Use `&&` or `;` on one line, or send the commands separately.');
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'newlines',
    code: 'S207',
    title: 'Newline that separates commands',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'An unquoted newline ends a command like `;` does. A multi-line command can hide a second command ' +
        'below the first, and a backslash-newline in the middle of a word (`tr\\<newline>aceroute`) joins ' +
        'pieces into a command name that no rule names. Claude Code asks without the misparsing flag (ID 7): ' +
        'the ask is deferred behind any misparsing ask (claude-code-reference.md §1.4 step 6).',
      fix: 'Join the commands with `&&` or `;` on one line, or send them one at a time.',
      exceptions:
        'As in Claude Code: newlines inside quotes, `cmd \\<newline>--flag` continuations after whitespace, and ' +
        'trailing newlines pass; the bodies of quoted heredocs are inert text. In the `script` profile ' +
        'newlines are ordinary and the rule is off; there each top-level statement is checked on its own.',
    },
    sources: ['claude-code:validateNewlines'],
    examples: {
      valid: ['ls \\\n  --all', "echo 'a\nb'", 'ls\n', "cat <<'EOF'\nline one\nline two\nEOF"],
      invalid: ['tr\\\naceroute', 'echo a &&\necho b'],
    },
    claudeCode: { id: 7, name: 'validateNewlines', misparsing: false, order: ORDER.newlines },
  },
  detect,
);
