/**
 * output-redirection: an unquoted `>` after safe redirections are stripped. The output half of
 * Claude Code's `validateRedirections` (ID 10 DANGEROUS_PATTERNS_OUTPUT_REDIRECTION,
 * claude-code-reference.md §1.6), a non-misparsing ask, on the `fullyUnquotedContent` view.
 */
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import { viewHit, type Hit, type SecurityCommand } from './statement.js';

/** The first `>` of the fully unquoted view (after `>/dev/null`, `2>&1` … are stripped). */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const v = cmd.views.fullyUnquotedContent;
  const i = v.text.indexOf('>');
  if (i < 0) return undefined;
  return viewHit(v, i, i + 1, 'Command contains output redirection (`>`), which could write to arbitrary files. Write to a file inside the project, or let the command print.');
}

export default defineSecurityCheck(
  {
    id: 'output-redirection',
    code: 'S210',
    title: 'Output redirection',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        '`cmd > file` writes wherever the target points, whatever `cmd` is allowed to do: ' +
        '`git commit -m x > ~/.bashrc` overwrites a shell start-up file. Claude Code asks without the ' +
        'misparsing flag (ID 10): the ask is deferred behind any misparsing ask (claude-code-reference.md §1.4 step 6), so ' +
        '`cat safe.txt \\; echo /etc/passwd > ./out` still reports the misparsing finding first.',
      fix: 'Let the command print to stdout, or write to a path inside the project that path rules allow.',
      exceptions:
        'As in Claude Code: quoted `>` is ignored; `2>&1`, `>/dev/null` (optionally fd 0/1/2) are stripped ' +
        'first, only when followed by whitespace or the end (`> /dev/nullo` is reported). Deviation: Claude ' +
        'Code reports only the input redirection when a command has both; shellward reports both. In the ' +
        '`script` profile redirections are ordinary and the rule is off.',
    },
    sources: ['claude-code:validateRedirections'],
    examples: {
      valid: ['ls > /dev/null', 'ls 2>/dev/null', 'ls >/dev/null 2>&1', 'echo "a > b"'],
      invalid: ['echo hi > out.txt', 'ls >> log.txt', 'echo hi > /dev/nullo'],
    },
    claudeCode: { id: 10, name: 'validateRedirections', misparsing: false, order: ORDER['output-redirection'] },
  },
  detect,
);
