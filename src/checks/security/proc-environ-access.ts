/**
 * proc-environ-access: a `/proc/…/environ` path, which exposes a process's environment. Claude
 * Code's `validateProcEnvironAccess` (ID 13 PROC_ENVIRON_ACCESS, claude-code-reference.md §1.6).
 */
import { isLineTerminator } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/**
 * `/proc/`, then anything on the same line, then `/environ` (Claude Code's
 * `/\/proc\/.*\/environ/`): per line, the first `/proc/` and the last `/environ` after it.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const t = cmd.text;
  let lineStart = 0;
  for (let i = 0; i <= t.length; i++) {
    if (i < t.length && !isLineTerminator(t.charCodeAt(i))) continue;
    const line = t.slice(lineStart, i);
    const p = line.indexOf('/proc/');
    if (p >= 0) {
      const e = line.lastIndexOf('/environ');
      if (e >= p + 6) {
        return {
          start: lineStart + p,
          end: lineStart + e + 8,
          message: 'Command reads /proc/*/environ, which exposes the environment of a process: API keys, tokens and passwords. Read the specific variable you need instead.',
        };
      }
    }
    lineStart = i + 1;
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'proc-environ-access',
    code: 'S213',
    title: 'Access to /proc/*/environ',
    category: 'security',
    severity: { agent: 'warning', script: 'error' },
    docs: {
      rationale:
        '`/proc/<pid>/environ` holds the environment a process was started with, which is where API keys, ' +
        'cloud credentials and tokens usually live. Reading it is a classic way to exfiltrate secrets. ' +
        'Claude Code asks for any command mentioning such a path, whatever the PID or path tricks ' +
        '(`/proc/self/../self/environ`) (ID 13, misparsing).',
      fix: 'Use the one variable you need (`printenv HOME`), not the whole environment of a process.',
      exceptions: 'The raw command is searched, quotes included, as in Claude Code.',
    },
    sources: ['claude-code:validateProcEnvironAccess'],
    examples: {
      valid: ['cat /proc/cpuinfo', 'ls /proc/self/', 'printenv HOME'],
      invalid: ['cat /proc/self/environ', 'cat /proc/1/environ', 'cat /proc/self/../self/environ', "tr '\\0' '\\n' < /proc/$PID/environ"],
    },
    claudeCode: { id: 13, name: 'validateProcEnvironAccess', misparsing: true, order: ORDER['proc-environ-access'] },
  },
  detect,
);
