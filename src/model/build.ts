/**
 * Builds the {@link CommandModel} of a unit from its parse views (src/parse/nodes.ts, with the
 * embedded code of src/parse/embedded.ts appended): no second parse and no re-tokenising of the
 * text. Work is linear in the number of simple commands times their words, with the enclosing
 * chain walked at most {@link MAX_ENCLOSING_DEPTH} levels per command.
 *
 * What bash does that the model follows (https://www.gnu.org/software/bash/manual/bash.html):
 * a `for` variable takes each listed word in turn (glob words expand to existing paths); a
 * variable assigned a literal once, unconditionally, before its use, has that value; the working
 * directories follow the unit's control structure (src/model/working-directory.ts); brace expansion of the command word happens before the program is looked up.
 *
 * Pure; never throws for any parse.
 */
import type { Span } from '../core/types.js';
import { changesInputCharset, classifyAssignment, codeLoadingVariable } from './environment.js';
import { workingDirectories } from './working-directory.js';
import { commandBasename, resolveCommand, wrapperLevels } from '../parse/command-name.js';
import { embeddedCode } from '../parse/embedded.js';
import { arithmeticGaps } from '../parse/arithmetic.js';
import type { Declaration, EnclosingChain, ParsedScript, Redirect, SimpleCommand } from '../parse/nodes.js';
import type { VariableChanges } from '../parse/variable-changes.js';
import { hasUnquotedGlob, type Word, type WordPart } from '../parse/words.js';
import { describeComplexity, LENGTH_CONSTRUCT, NODE_COUNT_CONSTRUCT } from '../parse/complexity.js';
import {
  MAX_ENCLOSING_DEPTH,
  MAX_INSTANCES,
  type AbstractWord,
  type CommandModel,
  type ModelCommand,
  type ModelGap,
  type ModelRedirect,
  type Place,
  type Provenance,
} from './command-model.js';

/** What the builder knows beyond the parse. */
export interface ModelOptions {
  /** The absolute working directory the unit starts in; unknown when absent. */
  readonly cwd?: string;
  /** The home directory, for `cd` with no argument and `cd ~/…`. */
  readonly home?: string;
}

/** Shells whose `-c`/stdin code the embedded-code expansion follows. */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh']);

/** Reserved words and operators that cannot be a program name (a misread `coproc { …; }`). */
const RESERVED: ReadonlySet<string> = new Set(['{', '}', '(', ')', '!', '[[', ']]', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'case', 'esac', 'while', 'until', 'for', 'in', 'function', 'select', 'time']);

export { codeLoadingVariable } from './environment.js';

/** The static value of an assignment (`''` for `X=`), or undefined when it has expansions. */
const staticValue = (a: { readonly value?: Word }): string | undefined => (a.value ? a.value.value : '');

/** Builtins whose effect on what later commands run cannot be followed statically. */
const OPAQUE_BUILTINS: Readonly<Record<string, string>> = {
  source: 'runs the shell code in a file',
  '.': 'runs the shell code in a file',
  enable: 'loads or switches shell builtins',
  complete: 'registers completion commands',
  compgen: 'can run completion commands',
  bind: 'binds keys to shell commands',
  hash: 'rebinds command names to programs',
};

const SUBSCRIPT_CODE = /\[[^\]]*(?:\$\(|`|\$\{)/;

interface Binding {
  values: string[];
  dynamic: boolean;
  count: number;
  /** End offset of the first static standalone top-level assignment. */
  firstEnd: number;
}

/**
 * A test of whether a command lies inside one of `spans` (start ≤ the command's start and its end
 * ≤ end; spans in UTF-16 code units, any order, may nest or overlap), answered in O(log n) per
 * command: the spans sorted by start, with the furthest end reached by any span starting at or
 * before each. A scan of every span per command was quadratic in a script of many background jobs
 * (1 MB of `sleep 1 &` lines: 128 s of CPU in the model).
 */
function enclosedBy(spans: readonly Span[]): (c: SimpleCommand) => boolean {
  if (spans.length === 0) return () => false;
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const starts = sorted.map((s) => s.start);
  const furthest: number[] = [];
  let max = -1;
  for (const s of sorted) {
    max = Math.max(max, s.end);
    furthest.push(max);
  }
  return (c) => {
    // Last span starting at or before the command.
    let lo = 0;
    let hi = starts.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= c.span.start) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return at >= 0 && furthest[at]! >= c.span.end;
  };
}

function placesOf(chain: EnclosingChain | undefined, cmd: SimpleCommand, background: boolean): { places: Place[]; capped: boolean; loops: Map<string, readonly Word[] | null> } {
  const set = new Set<Place>();
  const loops = new Map<string, readonly Word[] | null>();
  let n = 0;
  for (let c = chain; c; c = c.parent) {
    if (++n > MAX_ENCLOSING_DEPTH) return { places: [...set], capped: true, loops };
    const e = c.enclosing;
    switch (e.kind) {
      case 'for':
        if (e.field === 'condition') break;
        set.add('loop-body');
        if (e.name !== undefined && !loops.has(e.name)) loops.set(e.name, e.values ?? null);
        break;
      case 'c-for':
      case 'while':
        set.add(e.field === 'condition' ? 'condition' : 'loop-body');
        break;
      case 'if':
        set.add(e.field === 'condition' ? 'condition' : 'if-branch');
        break;
      case 'case':
        set.add('case-arm');
        break;
      case 'function':
        set.add('function-body');
        break;
      case 'subshell':
        set.add('subshell');
        break;
      case 'group':
        set.add('group');
        break;
      case 'command-substitution':
        set.add('command-substitution');
        break;
      case 'process-substitution':
        set.add('process-substitution');
        break;
      case 'test':
        set.add('test');
        break;
      case 'list-right':
        set.add('list-right');
        break;
      case 'heredoc':
        set.add('heredoc-body');
        break;
      case 'assignment':
        set.add('assignment-value');
        break;
      default:
        break;
    }
  }
  if (cmd.place?.pipeline) set.add('pipeline-stage');
  if (background) set.add('background');
  if (cmd.embedded) set.add('embedded');
  return { places: [...set], capped: false, loops };
}

/** The value of one parameter part, as known: a list of strings (`glob` marks unquoted loop globs), or undefined. */
type Known = { readonly values: readonly { text: string; glob: boolean }[]; readonly via: Provenance };

/** Expands the first unquoted `{a,b}` / `{1..3}` group of a literal string (one level; undefined when none or too many). */
export function braceAlternativesOf(s: string, max = 64): string[] | undefined {
  const open = s.indexOf('{');
  if (open < 0) return undefined;
  let depth = 0;
  let close = -1;
  let commas: number[] = [];
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  if (close < 0) return undefined;
  const pre = s.slice(0, open);
  const post = s.slice(close + 1);
  const body = s.slice(open + 1, close);
  let alts: string[];
  if (commas.length > 0) {
    alts = [];
    let pos = open + 1;
    commas = [...commas, close];
    for (const k of commas) {
      alts.push(s.slice(pos, k));
      pos = k + 1;
    }
  } else {
    const m = /^(-?\d+)\.\.(-?\d+)$/.exec(body) ?? /^([a-zA-Z])\.\.([a-zA-Z])$/.exec(body);
    if (!m) return undefined;
    const num = /\d/.test(m[1]!);
    const a = num ? parseInt(m[1]!, 10) : m[1]!.charCodeAt(0);
    const b = num ? parseInt(m[2]!, 10) : m[2]!.charCodeAt(0);
    if (Math.abs(b - a) + 1 > max) return undefined;
    alts = [];
    for (let v = a; a <= b ? v <= b : v >= b; v += a <= b ? 1 : -1) alts.push(num ? String(v) : String.fromCharCode(v));
  }
  if (alts.length > max) return undefined;
  return alts.map((x) => pre + x + post);
}

function partProvenance(p: WordPart): Provenance {
  if (p.kind === 'literal') return !p.quoted && /[*?[]/.test(p.value) ? 'glob' : 'literal';
  if (p.kind === 'parameter') {
    if (/^[0-9@*#]$/.test(p.name)) return 'positional';
    if (/^[?$!-]$/.test(p.name) || p.name === '_') return 'special';
    return 'environment';
  }
  if (p.node === 'command_substitution') return 'command-substitution';
  if (p.node === 'process_substitution') return 'process-substitution';
  if (p.node === 'arithmetic_expansion') return 'arithmetic';
  if (p.node === 'brace_expression') return 'brace';
  return 'environment';
}

/** The abstract view of word `w` (`afterDashDash`: a literal `--` came before it). */
export function abstractWord(w: Word, afterDashDash = false): AbstractWord {
  const provenance: Provenance[] = [];
  for (const p of w.parts) {
    const v = partProvenance(p);
    if (!provenance.includes(v)) provenance.push(v);
  }
  if (provenance.length === 0) provenance.push('literal');
  const dynamic = w.parts.some((p) => p.kind !== 'literal');
  const glob = provenance.includes('glob');
  const first = w.parts[0];
  const leadsLiteral = first?.kind === 'literal' && first.value !== '' && !first.value.startsWith('-') && !(!first.quoted && /^[*?[]/.test(first.value));
  const mayBeOption = afterDashDash ? false : w.value !== undefined && !glob ? w.value.startsWith('-') : !leadsLiteral;
  return { word: w, kind: dynamic ? 'unknown' : glob ? 'glob' : 'literal', provenance, mayBeOption };
}

/** `word` with the parameter parts named in `subst` replaced by their values (a static word when all parts are literal). */
function substituteWord(word: Word, subst: ReadonlyMap<string, { text: string; glob: boolean }>): Word {
  if (!word.parts.some((p) => p.kind === 'parameter' && subst.has(p.name) && p.plain === true) && !word.parts.some((p) => p.kind === 'dynamic' && p.node === 'process_substitution' && word.parts.length === 1)) return word;
  const parts: WordPart[] = word.parts.map((p): WordPart => {
    if (p.kind === 'parameter' && p.plain === true) {
      const v = subst.get(p.name);
      if (v) return { kind: 'literal', value: v.text, quoted: !(v.glob && !p.quoted) };
    }
    if (p.kind === 'dynamic' && p.node === 'process_substitution' && word.parts.length === 1) return { kind: 'literal', value: '/dev/fd/63', quoted: true };
    return p;
  });
  const isStatic = parts.every((p) => p.kind === 'literal');
  return { ...word, parts, value: isStatic ? parts.map((p) => (p.kind === 'literal' ? p.value : '')).join('') : undefined };
}

/** Whitespace characters of the default IFS (space, tab, newline). */
const IFS_WHITESPACE = /[ \t\n]+/;

/**
 * The fields of `word` after substituting the known values in `subst`, as bash's word expansion
 * gives them: an unquoted expansion is split on the (default) IFS, each piece that holds `*`, `?`
 * or `[` is a pattern (pathname expansion), and an unquoted expansion of an empty value gives no
 * field. A quoted expansion (`"$x"`) stays part of one field. `ifsUnknown`: IFS may not be the
 * default here, so unquoted known values are not substituted (the word stays unknown). A value
 * from a loop glob (a file name) used unquoted may hold spaces, so such a word stays unknown too.
 * https://www.gnu.org/software/bash/manual/bash.html#Word-Splitting
 */
function expandFields(word: Word, subst: ReadonlyMap<string, { text: string; glob: boolean }>, ifsUnknown: boolean): Word[] {
  if (!word.parts.some((p) => p.kind === 'parameter' && subst.has(p.name) && p.plain === true) && !word.parts.some((p) => p.kind === 'dynamic' && p.node === 'process_substitution' && word.parts.length === 1)) return [word];
  const fields: WordPart[][] = [];
  let cur: WordPart[] = [];
  let live = false;
  const finish = (): void => {
    if (live) fields.push(cur);
    cur = [];
    live = false;
  };
  for (const p of word.parts) {
    if (p.kind === 'parameter' && p.plain === true && subst.has(p.name)) {
      const v = subst.get(p.name)!;
      if (p.quoted) {
        // `"$f"` of a loop glob is one matching name: a pattern word, not split.
        cur.push({ kind: 'literal', value: v.text, quoted: !v.glob });
        live = true;
        continue;
      }
      if (ifsUnknown || v.glob) {
        cur.push(p);
        live = true;
        continue;
      }
      const pieces = v.text.split(IFS_WHITESPACE);
      pieces.forEach((piece, i) => {
        if (i > 0) finish();
        if (piece !== '') {
          cur.push({ kind: 'literal', value: piece, quoted: false });
          live = true;
        }
      });
      continue;
    }
    if (p.kind === 'dynamic' && p.node === 'process_substitution' && word.parts.length === 1) {
      cur.push({ kind: 'literal', value: '/dev/fd/63', quoted: true });
      live = true;
      continue;
    }
    cur.push(p);
    live = true;
  }
  finish();
  return fields.map((parts) => {
    const isStatic = parts.every((q) => q.kind === 'literal');
    const merged: WordPart[] = [];
    for (const q of parts) {
      const last = merged[merged.length - 1];
      if (q.kind === 'literal' && last?.kind === 'literal' && last.quoted === q.quoted) merged[merged.length - 1] = { kind: 'literal', value: last.value + q.value, quoted: q.quoted };
      else merged.push(q);
    }
    return { ...word, parts: merged, value: isStatic ? merged.map((q) => (q.kind === 'literal' ? q.value : '')).join('') : undefined };
  });
}

function substituteCommand(c: SimpleCommand, subst: ReadonlyMap<string, { text: string; glob: boolean }>, ifsUnknown: boolean): SimpleCommand {
  const sw = (w: Word): Word => substituteWord(w, subst);
  const argv = (c.name ? [c.name, ...c.args] : []).flatMap((w) => expandFields(w, subst, ifsUnknown));
  const redirectTarget = (w: Word): Word => {
    // A redirection target is not split; more or fewer than one field is an "ambiguous redirect".
    const f = expandFields(w, subst, ifsUnknown);
    return f.length === 1 ? f[0]! : w;
  };
  return {
    ...c,
    name: c.name ? argv[0] : undefined,
    args: c.name ? argv.slice(1) : c.args,
    assignments: c.assignments.map((a) => ({ ...a, value: a.value ? sw(a.value) : undefined })),
    redirects: c.redirects.map((r) => ({ ...r, target: r.target ? redirectTarget(r.target) : undefined })),
  };
}

/** A static word standing for `text` at `like`'s place. */
function literalWord(text: string, like: Word): Word {
  return { raw: text, span: like.span, value: text, parts: [{ kind: 'literal', value: text, quoted: true }], quoted: true };
}

function redirectKind(r: Redirect): ModelRedirect['kind'] {
  if (r.heredoc) return 'heredoc';
  if (r.operator === '<<<') return 'here-string';
  const t = r.target?.value;
  if ((r.operator === '>&' || r.operator === '<&') && t !== undefined && /^\d+$/.test(t)) return 'dup';
  if ((r.operator === '>&' || r.operator === '<&') && t === '-') return 'close';
  if (t === '/dev/null') return 'null';
  if (r.operator === '<') return 'read';
  if (r.operator === '<>') return 'read-write';
  if (r.operator === '>>' || r.operator === '&>>') return 'append';
  return 'write';
}

/** Candidate argv strings visible in a dynamic command word: defaults, assigned values, `$(echo X)`, brace alternatives. */
function visibleNames(name: Word, bindings: ReadonlyMap<string, Binding>, rest: string): string[] {
  const out = new Set<string>();
  const raw = name.raw;
  for (const m of raw.matchAll(/\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=+]([^}]*)\}/g)) out.add(m[1]!.replace(/^["']|["']$/g, ''));
  for (const m of raw.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)) for (const v of bindings.get(m[1]!)?.values ?? []) out.add(v);
  for (const m of raw.matchAll(/(?:\$\(|`)\s*(?:echo|printf)\s+(?:-[neE]+\s+)?["']?([^"'`)\s]+)/g)) out.add(m[1]!);
  for (const alt of braceAlternativesOf(name.value ?? raw) ?? []) out.add(alt);
  const list: string[] = [];
  for (const v of out) {
    const t = v.trim();
    if (t !== '') list.push(rest === '' ? t : `${t} ${rest}`);
  }
  return list;
}

/** POSIX special builtins: prefix assignments to them may stay in the shell (bash in POSIX mode). */
const SPECIAL_BUILTINS: ReadonlySet<string> = new Set([':', '.', 'source', 'break', 'continue', 'eval', 'exec', 'exit', 'export', 'readonly', 'return', 'set', 'shift', 'times', 'trap', 'unset']);

/** Whether a declaration exports what it names (`export`, or `declare`/`typeset`/`local`/`readonly` with `-x`). */
function exports(d: Declaration): boolean {
  return d.keyword === 'export' || d.words.some((w) => /^-[A-Za-z]*x/.test(w.value ?? w.raw) || (w.value === undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(w.raw)));
}

/** Marks the tracked value of `name` (an array element `name[…]` counts as `name`) as not known. */
function staleValue(bindings: Map<string, Binding>, name: string): void {
  const base = name.replace(/\[.*$/s, '');
  const b = bindings.get(base);
  if (b) b.dynamic = true;
}

/** True when `changes` shows variable `name` changed other than by its `count` plain assignments. */
function changedElsewhere(changes: VariableChanges, name: string, count: number): boolean {
  return (changes.assigns.get(name) ?? 0) > count || changes.other.has(name);
}

/**
 * What `parsed.variableChanges` says, or, for views built by hand (no walk), that every variable
 * may change: no value is then known.
 */
function changesOf(parsed: ParsedScript, names: Iterable<string>): VariableChanges {
  if (parsed.variableChanges) return parsed.variableChanges;
  return { assigns: new Map(), other: new Set(names), defaults: [], descriptors: [], arithmetic: [] };
}

/**
 * The command model of `parsed` (see the module comment). `parsed` should carry its embedded
 * code (src/parse/embedded.ts `withEmbedded`), so that the commands inside `sh -c` strings are
 * modelled too.
 */
export function buildModel(parsed: ParsedScript, options: ModelOptions = {}): CommandModel {
  const text = parsed.text;
  const gaps: ModelGap[] = [];
  const environmentReads: ModelGap[] = [];
  const all = parsed.commands;
  for (const p of parsed.problems) {
    gaps.push({ span: p.span, reason: `The command does not parse at offset ${p.span.start}${p.kind === 'missing' && p.expected ? ` (\`${p.expected}\` is missing)` : ''}: what bash runs there is not known.` });
  }
  const cx = parsed.complexity;
  if (cx.status === 'too-complex' && (cx.construct === LENGTH_CONSTRUCT || cx.construct === NODE_COUNT_CONSTRUCT)) {
    gaps.push({ span: cx.span ?? { start: 0, end: text.length }, reason: `Cap reached: ${describeComplexity(cx)}` });
  }
  for (const c of parsed.embeddedCaps ?? []) gaps.push({ span: { start: 0, end: Math.min(1, text.length) }, reason: `Cap reached: ${c}` });
  // Arithmetic on values not known to be numbers (src/parse/arithmetic.ts).
  for (const g of arithmeticGaps({ ...parsed, commands: parsed.commands.filter((c) => !c.embedded) })) gaps.push(g);
  for (const u of parsed.unmodelled ?? []) gaps.push({ span: u.span, reason: u.reason.startsWith('`') ? u.reason : `\`${text.slice(u.span.start, Math.min(u.span.end, u.span.start + 40))}\` ${u.reason}` });

  const loaderSpans = new Set<number>();
  /** A gap for a variable that makes programs load code, set other than by a plain assignment. */
  const setsLoader = (span: Span, how: string, name: string): void => {
    if (loaderSpans.has(span.start)) return;
    loaderSpans.add(span.start);
    gaps.push({ span, reason: `${how} sets \`${name}\`, which changes how later programs are found or what code they load.` });
  };
  // Variable bindings in the unit.
  const bindings = new Map<string, Binding>();
  const bind = (full: string, value: Word | undefined, standaloneTop: boolean, end: number): void => {
    // `x[0]=…` assigns element 0, which is what `$x` expands to: the scalar's value is no longer known.
    const name = full.replace(/\[.*$/s, '');
    const b = bindings.get(name) ?? { values: [], dynamic: false, count: 0, firstEnd: -1 };
    b.count++;
    if (name !== full) b.dynamic = true;
    if (value === undefined || value.value === undefined) b.dynamic = value !== undefined || b.dynamic;
    else {
      if (!b.values.includes(value.value)) b.values.push(value.value);
      if (standaloneTop && b.firstEnd < 0) b.firstEnd = end;
      if (!standaloneTop) b.dynamic = true;
    }
    if (value === undefined) b.values.push('');
    bindings.set(name, b);
  };
  for (const c of all) {
    if (c.name === undefined) for (const a of c.assignments) bind(a.name, a.value, (c.place?.depth ?? 0) === 0 && !c.embedded, a.span.end);
    const prog = c.name?.value !== undefined ? commandBasename(c.name.value) : undefined;
    // `shopt -s compat51`, `shopt -s expand_aliases`, `shopt -u assoc_expand_once`, `shopt -s dotglob`:
    // setting a shell option changes how bash expands and runs the rest of the unit (Bash manual,
    // The Shopt Builtin); what it then runs is not modelled. Printing options (`-p`, `-q`) is not.
    if (prog === 'shopt' && c.args.some((a) => a.value === undefined || /^-[A-Za-z]*[su]/.test(a.value))) {
      gaps.push({ span: c.span, reason: '`shopt` changes shell options (compatibility level, aliases, globbing, subscript expansion), which change what the rest of the command runs.' });
    }
    if (prog === 'read' || prog === 'mapfile' || prog === 'readarray' || prog === 'getopts' || prog === 'printf' || prog === 'let' || prog === 'wait') {
      for (const a of c.args) {
        // `read 'BASH_CMDS[ls]'`: an array element is set too.
        if (a.value !== undefined && prog !== 'let' && /^[A-Za-z_][A-Za-z0-9_]*\[/.test(a.value) && codeLoadingVariable(a.value)) setsLoader(a.span, `\`${prog} ${a.value}\``, a.value);
        if (a.value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*\[/.test(a.value)) bind(a.value, { ...a, value: undefined }, false, a.span.end);
        // An attached option value (`printf -vx …`, `read -ax`): every name the cluster may end in is assigned.
        if (a.value !== undefined && /^-[A-Za-z]/.test(a.value)) {
          for (let i = 2; i < a.value.length; i++) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.value.slice(i))) bind(a.value.slice(i), { ...a, value: undefined }, false, a.span.end);
        }
        if (a.value === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.value)) continue;
        bind(a.value, { ...a, value: undefined }, false, a.span.end);
        // `read PATH <<< …`: the variable is set without an assignment; what it loads is not known.
        if (prog !== 'let' && codeLoadingVariable(a.value)) setsLoader(a.span, `\`${prog} ${a.value}\``, a.value);
      }
    }
    // A loop variable is assigned each pass (`for GIT_DIR in …`).
    for (let e = c.place?.chain; e; e = e.parent) {
      if (e.enclosing.kind === 'for' && e.enclosing.name !== undefined && codeLoadingVariable(e.enclosing.name)) setsLoader(e.enclosing.span, `\`for ${e.enclosing.name}\``, e.enclosing.name);
    }
  }
  // `${NAME:=value}` and `${NAME=value}` assign NAME; `{NAME}>file` stores a descriptor number in
  // NAME (Bash manual, Redirections); arithmetic assigns (`(( PATH=1 ))`, `$(( GLOBIGNORE++ ))`,
  // `[[ IFS=1 -eq 1 ]]`, a subscript `a[PATH=1]`, `${a[GLOBIGNORE=1]}`), all as the parse walk
  // recorded them (src/parse/variable-changes.ts: over-approximates in quoted text).
  const recorded = parsed.variableChanges;
  if (recorded) {
    for (const d of recorded.defaults) if (codeLoadingVariable(d.name)) setsLoader(d.span, `\`\${${d.name}:=…}\``, d.name);
    for (const d of recorded.descriptors) if (codeLoadingVariable(d.name) && (text[d.span.end] === '<' || text[d.span.end] === '>')) setsLoader(d.span, `\`{${d.name}}\` before a redirection`, d.name);
    for (const a of recorded.arithmetic) if (codeLoadingVariable(a.name)) setsLoader(a.span, `The arithmetic \`${a.text}\``, a.name);
  }
  // `let PATH=1`: each argument is an arithmetic expression.
  for (const c of all) if (c.name?.value === 'let') for (const a of c.args) arithmeticAssigns(a.raw, a.span.start);
  function arithmeticAssigns(inner: string, at: number): void {
    for (const m of inner.matchAll(/(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)|(?<![$\w])([A-Za-z_][A-Za-z0-9_]*)\s*(?:\+\+|--|(?:[-+*/%&^|]|<<|>>)?=(?!=))/g)) {
      const name = m[1] ?? m[2]!;
      if (codeLoadingVariable(name)) setsLoader({ start: at + m.index, end: at + m.index + m[0].length }, `The arithmetic \`${m[0].trim()}\``, name);
    }
  }
  // `LC_ALL=zh_CN.GBK` and the rest of the input: bash reads it in the new character set.
  const charset = (a: { name: string; span: Span }, value: string | undefined): void => {
    if (changesInputCharset(a.name, value)) gaps.push({ span: a.span, reason: `\`${a.name}=${(value ?? '…').slice(0, 30)}\` selects a locale whose character set is not proven to keep a backslash a backslash (GBK, BIG5, GB18030, Shift_JIS have characters ending in that byte): bash reads the rest of the command by those characters, the parser by UTF-8.` });
  };
  for (const { assignment: a } of parsed.assignmentStatements ?? []) charset(a, staticValue(a));
  for (const d of parsed.declarations ?? []) for (const a of d.assignments) charset(a, staticValue(a));
  for (const c of all) {
    const prog = c.name?.value;
    if (c.assignments.length > 0 && (prog === undefined || SPECIAL_BUILTINS.has(prog))) for (const a of c.assignments) charset(a, staticValue(a));
  }
  for (const { assignment: a, place } of parsed.assignmentStatements ?? []) {
    bind(a.name, a.value, place.depth === 0, a.span.end);
    if (codeLoadingVariable(a.name, staticValue(a))) gaps.push({ span: a.span, reason: `\`${a.name}=…\` changes how later programs are found or what code they load.` });
    if (a.value?.value !== undefined && SUBSCRIPT_CODE.test(a.value.value)) gaps.push({ span: a.span, reason: `The value of \`${a.name}\` holds an array subscript with a substitution, which bash may evaluate later.` });
  }
  // Whether the unit runs any program or builtin besides declarations (an exported variable then reaches it).
  const runsPrograms = all.some((c) => c.name !== undefined);
  for (const d of parsed.declarations ?? []) {
    for (const a of d.assignments) bind(a.name, a.value, false, a.span.end);
    // `declare -n ref=GIT_DIR`: assigning the reference sets the variable it names.
    if (d.words.some((w) => w.value !== undefined && /^-[A-Za-z]*n/.test(w.value))) {
      for (const a of d.assignments) if (a.value?.value === undefined || codeLoadingVariable(a.value.value)) setsLoader(a.span, `\`${d.keyword} -n ${a.name}\``, a.value?.value ?? a.name);
    }
    if (d.assignments.some((a) => codeLoadingVariable(a.name, staticValue(a)))) {
      const a = d.assignments.find((x) => codeLoadingVariable(x.name, staticValue(x)))!;
      gaps.push({ span: a.span, reason: `\`${d.keyword} ${a.name}=…\` changes how later programs are found or what code they load.` });
    } else if (runsPrograms && exports(d)) {
      // An exported variable reaches every later program: only the names proven harmless
      // (rules/commands/environment.json, Claude Code's safe list) are; any other name may be
      // one a program reads to find a program, a config file or a repository (`GIT_TEST_FSMONITOR`,
      // `MANOPT`, `GIT_COMMON_DIR`).
      const named = [...d.assignments.map((a) => ({ name: a.name, value: staticValue(a), span: a.span })), ...d.words.flatMap((w) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(w.value ?? w.raw) ? [{ name: w.value ?? w.raw, value: undefined, span: w.span }] : []))];
      const bad = named.find((n) => {
        const k = classifyAssignment(n.name, n.value);
        return k !== 'harmless' && k !== 'prefix-only';
      });
      if (bad) gaps.push({ span: bad.span, reason: `\`${d.keyword} ${bad.name}\` exports a variable that no table proves harmless: a later program may read it to find another program, a config file or code to load.` });
    }
    // `declare -p`, `export -p`, `typeset -p`, a bare `export`/`declare -x`: prints variables (the
    // environment, secrets included): a read of secrets, not a gap (what runs is known). A word of
    // unknown value may be such an option. Bash manual, Bash Builtins: `declare`, `export`.
    const prints = d.assignments.length === 0 ? d.words.every((w) => w.value !== undefined && /^[-+]/.test(w.value)) : false;
    const option = d.words.some((w) => (w.value === undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(w.raw)) || (w.value !== undefined && /^[-+][A-Za-z]*[pfF]/.test(w.value)));
    if (prints || option) {
      const form = text.slice(d.span.start, d.span.end).trim().replace(/\s+/g, ' ');
      environmentReads.push({ span: d.span, reason: `\`${form.length > 40 ? `${form.slice(0, 37)}...` : form}\` prints the environment (shell variables or functions, API keys and tokens included).` });
    }
  }

  // Other ways a variable changes (its tracked value is then stale): a `for`/`select` loop leaves
  // the last item in it, arithmetic assigns (`(( x=1 ))`, `let x++`, `a[x=1]`), `${x:=…}`,
  // `{x}>file` stores a descriptor number, `unset x` empties it, and a nameref (`declare -n r=x`,
  // or one bound later by `r=x`) assigns whatever variable it names.
  // https://www.gnu.org/software/bash/manual/bash.html#Shell-Parameters
  for (const c of all) {
    for (let e = c.place?.chain, n = 0; e && n < MAX_ENCLOSING_DEPTH; e = e.parent, n++) {
      if (e.enclosing.kind === 'for' && e.enclosing.name !== undefined) staleValue(bindings, e.enclosing.name);
    }
  }
  const changes = bindings.size > 0 ? changesOf(parsed, bindings.keys()) : undefined;
  for (const [name, b] of bindings) {
    if (b.dynamic) continue;
    if (changedElsewhere(changes!, name, b.count)) b.dynamic = true;
  }
  for (const d of parsed.declarations ?? []) {
    // A bare name is a `variable_name` word (no static value in the parse): its text is the name.
    const wordText = (w: Word): string | undefined => w.value ?? (/^[A-Za-z_][A-Za-z0-9_]*$/.test(w.raw) ? w.raw : undefined);
    const nameref = (d.keyword === 'declare' || d.keyword === 'typeset' || d.keyword === 'local') && d.words.some((w) => wordText(w) === undefined || /^-[A-Za-z]*n/.test(wordText(w)!));
    if (!nameref) continue;
    // A name reference makes any assignment through it an assignment to another variable: no value is known.
    for (const b of bindings.values()) b.dynamic = true;
    const late = d.words.find((w) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(wordText(w) ?? ''));
    if (late !== undefined) {
      gaps.push({ span: late.span, reason: `\`${d.keyword} -n ${late.raw}\` makes \`${late.raw}\` a name reference bound later: an assignment through it may set any variable, including ones that change what later programs run.` });
    }
  }

  // IFS assigned anywhere (or read, or in a loop) → the fields of an unquoted expansion are not known.
  const ifsUnknown = /\bIFS\b/.test(text);
  const inBackground = enclosedBy(parsed.background ?? []);

  // The spans of the embedded commands each command hands its code to.
  const codeSpans = new Map<number, Span[]>();
  for (const c of all) {
    if (!c.embedded || c.host === undefined) continue;
    const list = codeSpans.get(c.host);
    if (list) list.push(c.span);
    else codeSpans.set(c.host, [c.span]);
  }
  const commands: ModelCommand[] = [];
  /** Indexes (into `commands`) of the commands a wrapper moves to another directory or root. */
  const moved = new Set<number>();
  for (let k = 0; k < all.length; k++) {
    const cmd = all[k]!;
    const { places, capped, loops } = placesOf(cmd.place?.chain, cmd, inBackground(cmd));
    let unknown: string | undefined = capped ? `Cap reached: the command is nested more than ${MAX_ENCLOSING_DEPTH} constructs deep.` : undefined;
    // Known values of the variables the command's words use.
    const names = new Set<string>();
    const namesOf = (w: Word): void => {
      for (const p of w.parts) if (p.kind === 'parameter' && p.plain === true) names.add(p.name);
    };
    // In word order: the name, the arguments, the redirection targets, the assigned values.
    if (cmd.name) namesOf(cmd.name);
    for (const a of cmd.args) namesOf(a);
    for (const r of cmd.redirects) if (r.target) namesOf(r.target);
    for (const a of cmd.assignments) if (a.value) namesOf(a.value);
    const known = new Map<string, Known>();
    for (const n of names) {
      const loop = loops.get(n);
      if (loop !== undefined) {
        if (loop !== null && loop.length > 0 && loop.every((w) => w.value !== undefined)) {
          known.set(n, { values: loop.map((w) => ({ text: w.value!, glob: w.parts.some((p) => p.kind === 'literal' && !p.quoted && /[*?[]/.test(p.value)) })), via: 'loop' });
        }
        continue;
      }
      const b = bindings.get(n);
      if (b && b.count === 1 && !b.dynamic && b.values.length === 1 && b.firstEnd >= 0 && b.firstEnd <= cmd.span.start && !places.includes('function-body')) {
        known.set(n, { values: [{ text: b.values[0]!, glob: false }], via: 'assigned' });
      }
    }
    let combos: Map<string, { text: string; glob: boolean }>[] = [new Map()];
    for (const [n, kv] of known) {
      const next: Map<string, { text: string; glob: boolean }>[] = [];
      for (const m of combos) for (const v of kv.values) next.push(new Map([...m, [n, v]]));
      combos = next;
      if (combos.length > MAX_INSTANCES) break;
    }
    let instances: SimpleCommand[];
    if (combos.length > MAX_INSTANCES) {
      instances = [cmd];
      unknown ??= `Cap reached: the loop and variable values give more than ${MAX_INSTANCES} forms of this command.`;
    } else instances = combos.length === 1 && combos[0]!.size === 0 ? [cmd] : combos.map((m) => substituteCommand(cmd, m, ifsUnknown));
    // Brace expansion (before the program is looked up): `{rm,x}` is `rm x`, `sudo {rm,-f} x` is `sudo rm -f x`.
    instances = instances.map((inst) => {
      const ws = inst.name ? [inst.name, ...inst.args] : [];
      if (!ws.some((w) => w.value !== undefined && w.parts.some((p) => p.kind === 'literal' && !p.quoted && p.value.includes('{')))) return inst;
      const out: Word[] = [];
      for (const w of ws) {
        const alts = w.value !== undefined && w.parts.some((p) => p.kind === 'literal' && !p.quoted && p.value.includes('{')) ? braceAlternativesOf(w.value) : undefined;
        if (alts && alts.length > 1) for (const a of alts) out.push(literalWord(a, w));
        else out.push(w);
      }
      return { ...inst, name: out[0], args: out.slice(1) };
    });
    const first = instances[0]!;
    const argvWords = first.name ? [first.name, ...first.args] : [];
    let dashDash = false;
    const argv = argvWords.map((w) => {
      const a = abstractWord(w, dashDash);
      if (w.value === '--') dashDash = true;
      return a;
    });
    const redirects: ModelRedirect[] = first.redirects.map((r) => ({
      redirect: r,
      kind: redirectKind(r),
      ...(r.target ? { target: abstractWord(r.target) } : {}),
      ...(r.heredoc ? { data: r.heredoc.quoted } : {}),
    }));
    const resolved = resolveCommand(first);
    if (resolved?.changesDirectory) moved.add(commands.length);
    const candidates: string[] = [];
    // A glob as the program word (`/bin/[r]m x`, `/usr/bin/r? x`): bash expands it to a path
    // before it looks the program up, so which program runs depends on the file system.
    const nameWord = resolved?.nameWord ?? first.name;
    let nameGlob: string | undefined;
    if (nameWord && nameWord.value !== undefined && hasUnquotedGlob(nameWord)) {
      nameGlob = nameWord.value.slice(nameWord.value.lastIndexOf('/') + 1);
      unknown ??= `The command word \`${nameWord.value.slice(0, 60)}\` is a glob: which program runs depends on the files it matches.`;
    }
    const rest = (): string => first.args.map((a) => a.value ?? a.raw).join(' ');
    // `r``m x` runs `rm x` (the empty substitution expands to nothing).
    if (first.name?.value?.includes('``')) candidates.push(`${first.name.value.replaceAll('``', '')} ${rest()}`.trim());
    if (first.name && first.name.value === undefined) {
      unknown ??= `The command word \`${first.name.raw.slice(0, 60)}\` is not known before the command runs.`;
      candidates.push(...visibleNames(first.name, bindings, rest()));
    }
    for (const w of cmd.name ? [cmd.name, ...cmd.args] : []) {
      for (const p of w.parts) {
        if (p.kind !== 'parameter') continue;
        const raw = w.raw;
        if (/\$\{[^}]*@P\}/.test(raw)) unknown ??= `\`${raw.slice(0, 40)}\` expands a prompt string, which runs the command substitutions in the value.`;
        if (/\$\{!/.test(raw)) unknown ??= `\`${raw.slice(0, 40)}\` is an indirect expansion, whose array subscripts bash evaluates.`;
      }
      if (w.value !== undefined && SUBSCRIPT_CODE.test(w.value) && !w.parts.every((p) => p.kind === 'literal' && p.quoted === false)) {
        unknown ??= `\`${w.value.slice(0, 40)}\` holds an array subscript with a substitution, which bash may evaluate.`;
      }
    }
    for (const a of first.assignments) {
      if (codeLoadingVariable(a.name, staticValue(a))) unknown ??= `\`${a.name}=\` makes the program load or run code chosen by the value.`;
      if (a.value?.value !== undefined && SUBSCRIPT_CODE.test(a.value.value)) unknown ??= `The value of \`${a.name}\` holds an array subscript with a substitution, which bash may evaluate later.`;
    }
    if (first.name === undefined) {
      for (const a of first.assignments) {
        if (codeLoadingVariable(a.name, staticValue(a))) {
          gaps.push({ span: a.span, reason: `\`${a.name}=…\` changes how later programs are found or what code they load.` });
        }
      }
    }
    const { levels, inner } = wrapperLevels(argvWords);
    const visibleCode = embeddedCode(first, text, all).length > 0;
    for (const l of levels) {
      if (l.scan.opaque) unknown ??= `\`${l.name} ${l.scan.opaque}\` runs commands that are not in the command line.`;
      if (l.scan.code.some((w) => w.value === undefined)) unknown ??= `\`${l.name}\` runs shell code that is not known before the command runs.`;
      if (l.spec.implies) for (const [opt, prog] of Object.entries(l.spec.implies)) if (l.words.some((w) => w.value === opt)) candidates.push(prog);
      if (l.spec.execOptions) {
        const args = l.words.slice(1);
        for (let i = 0; i < args.length; i++) {
          if (args[i]!.value !== undefined && l.spec.execOptions.includes(args[i]!.value!) && args[i + 1] && args[i + 1]!.value === undefined) {
            unknown ??= `\`${l.name} ${args[i]!.value}\` runs a command whose name is not known before it runs.`;
          }
        }
      }
    }
    const last = levels[levels.length - 1];
    if (inner === undefined && last && last.spec.stdinCode && last.scan.code.length === 0 && !last.scan.stopped && !last.scan.opaque && !visibleCode) {
      unknown ??= `\`${last.name}\` reads the commands it runs from its standard input, which is not visible here.`;
    }
    if (inner?.[0] && inner[0].value === undefined && levels.length > 0) {
      unknown ??= `\`${levels[levels.length - 1]!.name}\` runs a command whose name is not known before it runs.`;
      candidates.push(...visibleNames(inner[0], bindings, inner.slice(1).map((a) => a.value ?? a.raw).join(' ')));
    }
    const program = resolved?.name;
    if (program !== undefined) {
      if ((RESERVED.has(program) || /^[{}()!]|\s/.test(program)) && levels.length > 0) unknown ??= `\`${levels[levels.length - 1]!.name}\` runs a compound command that is not modelled.`;
      if ((levels.some((l) => l.name === 'xargs' || l.name === 'parallel')) && /\{\}|^\{/.test(program)) unknown ??= 'The program name is filled in from the input at run time.';
      const why = OPAQUE_BUILTINS[program];
      if (why !== undefined && !(program === 'hash' && !resolved!.args.some((a) => a.value?.startsWith('-p')))) {
        if (!(program === 'complete' && !resolved!.args.some((a) => /^-[A-Za-z]*C/.test(a.value ?? '-C')))) unknown ??= `\`${program}\` ${why}.`;
        if (program === 'hash') for (const a of resolved!.args) if (a.value?.startsWith('/')) candidates.push(commandBasename(a.value));
      }
      if (program === 'eval' && resolved!.args.some((a) => a.value === undefined)) unknown ??= '`eval` runs code that is not known before the command runs.';
      if (resolved?.changesDirectory === 'root') unknown ??= `\`${resolved.wrappers.join(' ')}\` runs \`${program}\` under another root directory, where its program and the files it names are not the ones shellward sees.`;
      const shell = program === 'busybox' || program === 'toybox' ? commandBasename(resolved!.args[0]?.value ?? '') : program;
      if (SHELLS.has(shell) && !visibleCode) {
        const args = program === shell ? resolved!.args : resolved!.args.slice(1);
        const script = args.find((a) => a.value === undefined || !a.value.startsWith('-'));
        const cIndex = args.findIndex((a) => a.value !== undefined && /^-[A-Za-z]*c[A-Za-z]*$/.test(a.value));
        if (cIndex >= 0) {
          if (args[cIndex + 1] === undefined || args[cIndex + 1]!.value === undefined) unknown ??= `\`${shell} -c\` runs a string that is not known before the command runs.`;
        } else if (script && !args.some((a) => a.value === '-s')) {
          if (!(shell === 'bash' || shell === 'sh') || !args.some((a) => a.value === '-n')) unknown ??= `\`${shell}\` runs the code in the file \`${(script.value ?? script.raw).slice(0, 60)}\`.`;
        } else if (!args.some((a) => a.value === '--version' || a.value === '--help')) {
          unknown ??= `\`${shell}\` reads the code it runs from its standard input${cmd.place?.pipeline ? ' (a pipe)' : ''}, which is not visible here.`;
        }
      }
    }
    if (unknown !== undefined) gaps.push({ span: cmd.span, reason: unknown });
    commands.push({
      index: k,
      cmd,
      instances,
      program,
      wrappers: resolved?.wrappers ?? [],
      argv,
      redirects,
      cwd: undefined,
      places,
      ...(unknown !== undefined ? { unknown } : {}),
      candidates,
      ...(nameGlob !== undefined ? { nameGlob } : {}),
      ...(codeSpans.has(k) ? { codeSpans: codeSpans.get(k)! } : {}),
    });
  }
  const cwds = workingDirectories(parsed, commands, options);
  // A wrapper that moves its command to another directory or root (`env -C /etc cat f`, `chroot /
  // cat f`) leaves that command's working directory unknown: its paths are never judged inside.
  // Filled in place (each command object is this build's own): its properties keep their order.
  for (let k = 0; k < commands.length; k++) (commands[k] as { cwd: ModelCommand['cwd'] }).cwd = moved.has(k) ? undefined : cwds[k];
  const out = commands;
  gaps.sort((a, b) => a.span.start - b.span.start);
  return { text, commands: out, gaps, environmentReads };
}
