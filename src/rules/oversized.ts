/**
 * The verdict input for a command too long to parse: a linear scan of the raw text, no syntax
 * tree. A command longer than the complexity length cap is too complex whatever it contains, so
 * parsing it (seconds and hundreds of megabytes for a megabyte of pathological text) could only
 * make the answer worse than `ask` — except for a deny, which must not be hidden by the cap.
 *
 * The scan is deliberately conservative: a deny rule denies the command when the program it
 * names occurs anywhere in the text as a word, in the raw text or in the text with quote
 * characters and backslashes removed (so `r''m` and `\rm` count as `rm`, as bash's quote removal
 * makes them). Over-denying an unreviewable command is sound; missing a visible denied program is
 * not. A deny rule whose pattern names no program (`Bash(*)`, `Bash(* --force)`) denies every
 * oversized command. Code the scan cannot see (a variable as the command word, `$'\x72m'`) is
 * covered by the `ask` every oversized command gets anyway. All work is linear in the text length
 * times the number of deny and ask rules' distinct program names.
 */
import type { PermissionPolicy } from './policy.js';
import type { BashMatcher, PermissionRule } from './parse.js';

/** Whether UTF-16 code `c` may belong to a command name: `A-Z a-z 0-9 _ . + -` (anything else separates words). */
function isNameChar(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2e || c === 0x2b || c === 0x2d || c >= 0x80;
}

/**
 * The program a Bash rule pattern starts with (`rm` for `Bash(rm -rf:*)`, `git` for
 * `Bash(git push *)`), its basename when written with a path; `null` when the pattern names no
 * program (`Bash(*)`, `Bash`, a wildcard that starts with `*`) and so may match any command;
 * `undefined` for a rule that never matches a command (other tools, parameter rules).
 */
export function ruleProgram(rule: PermissionRule): string | null | undefined {
  if (rule.toolName !== 'Bash' || rule.ignored !== undefined) return undefined;
  const m: BashMatcher | undefined = rule.bash;
  if (!m || m.kind === 'any') return null;
  const head = m.kind === 'exact' ? m.command : m.kind === 'prefix' ? m.prefix : m.segments[0]!;
  const trimmed = head.trimStart();
  // A wildcard whose first segment is cut by a star (`r*`) names only part of a program.
  const firstWord = /^\S+/.exec(trimmed)?.[0];
  if (firstWord === undefined) return null;
  if (m.kind === 'wildcard' && firstWord.length === trimmed.length && m.segments.length > 1 && !m.optionalTail) return null;
  const slash = firstWord.lastIndexOf('/');
  const base = slash >= 0 ? firstWord.slice(slash + 1) : firstWord;
  return base === '' ? null : base;
}

/** The set of words (maximal runs of name characters, `/` splitting) of `text`. Linear. */
function wordsOf(text: string, into: Set<string>): void {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && isNameChar(text.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      into.add(text.slice(start, i));
      start = -1;
    }
  }
}

/** What {@link scanOversized} found: the first deny or ask rule whose program is visible. */
export interface OversizedScan {
  /** A deny rule whose program occurs in the text (or that names no program), if any. */
  readonly deny?: PermissionRule;
  /** Otherwise an ask rule whose program occurs in the text (or that names no program), if any. */
  readonly ask?: PermissionRule;
  /** The program word the rule matched on; `undefined` for a rule that names no program. */
  readonly program?: string;
}

/**
 * Scans `text` (a command of any length, UTF-16) for programs named by `policy`'s deny rules, then
 * its ask rules, without parsing it (see the module comment for what counts). Pure; never throws.
 */
export function scanOversized(text: string, policy: PermissionPolicy): OversizedScan {
  if (policy.deny.length === 0 && policy.ask.length === 0) return {};
  const words = new Set<string>();
  wordsOf(text, words);
  // Quote removal can join pieces into a name: r''m, \rm, "r"m.
  if (/['"\\]/.test(text)) wordsOf(text.replace(/['"\\]/g, ''), words);
  const find = (rules: readonly PermissionRule[]): { rule: PermissionRule; program?: string } | undefined => {
    for (const rule of rules) {
      const p = ruleProgram(rule);
      if (p === undefined) continue;
      if (p === null) return { rule };
      if (words.has(p)) return { rule, program: p };
    }
    return undefined;
  };
  const deny = find(policy.deny);
  if (deny) return { deny: deny.rule, ...(deny.program !== undefined ? { program: deny.program } : {}) };
  const ask = find(policy.ask);
  if (ask) return { ask: ask.rule, ...(ask.program !== undefined ? { program: ask.program } : {}) };
  return {};
}
