/**
 * Narrow, tree-independent views of a parsed unit: top-level statements, every simple command
 * with its words, assignments and redirections (heredocs included), syntax problems and
 * comments. Built in one iterative walk (no recursion, so deep nesting cannot overflow the
 * stack). All spans are UTF-16 offsets into the unit's text.
 */
import type { Node, Tree, TreeCursor } from 'web-tree-sitter';
import { ComplexityScanner, type ParseComplexity } from './complexity.js';
import type { Span } from '../core/types.js';
import { adjoins, dollarTokenWord, joinTouching, joinWords, nodeKind, toWord, type Word } from './words.js';
import { arithmeticUse, numericSubstitution, type ArithmeticUse } from './arithmetic.js';
import { VariableChangeScanner, type VariableChanges } from './variable-changes.js';
import { heredocSubstitutions, substitutionCodeOf, type SubstitutionCode } from './substitution-code.js';

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
  /**
   * For an unquoted delimiter: the command substitutions of the body that bash runs and the parser
   * did not give as nodes (backquotes, `$\⏎(…)`, the body of `<<$x`; src/parse/substitution-code.ts). Absent when none.
   */
  readonly hidden?: readonly SubstitutionCode[];
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

/**
 * The control structure of a unit, recorded in the same tree walk as the other views: one node
 * per statement-level construct, so that an analysis can follow what runs after what (`&&`,
 * `||`, `;`, branches, loops, subshells, function bodies) without re-reading the text.
 *
 * `type` is the tree-sitter-bash node type (`program`, `list`, `pipeline`, `subshell`,
 * `compound_statement`, `if_statement`, `elif_clause`, `else_clause`, `while_statement` (also
 * `until`), `for_statement` (also `select`), `c_style_for_statement`, `do_group`,
 * `case_statement`, `case_item`, `function_definition`, `negated_command`,
 * `redirected_statement`, `heredoc_redirect`, `command_substitution`, `process_substitution`,
 * `ERROR`), or any other node type for a leaf that sits directly in one of those (a `command`, a
 * `test_command`, a `variable_assignment`, a loop's word list …). Inside a leaf, only command
 * and process substitutions (and the constructs above nested in them) are recorded.
 */
export interface FlowNode {
  readonly type: string;
  /** The tree-sitter field the node fills in its parent (`condition`, `body`, `right` …), when any. */
  readonly field?: string;
  readonly span: Span;
  /**
   * Children in document order: nested flow nodes, and the parent's anonymous tokens that steer
   * control (`&&`, `||`, `|`, `|&`, `&`, `!`, `then`, `elif`, `else`, `do`, `while`, `until`,
   * `select`, `;;`, `;&`, `;;&`) as strings.
   */
  readonly items: (FlowNode | string)[];
  /** The index (into {@link ParsedScript.commands}) of the simple command (or command of redirections only) this node is. */
  command?: number;
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
  /**
   * Parts of the tree whose effect the views do not model: what tree-sitter-bash attaches to a
   * here-document after its delimiter beyond the forms {@link Redirect} covers, and quoted text
   * that bash may evaluate as an array subscript (see {@link subscriptCode}). What bash does with
   * them is not known, so the command model reports each as a gap. Absent when there are none.
   */
  readonly unmodelled?: readonly Unmodelled[];
  /** Arithmetic contexts and what their operands read (src/parse/arithmetic.ts). Absent when there are none. */
  readonly arithmetic?: readonly ArithmeticUse[];
  /** Start offsets of the command substitutions whose output is proven to be a number (src/parse/arithmetic.ts). */
  readonly numericSubstitutions?: readonly number[];
  /** `for NAME in WORDS` and `select NAME in WORDS` loops: the name, its words (`undefined` for `select` and for a loop over `"$@"`), in document order. */
  readonly loopBindings?: readonly { readonly name: string; readonly values: readonly Word[] | undefined }[];
  /** The control structure of the unit's own text (root: the `program` node); embedded code has none. Absent on hand-built views. */
  readonly flow?: FlowNode;
  /**
   * Command substitutions in the unit's words that bash runs with other code than the parser's
   * reading of them (nested backquotes, `$\⏎(…)` in double quotes or `${…}`;
   * src/parse/substitution-code.ts), in document order. src/parse/embedded.ts parses them as
   * code of the command that holds them. Absent when there are none.
   */
  readonly substitutionCode?: readonly SubstitutionCode[];
  /**
   * How the unit's own text changes its variables besides plain assignments (loops, arithmetic,
   * `${x:=}`, `{x}>`, `unset`, and such forms in text bash may run later; src/parse/variable-changes.ts).
   * Absent on hand-built views.
   */
  readonly variableChanges?: VariableChanges;
}

/** A part of the tree whose effect the views do not model, and why (one sentence). */
export interface Unmodelled {
  readonly span: Span;
  readonly reason: string;
}

const WORD_TYPES = new Set([
  'word', 'string', 'raw_string', 'ansi_c_string', 'translated_string', 'concatenation',
  'simple_expansion', 'expansion', 'command_substitution', 'process_substitution',
  'arithmetic_expansion', 'number', 'brace_expression',
]);

function spanOf(node: Node): Span {
  return { start: node.startIndex, end: node.endIndex };
}

function toAssignment(node: Node, src: string): Assignment {
  const nameNode = node.childForFieldName('name');
  const name = nameNode ? src.slice(nameNode.startIndex, nameNode.endIndex) : '';
  const value = node.childForFieldName('value');
  return { name, value: value ? toWord(value, src) : undefined, span: spanOf(node) };
}

function toHeredoc(node: Node, src: string): { heredoc: Heredoc; differs: string | undefined } | undefined {
  let start: Node | undefined;
  let body: Node | undefined;
  let end: Node | undefined;
  let stripTabs = false;
  for (const c of node.children) {
    if (!c) continue;
    if (c.type === 'heredoc_start') start = c;
    else if (c.type === 'heredoc_body') body = c;
    else if (c.type === '<<-') stripTabs = true;
  }
  if (!start) return undefined;
  const startEnd = start.endIndex;
  for (const c of node.children) if (c?.type === 'heredoc_end') end = c;
  const raw = src.slice(start.startIndex, startEnd);
  const quoted = /['"\\]/.test(raw);
  const read = readDelimiter(raw);
  const delimiter = read.word;
  const bodySpan = body ? spanOf(body) : { start: startEnd, end: startEnd };
  const bodyText = body ? src.slice(bodySpan.start, bodySpan.end) : '';
  const hidden = body && !quoted ? heredocSubstitutions(bodyText, bodySpan.start, () => new Set(body.descendantsOfType('command_substitution').map((d) => d?.startIndex ?? -1))) : [];
  const heredoc: Heredoc = { delimiter, quoted, stripTabs, body: bodyText, bodySpan, ...(hidden.length > 0 ? { hidden } : {}) };
  return { heredoc, differs: bashDiffers(raw, read, quoted, stripTabs, src, startEnd, end?.startIndex) };
}

/**
 * The one reader of a here-document delimiter token `raw` (as tree-sitter-bash ends it): `word`
 * is the delimiter after bash's quote removal (`'…'`, `"…"` with its backslash escapes, `\x`,
 * and the `$` of `$'…'`/`$"…"` dropped), over the whole token; `cut` is the offset in `raw` of the
 * first unquoted metacharacter, where bash ends the word instead (`<<X;`), if any.
 */
function readDelimiter(raw: string): { word: string; cut: number | undefined } {
  let word = '';
  let cut: number | undefined;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (cut === undefined && METACHARACTERS.has(c)) cut = i;
    if (c === '\\') {
      word += raw[++i] ?? '';
    } else if (c === "'") {
      const j = raw.indexOf("'", i + 1);
      word += raw.slice(i + 1, j < 0 ? raw.length : j);
      i = j < 0 ? raw.length : j;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < raw.length && raw[j] !== '"'; j++) word += raw[j] === '\\' ? (raw[++j] ?? '') : raw[j];
      i = j;
    } else if (c === '$' && (raw[i + 1] === "'" || raw[i + 1] === '"')) continue;
    else word += c;
  }
  return { word, cut };
}

/** Unquoted characters that end a word for bash (its metacharacters; Bash manual, Definitions). */
const METACHARACTERS = new Set([' ', '\t', '\n', ';', '|', '&', '<', '>', '(', ')']);

/**
 * Where bash ends a here-document differently from tree-sitter-bash, as a reason, or `undefined`.
 * `raw` is the parser's delimiter token and `read` its reading ({@link readDelimiter}); `regionStart`..`regionEnd` (UTF-16 offsets into `src`)
 * run from the end of that token to the start of the parser's terminator line (`undefined`: no
 * terminator). Two differences: bash ends the delimiter word at its first unquoted
 * metacharacter (`<<X;` has the delimiter `X`, the parser's token is `X;`), and in a document
 * with an unquoted delimiter bash removes each backslash-newline pair before it compares a line
 * with the delimiter (bash's parse.y `read_secondary_line`), so `\` + newline + `X` is a
 * terminator line for bash, and `foo\` + newline + `X` is not.
 */
function bashDiffers(raw: string, read: { word: string; cut: number | undefined }, quoted: boolean, stripTabs: boolean, src: string, regionStart: number, regionEnd: number | undefined): string | undefined {
  const { word, cut } = read;
  if (cut !== undefined) return `is a here-document whose delimiter bash ends at \`${raw[cut]}\` (\`${raw.slice(0, cut).slice(0, 40)}\`), earlier than the parser does: the body ends at another line, and what follows it runs as commands that are not modelled.`;
  if (quoted || regionEnd === undefined) return undefined;
  const nl = src.indexOf('\n', regionStart);
  if (nl < 0 || nl >= regionEnd) return undefined;
  // The parser's body with bash's backslash-newline removal, up to the parser's terminator.
  let joined = '';
  let consumedLast = false;
  for (let i = nl + 1; i < regionEnd; i++) {
    const c = src[i]!;
    if (c === '\\') {
      if (src[i + 1] === '\n') {
        consumedLast = i + 1 === regionEnd - 1;
        i++;
        continue;
      }
      joined += c + (src[i + 1] ?? '');
      i++;
      continue;
    }
    joined += c;
  }
  if (consumedLast) return 'is a here-document body whose last line ends in a backslash: bash joins it with the terminator line, so the document goes on past the parser\'s end, and what bash runs after it is not modelled.';
  const lines = joined.split('\n');
  const early = lines.findIndex((l) => (stripTabs ? l.replace(/^\t+/, '') : l).replace(/\r$/, '') === word);
  if (early !== -1 && early < lines.length - 1) return `is a here-document body that bash, which joins backslash-newline pairs, ends at its line ${early + 1} (\`${word.slice(0, 40)}\`), earlier than the parser does: what follows runs as commands that are not modelled.`;
  return undefined;
}

/**
 * Views of the redirections of a `file_redirect`, `heredoc_redirect` or `herestring_redirect`
 * node. tree-sitter-bash attaches words that follow a redirection target to the redirection
 * (`cmd >f arg`): those extra destinations are returned in `extraArgs`.
 *
 * A `heredoc_redirect` also holds whatever follows its delimiter on the same line
 * (tree-sitter-bash's grammar: `cat <<X > out a.txt`, `cat <<X a.txt`, `cat <<X | sh`,
 * `cat <<X && next`): its further redirections come back in `redirects` after the heredoc's own,
 * in source order (bash applies them left to right), and its argument words in `extraArgs`. The
 * pipeline and `&&`/`||` statements in it are simple commands of their own, which the walk finds.
 * Any other named child is not understood and comes back in `unknown`, so that the caller can
 * report it instead of ignoring it.
 */
function toRedirect(node: Node, src: string, nodeType: string = node.type): { redirects: Redirect[]; extraArgs: Word[]; unknown: Unmodelled[] } {
  let operator = '';
  let fd: string | undefined;
  const targets: Word[] = [];
  const nested: Redirect[] = [];
  const extraArgs: Word[] = [];
  const unknown: Unmodelled[] = [];
  const read = nodeType === 'heredoc_redirect' ? toHeredoc(node, src) : undefined;
  const heredoc = read?.heredoc;
  if (read?.differs) unknown.push({ span: { start: node.startIndex, end: Math.max(node.endIndex, read.heredoc.bodySpan.end) }, reason: read.differs });
  for (const c of node.children) {
    if (!c) continue;
    const { type: t, named } = nodeKind(c);
    if (t === 'file_descriptor') fd = src.slice(c.startIndex, c.endIndex);
    else if (!named) {
      if (operator === '') operator = src.slice(c.startIndex, c.endIndex);
    } else if (WORD_TYPES.has(t)) targets.push(toWord(c, src, t));
    else if (heredoc) {
      if (isRedirectNode(t)) {
        const r = toRedirect(c, src, t);
        nested.push(...r.redirects);
        extraArgs.push(...r.extraArgs);
        unknown.push(...r.unknown);
      } else if (!HEREDOC_PARTS.has(t)) unknown.push({ span: spanOf(c), reason: HEREDOC_TAIL });
    }
  }
  if (heredoc) {
    operator = heredoc.stripTabs ? '<<-' : '<<';
    // bash ends the here-document at the first line that is the delimiter after quote removal;
    // a body that holds such a line was read further by the parser (`<<X''` up to `X''`, or an
    // unquoted `${x:-` spanning lines), so what follows that line is commands bash runs.
    const early = heredoc.body.split('\n').findIndex((l) => (heredoc.stripTabs ? l.replace(/^\t+/, '') : l).replace(/\r$/, '') === heredoc.delimiter);
    if (early !== -1) unknown.push({ span: heredoc.bodySpan, reason: `is a here-document body that bash ends at its line ${early + 1} (\`${heredoc.delimiter.slice(0, 40)}\`), earlier than the parser does: what follows that line runs as commands that are not modelled.` });
  }
  // `>a\`b\`c`: the grammar may give one target as two touching words.
  const [target, ...rest] = joinTouching(targets, src);
  const own: Redirect = { span: spanOf(node), operator, fd, target: heredoc ? undefined : target, heredoc };
  return { redirects: [own, ...nested], extraArgs: heredoc ? [...joinTouching([...targets, ...extraArgs], src)] : rest, unknown };
}

/**
 * Named children of a `heredoc_redirect` besides words and redirections that the views account
 * for: the delimiter, the body and its end, a pipeline or `&&`/`||` statement after the delimiter
 * (walked as commands of their own), and ERROR nodes (recorded as syntax problems).
 */
const HEREDOC_PARTS: ReadonlySet<string> = new Set([
  'heredoc_start', 'heredoc_body', 'heredoc_end', 'pipeline', 'ERROR',
  // `_statement` types that tree-sitter-bash allows as the right side of `&&`/`||`.
  'redirected_statement', 'command', 'declaration_command', 'unset_command', 'test_command', 'negated_command',
  'for_statement', 'c_style_for_statement', 'while_statement', 'if_statement', 'case_statement',
  'subshell', 'compound_statement', 'function_definition', 'variable_assignment', 'variable_assignments', 'list',
]);

/** Node types that may be arithmetic contexts (src/parse/arithmetic.ts decides). */
const ARITHMETIC_TYPES: ReadonlySet<string> = new Set(['arithmetic_expansion', 'compound_statement', 'c_style_for_statement', 'test_command', 'command', 'subscript', 'expansion']);

const HEREDOC_TAIL = 'follows a here-document delimiter in a form that is not modelled: what bash does with it is not known.';

/**
 * Whether the quoted text of `w` is code that bash may run later although it reads as data here:
 * bash expands an array subscript (`NAME[…]`) when it evaluates a string as arithmetic — the
 * operands of `[[ … -eq … ]]` (and `-ne -lt -le -gt -ge`), `(( … ))`, `let`, values assigned to
 * an integer variable (`declare -i`) — and when it takes a string as a variable name (`[[ -v …]]`,
 * `test -v`, `unset`, `declare`, `read`, `printf -v`, a nameref), so a `$(…)`, backquote or `${…}`
 * inside it runs; see "Shell Arithmetic" and "Arrays" in the bash manual
 * (https://www.gnu.org/software/bash/manual/bash.html#Shell-Arithmetic). In the index of an
 * expansion (`${a['$(…)']}`) bash expands the quoted text again, so there any `$(`, backquote or
 * `${` counts. A substitution written unquoted is a command of its own and is not reported here.
 */
function subscriptCode(w: Word, inIndex: boolean): boolean {
  if (w.value === undefined || w.parts.every((p) => p.kind === 'literal' && !p.quoted)) return false;
  return inIndex ? /\$\(|`|\$\{/.test(w.value) : /\[[^\]]*(?:\$\(|`|\$\{)/.test(w.value);
}

/**
 * Why a `${…}` expansion or a `[[ … =~ … ]]` regex holds code the parser reads as text, or
 * `undefined`: tree-sitter-bash does not parse a backquote substitution inside `${x:-…}` or a
 * regex, nor a `$(…)` inside single quotes within `${…}` (which bash runs when the expansion is
 * double-quoted), nor a `$'…'` escape inside `${…}` that bash decodes into `$(`. Any `` ` ``, `$(`
 * or `$'…\` left once the substitutions the parser did see are cut out counts; over-approximates
 * (an unquoted `${x:-'$(a)'}` runs nothing), in the safe direction. `[start, end)` is the node's
 * extent; `nodeAt` gives the node, read only when its text holds a candidate (a node costs wasm calls).
 */
function hiddenSubstitution(nodeAt: () => Node, start: number, end: number, text: string): string | undefined {
  let s = text.slice(start, end);
  if (!/`|\$\(|\$'[^']*\\/.test(s)) return undefined;
  const node = nodeAt();
  const cuts = node.descendantsOfType(['command_substitution', 'process_substitution']).filter((d): d is Node => d !== null);
  for (const d of cuts.sort((a, b) => b.startIndex - a.startIndex)) {
    s = s.slice(0, d.startIndex - node.startIndex) + ' '.repeat(d.endIndex - d.startIndex) + s.slice(d.endIndex - node.startIndex);
  }
  if (!/`|\$\(|\$'[^']*\\/.test(s)) return undefined;
  return `\`${text.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 40))}\` holds a command substitution (or an escape that becomes one) that the parser reads as text: bash runs it.`;
}

/**
 * Hidden substitution code of the node under `cursor` (a backquote substitution, a string or an
 * expansion; see `substitutionCodeOf` in src/parse/substitution-code.ts), or `undefined`. The
 * caller calls it only for a node whose text holds a backslash (both kinds need one).
 */
function hiddenCodeAt(cursor: TreeCursor, type: string, src: string, inDoubleQuotes: boolean): SubstitutionCode[] | undefined {
  const start = cursor.startIndex;
  const end = cursor.endIndex;
  const found = substitutionCodeOf(cursor.currentNode, type, start, src.slice(start, end), inDoubleQuotes);
  return found.length > 0 ? found : undefined;
}

/** Parents whose redirection children the walk already reads through their own command (or, for a heredoc, through the heredoc). */
const REDIRECT_OWNERS: ReadonlySet<string> = new Set(['command', 'redirected_statement', 'file_redirect', 'heredoc_redirect', 'herestring_redirect']);

function isRedirectNode(type: string): boolean {
  return type === 'file_redirect' || type === 'heredoc_redirect' || type === 'herestring_redirect';
}

/**
 * `redirectedParent` is the enclosing `redirected_statement` when `node` is its body. The walk
 * passes it because `Node.parent` costs O(depth) in tree-sitter (quadratic on nested input).
 */
function toSimpleCommand(node: Node, src: string, statement: number, redirectedParent: Node | undefined, place: CommandPlace | undefined, pipeline: PipelineStage | undefined, unmodelled: Unmodelled[]): SimpleCommand {
  let name: Word | undefined;
  let args: Word[] = [];
  const assignments: Assignment[] = [];
  const redirects: Redirect[] = [];
  /**
   * What the last child ended with, so a word that touches it joins it (bash's one word, see
   * joinWords): an assignment's value, the name, an argument, or a redirection's target.
   */
  let last: 'assignment' | 'name' | 'arg' | 'redirect' | undefined;
  let lastEnd = -1;
  /** The command name node was the tail of an assignment (`x=a\`b\`c cmd`): the first argument is the name. */
  let nameJoined = false;
  const children = node.children;
  for (let i = 0; i < children.length; i++) {
    const c = children[i];
    if (!c) continue;
    const { type, named } = nodeKind(c);
    if (!named) {
      if (type === '$') {
        // `-de$""lete`: the grammar gives the text up to the `$` as an anonymous argument token.
        const w = dollarTokenArgument(c, children[i + 1], src);
        if (last !== undefined && adjoins(src, lastEnd, w.span.start) && last === 'arg') args[args.length - 1] = joinWords(args[args.length - 1]!, w, src);
        else args.push(w);
        last = 'arg';
        lastEnd = w.span.end;
      }
      continue;
    }
    if (type === 'variable_assignment') {
      assignments.push(toAssignment(c, src));
      last = 'assignment';
      lastEnd = assignments[assignments.length - 1]!.span.end;
    } else if (isRedirectNode(type)) {
      const r = toRedirect(c, src, type);
      redirects.push(...r.redirects);
      args.push(...r.extraArgs);
      unmodelled.push(...r.unknown);
      const target = r.redirects[r.redirects.length - 1]!.target;
      last = r.extraArgs.length > 0 ? 'arg' : target !== undefined && r.redirects.length === 1 ? 'redirect' : undefined;
      lastEnd = last === 'arg' ? r.extraArgs[r.extraArgs.length - 1]!.span.end : (target?.span.end ?? -1);
    } else {
      const isName = type === 'command_name';
      if (!isName && !(WORD_TYPES.has(type) || node.fieldNameForChild(i) === 'argument')) continue;
      const w = isName ? toWord(c.namedChild(0) ?? c, src) : toWord(c, src, type);
      if (last !== undefined && adjoins(src, lastEnd, w.span.start)) {
        if (last === 'assignment') {
          const a = assignments[assignments.length - 1]!;
          assignments[assignments.length - 1] = { name: a.name, value: a.value ? joinWords(a.value, w, src) : w, span: { start: a.span.start, end: w.span.end } };
          if (isName) nameJoined = true;
        } else if (last === 'name') name = joinWords(name!, w, src);
        else if (last === 'arg') args[args.length - 1] = joinWords(args[args.length - 1]!, w, src);
        else {
          const r = redirects[redirects.length - 1]!;
          redirects[redirects.length - 1] = { ...r, span: { start: r.span.start, end: w.span.end }, target: joinWords(r.target!, w, src) };
        }
        lastEnd = w.span.end;
        continue;
      }
      if (isName) name = w;
      else args.push(w);
      last = isName ? 'name' : 'arg';
      lastEnd = w.span.end;
    }
  }
  // Redirections written after the command belong to the enclosing redirected_statement.
  if (redirectedParent) {
    for (const c of redirectedParent.namedChildren) {
      if (!c) continue;
      const type = c.type;
      if (!isRedirectNode(type)) continue;
      const r = toRedirect(c, src, type);
      redirects.push(...r.redirects);
      args.push(...r.extraArgs);
      unmodelled.push(...r.unknown);
    }
  }
  args.sort((a, b) => a.span.start - b.span.start);
  args = joinTouching(args, src) as Word[];
  if (nameJoined && name === undefined) name = args.shift();
  if (name !== undefined && args.length > 0 && adjoins(src, name.span.end, args[0]!.span.start)) name = joinWords(name, args.shift()!, src);
  return { span: spanOf(node), name, args, assignments, redirects, statement, ...(place ? { place } : {}), ...(pipeline ? { pipeline } : {}) };
}

/**
 * The argument word of an anonymous `$` child `c` of a command node (`-O$"cmd"`, `x$`):
 * tree-sitter-bash ends the word's text at the `$` and
 * gives what follows as the next argument; `next` is the child after it (a `string`, or a
 * concatenation that starts with one, touching it makes the `$` a locale-string marker, see `dollarTokenWord` in src/parse/words.ts).
 */
function dollarTokenArgument(c: Node, next: Node | null | undefined, src: string): Word {
  const start = c.startIndex;
  const end = c.endIndex;
  const startsString = next != null && next.startIndex === end && (next.type === 'string' || (next.type === 'concatenation' && next.firstChild?.type === 'string'));
  return dollarTokenWord(src.slice(start, end), { start, end }, startsString);
}

/** What the walk needs to know about a node type (one entry per symbol id). */
interface TypeInfo {
  readonly type: string;
  readonly named: boolean;
  /** {@link ENCLOSING_KIND} of the type (whether or not the node is named). */
  readonly enclosing: Enclosing['kind'] | undefined;
  /** The type is one of {@link WORD_TYPES}. */
  readonly word: boolean;
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
function enclosingOf(kind: Enclosing['kind'], cursor: TreeCursor, field: string | undefined, src: string): Enclosing {
  const span = { start: cursor.startIndex, end: cursor.endIndex };
  if (kind === 'for') {
    const node = cursor.currentNode;
    const variable = node.childForFieldName('variable')?.text;
    const values = node.childrenForFieldName('value').filter((c): c is Node => c !== null);
    const hasIn = node.children.some((c) => c?.type === 'in');
    return { kind, span, ...(field ? { field } : {}), ...(variable ? { name: variable } : {}), ...(hasIn ? { values: joinTouching(values.map((v) => toWord(v, src)), src) } : {}) };
  }
  if (kind === 'function') {
    const name = cursor.currentNode.childForFieldName('name')?.text;
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
 * The span of the last named sibling (other than a comment) before the cursor's node; the cursor
 * is left where it was. The caller knows there is one.
 */
function previousNamedSpan(cursor: TreeCursor): Span {
  let steps = 0;
  let span: Span = { start: cursor.startIndex, end: cursor.startIndex };
  while (cursor.gotoPreviousSibling()) {
    steps++;
    if (cursor.nodeIsNamed && cursor.nodeType !== 'comment') {
      span = { start: cursor.startIndex, end: cursor.endIndex };
      break;
    }
  }
  for (; steps > 0; steps--) cursor.gotoNextSibling();
  return span;
}

/** Leaf node types whose text is data to the tree but may be code to bash later (see src/parse/variable-changes.ts). */
const DATA_LEAVES: ReadonlySet<string> = new Set(['word', 'string_content', 'raw_string', 'ansi_c_string', 'heredoc_content', 'heredoc_body']);

const ASSIGNED_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/** The variable name a `variable_assignment` node starting at `start` assigns (`a` for `a[1]=x`). */
function assignedName(src: string, start: number): string {
  ASSIGNED_NAME.lastIndex = start;
  return ASSIGNED_NAME.exec(src)?.[0] ?? '';
}

/** Flow nodes whose named children are all flow nodes (statements, clauses, leaves). */
const FLOW_CONTAINERS: ReadonlySet<string> = new Set([
  'program', 'list', 'pipeline', 'subshell', 'compound_statement', 'if_statement', 'elif_clause', 'else_clause',
  'while_statement', 'for_statement', 'c_style_for_statement', 'do_group', 'case_statement', 'case_item',
  'function_definition', 'negated_command', 'redirected_statement', 'heredoc_redirect', 'command_substitution',
  'process_substitution', 'ERROR',
]);

/** Flow nodes wherever they appear (a substitution inside a word runs commands of its own). */
const FLOW_SCOPES: ReadonlySet<string> = new Set(['command_substitution', 'process_substitution']);

/** Anonymous tokens a flow container keeps among its items. */
const FLOW_TOKENS: ReadonlySet<string> = new Set(['&&', '||', '|', '|&', '&', '!', 'then', 'elif', 'else', 'do', 'while', 'until', 'select', ';;', ';&', ';;&']);

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
  /** Whether a named node other than a comment came before the current node among its siblings, per depth. */
  const hasNamedBefore: boolean[] = [];
  const background: Span[] = [];
  const declarations: Declaration[] = [];
  const assignmentStatements: { assignment: Assignment; place: CommandPlace }[] = [];
  const unmodelled: Unmodelled[] = [];
  const substitutionCode: SubstitutionCode[] = [];
  const arithmetic: ArithmeticUse[] = [];
  const numericSubstitutions: number[] = [];
  const loopBindings: { name: string; values: readonly Word[] | undefined }[] = [];
  /** The pipeline node at each depth of the current path (else undefined), its next stage index, and the stage in force. */
  const pipeGroup: ({ span: Span } | undefined)[] = [];
  const pipeNext: number[] = [];
  const pipeStageAt: (PipelineStage | undefined)[] = [];
  /** The flow node opened at each depth of the current path (else undefined), and the innermost one in force below it. */
  const flowAt: (FlowNode | undefined)[] = [];
  const flowIn: (FlowNode | undefined)[] = [];
  let flowRoot: FlowNode | undefined;
  // Every cursor property is a call into the parser's wasm memory, so the walk reads as few as it
  // can: named-ness is a property of the node's symbol (cached per type id), MISSING nodes exist
  // only in a tree with an error, and a field name is read only under a parent that has the field.
  const hasError = tree.rootNode.hasError;
  // Node text is sliced from the text the parser read: src/parse/parser.ts parses NUL as U+FFFD.
  const src = text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text;
  const language = tree.language;
  /** Per symbol id: its type name, named-ness, enclosing kind and word-ness (read once per id). */
  const infoById: (TypeInfo | undefined)[] = [];
  /** The type info of the node at each depth of the current path. */
  const infos: TypeInfo[] = [];
  /** The first `[` of `text` at or after the last word checked for a subscript (nodes come in document order). */
  let bracketAt = -2;
  let bracketFrom = 0;
  /** The same for a backquote. */
  let backquoteAt = -2;
  let backquoteFrom = 0;
  /** Whether `text` holds a backquote in `[start, end)` (amortised constant time: nodes come in document order). */
  const hasBackquote = (start: number, end: number): boolean => {
    if (start < backquoteFrom || (backquoteAt !== -1 && backquoteAt < start)) backquoteAt = text.indexOf('`', start);
    backquoteFrom = start;
    return backquoteAt !== -1 && backquoteAt < end;
  };
  /** The same for a backslash. */
  let backslashAt = -2;
  let backslashFrom = 0;
  const hasBackslash = (start: number, end: number): boolean => {
    if (start < backslashFrom || (backslashAt !== -1 && backslashAt < start)) backslashAt = src.indexOf('\\', start);
    backslashFrom = start;
    return backslashAt !== -1 && backslashAt < end;
  };
  /** The same for `:` (an expansion is an arithmetic context only with a `:` operator in it). */
  let colonAt = -2;
  let colonFrom = 0;
  /**
   * A cheap test that a node of an arithmetic type may be an arithmetic context (src/parse/arithmetic.ts
   * `operandsOf` decides): `(( … ))` and `[[ … ]]` by their opening, `${x:offset}` only with a `:`.
   */
  const mayBeArithmetic = (type: string, start: number, end: number): boolean => {
    if (type === 'compound_statement') return src.startsWith('((', start);
    if (type === 'test_command') return src.startsWith('[[', start);
    if (type !== 'expansion') return true;
    if (start < colonFrom || (colonAt !== -1 && colonAt < start)) colonAt = src.indexOf(':', start);
    colonFrom = start;
    return colonAt !== -1 && colonAt < end;
  };
  const changes = new VariableChangeScanner(src);
  /** Per depth: the node is inside a `[[ … ]]` test, and inside an arithmetic context whose text was scanned. */
  const inTest: boolean[] = [];
  const inArithmetic: boolean[] = [];
  try {
    for (;;) {
      nodeCount++;
      const typeId = cursor.nodeTypeId;
      let info = infoById[typeId];
      if (info === undefined) {
        const t = language.types[typeId] || 'ERROR';
        info = { type: t, named: cursor.nodeIsNamed, enclosing: Object.hasOwn(ENCLOSING_KIND, t) ? ENCLOSING_KIND[t] : undefined, word: WORD_TYPES.has(t) };
        infoById[typeId] = info;
      }
      const type = info.type;
      const isNamed = info.named;
      infos[depth] = info;
      complexity.visit(cursor, type, isNamed, depth);
      redirected[depth] = type === 'redirected_statement' ? cursor.currentNode : undefined;
      const parentGroup = depth > 0 ? pipeGroup[depth - 1] : undefined;
      pipeStageAt[depth] = parentGroup && isNamed && type !== 'comment' ? { group: parentGroup, index: pipeNext[depth - 1]!++ } : depth > 0 ? pipeStageAt[depth - 1] : undefined;
      pipeGroup[depth] = type === 'pipeline' ? { span: { start: cursor.startIndex, end: cursor.endIndex } } : undefined;
      pipeNext[depth] = 0;
      types[depth] = type;
      firstCommand[depth] = commands.length;
      {
        // Variable changes (src/parse/variable-changes.ts). With a syntax error the whole text is scanned at the end instead.
        // A cursor position is a call into wasm: read only for the node types that need it.
        inTest[depth] = (depth > 0 && (inTest[depth - 1]! || types[depth - 1] === 'subscript')) || type === 'test_command';
        let arithmeticHere = depth > 0 && inArithmetic[depth - 1]!;
        if (!arithmeticHere && isNamed && (type === 'arithmetic_expansion' || (type === 'compound_statement' && src.startsWith('((', cursor.startIndex)) || (depth > 0 && types[depth - 1] === 'c_style_for_statement' && cursor.currentFieldName !== 'body'))) {
          arithmeticHere = true;
          if (!hasError) changes.arithmeticText(cursor.startIndex, cursor.endIndex);
        }
        inArithmetic[depth] = arithmeticHere;
        if (isNamed) {
          if (type === 'variable_assignment') {
            if (!hasError) changes.assignment(assignedName(src, cursor.startIndex));
          } else if (type === 'expansion') changes.expansion(cursor.startIndex);
          else if (type === 'unset_command') changes.unset(cursor.startIndex, cursor.endIndex);
          else if (info.word && (depth === 0 || !infos[depth - 1]!.word)) {
            const start = cursor.startIndex;
            if (src.charCodeAt(start) === 0x7b) changes.braceWord(start);
          }
        }
      }
      {
        // Chain and pipeline stage of this node, from its parent's.
        const parentChain = depth > 0 ? chains[depth - 1] : undefined;
        const parentDepth = depth > 0 ? chainDepth[depth - 1]! : 0;
        let chain = parentChain;
        let cdepth = parentDepth;
        const kind = isNamed ? info.enclosing : undefined;
        const parentKind = depth > 0 ? infos[depth - 1]!.enclosing : undefined;
        if (parentKind !== undefined && cursor.currentFieldName === 'condition') {
          // The test of an `if`/`while`/`until`/`for ((…))`: a marker entry on the path.
          chain = { enclosing: { kind: parentKind, span: { start: cursor.startIndex, end: cursor.endIndex }, field: 'condition' }, parent: chain };
          cdepth++;
        }
        if (kind !== undefined) {
          chain = { enclosing: enclosingOf(kind, cursor, undefined, src), parent: chain };
          cdepth++;
        } else if (isNamed && depth > 0 && types[depth - 1] === 'list' && hasNamedBefore[depth] === true && cursor.currentFieldName === null) {
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
        if (!isNamed && type === '&' && depth > 0 && hasNamedBefore[depth] === true && types[depth - 1] !== 'pipeline') background.push(previousNamedSpan(cursor));
        if (isNamed && type !== 'comment') hasNamedBefore[depth] = true;
        if (depth + 1 < hasNamedBefore.length) hasNamedBefore[depth + 1] = false;
      }
      const commandsBefore = commands.length;
      if (depth === 1 && isNamed && type !== 'comment') {
        statement++;
        statements.push({ type, span: { start: cursor.startIndex, end: cursor.endIndex } });
      }
      let subscriptCandidate = false;
      if (isNamed && info.word && (depth === 0 || !infos[depth - 1]!.word)) {
        // Whether the word holds a `[`: the first `[` at or after its start lies before its end.
        const start = cursor.startIndex;
        if (start < bracketFrom || (bracketAt !== -1 && bracketAt < start)) bracketAt = text.indexOf('[', start);
        bracketFrom = start;
        subscriptCandidate = bracketAt !== -1 && bracketAt < cursor.endIndex;
      }
      if (subscriptCandidate || (isNamed && depth > 0 && types[depth - 1] === 'subscript' && cursor.currentFieldName === 'index')) {
        // Quoted text that bash may expand as an array subscript (see subscriptCode).
        const inIndex = depth > 0 && types[depth - 1] === 'subscript';
        const snippet = text.slice(cursor.startIndex, cursor.endIndex);
        if (/\$|`|\\[x0-7u]/.test(snippet)) {
          const w = toWord(cursor.currentNode);
          if (subscriptCode(w, inIndex)) unmodelled.push({ span: spanOf(cursor.currentNode), reason: `\`${snippet.slice(0, 40)}\` holds an array subscript with a substitution, which bash runs when it evaluates the text as arithmetic or as a variable name.` });
        }
      }
      if (isNamed && ARITHMETIC_TYPES.has(type) && type !== 'command' && mayBeArithmetic(type, cursor.startIndex, cursor.endIndex)) {
        const use = arithmeticUse(cursor.currentNode, src);
        if (use) arithmetic.push(use);
      }
      if (isNamed && type === 'command_substitution' && numericSubstitution(cursor.currentNode, src)) numericSubstitutions.push(cursor.startIndex);
      if (isNamed && type === 'for_statement') {
        const node = cursor.currentNode;
        const v = node.childForFieldName('variable');
        if (v) changes.changed(v.text);
        if (v) loopBindings.push({ name: v.text, values: src.startsWith('select', node.startIndex) || node.childrenForFieldName('value').length === 0 ? undefined : joinTouching(node.childrenForFieldName('value').filter((c): c is Node => c !== null).map((c) => toWord(c, src)), src) });
      }
      if (isNamed && type === 'concatenation' && hasBackquote(cursor.startIndex, cursor.endIndex)) {
        // `r``m`: tree-sitter-bash drops an empty backquote pair between the parts of a word;
        // bash runs it as a command substitution (empty output).
        let at = cursor.startIndex;
        let between = '';
        for (const c of cursor.currentNode.namedChildren) {
          if (!c) continue;
          between += text.slice(at, c.startIndex);
          at = c.endIndex;
        }
        between += text.slice(at, cursor.endIndex);
        if (between.includes('`')) unmodelled.push({ span: spanOf(cursor.currentNode), reason: `\`${text.slice(cursor.startIndex, Math.min(cursor.endIndex, cursor.startIndex + 40))}\` holds a backquote the parser reads as text: bash runs it as a command substitution.` });
      }
      if (isNamed && type === 'word' && hasBackquote(cursor.startIndex, cursor.endIndex) && /(?:^|[^\\])(?:\\\\)*`/.test(text.slice(cursor.startIndex, cursor.endIndex))) {
        // `r``m`: tree-sitter-bash keeps an empty (or unterminated) backquote pair inside a plain
        // word as text; bash runs it as a command substitution.
        unmodelled.push({ span: spanOf(cursor.currentNode), reason: `\`${text.slice(cursor.startIndex, Math.min(cursor.endIndex, cursor.startIndex + 40))}\` holds a backquote the parser reads as text: bash runs it as a command substitution.` });
      }
      if (isNamed && (type === 'command_substitution' || type === 'string' || type === 'expansion') && (src.charCodeAt(cursor.startIndex) === 0x60 || type !== 'command_substitution') && hasBackslash(cursor.startIndex, cursor.endIndex)) {
        const found = hiddenCodeAt(cursor, type, src, depth > 0 && types[depth - 1] === 'string');
        if (found !== undefined) substitutionCode.push(...found);
      }
      if (isNamed && (type === 'expansion' || type === 'regex')) {
        const hidden = hiddenSubstitution(() => cursor.currentNode, cursor.startIndex, cursor.endIndex, text);
        if (hidden) unmodelled.push({ span: spanOf(cursor.currentNode), reason: hidden });
      }
      if (type === 'comment') {
        comments.push({ start: cursor.startIndex, end: cursor.endIndex });
      } else if (type === 'ERROR') {
        // Only the outermost ERROR of a region is a problem; nested ones say the same again.
        if (cursor.startIndex >= errorEnd) {
          problems.push({ kind: 'error', span: errorAnchor(cursor.currentNode), expected: undefined });
          errorEnd = cursor.endIndex;
        }
      } else if (hasError && cursor.nodeIsMissing) {
        if (cursor.startIndex >= errorEnd) {
          problems.push({ kind: 'missing', span: { start: cursor.startIndex, end: cursor.endIndex }, expected: type });
        }
      } else if (type === 'variable_assignment' && depth > 0 && types[depth - 1] !== 'command' && types[depth - 1] !== 'declaration_command') {
        assignmentStatements.push({ assignment: toAssignment(cursor.currentNode, src), place: { chain: chains[depth - 1], depth: chainDepth[depth - 1]! } });
      } else if (type === 'declaration_command') {
        const node = cursor.currentNode;
        const assignments: Assignment[] = [];
        const words: Word[] = [];
        let keyword = '';
        /** End of the last assignment or word, and which it was: a word touching it is its tail (joinWords). */
        let lastEnd = -1;
        let lastWasAssignment = false;
        for (const c of node.children) {
          if (!c) continue;
          if (!c.isNamed) keyword ||= c.text;
          else if (c.type === 'variable_assignment') {
            const a = toAssignment(c, src);
            assignments.push(a);
            lastEnd = a.span.end;
            lastWasAssignment = true;
          } else if (WORD_TYPES.has(c.type) || c.type === 'variable_name') {
            const w = toWord(c, src);
            if (lastEnd === w.span.start && lastWasAssignment) {
              const a = assignments[assignments.length - 1]!;
              assignments[assignments.length - 1] = { name: a.name, value: a.value ? joinWords(a.value, w, src) : w, span: { start: a.span.start, end: w.span.end } };
            } else if (lastEnd === w.span.start) words[words.length - 1] = joinWords(words[words.length - 1]!, w, src);
            else {
              words.push(w);
              lastWasAssignment = false;
            }
            lastEnd = w.span.end;
          }
        }
        declarations.push({ span: spanOf(node), keyword, assignments, words, place: { chain: chains[depth], depth: chainDepth[depth]! } });
      } else if (type === 'redirected_statement' && cursor.currentNode.childForFieldName('body')?.type !== 'command') {
        // `{ ls; } > f`, `while …; done < f`: the redirections of a compound command, as a
        // command of redirections only, so that what they read and write is seen.
        const node = cursor.currentNode;
        const redirects: Redirect[] = [];
        const args: Word[] = [];
        for (const c of node.namedChildren) {
          if (!c || !isRedirectNode(c.type)) continue;
          const r = toRedirect(c, src);
          redirects.push(...r.redirects);
          args.push(...r.extraArgs);
          unmodelled.push(...r.unknown);
        }
        // Words after a heredoc delimiter (`{ …; } <<X a`) are not arguments of anything bash runs here
        // (tree-sitter-bash attaches them to the heredoc); what they would mean is not modelled.
        for (const a of args) unmodelled.push({ span: a.span, reason: HEREDOC_TAIL });
        if (redirects.length > 0) {
          const span = { start: redirects[0]!.span.start, end: redirects[redirects.length - 1]!.span.end };
          commands.push({ span, name: undefined, args: [], assignments: [], redirects, statement: Math.max(statement, 0), compound: true, place: { chain: depth > 0 ? chains[depth - 1] : undefined, depth: depth > 0 ? chainDepth[depth - 1]! : 0 } });
        }
      } else if (isRedirectNode(type) && depth > 0 && !REDIRECT_OWNERS.has(types[depth - 1]!)) {
        // A redirection no simple command owns: `$(<f)` and `$(>f)` (a command substitution of
        // redirections only: bash reads or truncates f), `f() { …; } > f` (applied at every call of
        // the function). It becomes a command of redirections only, so what it reads and writes is seen.
        const r = toRedirect(cursor.currentNode, src, type);
        unmodelled.push(...r.unknown);
        for (const a of r.extraArgs) unmodelled.push({ span: a.span, reason: HEREDOC_TAIL });
        const span = { start: r.redirects[0]!.span.start, end: r.redirects[r.redirects.length - 1]!.span.end };
        commands.push({ span, name: undefined, args: [], assignments: [], redirects: r.redirects, statement: Math.max(statement, 0), compound: true, place: { chain: chains[depth], depth: chainDepth[depth]! } });
      } else if (type === 'command') {
        const parent = depth > 0 && redirected[depth - 1] !== undefined && cursor.currentFieldName === 'body' ? redirected[depth - 1] : undefined;
        const stage = stageAt[depth];
        const place: CommandPlace = { chain: chains[depth], depth: chainDepth[depth]!, ...(stage ? { pipeline: stage } : {}) };
        const simple = toSimpleCommand(cursor.currentNode, src, Math.max(statement, 0), parent, place, pipeStageAt[depth], unmodelled);
        commands.push(simple);
        changes.words(simple.name, simple.args);
        // `let EXPR…` (arithmeticUse reads the parser's own command name; a name that does not start with `let` is not it).
        if (simple.name?.raw.startsWith('let')) {
          const use = arithmeticUse(cursor.currentNode, src);
          if (use) arithmetic.push(use);
        }
      }
      {
        // The flow node of this node, if it is one, attached to the innermost one above it.
        const parentFlow = depth > 0 ? flowIn[depth - 1] : undefined;
        const parentIsContainer = parentFlow !== undefined && depth > 0 && flowAt[depth - 1] === parentFlow && FLOW_CONTAINERS.has(parentFlow.type);
        let node: FlowNode | undefined;
        if (depth === 0 || (isNamed && type !== 'comment' && (FLOW_SCOPES.has(type) || parentIsContainer || (parentFlow === undefined && FLOW_CONTAINERS.has(type))))) {
          const field = depth > 0 && parentIsContainer ? cursor.currentFieldName : null;
          node = { type, ...(field ? { field } : {}), span: { start: cursor.startIndex, end: cursor.endIndex }, items: [] };
          if (commands.length > commandsBefore) node.command = commands.length - 1;
          if (parentFlow) parentFlow.items.push(node);
          else flowRoot ??= node;
        } else if (!isNamed && parentIsContainer && FLOW_TOKENS.has(type)) parentFlow!.items.push(type);
        flowAt[depth] = node;
        flowIn[depth] = node ?? parentFlow;
      }
      if (cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      if (isNamed && DATA_LEAVES.has(type) && !hasError) changes.dataLeaf(cursor.startIndex, cursor.endIndex, inTest[depth]!);
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          if (hasError) changes.wholeText();
          return { text, statements, commands, problems, comments, nodeCount, complexity: complexity.finish(problems[0]), background, declarations, assignmentStatements, ...(unmodelled.length > 0 ? { unmodelled } : {}), ...(substitutionCode.length > 0 ? { substitutionCode } : {}), ...(arithmetic.length > 0 ? { arithmetic, numericSubstitutions, loopBindings } : {}), ...(flowRoot ? { flow: flowRoot } : {}), variableChanges: changes.finish() };
        }
        depth--;
      }
    }
  } finally {
    cursor.delete();
  }
}
