/**
 * brace-expansion: unquoted `{a,b}` / `{1..5}` expansion, or quoted braces used to confuse
 * brace matching. Claude Code's `validateBraceExpansion` (ID 16 BRACE_EXPANSION,
 * claude-code-reference.md §1.6), on the `fullyUnquotedPreStrip` view.
 */
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import { viewHit, type Hit, type SecurityCommand } from './statement.js';

/** True when the character at `pos` follows an odd run of backslashes. */
function escapedAt(s: string, pos: number): boolean {
  let n = 0;
  for (let i = pos - 1; i >= 0 && s[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

/**
 * subId 2: more unescaped `}` than `{` (with at least one `{`); subId 3: an unescaped `{` and a
 * quoted single brace (`'{'`, `"}"` …) in the raw command; subId 1: a `{` whose matching `}`
 * encloses a `,` or `..` at its own depth. Brace pairs are matched with one stack pass (Claude
 * Code rescans forward from every `{`, which is quadratic; the result is the same).
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const v = cmd.views.fullyUnquotedPreStrip;
  const u = v.text;
  const opens: number[] = [];
  let open = 0;
  let close = 0;
  for (let i = 0; i < u.length; i++) {
    if ((u[i] === '{' || u[i] === '}') && !escapedAt(u, i)) {
      if (u[i] === '{') {
        open++;
        opens.push(i);
      } else close++;
    }
  }
  if (open > 0 && close > open) {
    return viewHit(v, opens[0]!, opens[0]! + 1, 'More closing than opening braces once quotes are removed: a quoted `{` is hiding a brace expansion from checks. Do not quote single braces inside `{…}`.', { subId: 2 });
  }
  if (open > 0) {
    const t = cmd.text;
    for (let i = 0; i + 2 < t.length; i++) {
      const a = t[i];
      const c = t[i + 2];
      if ((a === "'" || a === '"') && (t[i + 1] === '{' || t[i + 1] === '}') && (c === "'" || c === '"')) {
        return { start: i, end: i + 3, subId: 3, message: 'Quoted brace character next to an unquoted brace expansion: a classic way to make brace matching disagree with bash. Write the arguments out.' };
      }
    }
  }
  // Stack matching: each frame records whether a `,` or `..` sits directly inside it.
  const stack: { at: number; expands: boolean }[] = [];
  let first = -1;
  for (let i = 0; i < u.length; i++) {
    const c = u[i];
    if ((c === '{' || c === '}') && !escapedAt(u, i)) {
      if (c === '{') stack.push({ at: i, expands: false });
      else {
        const frame = stack.pop();
        if (frame?.expands && (first < 0 || frame.at < first)) first = frame.at;
      }
      continue;
    }
    const top = stack[stack.length - 1];
    if (top && (c === ',' || (c === '.' && u[i + 1] === '.'))) top.expands = true;
  }
  if (first >= 0) {
    return viewHit(v, first, first + 1, 'Unquoted brace expansion: bash turns `{a,b}` / `{1..3}` into several words, so one argument a check sees becomes several (`{--upload-pack=evil,x}`). Write the words out, or quote the braces.', { subId: 1 });
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'brace-expansion',
    code: 'S216',
    title: 'Unquoted brace expansion',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'bash expands `git ls-remote {--upload-pack="touch /tmp/x",test}` into two arguments, the first a flag ' +
        'that runs a command, while a parser that keeps the word whole sees one harmless argument. Quoted ' +
        'braces make brace matching disagree with bash: in `git diff {@\'{\'0},--output=/tmp/pwned}` the quoted ' +
        '`{` is data for bash, which then expands to `--output=/tmp/pwned`. Claude Code asks for both (ID 16, misparsing).',
      fix: 'Write the expanded words out (`a b` instead of `{a,b}`), or quote the braces: `\'{a,b}\'`.',
      exceptions:
        'As in Claude Code: quoted braces (`awk \'{print $1}\'`), escaped braces, unclosed `{`, and braces ' +
        'without a comma or `..` at their own depth (`stash@{0}`, `{}`, `{{.X}}`) pass. A comma directly ' +
        'inside a brace pair counts even when backslash-escaped. In the `script` profile brace expansion is ' +
        'ordinary and the rule is off.',
    },
    sources: ['claude-code:validateBraceExpansion'],
    examples: {
      valid: ["awk '{print $1}' f", 'echo \\{a,b\\}', 'echo {foo', 'git stash show stash@{0}', 'find . -exec ls {} +', 'echo {{.X}}'],
      invalid: ["git diff {@'{'0},--output=/tmp/pwned}", "echo {a'}'", 'git ls-remote {--upload-pack="touch /tmp/test",test}', 'echo {1..5}', 'echo {a,b}'],
    },
    claudeCode: { id: 16, name: 'validateBraceExpansion', misparsing: true, order: ORDER['brace-expansion'] },
  },
  detect,
);
