/**
 * jq-file-arguments: a `jq` flag that reads a program or data from a file (`-f`, `--from-file`,
 * `--rawfile`, `--slurpfile`, `-L`, `--library-path`). The second test of Claude Code's
 * `validateJqCommand` (ID 3 JQ_FILE_ARGUMENTS, claude-code-reference.md §1.6).
 */
import { isJsSpace, isWordChar } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

const FLAGS: readonly { readonly flag: string; readonly wordEnd: boolean }[] = [
  { flag: '-f', wordEnd: true },
  { flag: '--from-file', wordEnd: false },
  { flag: '--rawfile', wordEnd: false },
  { flag: '--slurpfile', wordEnd: false },
  { flag: '-L', wordEnd: true },
  { flag: '--library-path', wordEnd: false },
];

/**
 * When the base command is `jq`: in the text after the first three characters, trimmed, the
 * first of the flags at its start or after whitespace (`-f` and `-L` as whole words). Mirrors
 * `validateJqCommand`.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  if (cmd.views.baseCommand !== 'jq') return undefined;
  const t = cmd.text;
  let from = 3;
  while (from < t.length && isJsSpace(t.charCodeAt(from))) from++;
  let to = t.length;
  while (to > from && isJsSpace(t.charCodeAt(to - 1))) to--;
  for (let i = from; i < to; i++) {
    if (t[i] !== '-' || (i > from && !isJsSpace(t.charCodeAt(i - 1)))) continue;
    for (const { flag, wordEnd } of FLAGS) {
      if (!t.startsWith(flag, i) || i + flag.length > to) continue;
      if (wordEnd && i + flag.length < to && isWordChar(t.charCodeAt(i + flag.length))) continue;
      return {
        start: i,
        end: i + flag.length,
        message: `jq \`${flag}\` reads a program or data from a file, which can execute code or read arbitrary files. Pass the filter inline and the data on stdin or as an operand.`,
        data: { flag },
      };
    }
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'jq-file-arguments',
    code: 'S203',
    title: 'jq flag that loads a program or data from a file',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        '`jq -f prog.jq` runs a program that nobody reviewed; `--rawfile`/`--slurpfile` read any file into ' +
        'a jq variable, and `-L` adds a module search path. Under a `Bash(jq:*)` permission these turn a JSON ' +
        'reader into a code runner or a file reader. Claude Code asks (ID 3, misparsing).',
      fix: 'Write the filter inline (`jq \'.items[]\' data.json`); pass files to read as operands, which path checks see.',
      exceptions:
        'Plain file operands (`jq . data.json`) are allowed; path validation handles them. As in Claude Code, ' +
        'combined short flags (`-rf`) are not recognised. In the `script` profile reading jq programs from ' +
        'files is ordinary and the rule is off.',
    },
    sources: ['claude-code:validateJqCommand'],
    examples: {
      valid: ['jq . data.json', 'jq -r .name package.json', 'jq --arg f x .a data.json'],
      invalid: [
        'jq -f prog.jq data.json',
        'jq --from-file prog.jq data.json',
        'jq --rawfile k /etc/passwd .',
        'jq --slurpfile k other.json .',
        'jq -L /tmp/mods .',
        'jq --library-path /tmp/mods .',
      ],
    },
    claudeCode: { id: 3, name: 'validateJqCommand', misparsing: true, order: ORDER['jq-file-arguments'] },
  },
  detect,
);
