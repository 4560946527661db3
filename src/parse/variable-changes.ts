/**
 * The ways a unit changes its variables besides the assignments the command model binds, recorded
 * in the one tree walk of src/parse/nodes.ts (`ParsedScript.variableChanges`) and read by the
 * command model (stale values, variables that load code) and by the arithmetic analysis
 * (src/parse/arithmetic.ts). Bash's rules: https://www.gnu.org/software/bash/manual/bash.html
 * ("Shell Parameters", "Shell Arithmetic", "Redirections", "Coprocesses", `unset`).
 *
 * What the tree shows is read from the tree: every `variable_assignment` node (prefixes, statements,
 * declarations, element assignments), `for`/`select` variables, `coproc NAME`, `${x:=…}`/`${x=…}`
 * expansions, `{x}>file` descriptors, `unset` operands, and the text of arithmetic contexts
 * (`(( … ))`, `$(( … ))`, `for (( … ))`). Text the tree keeps as data but that bash may still run
 * as code later (`eval 'x=1'`, `trap 'x=2' DEBUG`, `[[ 'x=1' -eq 1 ]]`, `declare -i v; v='x=1'`,
 * `let "x+=1"`) is scanned for the same forms: every data leaf (word, string content, raw and
 * `$'…'` strings, here-document text), which over-approximates in the safe direction (a change
 * found there makes a value unknown). Comments are never scanned. When the tree has a syntax
 * error, the whole text is scanned instead of its leaves.
 */
import type { Span } from '../core/types.js';
import type { Word } from './words.js';

/** One change of a variable found at a place of the unit (UTF-16 offsets into its text). */
export interface VariableChangeAt {
  readonly name: string;
  readonly span: Span;
  /** The text that changes it (`${x:=`, `{x}`, `x+=`, `++x`), for messages. */
  readonly text: string;
}

/** What {@link VariableChangeScanner} records for a unit. */
export interface VariableChanges {
  /**
   * Per variable name (subscript removed): how many assignment forms the unit holds (each
   * `variable_assignment` node, and each `name=`/`name op=`/`name[` form in data text). A
   * variable with more of them than the command model binds changes elsewhere.
   */
  readonly assigns: ReadonlyMap<string, number>;
  /** Names changed other than by an assignment: loops, `coproc`, `++`/`--`, arithmetic, `${x:=}`, `{x}>`, `unset`. */
  readonly other: ReadonlySet<string>;
  /** `${x:=…}` and `${x=…}`, in document order. */
  readonly defaults: readonly VariableChangeAt[];
  /** `{x}>file` / `{x}<file`: bash stores the descriptor number in x. */
  readonly descriptors: readonly VariableChangeAt[];
  /** Assignments and `++`/`--` inside arithmetic (contexts, `[[ … ]]` operands, bracketed text). */
  readonly arithmetic: readonly VariableChangeAt[];
}

const IDENT = '[A-Za-z_][A-Za-z0-9_]*';
const ASSIGN_FORM = new RegExp(`(?<![\\w$-])(${IDENT})(?=\\s*(?:\\[|(?:[-+*/%&|^]|<<|>>|\\*\\*)?=(?!=)))`, 'g');
const INC_DEC_BEFORE = new RegExp(`(?:\\+\\+|--)\\s*(${IDENT})`, 'g');
const INC_DEC_AFTER = new RegExp(`(?<![\\w$])(${IDENT})(?=\\s*(?:\\+\\+|--))`, 'g');
const DEFAULT_FORM = new RegExp(`\\$\\{(${IDENT}):?=`, 'g');
const DEFAULT_AT = new RegExp(`\\$\\{(${IDENT}):?=`, 'y');
const DESCRIPTOR_FORM = new RegExp(`\\{(${IDENT})\\}(?=\\s*[<>])`, 'g');
const DESCRIPTOR_AT = new RegExp(`\\{(${IDENT})\\}(?=\\s*[<>])`, 'y');
const UNSET = /\bunset\b([^;&|\n]*)/g;
const NAME_IN_UNSET = new RegExp(`(?<![\\w$])${IDENT}`, 'g');
const LOOP_FORM = new RegExp(`\\b(?:for|select|coproc)\\s+(${IDENT})`, 'g');
/** An assignment or `++`/`--` in arithmetic text. */
const ARITHMETIC_ASSIGN = /(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)|(?<![$\w])([A-Za-z_][A-Za-z0-9_]*)\s*(?:\+\+|--|(?:[-+*/%&^|]|<<|>>)?=(?!=))/g;
/** Text inside data that bash may evaluate as arithmetic when it is run as code: `((…))`, `[[…]]`, `$[…]`, `[…]`. */
const ARITHMETIC_REGION = /\(\(([\s\S]*?)\)\)|\[\[([\s\S]*?)\]\]|\$\[([^\]]*)\]|\[([^\]\n]*)\]/g;
/** A data leaf can hold one of the forms only if one of these starts in it. */
const MAY_CHANGE = /[=[+{]|--|\b(?:unset|for|select|coproc)\b/g;

/** Words after which the next word names a variable that changes (`command unset x`, `eval for x in …`). */
const NAMING_WORDS: ReadonlySet<string> = new Set(['for', 'select', 'coproc']);

/**
 * Collects {@link VariableChanges} during the walk of src/parse/nodes.ts. Each method takes UTF-16
 * offsets into `text` (the unit); none throws. Work is linear in the text scanned: each data leaf
 * once, each outermost arithmetic context once.
 */
export class VariableChangeScanner {
  private readonly assigns = new Map<string, number>();
  private readonly other = new Set<string>();
  private readonly defaults: VariableChangeAt[] = [];
  private readonly descriptors: VariableChangeAt[] = [];
  private readonly arithmetic: VariableChangeAt[] = [];
  private candidateAt = -2;
  private candidateFrom = 0;

  /** `text` is the unit's text, as parsed. */
  constructor(private readonly text: string) {}

  /** A `variable_assignment` node assigning `name` (a subscript, `a[1]`, counts for `a`). */
  assignment(name: string): void {
    const base = name.replace(/\[.*$/s, '');
    this.assigns.set(base, (this.assigns.get(base) ?? 0) + 1);
  }

  /** A variable set by the construct itself: a `for`/`select` variable, a `coproc` name, an `unset` operand. */
  changed(name: string): void {
    this.other.add(name);
  }

  /** An `expansion` node starting at `start`: records it when it is `${x:=…}` / `${x=…}`. */
  expansion(start: number): void {
    DEFAULT_AT.lastIndex = start;
    const m = DEFAULT_AT.exec(this.text);
    if (m) this.add(this.defaults, m[1]!, start, m[0]);
  }

  /** A word node starting at `start` with `{` there: records `{x}` directly before a redirection operator. */
  braceWord(start: number): void {
    DESCRIPTOR_AT.lastIndex = start;
    const m = DESCRIPTOR_AT.exec(this.text);
    if (m) this.add(this.descriptors, m[1]!, start, m[0]);
  }

  /** The text of an `unset` command: every name in it is unset (option letters count too: over-approximates). */
  unset(start: number, end: number): void {
    const s = this.text.slice(start, end);
    for (const n of (s.startsWith('unset') ? s.slice(5) : s).matchAll(NAME_IN_UNSET)) this.other.add(n[0]);
  }

  /** The static words of a simple command: the word after `for`/`select`/`coproc` and the words after `unset` name variables. */
  words(name: Word | undefined, args: readonly Word[]): void {
    const n = args.length + (name ? 1 : 0);
    const at = (i: number): string | undefined => (name ? (i === 0 ? name : args[i - 1]!) : args[i]!).value;
    for (let i = 0; i < n; i++) {
      const v = at(i);
      if (v === 'unset') {
        for (let j = i + 1; j < n; j++) for (const m of (at(j) ?? '').matchAll(NAME_IN_UNSET)) this.other.add(m[0]);
        return;
      }
      if (v !== undefined && NAMING_WORDS.has(v) && i + 1 < n && /^[A-Za-z_][A-Za-z0-9_]*$/.test(at(i + 1) ?? '')) this.other.add(at(i + 1)!);
    }
  }

  /** The text of an outermost arithmetic context (`(( … ))`, `$(( … ))`, `for (( … ))`). */
  arithmeticText(start: number, end: number): void {
    this.scanArithmetic(this.text.slice(start, end), start);
  }

  /**
   * A data leaf (`[start, end)`): the assignment forms, `++`/`--`, `${x:=}`, `{x}>`, `unset`,
   * `for`/`select`/`coproc` in it, and its arithmetic (the whole leaf when `inTest`, inside an
   * operand of `[[ … ]]` or an array subscript; otherwise its bracketed regions).
   */
  dataLeaf(start: number, end: number, inTest: boolean): void {
    // The first candidate at or after `start`, kept between calls: leaves come in document order,
    // so this is amortised constant time and most leaves are never sliced.
    if (start < this.candidateFrom || (this.candidateAt !== -1 && this.candidateAt < start)) {
      MAY_CHANGE.lastIndex = start;
      this.candidateAt = MAY_CHANGE.exec(this.text)?.index ?? -1;
    }
    this.candidateFrom = start;
    if (this.candidateAt === -1 || this.candidateAt >= end) return;
    this.scanData(this.text.slice(start, end), start, inTest);
  }

  /** Scans the whole text as data (used instead of the leaves when the tree has a syntax error). */
  wholeText(): void {
    this.scanData(this.text, 0, false);
  }

  /** The record. */
  finish(): VariableChanges {
    return { assigns: this.assigns, other: this.other, defaults: this.defaults, descriptors: this.descriptors, arithmetic: this.arithmetic };
  }

  private add(into: VariableChangeAt[], name: string, at: number, text: string): void {
    this.other.add(name);
    into.push({ name, span: { start: at, end: at + text.length }, text });
  }

  private scanData(s: string, at: number, inTest: boolean): void {
    for (const m of s.matchAll(ASSIGN_FORM)) this.assigns.set(m[1]!, (this.assigns.get(m[1]!) ?? 0) + 1);
    for (const m of s.matchAll(INC_DEC_BEFORE)) this.other.add(m[1]!);
    for (const m of s.matchAll(INC_DEC_AFTER)) this.other.add(m[1]!);
    for (const m of s.matchAll(DEFAULT_FORM)) this.add(this.defaults, m[1]!, at + m.index, m[0]);
    for (const m of s.matchAll(DESCRIPTOR_FORM)) this.add(this.descriptors, m[1]!, at + m.index, m[0]);
    for (const m of s.matchAll(UNSET)) for (const n of m[1]!.matchAll(NAME_IN_UNSET)) this.other.add(n[0]);
    for (const m of s.matchAll(LOOP_FORM)) this.other.add(m[1]!);
    if (inTest) this.scanArithmetic(s, at);
    else {
      for (const region of s.matchAll(ARITHMETIC_REGION)) {
        const inner = region[1] ?? region[2] ?? region[3] ?? region[4] ?? '';
        this.scanArithmetic(inner, at + region.index + region[0].indexOf(inner));
      }
    }
  }

  private scanArithmetic(s: string, at: number): void {
    // `a[i] = 1` assigns an element of a (the first element is what `$a` expands to).
    for (const m of s.matchAll(ASSIGN_FORM)) this.other.add(m[1]!);
    for (const m of s.matchAll(ARITHMETIC_ASSIGN)) {
      const name = (m[1] ?? m[2])!;
      this.other.add(name);
      this.arithmetic.push({ name, span: { start: at + m.index, end: at + m.index + m[0].length }, text: m[0].trim() });
    }
  }
}
