/**
 * comment-quote-desync: a `#` comment containing quote characters, which would throw quote
 * trackers that do not know about comments out of step with bash. Claude Code's
 * `validateCommentQuoteDesync` (ID 22 COMMENT_QUOTE_DESYNC, claude-code-reference.md §1.6).
 */
import { scanQuoted } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/**
 * True when a quote tracker that reads comment text `s` as code ends it where it started, outside
 * quotes, whichever way it treats quotes: no backslash (escapes are read differently by different
 * trackers), no `$`, backtick, redirection, parenthesis, brace or operator (`$'…'`, `$(`, `<<'M'`
 * would be read as code by a tracker that does not know comments), and the quotes pair up (`"a"
 * 'b'`, not `"it's"`, which a tracker ignoring the nesting reads as an open `'`).
 */
export function quotesBalanced(s: string): boolean {
  if (/[\\$`<>(){};&|]/.test(s)) return false;
  let open: string | undefined;
  for (const c of s) {
    if (c !== "'" && c !== '"') continue;
    if (open === undefined) open = c;
    else if (open === c) open = undefined;
    else return false;
  }
  return open === undefined;
}

/**
 * Tracks quotes like `extractQuotedContent`; at an unquoted `#` whose rest of line contains `'`
 * or `"`, a hit; after an unquoted `#` the scan jumps to the end of the line. With a parse tree
 * (and no syntax error), a `#` counts only where tree-sitter starts a comment, the bodies of
 * quoted heredocs are skipped, and a comment whose quotes pair up ({@link quotesBalanced}) is not
 * a hit: every tracker leaves it outside quotes, in step with bash. Without a tree this is exactly Claude Code's regex behaviour.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const t = cmd.text;
  const tree = cmd.tree && !cmd.tree.hasProblems ? cmd.tree : undefined;
  const commentStarts = tree ? new Set(tree.comments.map((c) => c.start)) : undefined;
  let hit: Hit | undefined;
  scanQuoted(t, tree?.heredocs ?? [], (i, inSingle, inDouble) => {
    if (inSingle || inDouble || t[i] !== '#') return undefined;
    if (commentStarts && !commentStarts.has(i)) return undefined;
    const nl = t.indexOf('\n', i);
    const lineEnd = nl < 0 ? t.length : nl;
    const balanced = tree !== undefined && quotesBalanced(t.slice(i + 1, lineEnd));
    for (let k = i + 1; k < lineEnd && !balanced; k++) {
      if (t[k] === "'" || t[k] === '"') {
        hit = {
          start: i,
          end: lineEnd,
          message:
            'Comment contains a quote character: quote trackers that do not know comments see it open a string ' +
            'that swallows the following lines, while bash runs them. Remove the quote from the comment, or the comment.',
        };
        return false;
      }
    }
    // The rest of the line is comment: go on after it.
    return nl < 0 ? false : nl + 1;
  });
  return hit;
}

export default defineSecurityCheck(
  {
    id: 'comment-quote-desync',
    code: 'S222',
    title: 'Quote character inside a comment',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'In bash everything after an unquoted `#` at the start of a word is a comment, quotes included. ' +
        'Text-level checks that track quotes but not comments read `# it\'s` as an open string, and a ' +
        'crafted comment can make the following lines look quoted to them: `echo "it\'s" # \' " <<\'M\'` ' +
        'followed by `rm -rf /` hides the `rm` from newline checks. Claude Code asks (ID 22, misparsing).',
      fix: 'Leave quote characters out of comments in commands (`# do not` instead of `# don\'t`), or drop the comment.',
      exceptions:
        'Deviation from Claude Code: with the parse tree a `#` counts only where tree-sitter-bash starts a ' +
        'comment, so a mid-word `a#\'b\'` (which bash does not treat as a comment) is left to `mid-word-hash`, ' +
        'and `#` lines inside a quoted heredoc body (`cat <<\'EOF\'` … `# it\'s` … `EOF`) are not comments. ' +
        'A comment whose quotes pair up (`# say "hi"`, `# the \'x\' flag`; no backslash, `$`, backtick, `<`, `>`, parenthesis, ' +
        'brace or operator, no quote inside the other kind) ' +
        'leaves every quote tracker outside quotes at its end, so it is not reported. ' +
        'Claude Code\'s own tree-sitter path skips this check entirely; its regex path (used when the parse ' +
        'has a syntax error) reports both cases.',
    },
    sources: ['claude-code:validateCommentQuoteDesync'],
    examples: {
      valid: ['ls # plain comment', 'echo "a # b\'s"', "echo a#'b'", "cat <<'EOF'\n# it's\nEOF", 'echo ok # say "hi"'],
      invalid: ["ls # don't", 'echo ok # say "hi', 'ls # "it\'s"'],
    },
    claudeCode: { id: 22, name: 'validateCommentQuoteDesync', misparsing: true, order: ORDER['comment-quote-desync'] },
  },
  detect,
);
