/**
 * backslash-escaped-operators: `\;`, `\|`, `\&`, `\<` or `\>` outside quotes, which Claude
 * Code's command splitter normalises into a real operator. Claude Code's
 * `validateBackslashEscapedOperators` (ID 21 BACKSLASH_ESCAPED_OPERATORS, claude-code-reference.md §1.6).
 */
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

const OPERATORS = ';|&<>';

/**
 * With a parse tree that has no `;`, `&&`, `||` or list node, nothing (as Claude Code's
 * tree-sitter path). Otherwise, outside both kinds of quotes, a backslash followed by an
 * operator character; backslashes are handled before quotes and always skip the next character
 * outside single quotes. Mirrors `hasBackslashEscapedOperator`.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  if (cmd.tree && !cmd.tree.hasOperatorNodes) return undefined;
  const t = cmd.text;
  let inSingle = false;
  let inDouble = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '\\' && !inSingle) {
      const next = t[i + 1];
      if (!inDouble && next !== undefined && OPERATORS.includes(next)) {
        return {
          start: i,
          end: i + 2,
          message:
            `Backslash before the shell operator \`${next}\`: bash treats it as a literal character, but Claude Code's ` +
            'command splitter turns it into a real operator on re-parse, so checks see different commands than bash runs. Quote it: `\';\'`.',
        };
      }
      i++;
      continue;
    }
    if (c === "'" && !inDouble) inSingle = !inSingle;
    else if (c === '"' && !inSingle) inDouble = !inDouble;
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'backslash-escaped-operators',
    code: 'S221',
    title: 'Backslash-escaped shell operator',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'In `cat safe.txt \\; echo ~/.ssh/id_rsa` bash runs one `cat` that reads four files, one of them the ' +
        'private key. Claude Code\'s legacy splitter normalises `\\;` to `;` and, on re-parse, sees two harmless ' +
        'commands, so path checks never look at `~/.ssh/id_rsa`. Claude Code asks (ID 21, misparsing).',
      fix: 'Quote literal operator characters (`\';\'`), and keep real operators unescaped.',
      exceptions:
        '`\\(` and `\\)` are not reported, so `find . \\( -name x -o -name y \\)` passes, as in Claude Code. ' +
        'Deviation (taken from Claude Code\'s tree-sitter path): when the parse has no real `;`, `&&`, `||` ' +
        'or list node, nothing is reported, so `find . -exec rm {} \\;` and `cat safe.txt \\; echo x` (one ' +
        'command for bash and for tree-sitter) pass; add a real operator (`find … \\; && echo done`) and the ' +
        'regex check applies again. shellward approximates "operator nodes" from the text outside quotes, ' +
        'comments and quoted heredocs and from top-level list statements, erring towards applying the check; ' +
        'a syntax error also keeps it on.',
    },
    sources: ['claude-code:validateBackslashEscapedOperators'],
    examples: {
      valid: ["find . -name '*.pyc' -exec rm {} \\;", 'find . \\( -name x -o -name y \\)', 'echo "a\\;b" && ls', 'echo \\\\; ls'],
      invalid: ['cat safe.txt \\; echo ~/.ssh/id_rsa && true', 'find . -exec rm {} \\; && echo done', 'tac "x\\"y" \\; echo ~/.ssh/id_rsa; ls', 'cat "x\\\\" \\; echo /etc/passwd; ls'],
    },
    claudeCode: { id: 21, name: 'validateBackslashEscapedOperators', misparsing: true, order: ORDER['backslash-escaped-operators'] },
  },
  detect,
);
