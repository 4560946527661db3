/**
 * backslash-escaped-whitespace: `\ ` or `\<tab>` outside quotes, which bash keeps inside a word
 * but other parsers split at. Claude Code's `validateBackslashEscapedWhitespace` (ID 15
 * BACKSLASH_ESCAPED_WHITESPACE, claude-code-reference.md §1.6).
 */
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/**
 * Outside all quotes, a backslash followed by a space or a tab; inside double quotes a backslash
 * skips the next character, inside single quotes it is literal. Mirrors
 * `hasBackslashEscapedWhitespace`.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const t = cmd.text;
  let inSingle = false;
  let inDouble = false;
  // Bodies of data heredocs (ASCII art, prose with apostrophes) are text: jumped over, so their
  // backslashes are not escapes and their quotes do not open strings.
  const data = [...(cmd.tree?.dataHeredocs ?? [])].sort((a, b) => a.start - b.start);
  let next = 0;
  for (let i = 0; i < t.length; i++) {
    while (next < data.length && data[next]!.end <= i) next++;
    if (!inSingle && !inDouble && next < data.length && i >= data[next]!.start) {
      i = data[next]!.end - 1;
      continue;
    }
    const c = t[i];
    if (c === '\\' && !inSingle) {
      if (!inDouble && (t[i + 1] === ' ' || t[i + 1] === '\t')) {
        return {
          start: i,
          end: i + 2,
          message:
            'Backslash-escaped whitespace: bash keeps it inside one word (`echo\\ test/../../usr/bin/touch` is a path), ' +
            'while other parsers split the word there. Quote the word instead: `"file name"`.',
        };
      }
      i++;
      continue;
    }
    if (c === '"' && !inSingle) inDouble = !inDouble;
    else if (c === "'" && !inDouble) inSingle = !inSingle;
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'backslash-escaped-whitespace',
    code: 'S215',
    title: 'Backslash-escaped space or tab',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'bash reads `echo\\ test/../../../usr/bin/touch /tmp/file` as the single word `echo test/../../../usr/bin/touch`, ' +
        'a path to `touch`, while the shell-quote parser Claude Code uses decodes the escape and sees an `echo` ' +
        'command. Claude Code asks (ID 15, misparsing).',
      fix: 'Quote words that contain spaces: `cat "file name"`.',
      exceptions:
        'Escapes inside double or single quotes pass, as in Claude Code. Deviation: the body of an unquoted ' +
        'heredoc that is plain data (fed to a command that is not a shell, with no `$`, backtick or ' +
        'backslash-newline) is text, so `\\ ` there (ASCII art) is not reported; Claude Code asks.',
    },
    sources: ['claude-code:validateBackslashEscapedWhitespace'],
    examples: {
      valid: ['echo "a\\ b"', "echo 'a\\ b'", 'ls \\\\ x', 'cat "file name"', 'cat > art.txt <<EOF\n /\\ /\\ |\n/ \\ \\ |\nEOF'],
      invalid: ['echo\\ test/../../../usr/bin/touch /tmp/file', 'cat file\\ name', 'ls a\\\tb'],
    },
    claudeCode: { id: 15, name: 'validateBackslashEscapedWhitespace', misparsing: true, order: ORDER['backslash-escaped-whitespace'] },
  },
  detect,
);
