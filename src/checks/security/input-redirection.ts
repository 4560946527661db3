/**
 * input-redirection: an unquoted `<` after safe redirections are stripped. The input half of
 * Claude Code's `validateRedirections` (ID 9 DANGEROUS_PATTERNS_INPUT_REDIRECTION,
 * claude-code-reference.md §1.6), a non-misparsing ask, on the `fullyUnquotedContent` view.
 */
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import { insideAny, viewHit, type Hit, type SecurityCommand } from './statement.js';

/** The first `<` of the fully unquoted view (after `</dev/null` and friends are stripped). */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const v = cmd.views.fullyUnquotedContent;
  const data = cmd.tree?.dataHeredocs ?? [];
  for (let i = v.text.indexOf('<'); i >= 0; i = v.text.indexOf('<', i + 1)) {
    // A `<` in the body of a data heredoc (`cat > page.html <<EOF` … `<b>`) is text, not a redirection.
    if (data.length > 0 && insideAny(data, v.span(i, i + 1).start)) continue;
    return viewHit(v, i, i + 1, 'Command contains input redirection (`<`), which could read sensitive files past path checks. Pass the file as an argument instead.');
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'input-redirection',
    code: 'S209',
    title: 'Input redirection',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        '`cmd < file` feeds a file to a command whose permission was granted for what it does, not for what ' +
        'it reads: `wc -l < ~/.ssh/id_rsa`. Claude Code asks without the misparsing flag (ID 9): the ask is ' +
        'deferred behind any misparsing ask (claude-code-reference.md §1.4 step 6).',
      fix: 'Pass the file as an operand (`wc -l file.txt`), which path checks see.',
      exceptions:
        'As in Claude Code: quoted `<` is ignored and `</dev/null` is stripped first (only when followed by ' +
        'whitespace or the end). Heredocs (`<<`) count, except quoted heredocs, which are replaced by a ' +
        'placeholder. Deviation: a `<` in the body of an unquoted heredoc that is plain data (fed to a ' +
        'command that is not a shell, with no `$`, backtick or backslash in it, so bash expands nothing) is text, ' +
        'not a redirection, and neither is that heredoc\'s own `<<`, which reads no file (`cat > page.html <<EOF` ' +
        'with `<b>x</b>`); Claude Code asks. ' +
        'Deviation: Claude Code reports only the input redirection when a command has both; ' +
        'shellward also reports `output-redirection`. In the `script` profile the rule is off.',
    },
    sources: ['claude-code:validateRedirections'],
    examples: {
      valid: ['cat file.txt </dev/null', 'echo "<tag>"', 'ls 2>&1', 'cat > page.html <<EOF\n<b>bold</b>\nEOF'],
      invalid: ['cat < /etc/passwd', 'wc -l < file.txt', 'cat <<EOF\nhi $USER\nEOF'],
    },
    claudeCode: { id: 9, name: 'validateRedirections', misparsing: false, order: ORDER['input-redirection'] },
  },
  detect,
);
