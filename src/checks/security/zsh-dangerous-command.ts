/**
 * zsh-dangerous-command: zsh builtins that load modules, do raw file or network I/O, or act
 * like eval (`zmodload`, `sysopen`, `ztcp`, `zf_rm`, `emulate`, `fc -e` …). Claude Code's
 * `validateZshDangerousCommands` (ID 20 ZSH_DANGEROUS_COMMANDS, claude-code-reference.md §1.6).
 */
import { isJsSpace } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/** The zsh builtins of claude-code-reference.md §1.6 ID 20 subId 1. */
export const ZSH_DANGEROUS_COMMANDS: ReadonlySet<string> = new Set([
  'zmodload', 'emulate', 'sysopen', 'sysread', 'syswrite', 'sysseek', 'zpty', 'ztcp', 'zsocket', 'mapfile',
  'zf_rm', 'zf_mv', 'zf_ln', 'zf_chmod', 'zf_chown', 'zf_mkdir', 'zf_rmdir', 'zf_chgrp',
]);

const PRECOMMAND_MODIFIERS: ReadonlySet<string> = new Set(['command', 'builtin', 'noglob', 'nocorrect']);
const ASSIGNMENT = /^[A-Za-z_]\w*=/;

/**
 * The base word of the trimmed raw command split on whitespace, skipping leading `NAME=value`
 * words and the precommand modifiers `command`, `builtin`, `noglob`, `nocorrect`: subId 1 when it
 * is one of the zsh builtins, subId 2 when it is `fc` and a whitespace-preceded token starting
 * with `-` contains `e`. Mirrors `validateZshDangerousCommands`.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  // A script whose shebang or extension names another shell cannot run zsh builtins (bash has a
  // `mapfile` builtin of its own). Agent commands may run under zsh, so they are always checked.
  if (cmd.profile === 'script' && cmd.dialect !== 'zsh') return undefined;
  const t = cmd.text;
  let i = 0;
  let end = t.length;
  while (i < end && isJsSpace(t.charCodeAt(i))) i++;
  while (end > i && isJsSpace(t.charCodeAt(end - 1))) end--;
  let base = '';
  let baseStart = i;
  while (i < end) {
    let j = i;
    while (j < end && !isJsSpace(t.charCodeAt(j))) j++;
    const token = t.slice(i, j);
    if (!ASSIGNMENT.test(token) && !PRECOMMAND_MODIFIERS.has(token)) {
      base = token;
      baseStart = i;
      break;
    }
    i = j;
    while (i < end && isJsSpace(t.charCodeAt(i))) i++;
  }
  if (ZSH_DANGEROUS_COMMANDS.has(base)) {
    return {
      start: baseStart,
      end: baseStart + base.length,
      subId: 1,
      message: `Command uses the zsh builtin \`${base}\`, which can load modules, do raw file or network I/O, or evaluate code past command checks. Use an ordinary command.`,
      data: { command: base },
    };
  }
  if (base === 'fc') {
    for (let k = baseStart + 2; k + 1 < end; k++) {
      if (!isJsSpace(t.charCodeAt(k)) || t[k + 1] !== '-') continue;
      for (let m = k + 2; m < end && !isJsSpace(t.charCodeAt(m)); m++) {
        if (t[m] === 'e') {
          let stop = m;
          while (stop < end && !isJsSpace(t.charCodeAt(stop))) stop++;
          return {
            start: k + 1,
            end: stop,
            subId: 2,
            message: '`fc -e` runs an editor command on shell history, which amounts to eval. List history with `fc -l` instead.',
            data: { command: 'fc' },
          };
        }
      }
    }
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'zsh-dangerous-command',
    code: 'S220',
    title: 'zsh builtin that bypasses command checks',
    category: 'security',
    severity: { agent: 'warning', script: 'warning' },
    docs: {
      rationale:
        'zsh modules add builtins that do what permission rules check for other commands, without running ' +
        'those commands: `zmodload zsh/system` then `sysopen`/`syswrite` write files, `ztcp`/`zsocket` open ' +
        'network connections, `zpty` runs commands on a pseudo-terminal, `zf_rm` and friends are built-in ' +
        '`rm`, `mv`, `chmod`. `emulate -c` and `fc -e` evaluate code. Claude Code asks when the first word ' +
        '(after assignments and `command`/`builtin`/`noglob`/`nocorrect`) is one of them (ID 20, misparsing).',
      fix: 'Use the ordinary external command (`rm`, `curl`, `cat`), which permission rules and path checks understand.',
      exceptions:
        'Only the first command of the string is examined, as in Claude Code (`ls; zmodload x` is not ' +
        'reported by this rule; in the `script` profile each statement is examined). `fc` without an `e` ' +
        'flag (`fc -l`) passes. In the `script` profile only zsh scripts (by shebang or `.zsh`) are ' +
        'checked: bash has a `mapfile` builtin of its own, and a bash or sh script cannot load zsh modules.',
    },
    sources: ['claude-code:validateZshDangerousCommands'],
    examples: {
      valid: ['fc -l', 'echo zmodload', 'ls -la'],
      invalid: ['zmodload zsh/system', 'FOO=bar command builtin zmodload zsh/net/tcp', "emulate -c 'ls'", 'ztcp example.com 80', 'zf_rm -rf /tmp/x', 'fc -e vi', 'fc -le 10'],
    },
    claudeCode: { id: 20, name: 'validateZshDangerousCommands', misparsing: true, order: ORDER['zsh-dangerous-command'] },
  },
  detect,
);
