/**
 * shell-metacharacters: a quoted argument containing `;`, `&` or `|` where a quote character
 * survives quote removal. Claude Code's `validateShellMetacharacters` (ID 5 SHELL_METACHARACTERS,
 * claude-code-reference.md §1.6), on the `unquotedContent` view.
 */
import { isJsSpace } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import { viewHit, type Hit, type SecurityCommand } from './statement.js';

const isQ = (c: string | undefined): boolean => c === '"' || c === "'";

/** Index of the next `"` or `'` at or after `from` in `s`, or -1. */
function nextQuote(s: string, from: number): number {
  for (let i = from; i < s.length; i++) if (isQ(s[i])) return i;
  return -1;
}

/** True when `s[from, to)` holds one of `chars`. */
function holds(s: string, from: number, to: number, chars: string): boolean {
  for (let i = from; i < to; i++) if (chars.includes(s[i]!)) return true;
  return false;
}

/**
 * subId 1: at the start or after whitespace, a quote, non-quote text holding `;`/`&`, a quote,
 * then whitespace or the end; subId 2: `-name`, `-path`, `-iname` + whitespace + a quoted text
 * holding `;`, `|` or `&`; subId 3: `-regex` + whitespace + a quoted text holding `;` or `&`.
 * Mirrors `validateShellMetacharacters`; linear (each quote is the start of one scan).
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const v = cmd.views.unquotedContent;
  const u = v.text;
  const message = 'Quoted argument contains shell metacharacters (`;`, `|` or `&`) next to a literal quote character, which a re-parse of the command could split into separate commands. Avoid the stray quote.';
  for (let p = nextQuote(u, 0); p >= 0; ) {
    const q = nextQuote(u, p + 1);
    if (q < 0) break;
    if ((p === 0 || isJsSpace(u.charCodeAt(p - 1))) && holds(u, p + 1, q, ';&') && (q + 1 >= u.length || isJsSpace(u.charCodeAt(q + 1)))) {
      return viewHit(v, p, q + 1, message, { subId: 1 });
    }
    p = q;
  }
  for (const [flag, chars, subId] of [['-name', ';|&', 2], ['-path', ';|&', 2], ['-iname', ';|&', 2], ['-regex', ';&', 3]] as const) {
    for (let f = u.indexOf(flag); f >= 0; f = u.indexOf(flag, f + 1)) {
      let k = f + flag.length;
      if (!(k < u.length && isJsSpace(u.charCodeAt(k)))) continue;
      while (k < u.length && isJsSpace(u.charCodeAt(k))) k++;
      if (!isQ(u[k])) continue;
      const q = nextQuote(u, k + 1);
      if (q < 0) continue;
      if (holds(u, k + 1, q, chars)) return viewHit(v, f, q + 1, message, { subId });
    }
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'shell-metacharacters',
    code: 'S205',
    title: 'Shell metacharacters in a quoted argument with a stray quote',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'Claude Code re-parses commands when it splits and re-joins them. A `;`, `&` or `|` inside a quoted ' +
        'argument is harmless to bash, but when a literal quote character survives quote removal (a `\'` ' +
        'inside double quotes, an escaped quote, or `jq`\'s double quotes) the re-joined text can put the ' +
        'metacharacter outside quotes. Claude Code asks (ID 5, misparsing); the `find` forms (`-name`, ' +
        '`-path`, `-iname`, `-regex`) are checked separately because they are common.',
      fix: 'Avoid literal quote characters next to metacharacters: `find . -name \'*;*\'` instead of `find . -name "\'*;*\'"`.',
      exceptions:
        'The check runs on the view with single-quoted text removed and double-quote delimiters dropped, so ' +
        'ordinary quoting (`echo "a;b"`, `find . -name "*;*"`) passes. In the `script` profile the rule is off.',
    },
    sources: ['claude-code:validateShellMetacharacters'],
    examples: {
      valid: ['echo "a;b"', "find . -name '*.ts'", 'find . -name "*;*"'],
      invalid: ['echo "\'x;y\'"', 'jq "a;b" data.json', 'find . -name "\'a|b\'"', 'find . -regex "\'a&b\'x"'],
    },
    claudeCode: { id: 5, name: 'validateShellMetacharacters', misparsing: true, order: ORDER['shell-metacharacters'] },
  },
  detect,
);
