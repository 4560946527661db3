/**
 * malformed-token-injection: command separators together with tokens that the shell-quote
 * parser splits into unbalanced pieces. Claude Code's `validateMalformedTokenInjection` (ID 14
 * MALFORMED_TOKEN_INJECTION, claude-code-reference.md §1.6).
 */
import { malformedTokenAt, shellQuoteParse } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/**
 * Parses the raw command as shell-quote does (a parse failure passes, as in Claude Code); when a
 * `;`, `&&` or `||` operator is present and `hasMalformedTokens` holds (odd unescaped quotes in
 * the raw command, or a token with unbalanced `{}`/`()`/`[]` or an odd number of quotes), a hit
 * on the malformed token.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const t = cmd.text;
  const entries = shellQuoteParse(t);
  if (!entries) return undefined;
  if (!entries.some((e) => e.kind === 'op' && (e.op === ';' || e.op === '&&' || e.op === '||'))) return undefined;
  const at = malformedTokenAt(t, entries);
  if (!at) return undefined;
  return {
    start: at.start,
    end: at.end,
    message:
      'Ambiguous syntax with command separators: the shell-quote parser splits this into unbalanced tokens, ' +
      'so the commands a check sees may not be the ones bash runs. Quote the argument as a whole.',
  };
}

export default defineSecurityCheck(
  {
    id: 'malformed-token-injection',
    code: 'S214',
    title: 'Command separators with unbalanced tokens',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'Claude Code splits compound commands with the shell-quote parser. When a token comes out with ' +
        'unbalanced braces, brackets or quotes, the parser and bash disagree about where arguments end, and ' +
        'with a `;`, `&&` or `||` in the command that disagreement decides which commands are checked. ' +
        'An unterminated quote counts too: bash rejects `echo "hi;evil | cat`, but shell-quote drops the ' +
        'quote and sees two commands. Claude Code asks (ID 14, misparsing), last of all its checks.',
      fix: 'Quote arguments that contain braces, brackets or quote characters as a whole: `echo \'{"a":"b;c"}\'`.',
      exceptions:
        'shellward emulates the shell-quote tokenizer (v1.8, no environment) instead of using the package, ' +
        'so the check runs in linear time. With that tokenizer Claude Code\'s motivating example ' +
        '`echo {"hi":"hi;evil"}` is one balanced token without a separator and passes; the same shape with ' +
        'an unbalanced part (`echo {a && ls`) is reported. A double-quoted apostrophe in a compound ' +
        '(`echo "it\'s" && ls`) is reported, as in Claude Code. In the `script` profile the rule is off: the ' +
        'differential is in Claude Code\'s parser, which does not run on scripts.',
    },
    sources: ['claude-code:validateMalformedTokenInjection', 'claude-code:hasMalformedTokens'],
    examples: {
      valid: ['echo {"hi":"hi;evil"}', 'echo a && echo b', 'cat x; ls', 'echo "{a}" && ls'],
      invalid: ['echo {a && ls', 'echo "hi;evil | cat', 'echo "it\'s" && ls', "echo '[' ; ls"],
    },
    claudeCode: { id: 14, name: 'validateMalformedTokenInjection', misparsing: true, order: ORDER['malformed-token-injection'] },
  },
  detect,
);
