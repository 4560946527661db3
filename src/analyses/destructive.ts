/**
 * The destructive-command engine: packs of rules (rules/packs/*.json, schema
 * rules/schema/pack.schema.json) matched on a simple command's parsed argv after wrappers
 * (`sudo`, `env`, `command`, `xargs` …) and directory prefixes are stripped. A rule names a
 * program family (program names and how they read their options), optionally a subcommand, and a
 * predicate over options (any spelling: clusters `-rf`, attached `--opt=x`, unambiguous long-option
 * prefixes `--rec`), operands, option values, option commands (`find -exec`), the SQL a client
 * runs, output redirections, what the command reads from its pipeline (`curl … | sh`) and what
 * its arguments substitute (`bash <(curl …)`, `eval "$(curl …)"`). A pack whose keywords occur in
 * none of the unit's static words costs nothing. Pure: no I/O; linear in the command's size per
 * rule of a program family.
 */
import type { Profile, Severity, Span } from '../core/types.js';
import type { Enclosing, ParsedScript, SimpleCommand } from '../parse/nodes.js';
import type { Word } from '../parse/words.js';
import { resolveCommand, type ResolvedCommand } from '../parse/command-name.js';
import { scanArgs, type ScannedArgs } from './args.js';
import { expandLongOptions, resolveLongOption } from './option-spelling.js';
import { BUILTIN_PACK_DATA } from './packs-data.js';

/** A predicate over a command (see rules/schema/pack.schema.json for each form). */
export type MatchExpr =
  | { readonly always: true }
  | { readonly option: readonly string[] }
  | { readonly optionValue: { readonly option: readonly string[]; readonly value: string } }
  | { readonly operand: string }
  | { readonly firstOperand: string }
  | { readonly minOperands: number }
  | { readonly minArgs: number }
  | { readonly dynamicOperand: 'first' | 'any' }
  | { readonly program: readonly string[] }
  | { readonly operandAfterDashDash: true }
  | { readonly arg: string }
  | { readonly lastArg: string }
  | { readonly subcommandIs: string }
  | { readonly runs: readonly string[] }
  | { readonly sql: string }
  | { readonly redirectTo: string }
  | { readonly redirectFrom: string }
  | { readonly stdinFrom: readonly string[] }
  | { readonly stdinFromArg: string }
  | { readonly substitutes: readonly string[] }
  | { readonly tokens: readonly (readonly string[])[] }
  | { readonly forkBomb: true }
  | { readonly all: readonly MatchExpr[] }
  | { readonly any: readonly MatchExpr[] }
  | { readonly not: MatchExpr };

/** Per-profile severities of a rule. */
export type ProfileSeverity = Readonly<Record<Profile, Severity>>;

/** One rule of a pack. */
export interface PackRule {
  readonly id: string;
  /** Stable short code (`D3nn`); custom packs' rules have none. */
  readonly code?: string;
  /** Key of a family of the pack, or `*` for every simple command (redirection-only rules). */
  readonly family: string;
  readonly subcommand?: readonly string[];
  readonly match: MatchExpr;
  /** Default severity per profile (default: warning in both; `off`: not reported in that profile). */
  readonly severity?: Partial<Readonly<Record<Profile, Severity | 'off'>>>;
  /**
   * The acceptable form: when every operand is a literal path inside the project (`build`,
   * `./dist`, `*.o`) or starts with a guarded variable (`"${DIR:?}"`), the severity per profile
   * becomes this (at most the rule's own).
   */
  readonly inProject?: { readonly severity: Partial<Readonly<Record<Profile, Severity | 'off'>>>; readonly allowDot?: boolean };
  readonly title: string;
  readonly message: string;
  readonly rationale: string;
  readonly fix: string;
  readonly exceptions?: string;
  readonly examples: { readonly valid: readonly string[]; readonly invalid: readonly string[] };
}

/** How a program reads its arguments. */
export interface Family {
  readonly names: readonly string[];
  readonly globalValueOptions?: readonly string[];
  readonly valueOptions?: readonly string[];
  /** Long options (for resolving abbreviations such as `--rec`); absent: only exact names match. */
  readonly longOptions?: readonly string[];
  readonly singleDashLong?: boolean;
  readonly noEndOfOptions?: boolean;
  readonly commandOptions?: readonly string[];
  readonly subcommands?: Readonly<Record<string, { readonly valueOptions?: readonly string[]; readonly longOptions?: readonly string[] }>>;
  readonly sql?: Readonly<Record<string, readonly string[]>>;
  readonly sqlOperandAfter?: Readonly<Record<string, number>>;
}

/** A pack: a named group of rules with the program families they match. */
export interface Pack {
  readonly id: string;
  readonly title: string;
  readonly description?: string;
  /** Words one of which must occur in the unit's static words for the pack to be tried at all. */
  readonly keywords: readonly string[];
  readonly families: Readonly<Record<string, Family>>;
  readonly rules: readonly PackRule[];
}

/** A rule that matched a command, with its pack and the severity for the profile asked. */
export interface PackHit {
  readonly pack: Pack;
  readonly rule: PackRule;
  /** True when the command is in the rule's acceptable form (see {@link PackRule.inProject}). */
  readonly inProject: boolean;
  /** The unguarded variable a removal operand starts with (`DIR` for `"$DIR/x"`), for messages. */
  readonly unguarded?: string;
}

const RANK: Readonly<Record<Severity | 'off', number>> = { error: 0, warning: 1, note: 2, off: 3 };

/**
 * The severity of `hit` in `profile`: the rule's (default warning), lowered in its acceptable form
 * (`off` there: nothing to report).
 */
export function hitSeverity(hit: PackHit, profile: Profile): Severity | 'off' {
  const own = hit.rule.severity?.[profile] ?? 'warning';
  if (!hit.inProject || own === 'off') return own;
  const relaxed = hit.rule.inProject?.severity[profile] ?? own;
  return RANK[relaxed] > RANK[own] ? relaxed : own;
}

const regexCache = new Map<string, RegExp>();
function re(source: string, flags = ''): RegExp {
  const key = flags + '/' + source;
  let r = regexCache.get(key);
  if (!r) {
    r = new RegExp(source, flags);
    regexCache.set(key, r);
  }
  return r;
}

/**
 * What the engine knows about a whole unit: each command's resolved program (computed once), the
 * commands by program name, and the static words that keywords are looked up in.
 */
export class UnitFacts {
  private readonly resolvedMap = new Map<SimpleCommand, ResolvedCommand | undefined>();
  private byNameMap: Map<string, SimpleCommand[]> | undefined;
  private haystack: string | undefined;
  private readonly mentioned = new Map<string, boolean>();

  /**
   * `commands`: every simple command of the unit (nested and embedded ones included).
   * `acceptable`: words the host knows to be acceptable removal targets although they are not
   * static (a Makefile's `$(DESTDIR)$(BINDIR)/x`); default none.
   */
  constructor(
    readonly commands: readonly SimpleCommand[],
    readonly acceptable: (w: Word) => boolean = () => false,
    private readonly script?: Pick<ParsedScript, 'assignmentStatements' | 'declarations' | 'background'>,
  ) {}

  private bombs: Set<SimpleCommand> | undefined;

  /**
   * True when `cmd` is the first command of a fork bomb: a function body whose every simple
   * command calls the function itself, at least one of them in a pipeline or in the background
   * (`:(){ :|:& };:`, `bomb() { bomb | bomb & }`). Each call then starts two processes and
   * none returns, so the number of processes doubles until the system's limit. A recursive
   * function with anything else in its body (a test, a base case) is not one. Needs the unit's
   * script for background jobs; without it, only pipelines count.
   */
  forkBomb(cmd: SimpleCommand): boolean {
    if (!this.bombs) {
      this.bombs = new Set();
      // Each command's innermost function, and whether it sits directly in its body (through
      // `{ … }`, `( … )` and `&&`/`||` only: no loop, test, condition or substitution between).
      const bodies = new Map<Enclosing, { cmd: SimpleCommand; direct: boolean }[]>();
      for (const c of this.commands) {
        let direct = true;
        for (let ch = c.place?.chain; ch; ch = ch.parent) {
          const e = ch.enclosing;
          if (e.kind === 'function') {
            const list = bodies.get(e);
            if (list) list.push({ cmd: c, direct });
            else bodies.set(e, [{ cmd: c, direct }]);
            break;
          }
          if (e.kind !== 'group' && e.kind !== 'subshell' && e.kind !== 'list-right') direct = false;
        }
      }
      // Background jobs sorted by start: only those starting inside the function, up to the
      // command, are looked at (a scan of all of them per function was quadratic in a script of
      // many one-line functions with a job each).
      const bg = [...(this.script?.background ?? [])].sort((a, b) => a.start - b.start);
      const firstFrom = (at: number): number => {
        let lo = 0;
        let hi = bg.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (bg[mid]!.start < at) lo = mid + 1;
          else hi = mid;
        }
        return lo;
      };
      const inJobWithin = (c: SimpleCommand, from: number): boolean => {
        for (let i = firstFrom(from); i < bg.length && bg[i]!.start <= c.span.start; i++) if (c.span.end <= bg[i]!.end) return true;
        return false;
      };
      for (const [fn, entries] of bodies) {
        if (fn.name === undefined || !entries.every((x) => x.direct && x.cmd.name?.value === fn.name)) continue;
        const cmds = entries.map((x) => x.cmd);
        const spawns = cmds.some((c) => c.pipeline !== undefined || inJobWithin(c, fn.span.start));
        if (spawns) this.bombs.add(cmds[0]!);
      }
    }
    return this.bombs.has(cmd);
  }

  private assigned: Map<string, { values: string[]; other: boolean }> | undefined;

  /**
   * What the unit says about the value of variable `name` where `cmd` runs: the static values
   * its assignment statements and declarations give it (`d=/usr`, `local d=build`), and, inside
   * `for name in WORDS` with static words, the loop's values. `exact` when the innermost such
   * loop gives every value and nothing else in the unit sets `name` (no assignment, declaration,
   * `read`, `mapfile`, `readarray`, `getopts`, `printf -v`). Nothing is known without the unit's
   * script (values empty, not exact).
   */
  knownValues(name: string, cmd: SimpleCommand | undefined): { readonly values: readonly string[]; readonly exact: boolean } {
    if (!this.script) return { values: [], exact: false };
    if (!this.assigned) {
      const map = new Map<string, { values: string[]; other: boolean }>();
      const note = (n: string, w: Word | undefined): void => {
        const e = map.get(n) ?? { values: [], other: false };
        if (w?.value !== undefined) e.values.push(w.value);
        else e.other = true;
        map.set(n, e);
      };
      for (const a of this.script.assignmentStatements ?? []) note(a.assignment.name, a.assignment.value);
      for (const d of this.script.declarations ?? []) for (const a of d.assignments) note(a.name, a.value);
      for (const c of this.commands) {
        if (!['read', 'mapfile', 'readarray', 'getopts', 'printf'].includes(c.name?.value ?? '')) continue;
        for (const w of c.args) if (w.value !== undefined) note(w.value, undefined);
      }
      this.assigned = map;
    }
    const set = this.assigned.get(name);
    const loop = loopValues(cmd, name);
    if (loop) return { values: [...loop, ...(set?.values ?? [])], exact: set === undefined };
    return { values: set?.values ?? [], exact: false };
  }

  /** The resolved program of `cmd` (memoised). */
  resolved(cmd: SimpleCommand): ResolvedCommand | undefined {
    if (this.resolvedMap.has(cmd)) return this.resolvedMap.get(cmd);
    const r = resolveCommand(cmd);
    this.resolvedMap.set(cmd, r);
    return r;
  }

  /** The unit's commands whose program is `name`. */
  named(name: string): readonly SimpleCommand[] {
    if (!this.byNameMap) {
      this.byNameMap = new Map();
      for (const c of this.commands) {
        const n = this.resolved(c)?.name;
        if (n === undefined) continue;
        const list = this.byNameMap.get(n);
        if (list) list.push(c);
        else this.byNameMap.set(n, [c]);
      }
    }
    return this.byNameMap.get(name) ?? [];
  }

  /** True when `keyword` occurs in a static word (name, argument, redirection target) of the unit. */
  mentions(keyword: string): boolean {
    const known = this.mentioned.get(keyword);
    if (known !== undefined) return known;
    if (this.haystack === undefined) {
      const parts: string[] = [];
      for (const c of this.commands) {
        if (c.name?.value !== undefined) parts.push(c.name.value);
        for (const a of c.args) if (a.value !== undefined) parts.push(a.value);
        for (const r of c.redirects) if (r.target?.value !== undefined) parts.push(r.target.value);
      }
      this.haystack = parts.join('\n');
    }
    const found = this.haystack.includes(keyword);
    this.mentioned.set(keyword, found);
    return found;
  }
}

/** Everything a predicate may look at for one command. */
interface Facts {
  readonly cmd: SimpleCommand;
  readonly resolved: ResolvedCommand | undefined;
  readonly unit: UnitFacts;
  readonly subcommand: string | undefined;
  readonly scanned: ScannedArgs;
  readonly options: ReadonlySet<string>;
  readonly longOptions: readonly string[];
  /** Programs run by the family's command options (find -exec …), wrappers stripped. */
  readonly runs: readonly string[];
  readonly sql: () => readonly string[];
}

const OUTPUT_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '>&']);

function within(inner: Span, outer: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end && (inner.start !== outer.start || inner.end !== outer.end);
}

function upstream(of: SimpleCommand, other: SimpleCommand): boolean {
  const a = of.pipeline;
  const b = other.pipeline;
  return a !== undefined && b !== undefined && a.group === b.group && b.index < a.index;
}

const TOKEN_SPLIT = /[^A-Za-z0-9_-]+/;

/** A program name without an npm-style version (`rimraf@5` → `rimraf`). */
function programName(name: string): string {
  const at = name.indexOf('@', 1);
  return at === -1 ? name : name.slice(0, at);
}

function evaluate(expr: MatchExpr, f: Facts): boolean {
  if ('always' in expr) return true;
  if ('option' in expr) return expr.option.some((o) => f.options.has(o));
  if ('optionValue' in expr) {
    const r = re(expr.optionValue.value);
    for (const [name, values] of f.scanned.optionValues) {
      const full = name.startsWith('--') ? (resolveLongOption(name, f.longOptions) ?? name) : name;
      if (expr.optionValue.option.includes(full) && values.some((v) => r.test(v))) return true;
    }
    return false;
  }
  if ('operand' in expr) {
    const r = re(expr.operand);
    return f.scanned.operands.some((o) => o !== undefined && r.test(o));
  }
  if ('firstOperand' in expr) {
    const o = f.scanned.operands[0];
    return o !== undefined && re(expr.firstOperand).test(o);
  }
  if ('minOperands' in expr) return f.scanned.operands.length >= expr.minOperands;
  if ('minArgs' in expr) return (f.resolved?.args.length ?? 0) >= expr.minArgs;
  if ('dynamicOperand' in expr) {
    const ops = f.scanned.operands;
    return expr.dynamicOperand === 'first' ? ops.length > 0 && ops[0] === undefined : ops.some((o) => o === undefined);
  }
  if ('program' in expr) return f.resolved !== undefined && expr.program.includes(programName(f.resolved.name));
  if ('operandAfterDashDash' in expr) return f.scanned.dashDashAt !== undefined && f.scanned.operands.length > f.scanned.dashDashAt;
  if ('arg' in expr) {
    const r = re(expr.arg);
    return (f.resolved?.args ?? []).some((w) => r.test(w.value ?? w.raw));
  }
  if ('lastArg' in expr) {
    const args = f.resolved?.args ?? [];
    const v = args[args.length - 1]?.value;
    return v !== undefined && re(expr.lastArg).test(v);
  }
  if ('subcommandIs' in expr) return f.subcommand === expr.subcommandIs;
  if ('runs' in expr) return f.runs.some((r) => expr.runs.includes(r));
  if ('sql' in expr) {
    const r = re(expr.sql, 'i');
    return f.sql().some((s) => r.test(s));
  }
  if ('redirectTo' in expr) {
    const r = re(expr.redirectTo);
    return f.cmd.redirects.some((d) => OUTPUT_REDIRECTS.has(d.operator) && d.target?.value !== undefined && r.test(d.target.value));
  }
  if ('redirectFrom' in expr) {
    const r = re(expr.redirectFrom);
    return f.cmd.redirects.some((d) => d.operator === '<' && d.target?.value !== undefined && r.test(d.target.value));
  }
  if ('stdinFromArg' in expr) {
    if (!f.cmd.pipeline) return false;
    const r = re(expr.stdinFromArg);
    return f.unit.commands.some((o) => upstream(f.cmd, o) && o.args.some((w) => w.value !== undefined && r.test(w.value)));
  }
  if ('stdinFrom' in expr) {
    if (!f.cmd.pipeline) return false;
    return expr.stdinFrom.some((p) => f.unit.named(p).some((o) => upstream(f.cmd, o)));
  }
  if ('substitutes' in expr) {
    const words = f.resolved ? [f.resolved.nameWord, ...f.resolved.args] : f.cmd.args;
    return expr.substitutes.some((p) => f.unit.named(p).some((o) => o !== f.cmd && words.some((w) => w.value === undefined && within(o.span, w.span))));
  }
  if ('forkBomb' in expr) return f.unit.forkBomb(f.cmd);
  if ('tokens' in expr) {
    const seen = new Set<string>();
    for (const w of f.resolved?.args ?? []) {
      if (w.value === undefined) continue;
      for (const t of w.value.toLowerCase().split(TOKEN_SPLIT)) if (t !== '') seen.add(t);
    }
    return expr.tokens.every((group) => group.some((t) => seen.has(t)));
  }
  if ('all' in expr) return expr.all.every((e) => evaluate(e, f));
  if ('any' in expr) return expr.any.some((e) => evaluate(e, f));
  return !evaluate(expr.not, f);
}

/** The SQL a database client command runs: option values, SQL operands, heredocs, here-strings. */
function sqlTexts(name: string, fam: Family, scanned: ScannedArgs, cmd: SimpleCommand): string[] {
  const out: string[] = [];
  for (const opt of fam.sql?.[name] ?? []) out.push(...(scanned.optionValues.get(opt) ?? []));
  const after = fam.sqlOperandAfter?.[name];
  if (after !== undefined) {
    for (const o of scanned.operands.slice(after)) if (o !== undefined) out.push(o);
  }
  for (const r of cmd.redirects) {
    if (r.heredoc) out.push(r.heredoc.body);
    else if (r.operator === '<<<' && r.target) out.push(r.target.value ?? r.target.raw);
  }
  return out;
}

const NOT_PATHS = new Set(['(', ')', '!', ',']);
/** Variables that name the temporary directory: `"$TMPDIR/x"` is scratch space (`"$TMPDIR"` alone is not). */
const TEMP_VARS = new Set(['TMPDIR', 'TMP', 'TEMP']);

/**
 * Whether every operand of `scanned`/`words` is a path inside the project or scratch space: a
 * static relative path that does not climb out (`..`) and is not the whole directory (`.`, `*`,
 * unless `allowDot`), a path below `/tmp/` or `/var/tmp/`, or a word starting with a guarded
 * variable (`${DIR:?}`), `$TMPDIR/` or a literal relative directory (`build/$x`). Also returns the
 * first unguarded variable a word starts with.
 */
function projectOperands(resolved: ResolvedCommand, scanned: ScannedArgs, allowDot: boolean, unit: UnitFacts, cmd?: SimpleCommand): { inProject: boolean; unguarded?: string } {
  const acceptable = unit.acceptable;
  const staticOk = (v: string): boolean => {
    // Scratch space: a path below the system temporary directories (not the directory itself).
    if (/^\/(var\/)?tmp\/[^/]/.test(v) && !v.split('/').includes('..')) return true;
    if (allowDot && /^\/(var\/)?tmp\/?$/.test(v)) return true;
    if (v === '' || v.startsWith('/') || v.startsWith('~') || v.startsWith('-')) return false;
    const parts = v.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.length === 0) return allowDot;
    if (!allowDot && parts.length === 1 && /^[*?]+$|^\.\*$/.test(parts[0]!)) return false;
    let depth = 0;
    for (const p of parts) {
      depth += p === '..' ? -1 : 1;
      if (depth < 0) return false;
    }
    return true;
  };
  let any = false;
  let unguarded: string | undefined;
  let ok = true;
  // Operands are the static values; their words give guarded/unguarded variables.
  const operandWords = resolved.args.filter((w) => w.value === undefined || (!w.value.startsWith('-') || w.value === '-'));
  for (const w of operandWords) {
    if (w.value !== undefined) {
      if (NOT_PATHS.has(w.value) || !scanned.operands.includes(w.value)) continue;
      any = true;
      if (!staticOk(w.value) && !acceptable(w)) ok = false;
      continue;
    }
    any = true;
    if (acceptable(w)) continue;
    const first = w.parts[0];
    if (first?.kind === 'parameter') {
      // Values the unit gives the variable (`d=/usr`, `for d in build dist`) are checked first.
      const known = unit.knownValues(first.name, cmd);
      const rest = literalRest(w);
      if (known.values.length > 0 && (rest === undefined || !known.values.every((v) => staticOk(v + rest)))) {
        ok = false;
        continue;
      }
      if (known.exact && rest !== undefined && first.plain === true) continue;
      if (first.guarded) {
        // `${d:-/}` is never empty, but its default is what gets removed: only a static default
        // that is itself acceptable (`${d:-build}`) keeps the form; `${d:?}` aborts instead.
        const dflt = /^"?\$\{[A-Za-z_0-9]+:?[-=]([^}]*)\}/.exec(w.raw)?.[1];
        if (dflt !== undefined && !(/^[\w./-]+$/.test(dflt.trim()) && staticOk(dflt.trim()))) ok = false;
      } else if (!(TEMP_VARS.has(first.name) && w.parts.length > 1) && !emptyIsHarmless(w, staticOk)) {
        unguarded ??= first.name;
        ok = false;
      }
      continue;
    }
    if (first?.kind === 'literal' && first.value.includes('/') && staticOk(first.value.slice(0, first.value.lastIndexOf('/')) || '.')) continue;
    ok = false;
  }
  return { inProject: any && ok, ...(unguarded !== undefined ? { unguarded } : {}) };
}

/**
 * True when `w` starts with a plain unguarded variable (`$d`, `"${d}"`) and what follows it is a
 * static path that `staticOk` accepts without a leading `/` (nothing, `.orig`, `-old/x`): when
 * the variable is empty the word is empty (quoted: `rm -rf ""` removes nothing; unquoted: no
 * operand at all — bash manual §3.5.7 "Word Splitting" removes unquoted null expansions, and a
 * Makefile's empty `$(VAR)` gives no word either) or a relative path inside the project; when it
 * is not empty the word means what `"${d:?}…"` means. So it is as safe as the guarded acceptable
 * form, which aborts instead. `"$d/x"` and `"$d"/*` are not: empty, they name `/x` and `/*`.
 * Special parameters (`"$@"`, `$1`) and expansions with an operator (`${d:-/}`) are not plain.
 */
function emptyIsHarmless(w: Word, staticOk: (v: string) => boolean): boolean {
  const first = w.parts[0];
  if (first?.kind !== 'parameter' || first.plain !== true || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(first.name)) return false;
  const rest = literalRest(w);
  if (rest === undefined) return false;
  return rest === '' || (!rest.startsWith('/') && staticOk(rest));
}

/** The static text after a word's first part (`.orig` of `"$d.orig"`), or `undefined` when some later part is an expansion. */
function literalRest(w: Word): string | undefined {
  let rest = '';
  for (const p of w.parts.slice(1)) {
    if (p.kind !== 'literal') return undefined;
    rest += p.value;
  }
  return rest;
}

/**
 * The static values `name` takes when `cmd` runs inside `for name in WORDS; do …` (innermost
 * such loop) and every word is static (an unquoted glob is not: its matches are unknown);
 * otherwise `undefined`. The caller checks that nothing else assigns `name` ({@link UnitFacts.assigns}).
 */
function loopValues(cmd: SimpleCommand | undefined, name: string): readonly string[] | undefined {
  for (let c = cmd?.place?.chain; c; c = c.parent) {
    const e = c.enclosing;
    if (e.kind !== 'for' || e.name !== name) continue;
    if (e.values === undefined || e.values.length === 0) return undefined;
    const out: string[] = [];
    for (const v of e.values) {
      if (v.value === undefined || (/[*?[]/.test(v.value) && v.parts.some((p) => p.kind === 'literal' && !p.quoted))) return undefined;
      out.push(v.value);
    }
    return out;
  }
  return undefined;
}

/** A compiled set of packs: program name → the families (and their packs) that read it. */
export class PackSet {
  private readonly byName = new Map<string, { pack: Pack; familyKey: string; family: Family }[]>();
  private readonly anyRules: { pack: Pack; rule: PackRule }[] = [];

  /** `packs` in priority order (earlier packs' rules win ties of severity). */
  constructor(readonly packs: readonly Pack[]) {
    for (const pack of packs) {
      for (const [key, fam] of Object.entries(pack.families)) {
        for (const n of fam.names) {
          const list = this.byName.get(n);
          const entry = { pack, familyKey: key, family: fam };
          if (list) list.push(entry);
          else this.byName.set(n, [entry]);
        }
      }
      for (const rule of pack.rules) if (rule.family === '*') this.anyRules.push({ pack, rule });
    }
  }

  /** Every rule of every pack, in pack order. */
  get rules(): readonly { pack: Pack; rule: PackRule }[] {
    return this.packs.flatMap((pack) => pack.rules.map((rule) => ({ pack, rule })));
  }

  /**
   * The rules that match `cmd`, in pack order: within one family of one pack the first matching
   * rule in table order (the most specific: `rm-recursive-force` before `rm-force`), across
   * families and packs every one (they become a finding's related rules).
   * `unit` holds the unit's commands (for pipelines and substitutions). Pure; never throws.
   */
  match(cmd: SimpleCommand, unit: UnitFacts): PackHit[] {
    const hits: PackHit[] = [];
    const active = new Map<Pack, boolean>();
    const isActive = (p: Pack): boolean => {
      let a = active.get(p);
      if (a === undefined) {
        a = p.keywords.length === 0 || p.keywords.some((k) => unit.mentions(k));
        active.set(p, a);
      }
      return a;
    };
    const resolved = unit.resolved(cmd);
    for (const { pack, rule } of this.anyRules) {
      if (!isActive(pack)) continue;
      const facts: Facts = { cmd, resolved, unit, subcommand: undefined, scanned: EMPTY_SCAN, options: EMPTY_SCAN.options, longOptions: [], runs: [], sql: () => [] };
      if (evaluate(rule.match, facts)) hits.push({ pack, rule, inProject: false });
    }
    if (!resolved) return hits;
    for (const { pack, familyKey, family } of this.byName.get(programName(resolved.name)) ?? []) {
      if (!isActive(pack)) continue;
      const facts = familyFacts(cmd, resolved, unit, family);
      let project: { inProject: boolean; unguarded?: string } | undefined;
      for (const rule of pack.rules) {
        if (rule.family !== familyKey) continue;
        if (rule.subcommand && (facts.subcommand === undefined || !rule.subcommand.includes(facts.subcommand))) continue;
        if (!evaluate(rule.match, facts)) continue;
        if (rule.inProject) project ??= projectOperands(resolved, facts.scanned, rule.inProject.allowDot ?? false, unit, cmd);
        hits.push({ pack, rule, inProject: project?.inProject ?? false, ...(project?.unguarded !== undefined ? { unguarded: project.unguarded } : {}) });
        // Within one family of one pack the first matching rule wins (`rm -rf` is not also `rm -f`).
        break;
      }
    }
    return hits;
  }
}

const EMPTY_SCAN: ScannedArgs = { options: new Set(), operands: [], optionValues: new Map(), next: 0, commands: [] };

function familyFacts(cmd: SimpleCommand, resolved: ResolvedCommand, unit: UnitFacts, fam: Family): Facts {
  const args = resolved.args;
  let subcommand: string | undefined;
  let rest = args;
  if (fam.subcommands || fam.globalValueOptions) {
    const global = scanArgs(args, { valueOptions: fam.globalValueOptions ?? [], singleDashLong: fam.singleDashLong ?? false, stopAtOperand: true });
    subcommand = args[global.next]?.value;
    rest = args.slice(global.next + 1);
  }
  const sub = subcommand !== undefined ? fam.subcommands?.[subcommand] : undefined;
  const syntax = {
    commandOptions: fam.commandOptions ?? [],
    valueOptions: sub?.valueOptions ?? fam.valueOptions ?? fam.globalValueOptions ?? [],
    singleDashLong: fam.singleDashLong ?? false,
    noEndOfOptions: fam.noEndOfOptions ?? false,
  };
  const scanned = scanArgs(rest, syntax);
  const longOptions = sub?.longOptions ?? fam.longOptions ?? [];
  let sql: readonly string[] | undefined;
  return {
    cmd,
    resolved,
    unit,
    subcommand,
    scanned,
    options: expandLongOptions(scanned.options, longOptions),
    longOptions,
    runs: scanned.commands.flatMap((words) => {
      const inner = words[0] ? resolveCommand({ ...cmd, name: words[0], args: words.slice(1), assignments: [] }) : undefined;
      return inner ? [inner.name] : [];
    }),
    sql: () => (sql ??= fam.sql ? sqlTexts(resolved.name, fam, scanArgs(args, syntax), cmd) : []),
  };
}

/** The built-in packs, in priority order. */
export const BUILTIN_PACKS: readonly Pack[] = BUILTIN_PACK_DATA as readonly Pack[];

/** The built-in pack set. */
export const BUILTIN_PACK_SET: PackSet = new PackSet(BUILTIN_PACKS);

/** Every built-in rule (all packs), in pack order. */
export const DESTRUCTIVE_RULES: readonly PackRule[] = BUILTIN_PACKS.flatMap((p) => p.rules);

/** Backwards-compatible name of a pack rule. */
export type DestructiveRule = PackRule;

/**
 * The most severe built-in rule (agent profile; earlier in table order on a tie) that matches
 * `cmd`, or `undefined`. `parsed` gives the other commands of the unit (pipelines,
 * substitutions); without it only `cmd` itself is known. Pure.
 */
export function matchDestructive(cmd: SimpleCommand, parsed?: Pick<ParsedScript, 'commands'>): PackRule | undefined {
  return bestHit(BUILTIN_PACK_SET.match(cmd, new UnitFacts(parsed?.commands ?? [cmd])), 'agent')?.rule;
}

/** The most severe of `hits` for `profile` (the first on a tie), or `undefined` for none. */
export function bestHit(hits: readonly PackHit[], profile: Profile): PackHit | undefined {
  let best: PackHit | undefined;
  for (const h of hits) if (!best || RANK[hitSeverity(h, profile)] < RANK[hitSeverity(best, profile)]) best = h;
  return best;
}

/**
 * True when `cmd` (one of `parsed.commands`) hits a rule of `packs` (default: the built-in
 * packs). Used to keep allow-rule suggestions away from destructive commands.
 */
export function hitsPack(cmd: SimpleCommand, parsed: Pick<ParsedScript, 'commands'>, packs: PackSet = BUILTIN_PACK_SET): boolean {
  return packs.match(cmd, new UnitFacts(parsed.commands)).length > 0;
}
