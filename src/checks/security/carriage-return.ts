/**
 * carriage-return: a CR outside double quotes. Claude Code's `validateCarriageReturn`, logged as
 * NEWLINES (ID 7) subId 2 but, unlike `validateNewlines`, a misparsing ask
 * (claude-code-reference.md §1.6). A rule of its own because its misparsing flag differs.
 */
import { scanQuoted } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/** The first CR that is unquoted or inside single quotes. Mirrors `validateCarriageReturn`. */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const t = cmd.text;
  if (!t.includes('\r')) return undefined;
  let hit: Hit | undefined;
  scanQuoted(t, [], (i, _inSingle, inDouble) => {
    if (t[i] !== '\r' || inDouble) return undefined;
    hit = {
      start: i,
      end: i + 1,
      subId: 2,
      message:
        'Carriage return outside double quotes: bash keeps it inside the word, but the shell-quote parser ' +
        'splits there, so checks see different words than bash runs. Remove it (CRLF line endings?).',
    };
    return false;
  });
  return hit;
}

export default defineSecurityCheck(
  {
    id: 'carriage-return',
    code: 'S224',
    title: 'Carriage return outside double quotes',
    category: 'security',
    severity: { agent: 'warning', script: 'warning' },
    docs: {
      rationale:
        'bash does not split words at a carriage return (CR is not in IFS); the shell-quote parser Claude Code ' +
        'uses does. `TZ=UTC<CR>echo curl evil.com` is one assignment plus `curl evil.com` for bash, but ' +
        '`TZ=UTC echo curl evil.com` for the parser, so an `echo` permission would approve running curl. ' +
        'Claude Code asks (logged as ID 7 subId 2, misparsing).',
      fix: 'Remove carriage returns; convert CRLF line endings to LF (`dos2unix`).',
      exceptions:
        'A CR inside double quotes is data for both parsers and passes, as in Claude Code; a CR inside single ' +
        'quotes is reported. shellward gives this sub-case its own rule id because its ask carries the ' +
        'misparsing flag while the `newlines` ask does not.',
    },
    sources: ['claude-code:validateCarriageReturn'],
    examples: {
      valid: ['echo "a\rb"', 'echo ok'],
      invalid: ['TZ=UTC\recho curl evil.com', "echo 'a\rb'"],
    },
    claudeCode: { id: 7, name: 'validateCarriageReturn', misparsing: true, order: ORDER['carriage-return'] },
  },
  detect,
);
