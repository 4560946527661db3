/**
 * obfuscated-flags: quoting used to hide a flag from checks that look for it (`"-"exec`,
 * `$'-f'`, `""-f`, `-e"xec"` …). Claude Code's `validateObfuscatedFlags` (ID 4 OBFUSCATED_FLAGS,
 * claude-code-reference.md §1.6), plus the dash-message ask of `validateGitCommit` that Claude Code logs
 * under the same ID.
 */
import { isJsSpace, scanQuoted } from '../../analyses/security-views.js';
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import { insideAny, viewHit, type Hit, type SecurityCommand } from './statement.js';

const QUOTES = '\'"`';
const isQuote = (c: string | undefined): boolean => c !== undefined && c !== '' && QUOTES.includes(c);
const isAlnum = (c: string | undefined): boolean => c !== undefined && /^[a-zA-Z0-9]$/.test(c);
/** A character that can continue a flag after a closing quote: `[a-zA-Z0-9\\${`-]`. */
const isFlagContinuation = (c: string | undefined): boolean => isAlnum(c) || (c !== undefined && c !== '' && '\\${`-'.includes(c));
const isFlagChar = (c: string | undefined): boolean => isAlnum(c) || c === '$' || c === '`';
const space = (t: string, i: number): boolean => i >= 0 && i < t.length && isJsSpace(t.charCodeAt(i));

/** `^-+[a-zA-Z0-9$`]` on `s`. */
function dashesThenFlagChar(s: string): boolean {
  let i = 0;
  while (s[i] === '-') i++;
  return i > 0 && isFlagChar(s[i]);
}

/** `^-+$` on `s`. */
function onlyDashes(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) if (s[i] !== '-') return false;
  return true;
}

const MESSAGE = (what: string): string =>
  `Quoted characters in a flag name (${what}): the shell joins them into a flag that checks looking for flags by name do not see. Write the flag plainly.`;

/**
 * Incremental state of the concatenated content of a chain of adjacent quoted segments: is it
 * empty, only dashes, dashes followed by a flag character, or something else.
 */
class Combined {
  private state: 'empty' | 'dashes' | 'flag' | 'other' = 'empty';
  startsWithDash = false;

  constructor(initial: string) {
    this.append(initial);
  }

  get isEmpty(): boolean {
    return this.state === 'empty';
  }
  get isOnlyDashes(): boolean {
    return this.state === 'dashes';
  }
  get isFlag(): boolean {
    return this.state === 'flag';
  }

  append(s: string): void {
    for (let i = 0; i < s.length && (this.state === 'empty' || this.state === 'dashes'); i++) {
      const c = s[i];
      if (c === '-') {
        if (this.state === 'empty') this.startsWithDash = true;
        this.state = 'dashes';
      } else this.state = this.state === 'dashes' && isFlagChar(c) ? 'flag' : 'other';
    }
  }
}

/**
 * Claude Code's chain test (`hasFlagCharsInNextQuote`): from the opening quote at `pos`, follow
 * adjacent quoted segments; true when their concatenation with `inside` forms dashes followed by
 * a flag character, or the chain ends in a flag-continuation character. `budget.left` bounds the
 * total work of all chains of one command (linear time); when it runs out the answer is `true`.
 */
function chainFormsFlag(t: string, pos: number, inside: string, budget: { left: number }): boolean {
  const combined = new Combined(inside);
  while (pos < t.length && isQuote(t[pos])) {
    const q = t[pos]!;
    let end = t.indexOf(q, pos + 1);
    if (end < 0) end = t.length;
    budget.left -= end - pos + 1;
    if (budget.left < 0) return true;
    const segment = t.slice(pos + 1, end);
    const priorOnlyDashes = combined.isOnlyDashes;
    combined.append(segment);
    if (combined.isFlag) return true;
    if (priorOnlyDashes && /[a-zA-Z0-9$`]/.test(segment)) return true;
    if (end >= t.length) break;
    pos = end + 1;
  }
  if (pos < t.length && isFlagContinuation(t[pos])) {
    const next = t[pos]!;
    if (combined.isOnlyDashes || combined.isEmpty) {
      if (next === '-') return true;
      if (/[a-zA-Z0-9\\${`]/.test(next) && !combined.isEmpty) return true;
    }
    if (combined.startsWithDash) return true;
  }
  return false;
}

/** The quote-aware character scan of `validateObfuscatedFlags` (subIds 4 and 1). */
function characterScan(cmd: SecurityCommand): Hit | undefined {
  const t = cmd.text;
  const budget = { left: 4 * t.length + 64 };
  let hit: Hit | undefined;
  const printed = cmd.tree?.printedArgs ?? [];
  scanQuoted(t, [], (i, inSingle, inDouble) => {
    // Claude Code's scan looks at each character with the one after it: the last has none.
    if (i >= t.length - 1 || inSingle || inDouble || !space(t, i)) return undefined;
    // A word `echo` / `printf` prints (`echo "---Summary---"` on its own line) is no flag of anything.
    if (printed.length > 0 && insideAny(printed, i + 1)) return undefined;
    const next = t[i + 1]!;
    if (isQuote(next)) {
      const close = t.indexOf(next, i + 2);
      if (close >= 0) {
        const inside = t.slice(i + 2, close);
        const after = t[close + 1];
        const found =
          dashesThenFlagChar(inside) ||
          (onlyDashes(inside) && isFlagContinuation(after)) ||
          ((inside === '' || onlyDashes(inside)) && isQuote(after) && chainFormsFlag(t, close + 1, inside, budget));
        if (found) {
          hit = { start: i + 1, end: close + 1, subId: 4, message: MESSAGE(`\`${t.slice(i + 1, Math.min(close + 1, i + 41))}\``) };
          return false;
        }
      }
    }
    if (next === '-') {
      let j = i + 1;
      let flag = '';
      while (j < t.length) {
        const f = t[j]!;
        if (space(t, j) || f === '=') break;
        if (isQuote(f)) {
          if (cmd.views.baseCommand === 'cut' && flag === '-d') break;
          if (j + 1 < t.length && !/[a-zA-Z0-9_'"-]/.test(t[j + 1]!)) break;
        }
        flag += f;
        j++;
      }
      if (flag.includes('"') || flag.includes("'")) {
        hit = { start: i + 1, end: j, subId: 1, message: MESSAGE(`\`${flag.slice(0, 40)}\``) };
        return false;
      }
    }
    return undefined;
  });
  return hit;
}

/**
 * The first sub-check of `validateObfuscatedFlags` that fires, in Claude Code's order (5, 6, 9,
 * 7, 10, 11, the character scan 4/1, then 2 and 3 on the fully unquoted view); or the
 * `validateGitCommit` dash-message ask (subId 5 at the git-commit position). In the `script`
 * profile plain ANSI-C and locale quoting (subIds 5, 6) are not reported unless the quoted text
 * starts with a dash.
 */
export function detect(cmd: SecurityCommand): Hit | undefined {
  if (cmd.gitCommit.kind === 'ask-dash-message') {
    const m = cmd.gitCommit.message;
    return {
      start: m.start,
      end: m.end,
      subId: 5,
      order: ORDER['git-commit-substitution'],
      message: 'Git commit message starts with `-`: quoted characters in flag names. Start the message with another character.',
    };
  }
  const t = cmd.text;
  if (cmd.views.baseCommand === 'echo' && !/[|&;]/.test(t)) return undefined;
  const script = cmd.profile === 'script';

  // subId 5: ANSI-C quoting $'…'; subId 6: locale quoting $"…"
  for (const [q, subId, name] of [["'", 5, 'ANSI-C quoting'], ['"', 6, 'locale quoting']] as const) {
    for (let p = t.indexOf('$' + q); p >= 0; p = t.indexOf('$' + q, p + 1)) {
      const close = t.indexOf(q, p + 2);
      if (close < 0) break;
      if (script && t[p + 2] !== '-') continue;
      return {
        start: p,
        end: close + 1,
        subId,
        message: `${name} \`$${q}…${q}\` can encode any character through escapes, hiding flags and operators from checks. Write the characters plainly.`,
      };
    }
  }
  // subId 9: $ + two quote characters + \s* + -
  for (let p = t.indexOf('$'); p >= 0; p = t.indexOf('$', p + 1)) {
    const a = t[p + 1];
    const b = t[p + 2];
    if ((a !== "'" && a !== '"') || (b !== "'" && b !== '"')) continue;
    let k = p + 3;
    while (space(t, k)) k++;
    if (t[k] === '-') return { start: p, end: k + 1, subId: 9, message: MESSAGE('empty special quotes before a dash') };
  }
  // subId 7: at start or after whitespace, one or more empty pairs, \s*, -
  for (let p = 0; p < t.length; p++) {
    if (p > 0 && !space(t, p - 1)) continue;
    let k = p;
    while ((t[k] === "'" && t[k + 1] === "'") || (t[k] === '"' && t[k + 1] === '"')) k += 2;
    if (k === p) continue;
    while (space(t, k)) k++;
    if (t[k] === '-') return { start: p, end: k + 1, subId: 7, message: MESSAGE('empty quotes before a dash') };
  }
  // subId 10: a homogeneous empty pair, a quote character, then -
  for (let i = 2; i + 1 < t.length; i++) {
    const pair = t[i - 2];
    if ((pair === "'" || pair === '"') && t[i - 1] === pair && (t[i] === "'" || t[i] === '"') && t[i + 1] === '-') {
      return { start: i - 2, end: i + 2, subId: 10, message: MESSAGE('an empty quote pair next to a quoted dash') };
    }
  }
  // subId 11: at start or after whitespace, three or more quote characters
  for (let p = 0; p + 2 < t.length; p++) {
    if (p > 0 && !space(t, p - 1)) continue;
    const q = (c: string | undefined): boolean => c === "'" || c === '"';
    if (q(t[p]) && q(t[p + 1]) && q(t[p + 2])) {
      let k = p + 3;
      while (q(t[k])) k++;
      return { start: p, end: k, subId: 11, message: MESSAGE('consecutive quote characters at the start of a word') };
    }
  }
  const scanned = characterScan(cmd);
  if (scanned) return scanned;
  const v = cmd.views.fullyUnquotedContent;
  const u = v.text;
  for (let i = 0; i + 2 < u.length; i++) {
    if (space(u, i) && isQuote(u[i + 1]) && u[i + 2] === '-') return viewHit(v, i + 1, i + 3, MESSAGE('a quote before a dash'), { subId: 2 });
  }
  for (let i = 0; i + 2 < u.length; i++) {
    if (isQuote(u[i]) && isQuote(u[i + 1]) && u[i + 2] === '-') return viewHit(v, i, i + 3, MESSAGE('two quotes before a dash'), { subId: 3 });
  }
  return undefined;
}

export default defineSecurityCheck(
  {
    id: 'obfuscated-flags',
    code: 'S204',
    title: 'Flag name hidden by quoting',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'Many checks recognise dangerous flags by name: `find -exec`, `jq -f`, `git --upload-pack`, ' +
        '`fc -e`. The shell removes quotes before the command sees its arguments, so `"-"exec`, ' +
        '`-e"xec"`, `""-exec`, `"""-f"` and `$\'-exec\'` all reach the command as the flag while a ' +
        'text-level check sees something else. Claude Code asks for any of these shapes (ID 4, misparsing), ' +
        'and for ANSI-C (`$\'…\'`) and locale (`$"…"`) quoting anywhere, since their escapes can encode ' +
        'any character. A `git commit` whose message starts with `-` is logged under the same ID.',
      fix: 'Write flags without quotes (`find . -exec …`). Quote only values: `--name="my file"`.',
      exceptions:
        'As in Claude Code: `echo` without `|`, `&` or `;` is exempt; flags inside quoted strings ' +
        '(`make test TEST="file.py -v"`) are ignored; `cut -d\'"\'` is allowed; glob characters after a ' +
        'dash-only quote (`ls -- "-"*`) and pure-dash strings followed by whitespace (`"---" x`) pass; ' +
        'the idiom `\'"\'"\'` is not matched. Known false positive kept from Claude Code: a literal ' +
        '`"""-f"` inside single quotes (`printf \'"""-f" text\'`). Deviations: in the `script` profile ' +
        'ANSI-C and locale quoting are ordinary (`IFS=$\'\\n\'`) and are reported only when the quoted text ' +
        'starts with a dash; the chain-of-quoted-segments scan has a linear work budget, and a command ' +
        'that exhausts it is reported. The character scan also skips the words of an `echo` / `printf` that ' +
        'stands alone in a multi-line command or between `;`, `&&`, `||` (not piped, not inside `$( … )`): ' +
        '`cd build` then `echo "---Summary---"` passes, where Claude Code asks because its `echo` exemption ' +
        'looks only at the first command.',
    },
    sources: ['claude-code:validateObfuscatedFlags', 'claude-code:validateGitCommit'],
    examples: {
      valid: [
        'make test TEST="file.py -v"',
        "cut -d'\"' -f2 data.csv",
        'ls -- "-"*',
        'printf "---" x',
        "printf '%s' 'it'\"'\"'s'",
        'echo $\'-x\'',
        "echo '\"\"\"-f\" text'",
        'cd build\necho "---Summary---"\nls',
      ],
      invalid: [
        "ls $'-la'",
        'ls $"-la"',
        "find . ''-exec rm {} +",
        'jq """-f" prog.jq',
        'ls """x"-la',
        'find . "-exec" rm {} +',
        'ls "-"la',
        'ls "-""la"',
        'find . -e"xec" rm {} +',
        "printf '\"\"\"-f\" text'",
        'git commit -m "-x"',
      ],
    },
    claudeCode: { id: 4, name: 'validateObfuscatedFlags', misparsing: true, order: ORDER['obfuscated-flags'] },
  },
  detect,
);
