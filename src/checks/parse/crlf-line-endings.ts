/**
 * crlf-line-endings: a script saved with Windows (CRLF) line endings. bash does not treat `\r`
 * as whitespace: it stays at the end of the last word of every line. Mirrors ShellCheck SC1017.
 * Reported once per script, at the first CRLF.
 */
import { defineCheck } from '../define.js';

export default defineCheck(
  {
    id: 'crlf-line-endings',
    code: 'P103',
    title: 'Script has CRLF line endings',
    category: 'parse',
    severity: { agent: 'warning', script: 'error' },
    docs: {
      rationale:
        'bash reads a carriage return as an ordinary character, so in a file with CRLF line endings ' +
        'the `\\r` becomes part of the last word of every line: `cd build\\r` fails, `then\\r` is a ' +
        'syntax error, and `rm -rf /tmp/x\\r` removes a path other than the one the file shows. ' +
        'tree-sitter-bash, like most editors, treats `\\r` as whitespace, so the other checks see the ' +
        'script as it looks, not as bash runs it.',
      fix: 'Convert the file to LF line endings (`dos2unix file`, `sed -i "s/\\r$//" file`), and set `* text=auto eol=lf` in `.gitattributes`.',
      exceptions:
        'One finding per unit, at the first CRLF. For agent commands, `carriage-return` (Claude Code ' +
        'NEWLINES subId 2) also reports a carriage return outside double quotes; this rule adds the ' +
        'line-ending diagnosis. A CRLF inside a quoted heredoc body is still reported: editors convert ' +
        'whole files.',
    },
    sources: ['shellcheck:SC1017'],
    examples: {
      valid: ['echo a\necho b\n', 'printf "a\\r\\n"'],
      invalid: ['echo a\r\necho b\r\n'],
    },
  },
  (ctx) => {
    const text = ctx.unit.text;
    const at = text.indexOf('\r\n');
    if (at === -1) return;
    const lines = text.split('\r\n').length - 1;
    ctx.report({
      ruleId: 'crlf-line-endings',
      message: `The script has CRLF (Windows) line endings (${lines} line${lines === 1 ? '' : 's'}): bash keeps the \\r at the end of each line's last word. Convert it to LF.`,
      span: { start: at, end: at + 1 },
    });
  },
);
