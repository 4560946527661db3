/**
 * The Makefile source: finds the shell code in a Makefile — recipe lines, `$(shell …)`
 * calls and `!=` assignments — and turns each piece into a {@link CommandUnit} of granularity
 * `command` whose source map points every character back into the Makefile. Mirrors GNU make 4.x
 * reading rules (GNU make manual §3.1.1 "Splitting long lines", §5.1.1 "Splitting recipe lines",
 * §5.3 "Recipe execution", §5.3.1 ".ONESHELL", §6 "Variables", §7 "Conditionals").
 *
 * What the extraction does:
 * - A recipe line starts with the recipe prefix (a tab, or the first character of `.RECIPEPREFIX`)
 *   in a rule context; `target: prereqs ; cmd` carries a recipe on the rule line.
 * - Recipe continuations stay as the shell sees them: the backslash-newline is kept and a recipe
 *   prefix at the start of the continuation line is dropped. Other lines join the make way.
 * - The `@`, `-` and `+` prefixes (and blanks between them) are stripped; `$$` becomes `$`.
 * - `$(X)`, `${X}` and `$X` become the variable's value when the file defines it exactly once (an
 *   `=`, `:=`, `::=`, `:::=` or `?=` assignment, plus any `+=` to it) with a non-empty value free
 *   of `$`;
 *   a reference to any other variable whose name is a shell name (defined twice, empty, in a
 *   `define`, in another file) becomes the shell parameter `${NAME}` / `$X` of the same length,
 *   a value unknown at lint time that may be empty; every other reference (automatic variables,
 *   functions, computed names) becomes a placeholder word of the same length (`x…x`). A Make
 *   reference is never read as command substitution, and columns stay true.
 * - `.ONESHELL` makes all lines of a recipe one unit; `SHELL` (assigned once) selects the dialect.
 * - Comments (also ones continued by a trailing backslash), `define … endef`, conditionals
 *   (never evaluated: every branch is read) and `include` lines are read past.
 *
 * Pure: the caller reads the file. Offsets are UTF-16 code units, 0-based.
 */
import type { CommandUnit, Dialect, Profile } from '../core/types.js';
import { MappedText } from './mapped-text.js';
import { physicalLines, type PhysLine } from './physical-lines.js';

/** File names (basename) that are Makefiles. */
const MAKEFILE_NAMES: ReadonlySet<string> = new Set(['Makefile', 'makefile', 'GNUmakefile']);

/** Whether `path` names a Makefile: `Makefile`, `makefile`, `GNUmakefile`, `*.mk` or `*.make`. */
export function isMakefilePath(path: string, extraNames?: (base: string) => boolean): boolean {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  if (MAKEFILE_NAMES.has(base) || extraNames?.(base)) return true;
  const lower = base.toLowerCase();
  return (lower.endsWith('.mk') && lower.length > 3) || (lower.endsWith('.make') && lower.length > 5);
}

/** Which kind of shell code a Makefile unit is. */
export type MakeUnitKind = 'recipe' | 'shell-function' | 'shell-assignment';

/** A Makefile unit: a command unit plus what it is and the 1-based host line it starts on. */
export interface MakeUnit {
  readonly unit: CommandUnit;
  readonly kind: MakeUnitKind;
  /** 1-based line of the host Makefile where the unit's first character is. */
  readonly line: number;
}

/** Result of {@link extractMakefile}. */
export interface MakefileExtraction {
  readonly units: readonly MakeUnit[];
  /** Dialect the recipes run in: from `SHELL` when it is assigned once to a known shell, else `sh`. */
  readonly dialect: Dialect;
  /** Whether `.ONESHELL` appears as a target. */
  readonly oneShell: boolean;
}

/** Options of {@link extractMakefile}. */
export interface MakefileOptions {
  /** Profile of the units (default `script`). */
  readonly profile?: Profile;
}

/** Whether the text in `[start, end)` ends with an odd number of backslashes. */
function endsWithContinuation(text: string, start: number, end: number): boolean {
  let n = 0;
  for (let i = end - 1; i >= start && text[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

type Item =
  | { readonly type: 'recipe'; readonly rule: number; readonly text: MappedText; readonly line: number }
  | { readonly type: 'make'; readonly text: MappedText; readonly line: number };

/** An assignment seen in the file. */
interface Definition {
  readonly op: string;
  readonly value: string;
  readonly inDefine: boolean;
}

const DIRECTIVES_KEEP_RULE = new Set(['ifeq', 'ifneq', 'ifdef', 'ifndef', 'else', 'endif']);
const DIRECTIVES_END_RULE = new Set(['include', '-include', 'sinclude', 'vpath', 'unexport', 'undefine', 'load', '-load']);
const MODIFIERS = new Set(['export', 'override', 'private']);

/** Joins a non-recipe logical line the make way: backslash-newline plus surrounding blanks → one space. */
function joinMakeLine(text: string, lines: readonly PhysLine[], first: number, last: number): MappedText {
  const out = new MappedText();
  for (let k = first; k <= last; k++) {
    const l = lines[k]!;
    let s = l.start;
    if (k > first) while (s < l.end && (text[s] === ' ' || text[s] === '\t')) s++;
    if (k < last) {
      // drop the backslash and the blanks before it, put one space in its place
      let e = l.end - 1;
      while (e > s && (text[e - 1] === ' ' || text[e - 1] === '\t')) e--;
      out.copy(text, s, e);
      out.push(' ', l.end - 1);
    } else {
      out.copy(text, s, l.end);
    }
  }
  return out;
}

/** Offset in `s` of the first unescaped `#` (a make comment), or -1. */
function commentStart(s: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') {
      i++;
      continue;
    }
    if (s[i] === '#') return i;
  }
  return -1;
}

/** Index just after the variable reference or function call that starts with `$(`/`${` at `i`, or -1 when unclosed. */
function refEnd(s: string, i: number): number {
  const open = s[i + 1];
  const close = open === '(' ? ')' : '}';
  let depth = 0;
  for (let k = i + 1; k < s.length; k++) {
    const c = s[k];
    if (c === open) depth++;
    else if (c === close) {
      depth--;
      if (depth === 0) return k + 1;
    }
  }
  return -1;
}

type Parsed =
  | { readonly kind: 'assign'; readonly name: string; readonly op: string; readonly valueStart: number }
  | { readonly kind: 'rule'; readonly targets: string; readonly recipeStart?: number; readonly targetAssign?: { name: string; op: string; valueStart: number } }
  | { readonly kind: 'other' };

/** Classifies a comment-free logical line: an assignment, a rule (and where an inline recipe starts), or something else. */
function classify(s: string): Parsed {
  let i = 0;
  let colon = -1;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '$' && (s[i + 1] === '(' || s[i + 1] === '{')) {
      const e = refEnd(s, i);
      i = e === -1 ? s.length : e;
      continue;
    }
    if (c === '$') {
      i += 2;
      continue;
    }
    if (c === '=') {
      let opStart = i;
      while (opStart > (colon === -1 ? 0 : colon + 1) && /[:?+!]/.test(s[opStart - 1]!)) opStart--;
      const op = s.slice(opStart, i + 1);
      if (colon === -1 && /^(=|:=|::=|:::=|\?=|\+=|!=)$/.test(op)) {
        return { kind: 'assign', name: s.slice(0, opStart).trim(), op, valueStart: i + 1 };
      }
      if (colon !== -1) {
        // target-specific assignment: `target: VAR = value`
        const name = s.slice(colon + 1, opStart).trim();
        return { kind: 'rule', targets: s.slice(0, colon).trim(), targetAssign: { name, op: /^(=|:=|::=|:::=|\?=|\+=|!=)$/.test(op) ? op : '=', valueStart: i + 1 } };
      }
      return { kind: 'other' };
    }
    if (c === ':' && colon === -1) {
      // `:=`, `::=`, `:::=` are assignment operators, not the rule colon
      let k = i;
      while (s[k] === ':') k++;
      if (s[k] === '=') {
        i = k;
        continue;
      }
      colon = i;
      i = k;
      continue;
    }
    if (c === ';' && colon !== -1) {
      return { kind: 'rule', targets: s.slice(0, colon).trim(), recipeStart: i + 1 };
    }
    i++;
  }
  if (colon !== -1) return { kind: 'rule', targets: s.slice(0, colon).trim() };
  return { kind: 'other' };
}

/** Splits the leading modifier words (`export`, `override`, `private`) off an assignment name. */
function bareName(name: string): string {
  const words = name.split(/[ \t]+/).filter(Boolean);
  while (words.length > 1 && MODIFIERS.has(words[0]!)) words.shift();
  return words.join(' ');
}

interface Structure {
  readonly items: Item[];
  readonly defs: Map<string, Definition[]>;
  readonly oneShell: boolean;
}

/** First pass: logical lines, rule contexts, recipe lines and assignments. */
function scan(text: string): Structure {
  const lines = physicalLines(text);
  const items: Item[] = [];
  const defs = new Map<string, Definition[]>();
  const define = (name: string, op: string, value: string, inDefine = false): void => {
    const list = defs.get(name) ?? [];
    list.push({ op, value, inDefine });
    defs.set(name, list);
  };
  let prefix = '\t';
  let rule = -1; // index of the current rule, -1 outside a rule context
  let rules = 0;
  let oneShell = false;
  let defineDepth = 0;
  let defineName = '';
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k]!;
    const first = text[l.start];
    if (defineDepth > 0) {
      const word = text.slice(l.start, l.end).trim().split(/[ \t]+/)[0] ?? '';
      if (word === 'endef') {
        defineDepth--;
        if (defineDepth === 0) define(defineName, 'define', '', true);
      } else if (word === 'define' || (MODIFIERS.has(word) && /\bdefine\b/.test(text.slice(l.start, l.end)))) defineDepth++;
      continue;
    }
    if (rule !== -1 && first === prefix && l.end > l.start) {
      // A recipe line: continuation lines are kept for the shell, minus a leading recipe prefix.
      const out = new MappedText();
      let j = k;
      let s = l.start + 1;
      for (;;) {
        const lj = lines[j]!;
        const cont = endsWithContinuation(text, s, lj.end) && j + 1 < lines.length;
        out.copy(text, s, lj.end);
        if (!cont) break;
        out.push('\n', lj.end);
        j++;
        const next = lines[j]!;
        s = text[next.start] === prefix ? next.start + 1 : next.start;
      }
      // A continuation onto a blank last line adds nothing the shell runs: drop it.
      const trailing = /[ \t]*\\\n[ \t]*$/.exec(out.text);
      if (trailing) out.truncate(trailing.index);
      items.push({ type: 'recipe', rule, text: out, line: k + 1 });
      k = j;
      continue;
    }
    // A make line: join its continuations (a comment continues the same way).
    let last = k;
    while (last + 1 < lines.length && endsWithContinuation(text, lines[last]!.start, lines[last]!.end)) last++;
    const joined = joinMakeLine(text, lines, k, last);
    const lineNo = k + 1;
    k = last;
    const full = joined.text;
    const hash = commentStart(full);
    const code = hash === -1 ? full : full.slice(0, hash);
    if (code.trim() === '') continue; // blank or comment: the rule context goes on
    const logical = joined.slice(0, code.length);
    const word = code.trimStart().split(/[ \t(]+/)[0] ?? '';
    if (DIRECTIVES_KEEP_RULE.has(word)) continue;
    if (word === 'define' || (MODIFIERS.has(word) && /^\s*(?:(?:export|override|private)\s+)+define\b/.test(code))) {
      const m = /\bdefine[ \t]+([^ \t=:?+!]+)/.exec(code);
      defineName = m?.[1] ?? '';
      defineDepth = 1;
      rule = -1;
      continue;
    }
    if (DIRECTIVES_END_RULE.has(word)) {
      rule = -1;
      continue;
    }
    const p = classify(code);
    if (p.kind === 'assign') {
      const name = bareName(p.name);
      const value = code.slice(p.valueStart).trim();
      define(name, p.op, value);
      if (name === '.RECIPEPREFIX') prefix = value === '' ? '\t' : value[0]!;
      rule = -1;
      items.push({ type: 'make', text: logical, line: lineNo });
    } else if (p.kind === 'rule') {
      rule = p.targetAssign ? -1 : rules++;
      if (p.targets.split(/[ \t]+/).includes('.ONESHELL')) oneShell = true;
      if (p.targetAssign) {
        define(bareName(p.targetAssign.name), p.targetAssign.op, code.slice(p.targetAssign.valueStart).trim());
        items.push({ type: 'make', text: logical, line: lineNo });
      } else if (p.recipeStart !== undefined) {
        items.push({ type: 'make', text: logical.slice(0, p.recipeStart), line: lineNo });
        let rs = p.recipeStart;
        while (rs < code.length && (code[rs] === ' ' || code[rs] === '\t')) rs++;
        // the inline recipe is not a make line: its comment is the shell's
        items.push({ type: 'recipe', rule, text: joined.slice(rs, full.length), line: lineNo });
      } else {
        items.push({ type: 'make', text: logical, line: lineNo });
      }
    } else {
      items.push({ type: 'make', text: logical, line: lineNo });
    }
  }
  return { items, defs, oneShell };
}

/** The literal values of variables defined exactly once (an assignment chain of `+=`s after one definition). */
function literalValues(defs: ReadonlyMap<string, readonly Definition[]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, list] of defs) {
    if (list.some((d) => d.inDefine || d.op === '!=' || d.value.includes('$'))) continue;
    const setters = list.filter((d) => d.op !== '+=');
    if (setters.length > 1) continue;
    // `+=` before the definition, or only `+=`s: the value is still the joined appends
    const parts = list.map((d) => d.value).filter((v) => v !== '');
    out.set(name, parts.join(' '));
  }
  return out;
}

/** A Make variable name that is also a shell parameter name. */
const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const SHELL_DIALECTS: Readonly<Record<string, Dialect>> = { sh: 'sh', bash: 'bash', dash: 'dash', ksh: 'ksh', zsh: 'zsh', mksh: 'ksh', ash: 'sh' };

/**
 * Expands Make syntax in `src[start, end)` into `out`: `$$` → `$`, references → value or
 * placeholder. Returns nothing; `out` grows.
 */
function expand(src: MappedText, start: number, end: number, values: ReadonlyMap<string, string>, out: MappedText): void {
  const s = src.text;
  let i = start;
  while (i < end) {
    const c = s[i]!;
    if (c !== '$') {
      out.pushFrom(src, i);
      i++;
      continue;
    }
    const n = s[i + 1];
    if (n === '$') {
      out.pushFrom(src, i);
      i += 2;
      continue;
    }
    let refStop: number;
    let name: string | undefined;
    if (n === '(' || n === '{') {
      const e = refEnd(s, i);
      refStop = e === -1 || e > end ? end : e;
      const inner = s.slice(i + 2, refStop - 1);
      name = /^[^\s:=#$(){}]+$/.test(inner) ? inner : undefined;
    } else if (n === undefined || i + 1 >= end) {
      out.pushFrom(src, i);
      i++;
      continue;
    } else {
      refStop = i + 2;
      name = n;
    }
    const hostStart = src.hostAt(i) ?? 0;
    const hostLen = (src.hostAt(refStop - 1) ?? hostStart) - hostStart + 1;
    const value = name !== undefined ? values.get(name) : undefined;
    if (value !== undefined && value !== '') out.replace(value, hostStart, hostLen);
    else if (name !== undefined && SHELL_NAME.test(name) && refStop - i === (n === '(' || n === '{' ? name.length + 3 : 2)) {
      // A variable whose value is unknown here (or empty) becomes the shell parameter of the same
      // name and length, `${NAME}` or `$X`: the analyses then treat it as a value that may be
      // empty, as it is (`rm -rf $(DESTDIR)/` removes `/` when DESTDIR is unset).
      const shellText = n === '(' || n === '{' ? '${' + name + '}' : '$' + name;
      for (let k = i; k < refStop; k++) out.push(shellText[k - i]!, src.hostAt(k) ?? hostStart);
    } else for (let k = i; k < refStop; k++) out.push('x', src.hostAt(k) ?? hostStart);
    i = refStop;
  }
}

/** Strips the recipe prefixes `@`, `-`, `+` and the blanks around them from the start of a recipe line. */
function prefixEnd(s: string): number {
  let i = 0;
  while (i < s.length && ' \t@-+'.includes(s[i]!)) i++;
  return i;
}

/**
 * Extracts the shell code of a Makefile. `file` is the path shown to the user, `text` the whole
 * Makefile (a leading BOM already removed). Never throws; malformed Make is read as far as it goes.
 */
export function extractMakefile(file: string, text: string, options: MakefileOptions = {}): MakefileExtraction {
  const { items, defs, oneShell } = scan(text);
  const values = literalValues(defs);
  const shellDef = defs.get('SHELL');
  let dialect: Dialect = 'sh';
  if (shellDef && shellDef.length === 1) {
    const prog = shellDef[0]!.value.split(/[ \t]+/)[0] ?? '';
    dialect = SHELL_DIALECTS[prog.slice(prog.lastIndexOf('/') + 1)] ?? 'sh';
  }
  const profile = options.profile ?? 'script';
  const units: MakeUnit[] = [];
  const lineOf = (host: number): number => {
    let n = 1;
    for (let i = text.indexOf('\n'); i !== -1 && i < host; i = text.indexOf('\n', i + 1)) n++;
    return n;
  };
  const emit = (mt: MappedText, kind: MakeUnitKind, line?: number): void => {
    // nothing to analyse: blank, or only shell comments
    if (mt.text.split('\n').every((l) => l.trim() === '' || l.trimStart().startsWith('#'))) return;
    const first = mt.hostAt(0) ?? 0;
    units.push({
      unit: {
        text: mt.text,
        hostText: text,
        dialect,
        granularity: 'command',
        profile,
        origin: { file, kind: 'makefile' },
        sourceMap: mt.toSourceMap(first),
      },
      kind,
      line: line ?? lineOf(first),
    });
  };
  /** Emits `$(shell …)` calls found in `src` (outside `$$`). */
  const shellCalls = (src: MappedText): void => {
    const s = src.text;
    for (let i = 0; i < s.length; i++) {
      if (s[i] === '$' && s[i + 1] === '$') {
        i++;
        continue;
      }
      if (s[i] === '$' && (s[i + 1] === '(' || s[i + 1] === '{') && s.startsWith('shell', i + 2) && /[ \t]/.test(s[i + 7] ?? '')) {
        const e = refEnd(s, i);
        if (e === -1) continue;
        let b = i + 8;
        while (b < e - 1 && (s[b] === ' ' || s[b] === '\t')) b++;
        const out = new MappedText();
        expand(src, b, e - 1, values, out);
        emit(out, 'shell-function');
      }
    }
  };
  let group: { rule: number; text: MappedText; line: number } | undefined;
  const flush = (): void => {
    if (group) emit(group.text, 'recipe', group.line);
    group = undefined;
  };
  for (const item of items) {
    if (item.type === 'make') {
      const p = classify(item.text.text);
      if (p.kind === 'assign' && p.op === '!=') {
        let b = p.valueStart;
        const s = item.text.text;
        while (b < s.length && (s[b] === ' ' || s[b] === '\t')) b++;
        const out = new MappedText();
        expand(item.text, b, s.length, values, out);
        emit(out, 'shell-assignment', item.line);
      }
      shellCalls(item.text);
      continue;
    }
    const src = item.text;
    const start = prefixEnd(src.text);
    const out = new MappedText();
    expand(src, start, src.length, values, out);
    shellCalls(src);
    if (!oneShell) {
      emit(out, 'recipe', item.line);
      continue;
    }
    if (group && group.rule !== item.rule) flush();
    if (!group) group = { rule: item.rule, text: out, line: item.line };
    else {
      group.text.push('\n', (src.hostAt(0) ?? 1) - 1);
      for (let i = 0; i < out.length; i++) group.text.pushFrom(out, i);
    }
  }
  flush();
  return { units, dialect, oneShell };
}
