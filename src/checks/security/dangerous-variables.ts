/**
 * dangerous-variables: an unquoted variable next to a redirection or a pipe (`> $OUT`,
 * `$CMD | sh`). Claude Code's `validateDangerousVariables` (ID 6 DANGEROUS_VARIABLES,
 * claude-code-reference.md §1.6), on the `fullyUnquotedContent` view.
 */
import { isJsSpace, isWordChar } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import { viewHit, type Hit, type SecurityCommand } from './statement.js';

const isIdentStart = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isOp = (c: string | undefined): boolean => c === '<' || c === '>' || c === '|';

/**
 * The leftmost of `[<>|]\s*\$[A-Za-z_]` and `\$[A-Za-z_][A-Za-z0-9_]*\s*[|<>]` in the fully
 * unquoted view. Mirrors `validateDangerousVariables`; linear.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const v = cmd.views.fullyUnquotedContent;
  const u = v.text;
  const message = 'Unquoted variable in a redirection or pipe: its value decides which file is written or which command runs. Use a literal path or command.';
  for (let i = 0; i < u.length; i++) {
    if (isOp(u[i])) {
      let k = i + 1;
      while (k < u.length && isJsSpace(u.charCodeAt(k))) k++;
      if (u[k] === '$' && isIdentStart(u.charCodeAt(k + 1))) return viewHit(v, i, k + 2, message);
    } else if (u[i] === '$' && isIdentStart(u.charCodeAt(i + 1))) {
      let k = i + 2;
      while (k < u.length && isWordChar(u.charCodeAt(k))) k++;
      const nameEnd = k;
      while (k < u.length && isJsSpace(u.charCodeAt(k))) k++;
      if (isOp(u[k])) return viewHit(v, i, k + 1, message);
      i = nameEnd - 1;
    }
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'dangerous-variables',
    code: 'S206',
    title: 'Variable in a redirection or pipe',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'With `> $OUT` or `$CMD | …` the file written or the command run is whatever the variable holds at ' +
        'run time, which neither the reviewer nor a permission rule can see. Claude Code asks (ID 6, misparsing).',
      fix: 'Write the path or command literally, or quote the variable where it is data: `echo "$msg" > out.txt`.',
      exceptions:
        'Variables inside any quotes are ignored, as in Claude Code (`echo "$HOME" | cat` passes). In the ' +
        '`script` profile variables in redirections are ordinary scripting and the rule is off.',
    },
    sources: ['claude-code:validateDangerousVariables'],
    examples: {
      valid: ['echo "$HOME" | cat', 'cat file.txt | grep x', 'echo "$x" > out.txt'],
      invalid: ['cat $FILE | grep x', 'echo hi > $OUT', 'ls | $CMD'],
    },
    claudeCode: { id: 6, name: 'validateDangerousVariables', misparsing: true, order: ORDER['dangerous-variables'] },
  },
  detect,
);
