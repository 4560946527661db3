/**
 * parse-too-complex: a command that contains a construct a static analysis cannot prove safe
 * (claude-code-reference.md §1.7), or that exceeds shellward's length or node-count cap. Mirrors the
 * `too-complex` outcome of Claude Code's tree-sitter path (`parseForSecurity`), which asks about
 * such commands before any allow rule is considered. The `parse-error` outcome is reported by the
 * `parse-error` rule, not here. Reads `ParsedScript.complexity` (src/parse/complexity.ts).
 */
import { describeComplexity, MAX_COMPLEXITY_LENGTH, MAX_COMPLEXITY_NODES } from '../../parse/complexity.js';
import { defineCheck } from '../define.js';

export default defineCheck(
  {
    id: 'parse-too-complex',
    code: 'P102',
    title: 'Command too complex to prove safe statically',
    category: 'parse',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'A permission rule such as `Bash(git status)` can only be trusted when the analyser sees every ' +
        'command that will run. Command substitution (`$(…)`, backticks), process substitution, ' +
        'parameter expansion (`${…}`, `$VAR` for variables other than a short list such as `$HOME` and ' +
        '`$PWD`), subshells and `{ …; }` groups, loops, `if`/`case`, function definitions, `[ … ]` / ' +
        '`[[ … ]]` tests, `$\'…\'` and `$"…"` strings, here-documents and here-strings all decide at run ' +
        'time what is executed or which arguments a command gets. Claude Code\'s tree-sitter path treats ' +
        'any of them — and any syntax its walker does not know — as "too complex" and asks the user ' +
        'instead of matching rules. shellward also treats a command longer than ' +
        `${MAX_COMPLEXITY_LENGTH} characters (UTF-16 code units) or with more than ${MAX_COMPLEXITY_NODES} syntax ` +
        'nodes as too complex.\n\n' +
        'The finding names the first such construct (outermost, leftmost) and its position.',
      fix:
        'Split the work into plain commands an agent can run one by one (`git diff --stat` then ' +
        '`git log -1`), pass values literally instead of through `$(…)` or `${…}`, and write multi-line ' +
        'content to a file with the editing tool instead of a here-document. Loops and conditionals ' +
        'belong in a script file that is reviewed once.',
      exceptions:
        'Off in the `script` profile: scripts use these constructs as a matter of course, and other ' +
        'rules cover their real risks. Parse errors are reported by `parse-error`. The two caps are ' +
        'shellward\'s choice; Claude Code\'s list of constructs (claude-code-reference.md §1.7) names no limits. tree-sitter-bash ' +
        'parses `until` loops as `while_statement` and `$"…"` as a string, which shellward reports as ' +
        '`translated_string`.',
    },
    sources: ['claude-code:parseForSecurity'],
    examples: {
      valid: ['git status', 'npm test && git diff --stat | head -20', 'echo "$HOME" > /dev/null', 'export CI=1; ls -la src'],
      invalid: [
        'echo $(date)',
        'for f in *.ts; do wc -l "$f"; done',
        'cat <<EOF\nhello\nEOF',
        'rm -rf "${DIR}/build"',
        '(cd src && ls)',
      ],
    },
  },
  (ctx) => {
    const c = ctx.parsed.complexity;
    if (c.status !== 'too-complex' || !c.span) return;
    const text = describeComplexity(c) ?? '';
    ctx.report({
      ruleId: 'parse-too-complex',
      message: text.charAt(0).toUpperCase() + text.slice(1),
      span: c.span,
      data: { construct: c.construct, offset: c.span.start },
    });
  },
);
