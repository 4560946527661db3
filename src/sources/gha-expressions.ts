/**
 * GitHub Actions expressions (`${{ … }}`) inside a `run:` script. The runner substitutes them into
 * the script text before any shell sees it (https://docs.github.com/en/actions/reference/workflows-and-actions/expressions),
 * so shellward cannot know what they become: each is replaced by a shell parameter expansion of
 * the same length (`${GHA_EXPR__…}`), a value unknown at lint time that may be empty. A decision
 * never trusts it as a command name, a removal target built from it is unknown, and every column
 * after it stays true. Also lists which expressions read attacker-controlled event data
 * (https://docs.github.com/en/actions/concepts/security/script-injections).
 * Offsets are UTF-16 code units, 0-based. Pure.
 */
import { MappedText } from './mapped-text.js';

/** One `${{ … }}` in a script: its span in the script text and its source. */
export interface Expression {
  /** Offset of `$` in the script text. */
  readonly start: number;
  /** Offset just after the closing `}}`. */
  readonly end: number;
  /** The expression between `${{` and `}}`, trimmed. */
  readonly body: string;
}

/**
 * The `${{ … }}` expressions of `text`, in order. The end is the first `}}` outside a
 * single-quoted expression string (`'…'`, `''` escaping a quote); an expression that never
 * closes runs to the end of the text (GitHub rejects such a workflow).
 */
export function findExpressions(text: string): Expression[] {
  const out: Expression[] = [];
  let i = text.indexOf('${{');
  while (i !== -1) {
    let k = i + 3;
    let inString = false;
    let end = -1;
    while (k < text.length) {
      const c = text[k];
      if (inString) {
        if (c === "'") {
          if (text[k + 1] === "'") k++;
          else inString = false;
        }
      } else if (c === "'") inString = true;
      else if (c === '}' && text[k + 1] === '}') {
        end = k + 2;
        break;
      }
      k++;
    }
    const body = end === -1 ? text.slice(i + 3) : text.slice(i + 3, end - 2);
    if (end === -1) end = text.length;
    out.push({ start: i, end, body: body.trim() });
    i = text.indexOf('${{', end);
  }
  return out;
}

/**
 * The placeholder of an expression `length` code units long: `${GHA…}` padded with `_`, a shell
 * parameter expansion (at least 5 long, as `${{}}` is).
 */
export function placeholder(length: number): string {
  const name = 'GHA_EXPR'.slice(0, Math.max(length - 3, 1)).padEnd(Math.max(length - 3, 1), '_');
  return `\${${name}}`;
}

/**
 * `text` with every expression replaced by its {@link placeholder}; each replacement character
 * maps to the host offset of the character it replaces, so positions do not move.
 */
export function withPlaceholders(text: MappedText, expressions: readonly Expression[]): MappedText {
  if (expressions.length === 0) return text;
  const out = new MappedText();
  let at = 0;
  for (const e of expressions) {
    for (let i = at; i < e.start; i++) out.pushFrom(text, i);
    const p = placeholder(e.end - e.start);
    for (let j = 0; j < p.length; j++) out.push(p[j]!, text.hostAt(e.start + j) ?? 0);
    at = e.end;
  }
  for (let i = at; i < text.length; i++) out.pushFrom(text, i);
  return out;
}

/**
 * Event and context properties an outside contributor controls, as patterns over a normalised
 * property path (lower case, `['x']` written `.x`, any index or `*` written `.*`). From GitHub's
 * list of untrusted input and the events that carry a branch name, commit or page an attacker
 * writes.
 */
const UNTRUSTED: readonly RegExp[] = [
  /^github\.event\.(?:issue|pull_request|discussion)\.(?:title|body)$/,
  /^github\.event\.(?:comment|review|review_comment|discussion_comment)\.body$/,
  /^github\.event\.pages\.\*\.page_name$/,
  /^github\.event\.commits\.\*\.(?:message|author\.(?:email|name)|committer\.(?:email|name))$/,
  /^github\.event\.head_commit\.(?:message|author\.(?:email|name)|committer\.(?:email|name))$/,
  /^github\.event\.pull_request\.head\.(?:ref|label|repo\.default_branch)$/,
  /^github\.head_ref$/,
  /^github\.event\.workflow_run\.(?:head_branch|display_title|head_commit\.(?:message|author\.(?:email|name)|committer\.(?:email|name)))$/,
  /^github\.event\.workflow_run\.pull_requests\.\*\.head\.ref$/,
];

/** Property paths in an expression body (`a.b['c'][0]`), normalised for {@link UNTRUSTED}. */
function propertyPaths(body: string): string[] {
  const out: string[] = [];
  // Drop string literals first so text inside them is never read as a property.
  const code = body.replace(/'(?:[^']|'')*'/g, (s) => (/^'[A-Za-z_][\w-]*'$/.test(s) ? s : "''"));
  const re = /[A-Za-z_][\w-]*(?:\s*(?:\.\s*(?:[A-Za-z_][\w-]*|\*)|\[\s*(?:'[^']*'|\d+|\*)\s*\]))*/g;
  for (const m of code.matchAll(re)) {
    const path = m[0]
      .replace(/\s+/g, '')
      .replace(/\[\s*'([^']*)'\s*\]/g, '.$1')
      .replace(/\[(?:\d+|\*)\]/g, '.*')
      .toLowerCase();
    out.push(path);
  }
  return out;
}

/**
 * The attacker-controlled properties an expression body reads (`github.event.issue.title` …), as
 * written paths normalised; empty when it reads none. Every read counts, also inside a function
 * call: `format()`, `join()` and `toJSON()` pass the text through, and boolean-valued calls
 * (`contains(…)`) are not told apart.
 */
export function untrustedProperties(body: string): string[] {
  return propertyPaths(body).filter((p) => UNTRUSTED.some((r) => r.test(p)));
}
