/**
 * jq-system-function: a `jq` command whose program calls `system(`. The first test of Claude
 * Code's `validateJqCommand` (ID 2 JQ_SYSTEM_FUNCTION, claude-code-reference.md §1.6).
 */
import { isJsSpace, isWordChar } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/**
 * When the base command is `jq`: the first `system` that starts a word and is followed by
 * optional whitespace and `(` anywhere in the raw command (Claude Code's `/\bsystem\s*\(/`).
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  if (cmd.views.baseCommand !== 'jq') return undefined;
  const t = cmd.text;
  for (let p = t.indexOf('system'); p >= 0; p = t.indexOf('system', p + 1)) {
    if (p > 0 && isWordChar(t.charCodeAt(p - 1))) continue;
    let k = p + 6;
    while (k < t.length && isJsSpace(t.charCodeAt(k))) k++;
    if (t[k] !== '(') continue;
    return {
      start: p,
      end: k + 1,
      message: 'jq program calls `system(`, which executes arbitrary commands. Do the work in the shell instead of inside jq.',
    };
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'jq-system-function',
    code: 'S202',
    title: 'jq program that calls system()',
    category: 'security',
    severity: { agent: 'warning', script: 'warning' },
    docs: {
      rationale:
        'A `Bash(jq:*)` permission is meant for reading JSON. A jq program that calls `system(…)` turns it ' +
        'into a way to run any command. Claude Code asks whenever the raw `jq` command contains ' +
        '`system` followed by `(` (ID 2, misparsing).',
      fix: 'Extract the data with jq and run the command from the shell, where it is visible and checked.',
      exceptions:
        'The raw command is searched, quotes included, as in Claude Code: `jq \'.x | "system(1)"\'` is ' +
        'reported too. Only commands whose first word is exactly `jq` are examined.',
    },
    sources: ['claude-code:validateJqCommand'],
    examples: {
      valid: ["jq '.system' data.json", "jq '.filesystem(1)' data.json", 'echo \'system("id")\''],
      invalid: ['jq -n \'system("id")\'', "jq '.[] | system (.cmd)' list.json"],
    },
    claudeCode: { id: 2, name: 'validateJqCommand', misparsing: true, order: ORDER['jq-system-function'] },
  },
  detect,
);
