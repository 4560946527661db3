/**
 * Parse complexity of one command (claude-code-reference.md §1.7): whether the tree-sitter parse of a
 * unit's text consists only of constructs that a static analysis can follow (`simple`), contains
 * one that it cannot prove safe (`too-complex`), or does not parse (`parse-error`).
 *
 * Mirrors the AST path of Claude Code's BashTool (`parseForSecurity` and its walker): the node
 * types of §1.7 and every node type the walker does not explicitly handle make the command
 * too-complex; `$NAME` references are allowed for the AST's own safe-variable list. shellward adds
 * hard caps on the command's length and the tree's node count (values below; §1.7 names no values),
 * so that a verdict about an enormous command never rests on having followed all of it.
 *
 * The scan is iterative (a tree cursor, no recursion: input may be nested 100 000 deep) and does
 * constant work per node, so it is linear in the size of the tree. All offsets are UTF-16 code
 * units, 0-based, end exclusive, into the unit's text.
 */
import type { Tree, TreeCursor } from 'web-tree-sitter';
import type { Span } from '../core/types.js';

/** The three outcomes of the complexity analysis. */
export type ComplexityStatus = 'simple' | 'too-complex' | 'parse-error';

/**
 * Pseudo-constructs for the hard caps; every other `construct` of a too-complex result is a
 * tree-sitter-bash node type (`command_substitution`, `for_statement` …).
 */
export const LENGTH_CONSTRUCT = 'command-length';
/** Construct of a result that exceeded {@link MAX_COMPLEXITY_NODES}. */
export const NODE_COUNT_CONSTRUCT = 'node-count';

/**
 * Result of the complexity analysis of one unit.
 *
 * - `simple`: `construct` and `span` are absent.
 * - `too-complex`: `construct` is the tree-sitter node type of the first (outermost, leftmost)
 *   construct that cannot be proven safe, or {@link LENGTH_CONSTRUCT} / {@link NODE_COUNT_CONSTRUCT}
 *   for a hard cap; `span` is that node's extent (for the length cap: from the cap to the end of
 *   the text; for the node cap: the first node past the cap).
 * - `parse-error`: `construct` is `ERROR`, or `MISSING` for a token the parser had to invent
 *   (`expected` then names it, e.g. `fi`); `span` is the first such node in document order.
 *
 * `span.start` is the construct's UTF-16 offset into the unit's text (0-based).
 */
export interface ParseComplexity {
  readonly status: ComplexityStatus;
  readonly construct?: string;
  readonly span?: Span;
  /** For a MISSING node: the token or node type the parser assumed. */
  readonly expected?: string;
  /** Number of nodes in the tree (named and anonymous), as counted by the scan. */
  readonly nodeCount: number;
}

/**
 * Hard cap on the length of a command, in UTF-16 code units. Longer commands are too-complex:
 * agent commands are usually one line or a few, and a command this long is not something a
 * person reviews at a prompt either. shellward's choice; §1.7 gives no number.
 */
export const MAX_COMPLEXITY_LENGTH = 10_000;

/**
 * Hard cap on the number of tree nodes (named and anonymous) of a command. Ordinary commands have
 * about one node per two or three characters; only dense constructs (`a;a;a;…`, deep nesting)
 * reach this within the length cap. shellward's choice.
 */
export const MAX_COMPLEXITY_NODES = 10_000;

/** The two hard caps; {@link DEFAULT_COMPLEXITY_LIMITS} unless a caller (a test) lowers them. */
export interface ComplexityLimits {
  /** Longest command text, in UTF-16 code units. */
  readonly maxLength: number;
  /** Most tree nodes (named and anonymous). */
  readonly maxNodes: number;
}

/** The caps the parse views use. */
export const DEFAULT_COMPLEXITY_LIMITS: ComplexityLimits = { maxLength: MAX_COMPLEXITY_LENGTH, maxNodes: MAX_COMPLEXITY_NODES };

/** The node types claude-code-reference.md §1.7 lists as too-complex, in the order it lists them. */
export const TOO_COMPLEX_NODE_TYPES: ReadonlySet<string> = new Set([
  'command_substitution', 'process_substitution', 'expansion', 'simple_expansion', 'brace_expression',
  'subshell', 'compound_statement',
  'for_statement', 'while_statement', 'until_statement', 'if_statement', 'case_statement',
  'function_definition', 'test_command',
  'ansi_c_string', 'translated_string',
  'herestring_redirect', 'heredoc_redirect',
]);

/**
 * Named node types the walker follows: lists and pipelines joined by the §1.7 separators, simple
 * commands (including `export`/`local`/`declare` and `unset`, whose argv Claude Code's
 * `checkSemantics` inspects), `!` negation, assignments, file redirections, literal words and
 * strings, and comments. `simple_expansion` is handled separately (safe variables only). Any other
 * named type is too-complex; anonymous tokens (operators, quotes) are judged with their parent.
 */
export const HANDLED_NODE_TYPES: ReadonlySet<string> = new Set([
  'program', 'list', 'pipeline', 'redirected_statement', 'negated_command',
  'command', 'command_name', 'declaration_command', 'unset_command',
  'variable_assignment', 'variable_name', 'special_variable_name',
  'word', 'number', 'string', 'string_content', 'raw_string', 'concatenation',
  'file_redirect', 'file_descriptor', 'comment',
]);

/**
 * Variables that `$NAME` may reference anywhere (claude-code-reference.md §1.7, "Variable references allowed by the
 * AST"; a different list from the stripping list of §3.1).
 */
export const AST_SAFE_VARIABLES: ReadonlySet<string> = new Set([
  'HOME', 'PWD', 'OLDPWD', 'USER', 'LOGNAME', 'SHELL', 'PATH', 'HOSTNAME', 'UID', 'EUID', 'PPID',
  'RANDOM', 'SECONDS', 'LINENO', 'TMPDIR', 'BASH_VERSION', 'BASHPID', 'SHLVL', 'HISTFILE',
]);

/** Variables allowed only inside a double-quoted string: `IFS` and the special parameters `? $ ! # 0 -`. */
export const AST_STRING_ONLY_VARIABLES: ReadonlySet<string> = new Set(['IFS', '?', '$', '!', '#', '0', '-']);

/** Parents whose anonymous `$` child is part of an expansion, not a `$"…"` string. */
const DOLLAR_PARENTS: ReadonlySet<string> = new Set(['simple_expansion', 'expansion', 'string', 'arithmetic_expansion']);

/** A syntax problem as the parse views record it (see `SyntaxProblem` in src/parse/nodes.ts). */
export interface ComplexityProblem {
  readonly kind: 'error' | 'missing';
  readonly span: Span;
  readonly expected: string | undefined;
}

/**
 * Incremental complexity scan, fed one node at a time in preorder by a tree walk that already
 * exists (the parse views' walk in src/parse/nodes.ts) or by {@link analyseComplexity}. Constant
 * work per node; it reads the cursor's offsets only for the nodes it reports or inspects.
 */
export class ComplexityScanner {
  private nodes = 0;
  private overflow: Span | undefined;
  private found: { construct: string; span: Span } | undefined;
  /** End offset of the last anonymous `$` token outside an expansion (for `$"…"`). */
  private dollarEnd = -1;
  /** Node type at each depth of the current path (only the parent's entry is ever read). */
  private readonly path: string[] = [];

  /** `text` is the unit's text (for `$NAME` references and the length cap). */
  constructor(
    private readonly text: string,
    private readonly limits: ComplexityLimits = DEFAULT_COMPLEXITY_LIMITS,
  ) {}

  /**
   * Visits the node under `cursor`. `type`, `isNamed` and `depth` (0 for the root) are passed in
   * because the caller's walk has already read them from the cursor.
   */
  visit(cursor: TreeCursor, type: string, isNamed: boolean, depth: number): void {
    this.nodes++;
    if (this.nodes === this.limits.maxNodes + 1) this.overflow = { start: cursor.startIndex, end: cursor.endIndex };
    if (this.found) return;
    this.path[depth] = type;
    if (!isNamed) {
      // tree-sitter-bash 0.25 parses `$"…"` as an anonymous `$` token followed by a plain string.
      if (type === '$' && depth > 0 && !DOLLAR_PARENTS.has(this.path[depth - 1]!)) this.dollarEnd = cursor.endIndex;
      return;
    }
    if (type === 'ERROR') return;
    if (type === 'string') {
      if (this.dollarEnd >= 0 && cursor.startIndex === this.dollarEnd) {
        this.found = { construct: 'translated_string', span: { start: this.dollarEnd - 1, end: cursor.endIndex } };
      }
      return;
    }
    if (HANDLED_NODE_TYPES.has(type)) return;
    if (type === 'simple_expansion' && this.isSafeReference(cursor, depth)) return;
    this.found = { construct: type, span: { start: cursor.startIndex, end: cursor.endIndex } };
  }

  private isSafeReference(cursor: TreeCursor, depth: number): boolean {
    // A simple_expansion is `$` followed by the name: `$HOME`, `$?`.
    const start = cursor.startIndex;
    const end = cursor.endIndex;
    if (end - start < 2 || end - start > 64 || this.text.charCodeAt(start) !== 0x24) return false;
    const name = this.text.slice(start + 1, end);
    if (AST_SAFE_VARIABLES.has(name)) return true;
    return AST_STRING_ONLY_VARIABLES.has(name) && depth > 0 && this.path[depth - 1] === 'string';
  }

  /**
   * The result, once every node was visited. `firstProblem` is the first ERROR or MISSING node in
   * document order, if any. Precedence: parse error, then length cap, then node cap, then the
   * first unsafe construct.
   */
  finish(firstProblem: ComplexityProblem | undefined): ParseComplexity {
    const nodeCount = this.nodes;
    if (firstProblem) {
      return firstProblem.kind === 'missing'
        ? { status: 'parse-error', construct: 'MISSING', span: firstProblem.span, expected: firstProblem.expected ?? '?', nodeCount }
        : { status: 'parse-error', construct: 'ERROR', span: firstProblem.span, nodeCount };
    }
    if (this.text.length > this.limits.maxLength) {
      return { status: 'too-complex', construct: LENGTH_CONSTRUCT, span: { start: this.limits.maxLength, end: this.text.length }, nodeCount };
    }
    if (this.overflow) return { status: 'too-complex', construct: NODE_COUNT_CONSTRUCT, span: this.overflow, nodeCount };
    if (this.found) return { status: 'too-complex', construct: this.found.construct, span: this.found.span, nodeCount };
    return { status: 'simple', nodeCount };
  }
}

/**
 * Where an ERROR node is reported, as the parse views do: its first anonymous or ERROR child (the
 * token where parsing went wrong), else the whole node. Leaves the cursor where it was.
 */
function errorAnchor(cursor: TreeCursor): Span {
  const whole = { start: cursor.startIndex, end: cursor.endIndex };
  if (!cursor.gotoFirstChild()) return whole;
  let anchor = whole;
  do {
    if (!cursor.nodeIsNamed || cursor.nodeType === 'ERROR') {
      anchor = { start: cursor.startIndex, end: cursor.endIndex };
      break;
    }
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return anchor;
}

/**
 * Complexity of a parsed unit by its own iterative walk of `tree` (for callers that do not build
 * the parse views; the views carry the same result as `ParsedScript.complexity`). Linear in the
 * number of nodes; does not delete the tree.
 */
export function analyseComplexity(tree: Tree, text: string, limits: ComplexityLimits = DEFAULT_COMPLEXITY_LIMITS): ParseComplexity {
  const scanner = new ComplexityScanner(text, limits);
  let problem: ComplexityProblem | undefined;
  const cursor = tree.walk();
  let depth = 0;
  try {
    for (;;) {
      const type = cursor.nodeType;
      scanner.visit(cursor, type, cursor.nodeIsNamed, depth);
      if (!problem) {
        if (type === 'ERROR') problem = { kind: 'error', span: errorAnchor(cursor), expected: undefined };
        else if (cursor.nodeIsMissing) problem = { kind: 'missing', span: { start: cursor.startIndex, end: cursor.endIndex }, expected: type };
      }
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return scanner.finish(problem);
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

const CONSTRUCT_LABELS: Readonly<Record<string, string>> = {
  command_substitution: 'command substitution (`$(…)` or backticks)',
  process_substitution: 'process substitution `<(…)` / `>(…)`',
  expansion: 'parameter expansion `${…}`',
  simple_expansion: 'variable reference `$NAME`',
  brace_expression: 'brace expression `{a..b}`',
  subshell: 'subshell `( … )`',
  compound_statement: 'command group `{ …; }`',
  for_statement: '`for` loop',
  c_style_for_statement: '`for ((…))` loop',
  while_statement: '`while` loop',
  until_statement: '`until` loop',
  if_statement: '`if` statement',
  case_statement: '`case` statement',
  function_definition: 'function definition',
  test_command: 'test expression `[ … ]` / `[[ … ]]`',
  ansi_c_string: "ANSI-C string `$'…'`",
  translated_string: 'translated string `$"…"`',
  herestring_redirect: 'here-string `<<<`',
  heredoc_redirect: 'here-document `<<`',
  arithmetic_expansion: 'arithmetic expansion `$((…))`',
  [LENGTH_CONSTRUCT]: 'command length',
  [NODE_COUNT_CONSTRUCT]: 'node count',
};

/** A short human label of a construct, e.g. "command substitution `$(…)`"; unknown types as `type`. */
export function constructLabel(construct: string): string {
  return CONSTRUCT_LABELS[construct] ?? `\`${construct}\``;
}

/**
 * One-sentence explanation of a non-simple result naming the construct and its 0-based UTF-16
 * offset, e.g. "command substitution `$(…)` at offset 5 cannot be proven safe statically.".
 * Returns `undefined` for `simple`.
 */
export function describeComplexity(c: ParseComplexity): string | undefined {
  if (c.status === 'simple') return undefined;
  const at = c.span?.start ?? 0;
  if (c.status === 'parse-error') {
    return c.construct === 'MISSING'
      ? `the command does not parse: \`${c.expected ?? '?'}\` is missing at offset ${at}.`
      : `the command does not parse: syntax error at offset ${at}.`;
  }
  const construct = c.construct ?? '?';
  if (construct === LENGTH_CONSTRUCT) return `the command is ${c.span?.end ?? 0} characters long (the cap is ${at}); too long to prove safe statically.`;
  if (construct === NODE_COUNT_CONSTRUCT) return `the command has ${c.nodeCount} syntax nodes (the cap was reached at offset ${at}); too large to prove safe statically.`;
  return `${constructLabel(construct)} at offset ${at} cannot be proven safe statically.`;
}
