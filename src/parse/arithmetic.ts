/**
 * Operands of arithmetic contexts whose value bash evaluates as an expression. bash evaluates the
 * value of a variable named in an arithmetic expression recursively, and the text a command
 * substitution or parameter expansion produces there is parsed as an expression too; an array
 * subscript in that text (`a[$(cmd)]`) runs `cmd` (bash manual, "Shell Arithmetic":
 * https://www.gnu.org/software/bash/manual/bash.html#Shell-Arithmetic). The contexts: `$(( ))`,
 * `$[ ]`, `(( ))`, `for (( ; ; ))`, the operands of `-eq -ne -lt -le -gt -ge` in `[[ ]]`, the
 * arguments of `let`, array subscripts and `${x:offset:length}`.
 *
 * This module reports, per context, the variable names the operands read and why an operand's
 * text is not known (a command substitution whose output is not proven to be a number, a process
 * substitution); src/model/build.ts judges the names against the unit's assignments. Pure; linear
 * in the nodes of each context, bounded by {@link MAX_ARITHMETIC_NODES}.
 */
import type { Node } from 'web-tree-sitter';
import type { Span } from '../core/types.js';
import table from '../../rules/numeric-output.json' with { type: 'json' };
import { toWord, type Word } from './words.js';

/** One arithmetic context: where it is, the names its operands read, and why its text is not known (absent when it is). */
export interface ArithmeticUse {
  readonly span: Span;
  /** Variable names read by the operands (`x` of `(( x ))`, `$x`, `${x}`; special parameters as `#`, `?`, `1`, `@` …). */
  readonly names: readonly string[];
  /** Why the text of an operand is not known before it runs; absent when it is. */
  readonly unknown?: string;
}

/** Most nodes scanned in one context; beyond, the context is not known. */
export const MAX_ARITHMETIC_NODES = 4000;

const ARITH_TEST_OPERATORS: ReadonlySet<string> = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);

interface NumericRow {
  readonly prefix?: readonly string[];
  readonly args: string;
  readonly requires?: string;
  readonly forbids?: string;
}
const PROGRAMS = new Map<string, { prefix: readonly string[]; args: RegExp; requires: RegExp | undefined; forbids: RegExp | undefined }>(
  Object.entries((table as { programs: Record<string, NumericRow> }).programs).map(([k, r]) => [
    k,
    { prefix: r.prefix ?? [], args: new RegExp(r.args), requires: r.requires !== undefined ? new RegExp(r.requires) : undefined, forbids: r.forbids !== undefined ? new RegExp(r.forbids) : undefined },
  ]),
);

/** Identifiers in literal arithmetic text (not the digits of `16#ff` or the `x` of `0x1f`). */
const IDENTIFIER = /(?<![0-9A-Za-z_#@])[A-Za-z_][A-Za-z0-9_]*/g;

function named(node: Node): Node[] {
  return node.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
}

/**
 * Whether the output of command substitution `node` is proven to be a number: its body is one
 * simple command or one pipeline whose last stage is a command of rules/numeric-output.json
 * (optionally with input redirections), so only that stage's output is captured.
 */
export function numericSubstitution(node: Node, src: string): boolean {
  if (node.type !== 'command_substitution') return false;
  const body = named(node);
  if (body.length !== 1) return false;
  let last: Node | undefined = body[0]!;
  if (last.type === 'pipeline') last = named(last).at(-1);
  if (last?.type === 'redirected_statement') {
    const redirects = named(last).slice(1);
    if (!redirects.every((r) => (r.type === 'file_redirect' && /^\s*(?:0?<)(?![<>&])/.test(src.slice(r.startIndex, r.endIndex))) || r.type === 'herestring_redirect')) return false;
    last = last.childForFieldName('body') ?? undefined;
  }
  if (last?.type !== 'command') return false;
  const parts = named(last);
  if (parts.some((p) => p.type === 'variable_assignment' || p.type.endsWith('redirect'))) return false;
  const words = parts.filter((p) => p.type !== 'command_name').map((p) => toWord(p, src));
  const nameNode = last.childForFieldName('name');
  const name = nameNode ? toWord(nameNode.firstNamedChild ?? nameNode, src).value : undefined;
  if (name === undefined) return false;
  const row = PROGRAMS.get(name);
  if (!row) return false;
  const values = words.map((w) => w.value);
  if (values.some((v) => v === undefined)) return false;
  const args = values as string[];
  if (row.prefix.some((p, i) => args[i] !== p)) return false;
  const rest = args.slice(row.prefix.length);
  if (!rest.every((a) => row.args.test(a) && !row.forbids?.test(a))) return false;
  return row.requires === undefined || rest.some((a) => row.requires!.test(a));
}

/** The operand nodes of an arithmetic context `node`, or `undefined` when `node` is none. */
function operandsOf(node: Node, src: string): Node[] | undefined {
  switch (node.type) {
    case 'arithmetic_expansion':
      return [node];
    case 'compound_statement':
      return src.startsWith('((', node.startIndex) ? [node] : undefined;
    case 'c_style_for_statement':
      return ['initializer', 'condition', 'update'].flatMap((f) => node.childrenForFieldName(f).filter((c): c is Node => c?.isNamed === true));
    case 'test_command': {
      if (!src.startsWith('[[', node.startIndex)) return undefined;
      const out: Node[] = [];
      for (const b of node.descendantsOfType('binary_expression')) {
        if (!b) continue;
        const op = b.childForFieldName('operator');
        if (!op || !ARITH_TEST_OPERATORS.has(op.text)) continue;
        for (const f of ['left', 'right']) {
          const o = b.childForFieldName(f);
          if (o) out.push(o);
        }
      }
      return out.length > 0 ? out : undefined;
    }
    case 'command': {
      const name = node.childForFieldName('name');
      if (!name || toWord(name.firstNamedChild ?? name, src).value !== 'let') return undefined;
      return node.childrenForFieldName('argument').filter((c): c is Node => c !== null);
    }
    case 'subscript': {
      const index = node.childForFieldName('index');
      return index ? [index] : undefined;
    }
    case 'expansion': {
      // `${x:offset}` / `${x:offset:length}`: a bare `:` operator after the name.
      const kids = node.children.filter((c): c is Node => c !== null);
      const colon = kids.findIndex((c, i) => !c.isNamed && c.type === ':' && i >= 1 && (kids[i - 1]!.type === 'variable_name' || kids[i - 1]!.type === 'subscript'));
      if (colon < 0) return undefined;
      return kids.slice(colon + 1).filter((c) => c.isNamed);
    }
    default:
      return undefined;
  }
}

/**
 * The arithmetic use of context node `node` (see the module comment), or `undefined` when `node`
 * is not an arithmetic context. `src` is the text the tree was parsed from.
 */
export function arithmeticUse(node: Node, src: string): ArithmeticUse | undefined {
  const operands = operandsOf(node, src);
  if (operands === undefined) return undefined;
  const names = new Set<string>();
  let unknown: string | undefined;
  let budget = MAX_ARITHMETIC_NODES;
  const stack = [...operands];
  const literal = (s: string): void => {
    for (const m of s.matchAll(IDENTIFIER)) names.add(m[0]);
  };
  while (stack.length > 0 && unknown === undefined) {
    const n = stack.pop()!;
    if (--budget < 0) {
      unknown = `Cap reached: the arithmetic expression has more than ${MAX_ARITHMETIC_NODES} parts.`;
      break;
    }
    switch (n.type) {
      case 'command_substitution':
        if (!numericSubstitution(n, src)) unknown = `\`${src.slice(n.startIndex, Math.min(n.endIndex, n.startIndex + 40))}\` is evaluated as an arithmetic expression, and its output is not known to be a number: an array subscript in it runs commands.`;
        continue;
      case 'process_substitution':
        unknown = `\`${src.slice(n.startIndex, Math.min(n.endIndex, n.startIndex + 40))}\` in an arithmetic expression is not known before it runs.`;
        continue;
      case 'simple_expansion':
      case 'expansion': {
        const text = src.slice(n.startIndex, n.endIndex);
        // `${#x}` is a length: a number.
        const first = n.namedChildren.find((c) => c !== null && (c.type === 'variable_name' || c.type === 'special_variable_name' || c.type === 'subscript'));
        if (!text.startsWith('${#') && first) names.add(first.type === 'subscript' ? (first.childForFieldName('name')?.text ?? first.text) : first.text);
        else if (!text.startsWith('${#') && !first) {
          const m = /^\$\{?([0-9@*#?$!-])/.exec(text);
          names.add(m ? m[1]! : text);
        }
        for (const c of n.namedChildren) if (c && c !== first) stack.push(c);
        if (first?.type === 'subscript') for (const c of first.namedChildren) if (c && c.type !== 'variable_name') stack.push(c);
        continue;
      }
      case 'variable_name':
        names.add(n.text);
        continue;
      case 'word':
      case 'string_content':
      case 'raw_string':
        literal(src.slice(n.startIndex, n.endIndex));
        continue;
      case 'number':
        continue;
      case 'binary_expression': {
        // `name = expr` stores the value of expr; the old value of name is not evaluated (a
        // compound `name += expr` reads it). The name stays unbound: a later read still counts.
        const left = n.childForFieldName('left');
        if (left?.type === 'variable_name' && n.childForFieldName('operator')?.type === '=') {
          const right = n.childForFieldName('right');
          if (right) stack.push(right);
          continue;
        }
        for (const c of n.namedChildren) if (c) stack.push(c);
        continue;
      }
      default:
        for (const c of n.namedChildren) if (c) stack.push(c);
        // Text the grammar keeps unnamed inside an arithmetic node (`x` of `$(( x + 1 ))` is named; anonymous tokens are operators).
        continue;
    }
  }
  return { span: { start: node.startIndex, end: node.endIndex }, names: [...names], ...(unknown !== undefined ? { unknown } : {}) };
}

/**
 * Special parameters and shell variables bash sets to a number itself (bash manual, "Special
 * Parameters" and "Bash Variables"): their value is never an expression with a subscript.
 */
const NUMERIC_PARAMETERS: ReadonlySet<string> = new Set(['#', '?', '$', '!', 'RANDOM', 'SRANDOM', 'SECONDS', 'LINENO', 'BASHPID', 'PPID', 'UID', 'EUID', 'EPOCHSECONDS', 'OPTIND', 'BASH_SUBSHELL', 'HISTCMD']);

/** Literal text that is a number or an expression of numbers only (no names to evaluate further). */
const NUMERIC_TEXT = /^[\s0-9+\-*/%()<>=!&|^~?:,]*$/;

/** A binding's value is a number: numeric text, `$(( … ))`, or a command substitution proven numeric. */
function numericValue(w: Word | undefined, numericStarts: ReadonlySet<number>): boolean {
  if (w === undefined) return true;
  if (w.value !== undefined) return NUMERIC_TEXT.test(w.value);
  const dyn = w.parts.filter((p) => p.kind !== 'literal' || !NUMERIC_TEXT.test(p.value));
  if (dyn.length !== 1 || dyn[0]!.kind !== 'dynamic') return false;
  const node = dyn[0]!.node;
  if (node === 'arithmetic_expansion') return true;
  return node === 'command_substitution' && w.parts.length <= 1 && (numericStarts.has(w.span.start) || numericStarts.has(w.span.start + 1));
}

/** What `arithmeticGaps` reads of a parsed unit (a subset of src/parse/nodes.ts `ParsedScript`). */
export interface ArithmeticFacts {
  readonly commands: readonly { readonly name?: Word | undefined; readonly args: readonly Word[]; readonly assignments: readonly { readonly name: string; readonly value: Word | undefined }[] }[];
  readonly assignmentStatements?: readonly { readonly assignment: { readonly name: string; readonly value: Word | undefined } }[];
  readonly declarations?: readonly { readonly assignments: readonly { readonly name: string; readonly value: Word | undefined }[]; readonly words: readonly Word[] }[];
  readonly arithmetic?: readonly ArithmeticUse[];
  readonly numericSubstitutions?: readonly number[];
  readonly loopBindings?: readonly { readonly name: string; readonly values: readonly Word[] | undefined }[];
  /** The `${x:=…}` forms of the unit (src/parse/variable-changes.ts); absent on hand-built views, where none are seen. */
  readonly variableChanges?: { readonly defaults: readonly { readonly name: string }[] };
}

/** Builtins that set the variables named by their arguments from data (`read x`, `mapfile a`, `printf -v x`, `getopts o x`). */
const DATA_SETTERS: ReadonlySet<string> = new Set(['read', 'mapfile', 'readarray', 'getopts', 'printf', 'wait']);

/**
 * The arithmetic contexts of a unit whose operands read text that is not known to be a number,
 * each with a one-sentence reason: a substitution whose output is not proven numeric, or a
 * variable that is not set in the unit (the environment, a caller's argument) or is set somewhere
 * in it to something other than a number (`read`, a loop over words, a string, `x+=…`). The
 * judgment ignores order (a variable counts as a number only when every assignment of it gives
 * one), which over-approximates in the safe direction. Linear in the unit's commands and uses.
 */
export function arithmeticGaps(parsed: ArithmeticFacts): { span: Span; reason: string }[] {
  const uses = parsed.arithmetic ?? [];
  if (uses.length === 0) return [];
  const numericStarts = new Set(parsed.numericSubstitutions ?? []);
  const numeric = new Map<string, boolean>();
  const bind = (name: string, ok: boolean): void => {
    numeric.set(name, (numeric.get(name) ?? true) && ok);
  };
  for (const c of parsed.commands) {
    for (const a of c.assignments) bind(a.name, numericValue(a.value, numericStarts));
    const prog = c.name?.value;
    // `let x=…` and `(( x++ ))` store a number but read the old value first: they bind nothing here,
    // so a variable set only by arithmetic still counts as coming from the environment.
    if (prog !== undefined && DATA_SETTERS.has(prog)) {
      for (const w of c.args) if (w.value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(w.value)) bind(w.value, false);
    }
  }
  for (const { assignment: a } of parsed.assignmentStatements ?? []) bind(a.name, numericValue(a.value, numericStarts));
  for (const d of parsed.declarations ?? []) {
    for (const a of d.assignments) bind(a.name, numericValue(a.value, numericStarts));
    // `declare -n r=x`: r reads x, whatever x holds.
    if (d.words.some((w) => w.value !== undefined && /^-[A-Za-z]*n/.test(w.value))) for (const a of d.assignments) bind(a.name, false);
  }
  for (const l of parsed.loopBindings ?? []) bind(l.name, l.values?.every((w) => numericValue(w, numericStarts)) === true);
  // `${x:=word}`, `${x=word}` assign x (as the parse walk recorded them, quoted text included).
  for (const d of parsed.variableChanges?.defaults ?? []) bind(d.name, false);
  const out: { span: Span; reason: string }[] = [];
  for (const u of uses) {
    if (u.unknown !== undefined) {
      out.push({ span: u.span, reason: u.unknown });
      continue;
    }
    const bad = u.names.find((n) => !NUMERIC_PARAMETERS.has(n) && numeric.get(n) !== true);
    if (bad !== undefined) {
      const why = numeric.has(bad) ? 'is set in the command to a value that is not known to be a number' : 'is not set in the command, so its value is not known';
      out.push({ span: u.span, reason: `\`${bad}\` in an arithmetic expression ${why}: bash evaluates that value as an expression, and an array subscript in it runs commands.` });
    }
  }
  return out;
}
