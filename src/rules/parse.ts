/**
 * Permission rule strings, parsed once (claude-code-reference.md §2.1–2.2 and the newer grammar of §2.10).
 *
 * A rule string is `Tool` or `Tool(content)`. Mirrors Claude Code's `permissionRuleValueFromString`
 * (permissionRuleParser.ts) for the outer form and `parsePermissionRule` / `matchWildcardPattern`
 * (shellRuleMatching.ts) for Bash content. Pure; throws only {@link RuleSyntaxError}.
 */

/** The three rule lists of a `permissions` object. */
export type RuleBehavior = 'allow' | 'ask' | 'deny';

/** Where a rule came from: the file (as shown to the user) and, when known, the JSON key path. */
export interface RuleOrigin {
  /** Path of the settings or config file, or a label such as `<request>` / `--config`. */
  readonly file: string;
  /** JSON path of the rule string inside the file, e.g. `permissions.allow[3]`. */
  readonly path?: string;
}

/**
 * The matcher of a Bash rule's content (claude-code-reference.md §2.2):
 * - `any`: bare `Bash`, `Bash()` or `Bash(*)` — the tool-wide rule;
 * - `exact`: string equality with a candidate;
 * - `prefix`: legacy `prefix:*` — equality with `prefix` or a start of `prefix + ' '`;
 * - `wildcard`: `*` patterns; `segments` are the literal pieces between unescaped stars (so
 *   `segments.length - 1` stars), `optionalTail` is the single-trailing-` *` relaxation.
 */
export type BashMatcher =
  | { readonly kind: 'any' }
  | { readonly kind: 'exact'; readonly command: string }
  | { readonly kind: 'prefix'; readonly prefix: string }
  | { readonly kind: 'wildcard'; readonly segments: readonly string[]; readonly optionalTail: boolean };

/** One parsed permission rule. */
export interface PermissionRule {
  /** The rule string exactly as written. */
  readonly raw: string;
  readonly behavior: RuleBehavior;
  /** Tool name after legacy renames (`Task` → `Agent` …). */
  readonly toolName: string;
  /** The content between the parentheses with `\(`, `\)`, `\\` unescaped; `undefined` for a bare tool name. */
  readonly content: string | undefined;
  /** For Bash rules: the matcher; `undefined` for other tools and for ignored Bash rules. */
  readonly bash: BashMatcher | undefined;
  /**
   * Set for a Bash input-parameter rule (`Bash(run_in_background:true)`, claude-code-reference.md §2.10), which never
   * matches a command string, and for `Bash(command:…)`, which Claude Code ignores with a warning.
   */
  readonly ignored?: string;
  readonly origin: RuleOrigin;
}

/** A rule string that cannot be a permission rule. Names the file and the rule. */
export class RuleSyntaxError extends Error {
  constructor(
    readonly rule: string,
    readonly origin: RuleOrigin,
    readonly problem: string,
  ) {
    super(`${origin.file}${origin.path ? ` (${origin.path})` : ''}: invalid permission rule ${JSON.stringify(rule)}: ${problem}`);
    this.name = 'RuleSyntaxError';
  }
}

const LEGACY_TOOL_NAMES: Readonly<Record<string, string>> = {
  Task: 'Agent',
  KillShell: 'TaskStop',
  AgentOutputTool: 'TaskOutput',
  BashOutputTool: 'TaskOutput',
};

/** Valid tool names: `Bash`, `WebFetch`, MCP names such as `mcp__server__tool` or `mcp__server__*`. */
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]*(\*)?$/;

/** Longest rule string accepted, in UTF-16 code units (a guard, far above real rules). */
export const MAX_RULE_LENGTH = 10_000;

/** Index of the first `ch` in `s` preceded by an even number of backslashes, or -1. */
function firstUnescaped(s: string, ch: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') {
      i++;
      continue;
    }
    if (s[i] === ch) return i;
  }
  return -1;
}

/** True when the character at `i` is preceded by an even number of backslashes. */
function isUnescapedAt(s: string, i: number): boolean {
  let n = 0;
  for (let j = i - 1; j >= 0 && s[j] === '\\'; j--) n++;
  return n % 2 === 0;
}

/**
 * Splits a rule string into tool name and content (Claude Code `permissionRuleValueFromString`):
 * the first unescaped `(` and a last unescaped `)` that is the final character delimit the content;
 * otherwise the whole string is a bare tool name. Content escapes `\(`, `\)` and `\\` are undone.
 * Never throws.
 */
export function splitRuleString(rule: string): { toolName: string; content: string | undefined } {
  const open = firstUnescaped(rule, '(');
  const last = rule.length - 1;
  if (open <= 0 || last <= open || rule[last] !== ')' || !isUnescapedAt(rule, last)) {
    return { toolName: rule, content: undefined };
  }
  const toolName = rule.slice(0, open);
  const inner = rule.slice(open + 1, last);
  // Unescape: `\(` → `(`, `\)` → `)`, `\\` → `\` (the reverse of writing: backslashes first).
  const content = inner.replace(/\\([()\\])/g, '$1');
  return { toolName, content };
}

/**
 * Escapes rule content for writing inside `Bash(…)`: backslashes first, then parentheses
 * (claude-code-reference.md §2.1). `formatRule('Bash', c)` round-trips through {@link splitRuleString}.
 */
export function escapeRuleContent(content: string): string {
  return content.replace(/\\/g, '\\\\').replace(/[()]/g, (c) => `\\${c}`);
}

/** The rule string for a Bash rule with `content` (escaped as Claude Code writes it). */
export function formatBashRule(content: string): string {
  return `Bash(${escapeRuleContent(content)})`;
}

/**
 * Parses the content of a Bash rule (claude-code-reference.md §2.2, §2.10). `content` is already unescaped at the
 * parenthesis level; backslashes in it still escape `*` and `\` for wildcard patterns. Never throws.
 * - empty or `*` → `any`;
 * - ends with `:*` with at least one character before → `prefix` (`:*` anywhere else is literal);
 * - has an unescaped `*` → `wildcard` (pattern trimmed; `\*` a literal star, `\\` a backslash);
 * - otherwise `exact`.
 */
export function parseBashContent(content: string): BashMatcher {
  if (content === '' || content === '*') return { kind: 'any' };
  if (content.length > 2 && content.endsWith(':*')) return { kind: 'prefix', prefix: content.slice(0, -2) };
  let hasStar = false;
  for (let i = 0; i < content.length; i++) {
    if (content[i] === '\\') {
      i++;
      continue;
    }
    if (content[i] === '*') {
      hasStar = true;
      break;
    }
  }
  if (!hasStar) return { kind: 'exact', command: content };
  const pattern = content.trim();
  const segments: string[] = [];
  let cur = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length && (pattern[i + 1] === '*' || pattern[i + 1] === '\\')) {
      cur += pattern[++i];
    } else if (c === '*') {
      segments.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  segments.push(cur);
  // `git *`: a single unescaped star, at the end, after a space → the " *" is optional.
  const optionalTail = segments.length === 2 && segments[1] === '' && segments[0]!.endsWith(' ');
  if (optionalTail) return { kind: 'wildcard', segments: [segments[0]!.slice(0, -1), ''], optionalTail };
  return { kind: 'wildcard', segments, optionalTail: false };
}

/** Input-parameter rules (`Bash(run_in_background:true)`, §2.10): `name:value` with a lowercase identifier name. */
const PARAMETER_RULE = /^([a-z][A-Za-z0-9_]*):(?!\*$)(.*)$/s;
/** Top-level Bash tool inputs other than `command` that parameter rules may name. */
const BASH_PARAMETERS: ReadonlySet<string> = new Set(['run_in_background', 'dangerouslyDisableSandbox', 'timeout', 'description']);

/**
 * Parses one rule string of list `behavior` from `origin` (Claude Code `permissionRuleValueFromString`
 * + `parsePermissionRule`). Throws {@link RuleSyntaxError} — naming the file, the key path and the
 * rule — for an empty rule, a rule longer than {@link MAX_RULE_LENGTH}, a tool name that is not an
 * identifier (typically an unbalanced `Bash(git status`), and content after the closing parenthesis.
 */
export function parseRule(raw: string, behavior: RuleBehavior, origin: RuleOrigin): PermissionRule {
  if (raw.trim() === '') throw new RuleSyntaxError(raw, origin, 'empty rule');
  if (raw.length > MAX_RULE_LENGTH) throw new RuleSyntaxError(raw.slice(0, 80) + '…', origin, `longer than ${MAX_RULE_LENGTH} characters`);
  const { toolName: written, content } = splitRuleString(raw);
  if (content === undefined && (written.includes('(') || written.includes(')'))) {
    throw new RuleSyntaxError(raw, origin, 'unbalanced parentheses: write `Tool(content)` with `)` as the last character, and escape literal parentheses as `\\(` `\\)`');
  }
  if (!TOOL_NAME.test(written)) {
    throw new RuleSyntaxError(raw, origin, `${JSON.stringify(written)} is not a tool name`);
  }
  const toolName = LEGACY_TOOL_NAMES[written] ?? written;
  const base = { raw, behavior, toolName, content, origin };
  if (toolName !== 'Bash') return { ...base, bash: undefined };
  if (content === undefined) return { ...base, bash: { kind: 'any' } };
  const param = PARAMETER_RULE.exec(content);
  if (param && (param[1] === 'command' || BASH_PARAMETERS.has(param[1]!))) {
    const why =
      param[1] === 'command'
        ? '`Bash(command:…)` is ignored (Claude Code warns at start-up: the command cannot be matched as a parameter)'
        : `input-parameter rule on \`${param[1]}\`; it never matches a command string`;
    return { ...base, bash: undefined, ignored: why };
  }
  return { ...base, bash: parseBashContent(content) };
}
