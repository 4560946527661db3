/**
 * mid-word-hash: a `#` preceded by a non-space character, which bash keeps as part of the word
 * but the shell-quote parser reads as the start of a comment. Claude Code's
 * `validateMidWordHash` (ID 19 MID_WORD_HASH, claude-code-reference.md §1.6), on the
 * `unquotedKeepQuoteChars` view and on its continuation-joined variant.
 */
import { isJsSpace, joinContinuations, type View } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import type { Span } from '../../core/types.js';
import { defineSecurityCheck } from './define-security-check.js';
import { insideAny, viewHit, type Hit, type SecurityCommand } from './statement.js';

/** Index of the first `#` of `v` with a non-whitespace character before it, not after `${` or an unescaped `$`. */
function midWordHash(v: View, data: readonly Span[]): number {
  const u = v.text;
  for (let i = u.indexOf('#'); i >= 0; i = u.indexOf('#', i + 1)) {
    if (i === 0 || isJsSpace(u.charCodeAt(i - 1))) continue;
    if (data.length > 0 && insideAny(data, v.span(i, i + 1).start)) continue;
    if (u[i - 1] === '{' && u[i - 2] === '$') continue;
    if (u[i - 1] === '$') {
      let n = 0;
      while (u[i - 2 - n] === '\\') n++;
      if (n % 2 === 0) continue;
    }
    return i;
  }
  return -1;
}

/**
 * The first mid-word `#` of the quote-delimiter-keeping view, else of the same view with
 * odd backslash-newline continuations joined. Mirrors `validateMidWordHash`, except that `$#`
 * (the argument count, which shell-quote reads as a variable) is not reported.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const v = cmd.views.unquotedKeepQuoteChars;
  const message = 'Mid-word `#`: bash keeps it as part of the word, but the shell-quote parser starts a comment there and drops the rest of the command from its view. Quote the `#`: `\'a#b\'`.';
  // The body of a data heredoc is text: a Markdown `# Title` or `a#b` there is no comment.
  const data = cmd.tree?.dataHeredocs ?? [];
  const i = midWordHash(v, data);
  if (i >= 0) return viewHit(v, i, i + 1, message);
  const joined = joinContinuations(v);
  if (joined === v) return undefined;
  const j = midWordHash(joined, data);
  return j >= 0 ? viewHit(joined, j, j + 1, message) : undefined;
}

export default defineSecurityCheck(
  {
    id: 'mid-word-hash',
    code: 'S219',
    title: 'Unquoted # in the middle of a word',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'bash starts a comment only at a `#` that begins a word; in `echo a#b` the `#` is data. The ' +
        'shell-quote parser Claude Code uses starts a comment at any unquoted `#` and drops everything after ' +
        'it, including further arguments and commands that path checks should see. Claude Code asks (ID 19, ' +
        'misparsing); it also checks the text with backslash-newline continuations joined (`foo\\<newline>#bar`).',
      fix: 'Quote words that contain `#`: `git log --format=\'%h#%s\'`, `curl \'https://x/#frag\'`.',
      exceptions:
        'As in Claude Code: `#` inside quotes and `${#var}` pass, and keeping the quote delimiters in the view ' +
        'catches `\'x\'#`. Bodies of quoted heredocs are inert text. Deviation: `$#` (with an unescaped `$`) ' +
        'passes, because shell-quote reads it as a variable, not a comment; `\\$#` is still reported. Deviation: ' +
        'a `#` in the body of an unquoted heredoc that is plain data (fed to a command that is not a shell, with ' +
        'no `$`, backtick or backslash) is text and is not reported.',
    },
    sources: ['claude-code:validateMidWordHash'],
    examples: {
      valid: ['echo ${#var}', "echo '#'", 'echo "a#b"', 'ls # comment', 'echo $#', "cat <<'EOF'\na#b\nEOF", 'cat > notes.md <<EOF\nsee a#b\nEOF'],
      invalid: ["echo 'x'#", 'echo a#b', 'foo\\\n#bar', 'echo \\$#'],
    },
    claudeCode: { id: 19, name: 'validateMidWordHash', misparsing: true, order: ORDER['mid-word-hash'] },
  },
  detect,
);
