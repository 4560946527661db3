/**
 * incomplete-commands: a command that looks like a fragment — it starts with a tab, with a flag,
 * or with an operator. Claude Code's early validator `validateIncompleteCommands` (ID 1
 * INCOMPLETE_COMMANDS, claude-code-reference.md §1.5).
 */
import { isJsSpace } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/**
 * subId 1: the leading whitespace holds a tab; subId 2: the first non-whitespace character is
 * `-`; subId 3: it is `&&`, `||`, `;`, `>` or `<`. Mirrors `validateIncompleteCommands`.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const t = cmd.text;
  let i = 0;
  while (i < t.length && isJsSpace(t.charCodeAt(i))) {
    if (t[i] === '\t') {
      return { start: i, end: i + 1, subId: 1, message: 'Command starts with a tab: it looks like an incomplete fragment of a longer command.' };
    }
    i++;
  }
  if (t[i] === '-') {
    return { start: i, end: i + 1, subId: 2, message: 'Command starts with a flag: it looks like an incomplete fragment (the command name is missing).' };
  }
  const two = t.slice(i, i + 2);
  const op = two === '&&' || two === '||' ? two : t[i] === ';' || t[i] === '>' || t[i] === '<' ? t[i]! : undefined;
  if (op !== undefined) {
    return {
      start: i,
      end: i + op.length,
      subId: 3,
      message: `Command starts with \`${op}\`: it looks like the continuation line of another command.`,
    };
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'incomplete-commands',
    code: 'S201',
    title: 'Command that looks like an incomplete fragment',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'A command that starts with a tab, a flag (`-rf /tmp/x`) or an operator (`&& rm -rf x`, `> file`) ' +
        'is a piece of something else: what it does depends on text the reviewer does not see. Claude Code ' +
        'asks before running such a fragment (ID 1, misparsing).',
      fix: 'Send the whole command, starting with the command name.',
      exceptions:
        'A single `|` or `&` at the start is not reported, as in Claude Code. In the `script` profile the ' +
        'rule is off: a statement of a script is complete by construction.',
    },
    sources: ['claude-code:validateIncompleteCommands'],
    examples: {
      valid: ['echo ok', '  ls -la', '| grep x'],
      invalid: ['\tls', '-rf /tmp/x', '&& echo done', '|| true', '; ls', '> out.txt', '>> log.txt', '< in.txt'],
    },
    claudeCode: { id: 1, name: 'validateIncompleteCommands', misparsing: true, order: ORDER['incomplete-commands'] },
  },
  detect,
);
