/**
 * Narrow, tree-independent views of a parsed unit: top-level statements, every simple command
 * with its words, assignments and redirections (heredocs included), syntax problems and
 * comments. Built in one iterative walk (no recursion, so deep nesting cannot overflow the
 * stack). All spans are UTF-16 offsets into the unit's text.
 */
import type { Tree, TreeCursor } from 'web-tree-sitter';
import { ComplexityScanner, type ParseComplexity } from './complexity.js';
import type { Span } from '../core/types.js';
import { adjoins, dollarTokenWord, joinTouching, joinWords, wordAt, type Word } from './words.js';
import { buildNodeTable, FLAG_MISSING, TableView } from './node-table.js';
import { arithmeticUse, numericSubstitution, type ArithmeticUse } from './arithmetic.js';
import { VariableChangeScanner, type VariableChanges } from './variable-changes.js';
import { heredocSubstitutions, substitutionCodeOf, type SubstitutionCode } from './substitution-code.js';
import numericOutput from '../../rules/numeric-output.json' with { type: 'json' };

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

/** The extent of node `i` of the table. */
function spanOf(v: TableView, i: number): Span {
  return { start: v.table.start[i]!, end: v.table.end[i]! };
}

function toAssignment(v: TableView, i: number, src: string): Assignment {
  const nameNode = v.childForField(i, 'name');
  const name = nameNode !== -1 ? src.slice(v.table.start[nameNode], v.table.end[nameNode]) : '';
  const value = v.childForField(i, 'value');
  return { name, value: value !== -1 ? wordAt(v, value, src) : undefined, span: spanOf(v, i) };
}

function toHeredoc(v: TableView, i: number, src: string): { heredoc: Heredoc; differs: string | undefined } | undefined {
  let start = -1;
  let body = -1;
  let end = -1;
  let stripTabs = false;
  for (let c = v.firstChild(i); c !== -1; c = v.next(c)) {
    const t = v.type(c);
    if (t === 'heredoc_start') start = c;
    else if (t === 'heredoc_body') body = c;
    else if (t === '<<-') stripTabs = true;
    else if (t === 'heredoc_end') end = c;
  }
  if (start === -1) return undefined;
  const startEnd = v.table.end[start]!;
  const raw = src.slice(v.table.start[start], startEnd);
  const quoted = /['"\\]/.test(raw);
  const read = readDelimiter(raw);
  const delimiter = read.word;
  const bodySpan = body !== -1 ? spanOf(v, body) : { start: startEnd, end: startEnd };
  const bodyText = body !== -1 ? src.slice(bodySpan.start, bodySpan.end) : '';
  const hidden = body !== -1 && !quoted ? heredocSubstitutions(bodyText, bodySpan.start, () => substitutionStarts(v, body)) : [];
  const heredoc: Heredoc = hidden.length > 0 ? { delimiter, quoted, stripTabs, body: bodyText, bodySpan, hidden } : { delimiter, quoted, stripTabs, body: bodyText, bodySpan };
  return { heredoc, differs: bashDiffers(raw, read, quoted, stripTabs, src, startEnd, end !== -1 ? v.table.start[end] : undefined) };
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
function toRedirect(v: TableView, node: number, src: string, nodeType: string = v.type(node)): { redirects: Redirect[]; extraArgs: Word[]; unknown: Unmodelled[] } {
  let operator = '';
  let fd: string | undefined;
  const targets: Word[] = [];
  const nested: Redirect[] = [];
  const extraArgs: Word[] = [];
  const unknown: Unmodelled[] = [];
  const read = nodeType === 'heredoc_redirect' ? toHeredoc(v, node, src) : undefined;
  const heredoc = read?.heredoc;
  if (read?.differs) unknown.push({ span: { start: v.table.start[node]!, end: Math.max(v.table.end[node]!, read.heredoc.bodySpan.end) }, reason: read.differs });
  for (let c = v.firstChild(node); c !== -1; c = v.next(c)) {
    const t = v.type(c);
    if (t === 'file_descriptor') fd = src.slice(v.table.start[c], v.table.end[c]);
    else if (!v.named(c)) {
      if (operator === '') operator = src.slice(v.table.start[c], v.table.end[c]);
    } else if (WORD_TYPES.has(t)) targets.push(wordAt(v, c, src, t));
    else if (heredoc) {
      if (isRedirectNode(t)) {
        const r = toRedirect(v, c, src, t);
        nested.push(...r.redirects);
        extraArgs.push(...r.extraArgs);
        unknown.push(...r.unknown);
      } else if (!HEREDOC_PARTS.has(t)) unknown.push({ span: spanOf(v, c), reason: HEREDOC_TAIL });
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
  const own: Redirect = { span: spanOf(v, node), operator, fd, target: heredoc ? undefined : target, heredoc };
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
 * extent, `node` its index in the table.
 */
function hiddenSubstitution(v: TableView, node: number, start: number, end: number, text: string): string | undefined {
  let s = text.slice(start, end);
  if (!/`|\$\(|\$'[^']*\\/.test(s)) return undefined;
  const cuts: number[] = [];
  for (let d = node + 1; d < v.table.subtreeEnd[node]!; d++) {
    const t = v.type(d);
    if (t === 'command_substitution' || t === 'process_substitution') cuts.push(d);
  }
  // Each cut blanks its extent (nested cuts lie inside their outer one), so the order does not change the result.
  for (const d of cuts) {
    const ds = v.table.start[d]!;
    const de = v.table.end[d]!;
    s = s.slice(0, ds - start) + ' '.repeat(de - ds) + s.slice(de - start);
  }
  if (!/`|\$\(|\$'[^']*\\/.test(s)) return undefined;
  return `\`${text.slice(start, Math.min(end, start + 40))}\` holds a command substitution (or an escape that becomes one) that the parser reads as text: bash runs it.`;
}

/** The start offsets of the `command_substitution` nodes below node `i` of the table. */
function substitutionStarts(v: TableView, i: number): Set<number> {
  const out = new Set<number>();
  for (let d = i + 1; d < v.table.subtreeEnd[i]!; d++) if (v.type(d) === 'command_substitution') out.add(v.table.start[d]!);
  return out;
}

/** Parents whose redirection children the walk already reads through their own command (or, for a heredoc, through the heredoc). */
const REDIRECT_OWNERS: ReadonlySet<string> = new Set(['command', 'redirected_statement', 'file_redirect', 'heredoc_redirect', 'herestring_redirect']);

function isRedirectNode(type: string): boolean {
  return type === 'file_redirect' || type === 'heredoc_redirect' || type === 'herestring_redirect';
}

/**
 * `node` is the command's index in the table; `redirectedParent` the index of the enclosing
 * `redirected_statement` when `node` is its body, else -1.
 */
function toSimpleCommand(v: TableView, node: number, src: string, statement: number, redirectedParent: number, place: CommandPlace | undefined, pipeline: PipelineStage | undefined, unmodelled: Unmodelled[]): SimpleCommand {
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
  for (let c = v.firstChild(node); c !== -1; c = v.next(c)) {
    if (!v.named(c)) {
      if (v.type(c) === '$') {
        // `-de$""lete`: the grammar gives the text up to the `$` as an anonymous argument token.
        const w = dollarTokenArgument(v, c, src);
        if (last === 'arg' && adjoins(src, lastEnd, w.span.start)) args[args.length - 1] = joinWords(args[args.length - 1]!, w, src);
        else args.push(w);
        last = 'arg';
        lastEnd = w.span.end;
      }
      continue;
    }
    const type = v.type(c);
    if (type === 'variable_assignment') {
      assignments.push(toAssignment(v, c, src));
      last = 'assignment';
      lastEnd = assignments[assignments.length - 1]!.span.end;
    } else if (isRedirectNode(type)) {
      const r = toRedirect(v, c, src, type);
      redirects.push(...r.redirects);
      args.push(...r.extraArgs);
      unmodelled.push(...r.unknown);
      const target = r.redirects[r.redirects.length - 1]!.target;
      last = r.extraArgs.length > 0 ? 'arg' : target !== undefined && r.redirects.length === 1 ? 'redirect' : undefined;
      lastEnd = last === 'arg' ? r.extraArgs[r.extraArgs.length - 1]!.span.end : (target?.span.end ?? -1);
    } else {
      const isName = type === 'command_name';
      if (!isName && !(WORD_TYPES.has(type) || v.field(c) === 'argument')) continue;
      const inner = isName ? v.firstNamedChild(c) : -1;
      const w = isName ? wordAt(v, inner !== -1 ? inner : c, src) : wordAt(v, c, src, type);
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
  if (redirectedParent !== -1) {
    for (let c = v.firstChild(redirectedParent); c !== -1; c = v.next(c)) {
      if (!v.named(c)) continue;
      const type = v.type(c);
      if (!isRedirectNode(type)) continue;
      const r = toRedirect(v, c, src, type);
      redirects.push(...r.redirects);
      args.push(...r.extraArgs);
      unmodelled.push(...r.unknown);
    }
  }
  args.sort((a, b) => a.span.start - b.span.start);
  args = joinTouching(args, src) as Word[];
  if (nameJoined && name === undefined) name = args.shift();
  if (name !== undefined && args.length > 0 && adjoins(src, name.span.end, args[0]!.span.start)) name = joinWords(name, args.shift()!, src);
  const span = spanOf(v, node);
  // Written out rather than spread: object spread is a slow path in V8; same keys, same order.
  if (place && pipeline) return { span, name, args, assignments, redirects, statement, place, pipeline };
  if (place) return { span, name, args, assignments, redirects, statement, place };
  if (pipeline) return { span, name, args, assignments, redirects, statement, pipeline };
  return { span, name, args, assignments, redirects, statement };
}

/**
 * The argument word of an anonymous `$` child `c` of a command node (`-O$"cmd"`, `x$`):
 * tree-sitter-bash ends the word's text at the `$` and gives what follows as the next argument.
 * When the next child touches it and is a `string`, or a concatenation that starts with one, the
 * `$` is a locale-string marker (see `dollarTokenWord` in src/parse/words.ts).
 */
function dollarTokenArgument(v: TableView, c: number, src: string): Word {
  const start = v.table.start[c]!;
  const end = v.table.end[c]!;
  const next = v.next(c);
  let startsString = false;
  if (next !== -1 && v.table.start[next] === end) {
    const t = v.type(next);
    if (t === 'string') startsString = true;
    else if (t === 'concatenation') {
      const first = v.firstChild(next);
      startsString = first !== -1 && v.type(first) === 'string';
    }
  }
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

/** The text of child field `field` of node `i`, or `undefined` when it has none. */
function fieldText(v: TableView, i: number, field: string, src: string): string | undefined {
  const c = v.childForField(i, field);
  return c === -1 ? undefined : src.slice(v.table.start[c], v.table.end[c]);
}

/** The enclosing record of node `i` (a for loop reads its variable and words). */
function enclosingOf(kind: Enclosing['kind'], v: TableView, i: number, field: string | undefined, src: string): Enclosing {
  const span = spanOf(v, i);
  if (kind === 'for') {
    const variable = fieldText(v, i, 'variable', src);
    const values = v.childrenForField(i, 'value');
    let hasIn = false;
    for (let c = v.firstChild(i); c !== -1 && !hasIn; c = v.next(c)) hasIn = v.type(c) === 'in';
    return { kind, span, ...(field ? { field } : {}), ...(variable ? { name: variable } : {}), ...(hasIn ? { values: joinTouching(values.map((c) => wordAt(v, c, src)), src) } : {}) };
  }
  if (kind === 'function') {
    const name = fieldText(v, i, 'name', src);
    return { kind, span, ...(field ? { field } : {}), ...(name ? { name } : {}) };
  }
  return field ? { kind, span, field } : { kind, span };
}

/**
 * Where an ERROR node went wrong: the first place, in document order, inside it where the parser
 * gave up — a nested ERROR, a MISSING token, or a token that it could not attach (an anonymous
 * child of an ERROR). tree-sitter often wraps everything from the start of the file to the real
 * problem in one ERROR node, so the node's own start (1:1) would say nothing. Iterative and
 * linear in the size of the ERROR subtree. Falls back to the node's own span.
 */
function errorAnchor(v: TableView, node: number): Span {
  const t = v.table;
  // errorAt[d] is true when the node at depth d (relative to `node`) on the current path is an ERROR.
  const errorAt: boolean[] = [true];
  const base = t.depth[node]!;
  for (let j = node + 1; j < t.subtreeEnd[node]!; j++) {
    const d = t.depth[j]! - base;
    const isError = v.type(j) === 'ERROR';
    if (isError || (t.flags[j]! & FLAG_MISSING) !== 0 || (!v.named(j) && errorAt[d - 1])) return spanOf(v, j);
    errorAt[d] = isError;
  }
  return spanOf(v, node);
}

/**
 * The span of the last named sibling (other than a comment) before node `i`. The caller knows
 * there is one.
 */
function previousNamedSpan(v: TableView, i: number): Span {
  let span: Span = { start: v.table.start[i]!, end: v.table.start[i]! };
  for (let c = v.firstChild(v.table.parent[i]!); c !== -1 && c !== i; c = v.next(c)) {
    if (v.named(c) && v.type(c) !== 'comment') span = spanOf(v, c);
  }
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

/** The programs of rules/numeric-output.json (the only command names whose output numericSubstitution can prove numeric). */
const NUMERIC_PROGRAMS: ReadonlySet<string> = new Set(Object.keys((numericOutput as { programs: Record<string, unknown> }).programs));

/** The last named child of node `i` other than a comment, or -1. */
function lastNamedChild(v: TableView, i: number): number {
  let last = -1;
  for (let c = v.firstChild(i); c !== -1; c = v.next(c)) if (v.named(c) && v.type(c) !== 'comment') last = c;
  return last;
}

/**
 * A necessary condition of src/parse/arithmetic.ts `numericSubstitution` read from the table, so
 * that its `Node` objects are made only for the substitutions it may accept: one body statement
 * whose last (pipeline) stage is a command, possibly redirected, named by a program of
 * rules/numeric-output.json.
 */
function mayBeNumericSubstitution(v: TableView, i: number, src: string): boolean {
  let body = -1;
  for (let c = v.firstChild(i); c !== -1; c = v.next(c)) {
    if (!v.named(c) || v.type(c) === 'comment') continue;
    if (body !== -1) return false;
    body = c;
  }
  if (body === -1) return false;
  let last = body;
  if (v.type(last) === 'pipeline') last = lastNamedChild(v, last);
  if (last !== -1 && v.type(last) === 'redirected_statement') last = v.childForField(last, 'body');
  if (last === -1 || v.type(last) !== 'command') return false;
  const nameNode = v.childForField(last, 'name');
  if (nameNode === -1) return false;
  const inner = v.firstNamedChild(nameNode);
  const name = wordAt(v, inner !== -1 ? inner : nameNode, src).value;
  return name !== undefined && NUMERIC_PROGRAMS.has(name);
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

/** A pipeline being walked: its current stage, and per stage its first command when the stage is one simple command. */
interface PipeState {
  stage: number;
  simple: (number | undefined)[];
  offset: number;
}

/**
 * The state of one {@link buildViews} walk over a node table, visited node by node in preorder.
 * Split into small methods because V8 compiles one huge function very slowly (seconds of
 * optimising-compiler time per attempt), which cost more than running it.
 */
class ViewWalk {
  readonly statements: Statement[] = [];
  readonly commands: SimpleCommand[] = [];
  readonly problems: SyntaxProblem[] = [];
  readonly comments: Span[] = [];
  readonly background: Span[] = [];
  readonly declarations: Declaration[] = [];
  readonly assignmentStatements: { assignment: Assignment; place: CommandPlace }[] = [];
  readonly unmodelled: Unmodelled[] = [];
  readonly substitutionCode: SubstitutionCode[] = [];
  readonly arithmetic: ArithmeticUse[] = [];
  readonly numericSubstitutions: number[] = [];
  readonly loopBindings: { name: string; values: readonly Word[] | undefined }[] = [];
  readonly complexity: ComplexityScanner;
  readonly changes: VariableChangeScanner;
  flowRoot: FlowNode | undefined;
  statement = -1;
  errorEnd = -1;
  /** The `redirected_statement` node at each depth of the current path, else -1. */
  private readonly redirected: number[] = [];
  /** Index of the first command emitted inside the node at each depth. */
  private readonly firstCommand: number[] = [];
  /** Enclosing chain in force below each depth. */
  private readonly chains: (EnclosingChain | undefined)[] = [];
  private readonly chainDepth: number[] = [];
  /** Pipeline bookkeeping at each depth where the node is a pipeline. */
  private readonly pipes: (PipeState | undefined)[] = [];
  /** The (stage, previous) of the innermost pipeline stage on the current path, per depth. */
  private readonly stageAt: ({ stage: number; previous?: number } | undefined)[] = [];
  private readonly types: string[] = [];
  /** Whether a named node other than a comment came before the current node among its siblings, per depth. */
  private readonly hasNamedBefore: boolean[] = [];
  /** The pipeline node at each depth of the current path (else undefined), its next stage index, and the stage in force. */
  private readonly pipeGroup: ({ span: Span } | undefined)[] = [];
  private readonly pipeNext: number[] = [];
  private readonly pipeStageAt: (PipelineStage | undefined)[] = [];
  /** The flow node opened at each depth of the current path (else undefined), and the innermost one in force below it. */
  private readonly flowAt: (FlowNode | undefined)[] = [];
  private readonly flowIn: (FlowNode | undefined)[] = [];
  /** Per symbol id: its type name, named-ness, enclosing kind and word-ness (read once per id). */
  private readonly infoById: (TypeInfo | undefined)[] = [];
  /** The type info of the node at each depth of the current path. */
  private readonly infos: TypeInfo[] = [];
  /** Per depth: the node is inside a `[[ … ]]` test, and inside an arithmetic context whose text was scanned. */
  private readonly inTest: boolean[] = [];
  private readonly inArithmetic: boolean[] = [];
  /** The first `[` of `text` at or after the last word checked for a subscript (nodes come in document order). */
  private bracketAt = -2;
  private bracketFrom = 0;
  /** The same for a backquote. */
  private backquoteAt = -2;
  private backquoteFrom = 0;
  /** The same for a backslash (in the text the parser read). */
  private backslashAt = -2;
  private backslashFrom = 0;
  /** The same for `:` (an expansion is an arithmetic context only with a `:` operator in it). */
  private colonAt = -2;
  private colonFrom = 0;
  /** What complexity.ts reads of the node it visits (its offsets), for the node being visited. */
  private readonly here = { startIndex: 0, endIndex: 0 };

  // The node being visited.
  private i = 0;
  private depth = 0;
  private start = 0;
  private end = 0;
  private type = '';
  private isNamed = false;
  private info: TypeInfo = { type: '', named: false, enclosing: undefined, word: false };

  /**
   * `text` is the unit's text, `src` the text the parser read (NUL as U+FFFD), `hasError`
   * whether the tree has an error.
   */
  constructor(
    private readonly v: TableView,
    private readonly text: string,
    private readonly src: string,
    private readonly hasError: boolean,
  ) {
    this.complexity = new ComplexityScanner(text);
    this.changes = new VariableChangeScanner(src);
  }

  /** Visits node `i` (nodes come in preorder). */
  visit(i: number): void {
    const v = this.v;
    const table = v.table;
    const depth = table.depth[i]!;
    this.i = i;
    this.depth = depth;
    this.start = table.start[i]!;
    this.end = table.end[i]!;
    const typeId = table.typeId[i]!;
    let info = this.infoById[typeId];
    if (info === undefined) {
      const t = v.type(i);
      info = { type: t, named: v.named(i), enclosing: Object.hasOwn(ENCLOSING_KIND, t) ? ENCLOSING_KIND[t] : undefined, word: WORD_TYPES.has(t) };
      this.infoById[typeId] = info;
    }
    this.info = info;
    this.type = info.type;
    this.isNamed = info.named;
    this.infos[depth] = info;
    this.here.startIndex = this.start;
    this.here.endIndex = this.end;
    this.complexity.visit(this.here as unknown as TreeCursor, this.type, this.isNamed, depth);
    this.bookkeeping();
    this.variableChanges();
    this.chainAndStage();
    const commandsBefore = this.commands.length;
    if (depth === 1 && this.isNamed && this.type !== 'comment') {
      this.statement++;
      this.statements.push({ type: this.type, span: { start: this.start, end: this.end } });
    }
    if (this.isNamed) this.textChecks();
    this.views();
    this.flow(commandsBefore);
    if (table.subtreeEnd[i] === i + 1 && this.isNamed && DATA_LEAVES.has(this.type) && !this.hasError) this.changes.dataLeaf(this.start, this.end, this.inTest[depth]!);
  }

  private bookkeeping(): void {
    const { depth, type, isNamed } = this;
    this.redirected[depth] = type === 'redirected_statement' ? this.i : -1;
    const parentGroup = depth > 0 ? this.pipeGroup[depth - 1] : undefined;
    this.pipeStageAt[depth] = parentGroup && isNamed && type !== 'comment' ? { group: parentGroup, index: this.pipeNext[depth - 1]!++ } : depth > 0 ? this.pipeStageAt[depth - 1] : undefined;
    this.pipeGroup[depth] = type === 'pipeline' ? { span: { start: this.start, end: this.end } } : undefined;
    this.pipeNext[depth] = 0;
    this.types[depth] = type;
    this.firstCommand[depth] = this.commands.length;
  }

  /** Variable changes (src/parse/variable-changes.ts). With a syntax error the whole text is scanned at the end instead. */
  private variableChanges(): void {
    const { depth, type, isNamed, src, changes, types } = this;
    const nodeStart = this.start;
    this.inTest[depth] = (depth > 0 && (this.inTest[depth - 1]! || types[depth - 1] === 'subscript')) || type === 'test_command';
    let arithmeticHere = depth > 0 && this.inArithmetic[depth - 1]!;
    if (!arithmeticHere && isNamed && (type === 'arithmetic_expansion' || (type === 'compound_statement' && src.startsWith('((', nodeStart)) || (depth > 0 && types[depth - 1] === 'c_style_for_statement' && this.v.field(this.i) !== 'body'))) {
      arithmeticHere = true;
      if (!this.hasError) changes.arithmeticText(nodeStart, this.end);
    }
    this.inArithmetic[depth] = arithmeticHere;
    if (isNamed) {
      if (type === 'variable_assignment') {
        if (!this.hasError) changes.assignment(assignedName(src, nodeStart));
      } else if (type === 'expansion') changes.expansion(nodeStart);
      else if (type === 'unset_command') changes.unset(nodeStart, this.end);
      else if (this.info.word && (depth === 0 || !this.infos[depth - 1]!.word)) {
        if (src.charCodeAt(nodeStart) === 0x7b) changes.braceWord(nodeStart);
      }
    }
  }

  /** Whether the `body` of `redirected_statement` node `r` is a `command`. */
  private bodyIsCommand(r: number): boolean {
    const b = this.v.childForField(r, 'body');
    return b !== -1 && this.v.type(b) === 'command';
  }

  /** Chain and pipeline stage of this node, from its parent's. */
  private chainAndStage(): void {
    const { depth, type, isNamed, v, i } = this;
    const parentChain = depth > 0 ? this.chains[depth - 1] : undefined;
    const parentDepth = depth > 0 ? this.chainDepth[depth - 1]! : 0;
    let chain = parentChain;
    let cdepth = parentDepth;
    const kind = isNamed ? this.info.enclosing : undefined;
    const parentKind = depth > 0 ? this.infos[depth - 1]!.enclosing : undefined;
    if (parentKind !== undefined && v.field(i) === 'condition') {
      // The test of an `if`/`while`/`until`/`for ((…))`: a marker entry on the path.
      chain = { enclosing: { kind: parentKind, span: { start: this.start, end: this.end }, field: 'condition' }, parent: chain };
      cdepth++;
    }
    if (kind !== undefined) {
      chain = { enclosing: enclosingOf(kind, v, i, undefined, this.src), parent: chain };
      cdepth++;
    } else if (isNamed && depth > 0 && this.types[depth - 1] === 'list' && this.hasNamedBefore[depth] === true && v.field(i) === null) {
      // The right operand of `&&` / `||`: runs only depending on the left one.
      chain = { enclosing: { kind: 'list-right', span: { start: this.start, end: this.end } }, parent: chain };
      cdepth++;
    }
    this.chains[depth] = chain;
    this.chainDepth[depth] = cdepth;
    let stage = depth > 0 ? this.stageAt[depth - 1] : undefined;
    const pipe = depth > 0 ? this.pipes[depth - 1] : undefined;
    if (pipe && isNamed && type !== 'comment') {
      pipe.stage++;
      const s = pipe.stage + pipe.offset;
      const previous = s > 0 ? pipe.simple[s - 1] : undefined;
      stage = previous !== undefined ? { stage: s, previous } : { stage: s };
      const simple = type === 'command' || (type === 'redirected_statement' && this.bodyIsCommand(i));
      pipe.simple[s] = simple ? this.commands.length : undefined;
    }
    if (type === 'command_substitution' || type === 'process_substitution') stage = undefined;
    this.stageAt[depth] = stage;
    this.pipes[depth] = undefined;
    if (type === 'pipeline' && isNamed) {
      // `cat <<EOF | sh`: tree-sitter puts `| sh` inside the heredoc redirect of `cat`.
      const inHeredoc = depth >= 2 && this.types[depth - 1] === 'heredoc_redirect' && this.types[depth - 2] === 'redirected_statement';
      const hostFirst = inHeredoc ? this.firstCommand[depth - 2] : undefined;
      this.pipes[depth] = inHeredoc ? { stage: -1, simple: [hostFirst], offset: 1 } : { stage: -1, simple: [], offset: 0 };
    }
    if (!isNamed && type === '&' && depth > 0 && this.hasNamedBefore[depth] === true && this.types[depth - 1] !== 'pipeline') this.background.push(previousNamedSpan(v, i));
    if (isNamed && type !== 'comment') this.hasNamedBefore[depth] = true;
    if (depth + 1 < this.hasNamedBefore.length) this.hasNamedBefore[depth + 1] = false;
  }

  /** Whether `text` holds a backquote in `[start, end)` (amortised constant time: nodes come in document order). */
  private hasBackquote(start: number, end: number): boolean {
    if (start < this.backquoteFrom || (this.backquoteAt !== -1 && this.backquoteAt < start)) this.backquoteAt = this.text.indexOf('`', start);
    this.backquoteFrom = start;
    return this.backquoteAt !== -1 && this.backquoteAt < end;
  }

  /** Whether the text the parser read holds a backslash in `[start, end)` (amortised constant time, as {@link hasBackquote}). */
  private hasBackslash(start: number, end: number): boolean {
    if (start < this.backslashFrom || (this.backslashAt !== -1 && this.backslashAt < start)) this.backslashAt = this.src.indexOf('\\', start);
    this.backslashFrom = start;
    return this.backslashAt !== -1 && this.backslashAt < end;
  }

  /**
   * A cheap test that a node of an arithmetic type may be an arithmetic context (src/parse/arithmetic.ts
   * `operandsOf` decides): `(( … ))` and `[[ … ]]` by their opening, `${x:offset}` only with a `:`.
   */
  private mayBeArithmetic(type: string, start: number, end: number): boolean {
    const src = this.src;
    if (type === 'compound_statement') return src.startsWith('((', start);
    if (type === 'test_command') return src.startsWith('[[', start);
    if (type !== 'expansion') return true;
    if (start < this.colonFrom || (this.colonAt !== -1 && this.colonAt < start)) this.colonAt = src.indexOf(':', start);
    this.colonFrom = start;
    return this.colonAt !== -1 && this.colonAt < end;
  }

  /** Checks of a named node's text: subscripts, arithmetic, numeric substitutions, loops, backquotes the parser reads as text. */
  private textChecks(): void {
    const { depth, type, v, i, text, src, types } = this;
    const nodeStart = this.start;
    const nodeEnd = this.end;
    let subscriptCandidate = false;
    if (this.info.word && (depth === 0 || !this.infos[depth - 1]!.word)) {
      // Whether the word holds a `[`: the first `[` at or after its start lies before its end.
      if (nodeStart < this.bracketFrom || (this.bracketAt !== -1 && this.bracketAt < nodeStart)) this.bracketAt = text.indexOf('[', nodeStart);
      this.bracketFrom = nodeStart;
      subscriptCandidate = this.bracketAt !== -1 && this.bracketAt < nodeEnd;
    }
    if (subscriptCandidate || (depth > 0 && types[depth - 1] === 'subscript' && v.field(i) === 'index')) {
      // Quoted text that bash may expand as an array subscript (see subscriptCode).
      const inIndex = depth > 0 && types[depth - 1] === 'subscript';
      const snippet = text.slice(nodeStart, nodeEnd);
      if (/\$|`|\\[x0-7u]/.test(snippet)) {
        const w = wordAt(v, i, src, type);
        if (subscriptCode(w, inIndex)) this.unmodelled.push({ span: spanOf(v, i), reason: `\`${snippet.slice(0, 40)}\` holds an array subscript with a substitution, which bash runs when it evaluates the text as arithmetic or as a variable name.` });
      }
    }
    if (ARITHMETIC_TYPES.has(type) && type !== 'command' && this.mayBeArithmetic(type, nodeStart, nodeEnd)) {
      const use = arithmeticUse(v.nodeAt(i), src);
      if (use) this.arithmetic.push(use);
    }
    if (type === 'command_substitution' && mayBeNumericSubstitution(v, i, src) && numericSubstitution(v.nodeAt(i), src)) this.numericSubstitutions.push(nodeStart);
    if (type === 'for_statement') {
      const variable = fieldText(v, i, 'variable', src);
      if (variable !== undefined) {
        this.changes.changed(variable);
        const values = v.childrenForField(i, 'value');
        this.loopBindings.push({ name: variable, values: src.startsWith('select', nodeStart) || values.length === 0 ? undefined : joinTouching(values.map((c) => wordAt(v, c, src)), src) });
      }
    }
    if (type === 'concatenation' && this.hasBackquote(nodeStart, nodeEnd)) {
      // `r``m`: tree-sitter-bash drops an empty backquote pair between the parts of a word;
      // bash runs it as a command substitution (empty output).
      let at = nodeStart;
      let between = '';
      for (let c = v.firstChild(i); c !== -1; c = v.next(c)) {
        if (!v.named(c)) continue;
        between += text.slice(at, v.table.start[c]);
        at = v.table.end[c]!;
      }
      between += text.slice(at, nodeEnd);
      if (between.includes('`')) this.unmodelled.push({ span: spanOf(v, i), reason: `\`${text.slice(nodeStart, Math.min(nodeEnd, nodeStart + 40))}\` holds a backquote the parser reads as text: bash runs it as a command substitution.` });
    }
    if (type === 'word' && this.hasBackquote(nodeStart, nodeEnd) && /(?:^|[^\\])(?:\\\\)*`/.test(text.slice(nodeStart, nodeEnd))) {
      // `r``m`: tree-sitter-bash keeps an empty (or unterminated) backquote pair inside a plain
      // word as text; bash runs it as a command substitution.
      this.unmodelled.push({ span: spanOf(v, i), reason: `\`${text.slice(nodeStart, Math.min(nodeEnd, nodeStart + 40))}\` holds a backquote the parser reads as text: bash runs it as a command substitution.` });
    }
    if ((type === 'command_substitution' ? src.charCodeAt(nodeStart) === 0x60 : type === 'string' || type === 'expansion') && this.hasBackslash(nodeStart, nodeEnd)) {
      // Substitutions bash runs with other code than the parser's reading (src/parse/substitution-code.ts).
      const found = substitutionCodeOf(type, nodeStart, src.slice(nodeStart, nodeEnd), depth > 0 && types[depth - 1] === 'string', () => substitutionStarts(v, i));
      if (found.length > 0) this.substitutionCode.push(...found);
    }
    if (type === 'expansion' || type === 'regex') {
      const hidden = hiddenSubstitution(v, i, nodeStart, nodeEnd, text);
      if (hidden) this.unmodelled.push({ span: spanOf(v, i), reason: hidden });
    }
  }

  /** The views the node is itself: a comment, a syntax problem, an assignment statement, a declaration, a command … */
  private views(): void {
    const { depth, type, v, i, types } = this;
    if (type === 'comment') {
      this.comments.push({ start: this.start, end: this.end });
    } else if (type === 'ERROR') {
      // Only the outermost ERROR of a region is a problem; nested ones say the same again.
      if (this.start >= this.errorEnd) {
        this.problems.push({ kind: 'error', span: errorAnchor(v, i), expected: undefined });
        this.errorEnd = this.end;
      }
    } else if (this.hasError && (v.table.flags[i]! & FLAG_MISSING) !== 0) {
      if (this.start >= this.errorEnd) {
        this.problems.push({ kind: 'missing', span: { start: this.start, end: this.end }, expected: type });
      }
    } else if (type === 'variable_assignment' && depth > 0 && types[depth - 1] !== 'command' && types[depth - 1] !== 'declaration_command') {
      this.assignmentStatements.push({ assignment: toAssignment(v, i, this.src), place: { chain: this.chains[depth - 1], depth: this.chainDepth[depth - 1]! } });
    } else if (type === 'declaration_command') {
      this.declaration();
    } else if (type === 'redirected_statement' && !this.bodyIsCommand(i)) {
      this.compoundRedirects();
    } else if (isRedirectNode(type) && depth > 0 && !REDIRECT_OWNERS.has(types[depth - 1]!)) {
      // A redirection no simple command owns: `$(<f)` and `$(>f)` (a command substitution of
      // redirections only: bash reads or truncates f), `f() { …; } > f` (applied at every call of
      // the function). It becomes a command of redirections only, so what it reads and writes is seen.
      const r = toRedirect(v, i, this.src, type);
      this.unmodelled.push(...r.unknown);
      for (const a of r.extraArgs) this.unmodelled.push({ span: a.span, reason: HEREDOC_TAIL });
      const span = { start: r.redirects[0]!.span.start, end: r.redirects[r.redirects.length - 1]!.span.end };
      this.commands.push({ span, name: undefined, args: [], assignments: [], redirects: r.redirects, statement: Math.max(this.statement, 0), compound: true, place: { chain: this.chains[depth], depth: this.chainDepth[depth]! } });
    } else if (type === 'command') {
      this.command();
    }
  }

  private declaration(): void {
    const { v, i, src, depth } = this;
    const assignments: Assignment[] = [];
    const words: Word[] = [];
    let keyword = '';
    /** End of the last assignment or word, and which it was: a word touching it is its tail (joinWords). */
    let lastEnd = -1;
    let lastWasAssignment = false;
    for (let c = v.firstChild(i); c !== -1; c = v.next(c)) {
      const ct = v.type(c);
      if (!v.named(c)) keyword ||= src.slice(v.table.start[c], v.table.end[c]);
      else if (ct === 'variable_assignment') {
        const a = toAssignment(v, c, src);
        assignments.push(a);
        lastEnd = a.span.end;
        lastWasAssignment = true;
      } else if (WORD_TYPES.has(ct) || ct === 'variable_name') {
        const w = wordAt(v, c, src, ct);
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
    this.declarations.push({ span: spanOf(v, i), keyword, assignments, words, place: { chain: this.chains[depth], depth: this.chainDepth[depth]! } });
  }

  /**
   * `{ ls; } > f`, `while …; done < f`: the redirections of a compound command, as a command of
   * redirections only, so that what they read and write is seen.
   */
  private compoundRedirects(): void {
    const { v, i, depth } = this;
    const redirects: Redirect[] = [];
    const args: Word[] = [];
    for (let c = v.firstChild(i); c !== -1; c = v.next(c)) {
      if (!v.named(c) || !isRedirectNode(v.type(c))) continue;
      const r = toRedirect(v, c, this.src);
      redirects.push(...r.redirects);
      args.push(...r.extraArgs);
      this.unmodelled.push(...r.unknown);
    }
    // Words after a heredoc delimiter (`{ …; } <<X a`) are not arguments of anything bash runs here
    // (tree-sitter-bash attaches them to the heredoc); what they would mean is not modelled.
    for (const a of args) this.unmodelled.push({ span: a.span, reason: HEREDOC_TAIL });
    if (redirects.length > 0) {
      const span = { start: redirects[0]!.span.start, end: redirects[redirects.length - 1]!.span.end };
      this.commands.push({ span, name: undefined, args: [], assignments: [], redirects, statement: Math.max(this.statement, 0), compound: true, place: { chain: depth > 0 ? this.chains[depth - 1] : undefined, depth: depth > 0 ? this.chainDepth[depth - 1]! : 0 } });
    }
  }

  private command(): void {
    const { v, i, depth, src } = this;
    const parent = depth > 0 && this.redirected[depth - 1] !== -1 && v.field(i) === 'body' ? this.redirected[depth - 1]! : -1;
    const stage = this.stageAt[depth];
    const place: CommandPlace = stage ? { chain: this.chains[depth], depth: this.chainDepth[depth]!, pipeline: stage } : { chain: this.chains[depth], depth: this.chainDepth[depth]! };
    const simple = toSimpleCommand(v, i, src, Math.max(this.statement, 0), parent, place, this.pipeStageAt[depth], this.unmodelled);
    this.commands.push(simple);
    this.changes.words(simple.name, simple.args);
    // `let EXPR…` (arithmeticUse reads the parser's own command name; a name that does not start with `let` is not it).
    if (simple.name?.raw.startsWith('let')) {
      const use = arithmeticUse(v.nodeAt(i), src);
      if (use) this.arithmetic.push(use);
    }
  }

  /** The flow node of this node, if it is one, attached to the innermost one above it. */
  private flow(commandsBefore: number): void {
    const { depth, type, isNamed } = this;
    const parentFlow = depth > 0 ? this.flowIn[depth - 1] : undefined;
    const parentIsContainer = parentFlow !== undefined && depth > 0 && this.flowAt[depth - 1] === parentFlow && FLOW_CONTAINERS.has(parentFlow.type);
    let node: FlowNode | undefined;
    if (depth === 0 || (isNamed && type !== 'comment' && (FLOW_SCOPES.has(type) || parentIsContainer || (parentFlow === undefined && FLOW_CONTAINERS.has(type))))) {
      const field = depth > 0 && parentIsContainer ? this.v.field(this.i) : null;
      // Written out rather than spread (`...(field ? { field } : {})`): object spread is a slow path in V8; same keys, same order.
      const span = { start: this.start, end: this.end };
      node = field ? { type, field, span, items: [] } : { type, span, items: [] };
      if (this.commands.length > commandsBefore) node.command = this.commands.length - 1;
      if (parentFlow) parentFlow.items.push(node);
      else this.flowRoot ??= node;
    } else if (!isNamed && parentIsContainer && FLOW_TOKENS.has(type)) parentFlow!.items.push(type);
    this.flowAt[depth] = node;
    this.flowIn[depth] = node ?? parentFlow;
  }
}

/**
 * Walks `tree` once and returns its views: the tree is read into a node table
 * (src/parse/node-table.ts) in one cursor walk, and the views are built from it, so no
 * web-tree-sitter `Node` object is made but for the few analyses that still take one
 * (arithmetic contexts, numeric substitutions). Linear in the number of nodes and safe on
 * arbitrarily deep trees (no recursion). Does not delete the tree.
 */
export function buildViews(tree: Tree, text: string): ParsedScript {
  const cursor = tree.walk();
  // MISSING nodes exist only in a tree with an error.
  const hasError = tree.rootNode.hasError;
  // Node text is sliced from the text the parser read: src/parse/parser.ts parses NUL as U+FFFD.
  const src = text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text;
  try {
    const table = buildNodeTable(tree, cursor, hasError);
    const w = new ViewWalk(new TableView(table, tree.language, cursor), text, src, hasError);
    for (let i = 0; i < table.count; i++) w.visit(i);
    const { changes, unmodelled, substitutionCode, arithmetic, flowRoot, problems } = w;
    if (hasError) changes.wholeText();
    return { text, statements: w.statements, commands: w.commands, problems, comments: w.comments, nodeCount: table.count, complexity: w.complexity.finish(problems[0]), background: w.background, declarations: w.declarations, assignmentStatements: w.assignmentStatements, ...(unmodelled.length > 0 ? { unmodelled } : {}), ...(substitutionCode.length > 0 ? { substitutionCode } : {}), ...(arithmetic.length > 0 ? { arithmetic, numericSubstitutions: w.numericSubstitutions, loopBindings: w.loopBindings } : {}), ...(flowRoot ? { flow: flowRoot } : {}), variableChanges: changes.finish() };
  } finally {
    cursor.delete();
  }
}
