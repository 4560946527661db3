/**
 * Narrow, tree-independent views of a parsed unit: top-level statements, every simple command
 * with its words, assignments and redirections (heredocs included), syntax problems and
 * comments. Built in one iterative walk (no recursion, so deep nesting cannot overflow the
 * stack). All spans are UTF-16 offsets into the unit's text.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { ComplexityScanner, type ParseComplexity } from './complexity.js';
import type { Span } from '../core/types.js';
import { toWord, type Word } from './words.js';

/** `NAME=value` before a command (or alone, as a statement). */
export interface Assignment {
  readonly name: string;
  /** The value word; `undefined` for `NAME=`. */
  readonly value: Word | undefined;
  readonly span: Span;
}

/** A here-document attached to a redirection. */
export interface Heredoc {
  /** The delimiter word with quotes removed. */
  readonly delimiter: string;
  /** True when the delimiter was quoted, so the body is literal text (no expansions). */
  readonly quoted: boolean;
  /** True for `<<-` (leading tabs stripped). */
  readonly stripTabs: boolean;
  /** The body's source text, without the closing delimiter line. */
  readonly body: string;
  readonly bodySpan: Span;
}

/** A redirection: `>f`, `2>&1`, `<<EOF`, `<<<word` … */
export interface Redirect {
  readonly span: Span;
  /** The operator as written: `>`, `>>`, `<`, `&>`, `>&`, `<<`, `<<-`, `<<<`, `>|` … */
  readonly operator: string;
  /** The explicit file descriptor before the operator (`2` in `2>x`), if any. */
  readonly fd: string | undefined;
  /** The target word (file, descriptor or here-string); `undefined` for heredocs. */
  readonly target: Word | undefined;
  readonly heredoc: Heredoc | undefined;
}

/**
 * One stage of a pipeline (`a | b | c`): the pipeline it belongs to and its 0-based position.
 * Stages of one pipeline share the same `group` object (compare by identity).
 */
export interface PipelineStage {
  readonly group: { readonly span: Span };
  readonly index: number;
}

/** A simple command: assignments, a command name and arguments, and redirections. */
export interface SimpleCommand {
  readonly span: Span;
  /** The command name word; `undefined` for a command of assignments or redirections only. */
  readonly name: Word | undefined;
  /** The arguments after the name (the name is not included). */
  readonly args: readonly Word[];
  readonly assignments: readonly Assignment[];
  /** Redirections on the command itself and on a `redirected_statement` wrapping it directly. */
  readonly redirects: readonly Redirect[];
  /** Index of the top-level statement that contains this command. */
  readonly statement: number;
  /**
   * True for a command found in shell code embedded in another command (`sh -c '…'`, `eval`, a
   * heredoc fed to a shell; src/parse/embedded.ts). Its spans point into the unit's text.
   */
  readonly embedded?: boolean;
  /**
   * For an embedded command: the index (into {@link ParsedScript.commands}) of the command whose
   * `sh -c` string, `eval` words or heredoc holds it, and how it was embedded.
   */
  readonly host?: number;
  readonly via?: string;
  /** True for the redirections of a compound command (`{ …; } > f`), recorded as a command of redirections only. */
  readonly compound?: true;
  /** Where the command sits in the tree (recorded by the parse walk; absent on hand-built commands). */
  readonly place?: CommandPlace;
  /**
   * The innermost pipeline stage the command is in, when it is in one: directly (`curl x | sh`:
   * `sh` is stage 1) or nested inside a stage (`curl x | (cd /; sh)`). `undefined` outside pipelines.
   */
  readonly pipeline?: PipelineStage;
}

/**
 * One enclosing construct of a simple command. `kind` names it.
 */
export interface Enclosing {
  readonly kind:
    | 'for' | 'c-for' | 'while' | 'if' | 'case' | 'function' | 'subshell' | 'group' | 'command-substitution'
    | 'process-substitution' | 'test' | 'negated' | 'heredoc' | 'arithmetic' | 'list-right' | 'assignment';
  /** The construct's extent (UTF-16 offsets into the unit text). */
  readonly span: Span;
  /** `condition` on a marker entry for the test of an `if`/`while`/`until`/`for ((…))` (the entry after it is the construct). */
  readonly field?: string;
  /** `for`: the loop variable; `function`: its name. */
  readonly name?: string;
  /** `for … in WORDS`: the words (`undefined` for `for x; do`, which iterates over `"$@"`). */
  readonly values?: readonly Word[];
}

/** A linked list of enclosing constructs, innermost first (shared between commands of one construct). */
export interface EnclosingChain {
  readonly enclosing: Enclosing;
  readonly parent: EnclosingChain | undefined;
}

/** Where a simple command sits. */
export interface CommandPlace {
  /** Innermost enclosing construct first; `undefined` at the top level of the unit. */
  readonly chain: EnclosingChain | undefined;
  /** Number of constructs in {@link chain} (walking it costs this much). */
  readonly depth: number;
  /**
   * In a pipeline of two or more stages: the 0-based stage, and the index (into
   * {@link ParsedScript.commands}) of the previous stage's command when that stage is one simple
   * command (the one writing this command's standard input).
   */
  readonly pipeline?: { readonly stage: number; readonly previous?: number };
}

/** A declaration command: `export A=1 B`, `local x`, `declare -x P=…`. */
export interface Declaration {
  readonly span: Span;
  readonly keyword: string;
  readonly assignments: readonly Assignment[];
  /** Other words (names without `=`, options such as `-x`). */
  readonly words: readonly Word[];
  readonly place: CommandPlace;
}

/** A top-level statement of the unit (a command, pipeline, list, compound command, function …). */
export interface Statement {
  /** tree-sitter node type, e.g. `command`, `pipeline`, `list`, `if_statement`. */
  readonly type: string;
  readonly span: Span;
}

/** An ERROR node (text the grammar could not place) or a MISSING node (a token it inserted). */
export interface SyntaxProblem {
  readonly kind: 'error' | 'missing';
  readonly span: Span;
  /** For `missing`: the token or node type that was expected, e.g. `fi`, `]`. */
  readonly expected: string | undefined;
}

/** Everything the analyses need from one parse. */
export interface ParsedScript {
  readonly text: string;
  readonly statements: readonly Statement[];
  /** Every simple command in document order, nested ones included (subshells, `$(…)`, functions …). */
  readonly commands: readonly SimpleCommand[];
  /** Outermost ERROR nodes and MISSING nodes outside them, in document order. */
  readonly problems: readonly SyntaxProblem[];
  readonly comments: readonly Span[];
  /** Number of nodes in the tree (named and anonymous). */
  readonly nodeCount: number;
  /** Parse complexity of the unit (claude-code-reference.md §1.7), computed in the same walk. */
  readonly complexity: ParseComplexity;
  /**
   * `export`/`declare`/`local`/`readonly`/`typeset` commands (tree-sitter's declaration_command,
   * which is not a simple command node): their keyword, assignments and bare names.
   */
  readonly declarations?: readonly Declaration[];
  /** Assignments that are statements of their own (`a=rm; …`), not prefixes of a command. */
  readonly assignmentStatements?: readonly { readonly assignment: Assignment; readonly place: CommandPlace }[];
  /** Extents of the statements run in the background (`cmd &`), in document order. */
  readonly background?: readonly Span[];
  /**
   * Why embedded code was not (fully) expanded: a depth or size cap, a parse time-out. Set by
   * src/parse/embedded.ts; each entry is one sentence.
   */
  readonly embeddedCaps?: readonly string[];
}

const WORD_TYPES = new Set([
  'word', 'string', 'raw_string', 'ansi_c_string', 'translated_string', 'concatenation',
  'simple_expansion', 'expansion', 'command_substitution', 'process_substitution',
  'arithmetic_expansion', 'number', 'brace_expression',
]);

function spanOf(node: Node): Span {
  return { start: node.startIndex, end: node.endIndex };
}

function toAssignment(node: Node): Assignment {
  const name = node.childForFieldName('name')?.text ?? '';
  const value = node.childForFieldName('value');
  return { name, value: value ? toWord(value) : undefined, span: spanOf(node) };
}

function toHeredoc(node: Node): Heredoc | undefined {
  let start: Node | undefined;
  let body: Node | undefined;
  let stripTabs = false;
  for (const c of node.children) {
    if (!c) continue;
    if (c.type === 'heredoc_start') start = c;
    else if (c.type === 'heredoc_body') body = c;
    else if (c.type === '<<-') stripTabs = true;
  }
  if (!start) return undefined;
  const raw = start.text;
  const quoted = /['"\\]/.test(raw);
  const delimiter = raw.replace(/['"\\]/g, '');
  const bodySpan = body ? spanOf(body) : { start: start.endIndex, end: start.endIndex };
  return { delimiter, quoted, stripTabs, body: body?.text ?? '', bodySpan };
}

/**
 * Views of the redirections of a `file_redirect`, `heredoc_redirect` or `herestring_redirect`
 * node. tree-sitter-bash attaches words that follow a redirection target to the redirection
 * (`cmd >f arg`): those extra destinations are returned in `extraArgs`.
 */
function toRedirect(node: Node): { redirect: Redirect; extraArgs: Word[] } {
  let operator = '';
  let fd: string | undefined;
  const targets: Word[] = [];
  for (const c of node.children) {
    if (!c) continue;
    if (c.type === 'file_descriptor') fd = c.text;
    else if (!c.isNamed && operator === '') operator = c.text;
    else if (WORD_TYPES.has(c.type)) targets.push(toWord(c));
  }
  const heredoc = node.type === 'heredoc_redirect' ? toHeredoc(node) : undefined;
  if (heredoc) operator = heredoc.stripTabs ? '<<-' : '<<';
  const [target, ...extraArgs] = targets;
  return { redirect: { span: spanOf(node), operator, fd, target: heredoc ? undefined : target, heredoc }, extraArgs };
}

function isRedirectNode(type: string): boolean {
  return type === 'file_redirect' || type === 'heredoc_redirect' || type === 'herestring_redirect';
}

/**
 * `redirectedParent` is the enclosing `redirected_statement` when `node` is its body. The walk
 * passes it because `Node.parent` costs O(depth) in tree-sitter (quadratic on nested input).
 */
function toSimpleCommand(node: Node, statement: number, redirectedParent: Node | undefined, place: CommandPlace | undefined, pipeline: PipelineStage | undefined): SimpleCommand {
  let name: Word | undefined;
  const args: Word[] = [];
  const assignments: Assignment[] = [];
  const redirects: Redirect[] = [];
  const count = node.childCount;
  for (let i = 0; i < count; i++) {
    const c = node.child(i);
    if (!c?.isNamed) continue;
    const field = node.fieldNameForChild(i);
    if (c.type === 'variable_assignment') assignments.push(toAssignment(c));
    else if (isRedirectNode(c.type)) {
      const r = toRedirect(c);
      redirects.push(r.redirect);
      args.push(...r.extraArgs);
    } else if (c.type === 'command_name') {
      const inner = c.namedChild(0);
      name = toWord(inner ?? c);
    } else if (field === 'argument' || WORD_TYPES.has(c.type)) args.push(toWord(c));
  }
  // Redirections written after the command belong to the enclosing redirected_statement.
  if (redirectedParent) {
    for (const c of redirectedParent.namedChildren) {
      if (!c || !isRedirectNode(c.type)) continue;
      const r = toRedirect(c);
      redirects.push(r.redirect);
      args.push(...r.extraArgs);
    }
  }
  args.sort((a, b) => a.span.start - b.span.start);
  return { span: spanOf(node), name, args, assignments, redirects, statement, ...(place ? { place } : {}), ...(pipeline ? { pipeline } : {}) };
}

/** Node types that enclose commands in a way the command model cares about. */
const ENCLOSING_KIND: Readonly<Record<string, Enclosing['kind']>> = {
  for_statement: 'for',
  c_style_for_statement: 'c-for',
  while_statement: 'while',
  if_statement: 'if',
  elif_clause: 'if',
  else_clause: 'if',
  case_statement: 'case',
  function_definition: 'function',
  subshell: 'subshell',
  compound_statement: 'group',
  command_substitution: 'command-substitution',
  process_substitution: 'process-substitution',
  test_command: 'test',
  negated_command: 'negated',
  heredoc_redirect: 'heredoc',
  arithmetic_expansion: 'arithmetic',
  variable_assignment: 'assignment',
};

/** The enclosing record of the node under `cursor` (a for loop reads its variable and words). */
function enclosingOf(kind: Enclosing['kind'], node: Node, field: string | undefined): Enclosing {
  const span = spanOf(node);
  if (kind === 'for') {
    const variable = node.childForFieldName('variable')?.text;
    const values = node.childrenForFieldName('value').filter((c): c is Node => c !== null);
    const hasIn = node.children.some((c) => c?.type === 'in');
    return { kind, span, ...(field ? { field } : {}), ...(variable ? { name: variable } : {}), ...(hasIn ? { values: values.map(toWord) } : {}) };
  }
  if (kind === 'function') {
    const name = node.childForFieldName('name')?.text;
    return { kind, span, ...(field ? { field } : {}), ...(name ? { name } : {}) };
  }
  return { kind, span, ...(field ? { field } : {}) };
}

/**
 * Where an ERROR node went wrong: the first place, in document order, inside it where the parser
 * gave up — a nested ERROR, a MISSING token, or a token that it could not attach (an anonymous
 * child of an ERROR). tree-sitter often wraps everything from the start of the file to the real
 * problem in one ERROR node, so the node's own start (1:1) would say nothing. Iterative and
 * linear in the size of the ERROR subtree. Falls back to the node's own span.
 */
function errorAnchor(node: Node): Span {
  const cursor = node.walk();
  // errorDepth[d] is true when the node at depth d (relative to `node`) is an ERROR.
  const errorAt: boolean[] = [true];
  let depth = 0;
  try {
    if (!cursor.gotoFirstChild()) return spanOf(node);
    depth = 1;
    for (;;) {
      const isError = cursor.nodeType === 'ERROR';
      if (isError || cursor.nodeIsMissing || (!cursor.nodeIsNamed && errorAt[depth - 1])) {
        return { start: cursor.startIndex, end: cursor.endIndex };
      }
      errorAt[depth] = isError;
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (depth <= 1 || !cursor.gotoParent()) return spanOf(node);
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}

/**
 * Walks `tree` once and returns its views. Iterative over a tree cursor, so it is linear in the
 * number of nodes and safe on arbitrarily deep trees. Does not delete the tree.
 */
export function buildViews(tree: Tree, text: string): ParsedScript {
  const statements: Statement[] = [];
  const commands: SimpleCommand[] = [];
  const problems: SyntaxProblem[] = [];
  const comments: Span[] = [];
  let nodeCount = 0;
  const cursor = tree.walk();
  let depth = 0;
  let statement = -1;
  let errorEnd = -1;
  const complexity = new ComplexityScanner(text);
  /** The `redirected_statement` node at each depth of the current path, else undefined. */
  const redirected: (Node | undefined)[] = [];
  /** Index of the first command emitted inside the node at each depth. */
  const firstCommand: number[] = [];
  /** Enclosing chain in force below each depth. */
  const chains: (EnclosingChain | undefined)[] = [];
  const chainDepth: number[] = [];
  /** Pipeline bookkeeping at each depth where the node is a pipeline: current stage, and per stage its first command when the stage is one simple command. */
  const pipes: ({ stage: number; simple: (number | undefined)[]; offset: number } | undefined)[] = [];
  /** The (stage, previous) of the innermost pipeline stage on the current path, per depth. */
  const stageAt: ({ stage: number; previous?: number } | undefined)[] = [];
  const types: string[] = [];
  const lastNamed: (Span | undefined)[] = [];
  const background: Span[] = [];
  const declarations: Declaration[] = [];
  const assignmentStatements: { assignment: Assignment; place: CommandPlace }[] = [];
  /** The pipeline node at each depth of the current path (else undefined), its next stage index, and the stage in force. */
  const pipeGroup: ({ span: Span } | undefined)[] = [];
  const pipeNext: number[] = [];
  const pipeStageAt: (PipelineStage | undefined)[] = [];
  try {
    for (;;) {
      nodeCount++;
      const type = cursor.nodeType;
      const isNamed = cursor.nodeIsNamed;
      complexity.visit(cursor, type, isNamed, depth);
      redirected[depth] = type === 'redirected_statement' ? cursor.currentNode : undefined;
      const parentGroup = depth > 0 ? pipeGroup[depth - 1] : undefined;
      pipeStageAt[depth] = parentGroup && isNamed && type !== 'comment' ? { group: parentGroup, index: pipeNext[depth - 1]!++ } : depth > 0 ? pipeStageAt[depth - 1] : undefined;
      pipeGroup[depth] = type === 'pipeline' ? { span: { start: cursor.startIndex, end: cursor.endIndex } } : undefined;
      pipeNext[depth] = 0;
      types[depth] = type;
      firstCommand[depth] = commands.length;
      {
        // Chain and pipeline stage of this node, from its parent's.
        const parentChain = depth > 0 ? chains[depth - 1] : undefined;
        const parentDepth = depth > 0 ? chainDepth[depth - 1]! : 0;
        let chain = parentChain;
        let cdepth = parentDepth;
        const kind = isNamed ? ENCLOSING_KIND[type] : undefined;
        const field = depth > 0 ? cursor.currentFieldName : null;
        if (field === 'condition' && depth > 0 && ENCLOSING_KIND[types[depth - 1]!] !== undefined) {
          // The test of an `if`/`while`/`until`/`for ((…))`: a marker entry on the path.
          chain = { enclosing: { kind: ENCLOSING_KIND[types[depth - 1]!]!, span: { start: cursor.startIndex, end: cursor.endIndex }, field: 'condition' }, parent: chain };
          cdepth++;
        }
        if (kind !== undefined) {
          chain = { enclosing: enclosingOf(kind, cursor.currentNode, undefined), parent: chain };
          cdepth++;
        } else if (isNamed && depth > 0 && types[depth - 1] === 'list' && cursor.currentFieldName === null && lastNamed[depth] !== undefined) {
          // The right operand of `&&` / `||`: runs only depending on the left one.
          chain = { enclosing: { kind: 'list-right', span: { start: cursor.startIndex, end: cursor.endIndex } }, parent: chain };
          cdepth++;
        }
        chains[depth] = chain;
        chainDepth[depth] = cdepth;
        let stage = depth > 0 ? stageAt[depth - 1] : undefined;
        const pipe = depth > 0 ? pipes[depth - 1] : undefined;
        if (pipe && isNamed && type !== 'comment') {
          pipe.stage++;
          const s = pipe.stage + pipe.offset;
          const previous = s > 0 ? pipe.simple[s - 1] : undefined;
          stage = { stage: s, ...(previous !== undefined ? { previous } : {}) };
          const simple = type === 'command' || (type === 'redirected_statement' && cursor.currentNode.childForFieldName('body')?.type === 'command');
          pipe.simple[s] = simple ? commands.length : undefined;
        }
        if (type === 'command_substitution' || type === 'process_substitution') stage = undefined;
        stageAt[depth] = stage;
        pipes[depth] = undefined;
        if (type === 'pipeline' && isNamed) {
          // `cat <<EOF | sh`: tree-sitter puts `| sh` inside the heredoc redirect of `cat`.
          const inHeredoc = depth >= 2 && types[depth - 1] === 'heredoc_redirect' && types[depth - 2] === 'redirected_statement';
          const hostFirst = inHeredoc ? firstCommand[depth - 2] : undefined;
          pipes[depth] = inHeredoc ? { stage: -1, simple: [hostFirst], offset: 1 } : { stage: -1, simple: [], offset: 0 };
        }
        if (!isNamed && type === '&' && depth > 0 && lastNamed[depth] !== undefined && types[depth - 1] !== 'pipeline') background.push(lastNamed[depth]!);
        if (isNamed && type !== 'comment') lastNamed[depth] = { start: cursor.startIndex, end: cursor.endIndex };
        if (depth + 1 < lastNamed.length) lastNamed[depth + 1] = undefined;
      }
      if (depth === 1 && isNamed && type !== 'comment') {
        statement++;
        statements.push({ type, span: { start: cursor.startIndex, end: cursor.endIndex } });
      }
      if (type === 'comment') {
        comments.push({ start: cursor.startIndex, end: cursor.endIndex });
      } else if (type === 'ERROR') {
        // Only the outermost ERROR of a region is a problem; nested ones say the same again.
        if (cursor.startIndex >= errorEnd) {
          problems.push({ kind: 'error', span: errorAnchor(cursor.currentNode), expected: undefined });
          errorEnd = cursor.endIndex;
        }
      } else if (cursor.nodeIsMissing) {
        if (cursor.startIndex >= errorEnd) {
          problems.push({ kind: 'missing', span: { start: cursor.startIndex, end: cursor.endIndex }, expected: type });
        }
      } else if (type === 'variable_assignment' && depth > 0 && types[depth - 1] !== 'command' && types[depth - 1] !== 'declaration_command') {
        assignmentStatements.push({ assignment: toAssignment(cursor.currentNode), place: { chain: chains[depth - 1], depth: chainDepth[depth - 1]! } });
      } else if (type === 'declaration_command') {
        const node = cursor.currentNode;
        const assignments: Assignment[] = [];
        const words: Word[] = [];
        let keyword = '';
        for (const c of node.children) {
          if (!c) continue;
          if (!c.isNamed) keyword ||= c.text;
          else if (c.type === 'variable_assignment') assignments.push(toAssignment(c));
          else if (WORD_TYPES.has(c.type) || c.type === 'variable_name') words.push(toWord(c));
        }
        declarations.push({ span: spanOf(node), keyword, assignments, words, place: { chain: chains[depth], depth: chainDepth[depth]! } });
      } else if (type === 'redirected_statement' && cursor.currentNode.childForFieldName('body')?.type !== 'command') {
        // `{ ls; } > f`, `while …; done < f`: the redirections of a compound command, as a
        // command of redirections only, so that what they read and write is seen.
        const node = cursor.currentNode;
        const redirects: Redirect[] = [];
        for (const c of node.namedChildren) if (c && isRedirectNode(c.type)) redirects.push(toRedirect(c).redirect);
        if (redirects.length > 0) {
          const span = { start: redirects[0]!.span.start, end: redirects[redirects.length - 1]!.span.end };
          commands.push({ span, name: undefined, args: [], assignments: [], redirects, statement: Math.max(statement, 0), compound: true, place: { chain: depth > 0 ? chains[depth - 1] : undefined, depth: depth > 0 ? chainDepth[depth - 1]! : 0 } });
        }
      } else if (type === 'command') {
        const parent = depth > 0 && cursor.currentFieldName === 'body' ? redirected[depth - 1] : undefined;
        const stage = stageAt[depth];
        const place: CommandPlace = { chain: chains[depth], depth: chainDepth[depth]!, ...(stage ? { pipeline: stage } : {}) };
        commands.push(toSimpleCommand(cursor.currentNode, Math.max(statement, 0), parent, place, pipeStageAt[depth]));
      }
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return { text, statements, commands, problems, comments, nodeCount, complexity: complexity.finish(problems[0]), background, declarations, assignmentStatements };
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}
