/**
 * control-characters: a non-printable control character anywhere in the command. Claude Code's
 * first pre-check in `bashCommandIsSafe_DEPRECATED` (ID 17 CONTROL_CHARACTERS, docs/claude-code-reference.md
 * §1.4 step 1).
 */
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/** True for 0x00–0x08, 0x0B, 0x0C, 0x0E–0x1F and 0x7F (tab, LF and CR are excluded). */
function isControl(c: number): boolean {
  return c <= 0x08 || c === 0x0b || c === 0x0c || (c >= 0x0e && c <= 0x1f) || c === 0x7f;
}

/** The first control character of the raw command. Mirrors Claude Code's `CONTROL_CHAR_RE` pre-check. */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const t = cmd.text;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (!isControl(c)) continue;
    const hex = c.toString(16).toUpperCase().padStart(4, '0');
    return {
      start: i,
      end: i + 1,
      message: `Non-printable control character U+${hex}: invisible in editors and terminals (an escape sequence can even hide the text around it), and parsers disagree about it, so reviewers and checks do not see what bash runs. Remove it; generate it at run time if needed (\`printf '\\033[1m'\`).`,
      data: { codePoint: c },
    };
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'control-characters',
    code: 'S217',
    title: 'Non-printable control character in a command',
    category: 'security',
    severity: { agent: 'warning', script: 'warning' },
    docs: {
      rationale:
        'Bytes 0x00–0x08, 0x0B, 0x0C, 0x0E–0x1F and 0x7F have no use written literally in a shell ' +
        'command. bash silently drops NUL bytes, so `echo safe\\x00; rm -rf /` runs the `rm` while a ' +
        'checker that stops at the NUL sees only `echo safe`; other control characters are kept by bash ' +
        'but are invisible to a reader, and terminal escape sequences (ESC) can hide or overwrite the ' +
        'text around them when the file is shown. Claude Code asks before anything else runs (ID 17, ' +
        'misparsing). In scripts a literal ESC in a colour string is common in older code, so the ' +
        '`script` profile reports a warning, not an error.',
      fix: 'Remove the control characters. To print one, generate it at run time: `printf \'\\033[1m\'`.',
      exceptions:
        'Tab, LF and CR are not control characters here: newlines and carriage returns have their own ' +
        'rules (`newlines`, `carriage-return`). Unlike Claude Code, shellward still runs the other ' +
        'checks after this one and reports what they find.',
    },
    sources: ['claude-code:bashCommandIsSafe_DEPRECATED.CONTROL_CHAR_RE'],
    examples: {
      valid: ['echo "tab\there"', 'printf \'\\033[1m\''],
      invalid: ['echo safe\x00; rm -rf /tmp/x', 'echo a\x1bb', 'ls\x7f -la'],
    },
    claudeCode: { id: 17, name: 'CONTROL_CHARACTERS', misparsing: true, order: ORDER['control-characters'] },
  },
  detect,
);
