/**
 * parse-error: text that tree-sitter-bash could not parse (ERROR nodes) or tokens it had to
 * invent (MISSING nodes). Claude Code treats a command whose parse fails as not provably safe
 * (claude-code-reference.md §1.7: parse-error ⇒ ask).
 */
import { defineCheck } from '../define.js';

const MAX_PER_UNIT = 100;

export default defineCheck(
  {
    id: 'parse-error',
    code: 'P101',
    title: 'Shell syntax that does not parse',
    category: 'parse',
    severity: { agent: 'warning', script: 'note' },
    docs: {
      rationale:
        'Every other analysis works on the parse tree. Where the tree has an ERROR node (text the ' +
        'grammar could not place) or a MISSING node (a token such as `fi` or `]` that the parser had ' +
        'to assume), shellward cannot tell what the shell will run there. Claude Code asks the user ' +
        'about any command whose parse fails, because a parser that disagrees with bash is how ' +
        'dangerous commands slip past checks.',
      fix: 'Fix the syntax (run `bash -n file` to see what bash says), or quote the text that confuses the parser.',
      exceptions:
        'tree-sitter-bash is not bash: some valid constructs do not parse (on the Debian corpus, about ' +
        '4% of scripts hit one, e.g. a backquoted command substitution that starts with `(`). Findings ' +
        'of the rest of the file are still reported. For that reason the finding is a `note` in the ' +
        '`script` profile (run `bash -n` to tell a real error from a parser limitation) and a `warning` ' +
        'in the `agent` profile, where Claude Code would ask before running what it cannot parse.',
    },
    sources: ['claude-code:parseForSecurity', 'shellcheck:SC1xxx'],
    examples: {
      valid: ['if [ -f x ]; then echo yes; fi', 'echo "a b" | tr a-z A-Z'],
      invalid: ['if [ -f x ]; then echo yes', 'echo "unterminated'],
    },
  },
  (ctx) => {
    let lastEnd = -1;
    let count = 0;
    for (const p of ctx.parsed.problems) {
      // Report only outermost problems: a MISSING inside an ERROR says the same thing twice.
      if (p.span.start < lastEnd) continue;
      lastEnd = Math.max(p.span.end, p.span.start + 1);
      if (++count > MAX_PER_UNIT) break;
      const message =
        p.kind === 'missing'
          ? `Syntax error: expected \`${p.expected ?? '?'}\` here; the parser had to assume it.`
          : 'Syntax error: this text does not parse as shell; checks cannot see what it runs.';
      ctx.report({ ruleId: 'parse-error', message, span: p.span, data: { kind: p.kind, expected: p.expected } });
    }
  },
);
