/**
 * ifs-injection: any use of the `IFS` variable (`$IFS`, `${IFS:0:1}`, `${#IFS}` …). Claude
 * Code's `validateIFSInjection` (ID 11 IFS_INJECTION, claude-code-reference.md §1.6).
 */
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/**
 * The leftmost `$IFS`, or `${` followed by non-`}` characters and then `IFS`, in the raw command
 * (Claude Code's `/\$IFS|\$\{[^}]*IFS/`), found in one pass that remembers the last `${` and
 * the last `}`.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const t = cmd.text;
  let open = -1;
  let close = -1;
  const message = 'Command uses the IFS variable: its value (by default space, tab, newline) can stand in for separators that checks look for, as in `cat${IFS}/etc/passwd`. Write the separator itself.';
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '$' && t[i + 1] === '{') {
      if (open < 0 || open < close) open = i;
    } else if (c === '}') close = i;
    // A `$IFS` inside an open `${…` also matches the second alternative, which starts earlier.
    if (c === '$' && t.startsWith('IFS', i + 1)) return { start: open >= 0 && open > close ? open : i, end: i + 4, message };
    if (c === 'I' && t.startsWith('IFS', i) && open >= 0 && open > close && open + 2 <= i) return { start: open, end: i + 3, message };
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'ifs-injection',
    code: 'S211',
    title: 'Use of the IFS variable',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        '`$IFS` expands to whitespace by default, so `cat${IFS}/etc/passwd` is `cat /etc/passwd` to bash but ' +
        'one word to a check that splits on spaces; `${IFS:0:1}` and similar pick single separator characters. ' +
        'Claude Code asks whenever the raw command mentions IFS this way (ID 11, misparsing).',
      fix: 'Write spaces and separators literally. In scripts, set IFS for one command only: `IFS=: read -r a b`.',
      exceptions:
        'The raw command is searched, quotes included, as in Claude Code: `echo \'$IFS\'` and `$IFSX` are ' +
        'reported too. Assignments (`IFS=:`) are not uses and pass.',
    },
    sources: ['claude-code:validateIFSInjection'],
    examples: {
      valid: ['IFS=: read -r a b', 'echo "$PATH"', 'echo IFS'],
      invalid: ['cat$IFS/etc/passwd', 'cat${IFS}/etc/passwd', 'echo ${IFS:0:1}', 'echo ${#IFS}'],
    },
    claudeCode: { id: 11, name: 'validateIFSInjection', misparsing: true, order: ORDER['ifs-injection'] },
  },
  detect,
);
