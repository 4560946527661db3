/**
 * unicode-whitespace: a Unicode space character (NBSP, en/em spaces, zero-width no-break space
 * …) anywhere in the command. Claude Code's `validateUnicodeWhitespace` (ID 18
 * UNICODE_WHITESPACE, claude-code-reference.md §1.6).
 */
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/** U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF. */
function isUnicodeSpace(c: number): boolean {
  return (
    c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/** The first Unicode whitespace character of the raw command, quotes included. */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const t = cmd.text;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (!isUnicodeSpace(c)) continue;
    const hex = c.toString(16).toUpperCase().padStart(4, '0');
    return {
      start: i,
      end: i + 1,
      message: `Unicode whitespace U+${hex}: it looks like a space, but bash treats it as part of a word while other parsers split there. Replace it with an ASCII space.`,
      data: { codePoint: c },
    };
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'unicode-whitespace',
    code: 'S218',
    title: 'Unicode whitespace in a command',
    category: 'security',
    severity: { agent: 'warning', script: 'error' },
    docs: {
      rationale:
        'A no-break space or another Unicode space is invisible in a review, is not a word separator for bash, ' +
        'and is one for parsers that use JavaScript\'s `\\s` (such as shell-quote). `rm\\u00a0-rf` is the ' +
        'command name `rm -rf` to bash. Claude Code asks wherever one appears, quotes included (ID 18, misparsing).',
      fix: 'Replace it with an ASCII space, or delete it (a zero-width no-break space U+FEFF often comes from copy and paste).',
      exceptions: 'Reported inside quotes as well, as in Claude Code.',
    },
    sources: ['claude-code:validateUnicodeWhitespace'],
    examples: {
      valid: ['echo "héllo wörld"', 'ls -la'],
      invalid: ['echo\u00a0hi', 'ls\u2003-la', 'echo "a\u3000b"', '\ufeffls'],
    },
    claudeCode: { id: 18, name: 'validateUnicodeWhitespace', misparsing: true, order: ORDER['unicode-whitespace'] },
  },
  detect,
);
