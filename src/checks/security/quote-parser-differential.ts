/**
 * quote-parser-differential: a single-quoted string that ends in backslashes, which the
 * `shell-quote` library reads differently from bash. Claude Code's second pre-check,
 * `hasShellQuoteSingleQuoteBug` (no numeric ID, claude-code-reference.md §1.4 step 2).
 */
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/**
 * Walks the raw command with bash quote rules; when a single-quoted string closes, counts the
 * backslashes just before the closing quote: an odd count, or an even non-zero count with another
 * `'` later in the command, is a hit (the span covers the backslashes and the quote). Mirrors
 * Claude Code's `hasShellQuoteSingleQuoteBug`.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const t = cmd.text;
  const lastQuote = t.lastIndexOf("'");
  let inSingle = false;
  let inDouble = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '\\' && !inSingle) {
      i++;
      continue;
    }
    if (c === '"' && !inSingle) {
      inDouble = !inDouble;
      continue;
    }
    if (c !== "'" || inDouble) continue;
    inSingle = !inSingle;
    if (inSingle) continue;
    let n = 0;
    while (i - n - 1 >= 0 && t[i - n - 1] === '\\') n++;
    if (n > 0 && (n % 2 === 1 || lastQuote > i)) {
      return {
        start: i - n,
        end: i + 1,
        message:
          `Single-quoted string ends in ${n} backslash${n === 1 ? '' : 'es'}: bash closes the string here, but ` +
          'the shell-quote parser Claude Code uses reads `\\\'` as an escaped quote and merges the following ' +
          'words into it, so checks see different arguments than bash runs.',
        data: { backslashes: n },
      };
    }
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'quote-parser-differential',
    code: 'S225',
    title: 'Single-quoted string ending in a backslash',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'Inside single quotes a backslash is an ordinary character in bash: `\'safe\\\\\'` is the string ' +
        '`safe\\\\` and the quote closes. The `shell-quote` library Claude Code uses to split commands treats ' +
        '`\\\'` as an escaped quote instead, so in `git ls-remote \'safe\\\\\' \'--upload-pack=evil\' \'repo\'` it ' +
        'sees one argument where bash passes `--upload-pack=evil` on its own. Claude Code asks (misparsing) ' +
        'before building any other view.',
      fix:
        'End the single-quoted string before the backslashes and add them outside: `\'safe\'\\\\\\\\`, or use ' +
        'double quotes: `"safe\\\\\\\\"`.',
      exceptions:
        'An even number of trailing backslashes is only reported when another single quote follows later ' +
        'in the command, as in Claude Code (without one, shell-quote backtracks and agrees with bash).',
    },
    sources: ['claude-code:hasShellQuoteSingleQuoteBug'],
    examples: {
      valid: ["echo 'a\\\\'", "echo 'plain' 'x'", 'echo "a\\\\" \'b\''],
      invalid: ["git ls-remote 'safe\\\\' '--upload-pack=evil' 'repo'", "echo 'abc\\' x"],
    },
    claudeCode: { name: 'hasShellQuoteSingleQuoteBug', misparsing: true, order: ORDER['quote-parser-differential'] },
  },
  detect,
);
