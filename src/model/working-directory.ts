/**
 * The working directories each command of a unit may run in, followed through the unit's control
 * structure (the parse views' `flow`, recorded in the single tree walk) as bash runs it
 * (https://www.gnu.org/software/bash/manual/bash.html, "Shell Commands", "Bourne Shell
 * Builtins", "The Set Builtin"):
 *
 * - `cd DIR` (`pushd DIR`) may fail and leave the directory as it was: after `cd a; x`, `x` may
 *   run in either; after `cd a && x` only in `a`; after `cd a || exit` only in `a`. With `set -e`
 *   in force (not in an `if`/`while` test, a `&&`/`||` operand other than the last, after `!`),
 *   a failing `cd` ends the shell, so what follows runs only in `a`.
 * - A subshell `( … )`, a pipeline stage, a background job (`… &`), a command or process
 *   substitution and a coprocess have a directory of their own: a `cd` there does not leak.
 * - `if`/`case` arms may or may not run; a loop body runs zero or more times (followed to a fixed
 *   point); `break`, `continue`, `return` and `exit` end their construct from where they are.
 * - A function body runs where the function is called, in the directory of each call; a body
 *   that is never called in the unit is followed from its definition.
 * - `cd -`, `popd`, `pushd` without a directory, a target not known before the command runs, a
 *   relative target after `CDPATH` is set in the unit, `source`/`.` and code that `eval`, `trap`
 *   or an alias runs in the current shell and that may change directory make the directory
 *   unknown from there on. `CDPATH` from the environment is not modelled (as in Claude Code).
 *
 * The result is sound: every directory a command can run in is among its candidates, or its
 * directory is unknown. Pure; work is bounded by {@link MAX_FLOW_STEPS}.
 */
import { posix } from 'node:path';
import { hasDriveLetter, toPosixPath } from '../core/session-paths.js';
import { resolveCommand } from '../parse/command-name.js';
import type { FlowNode, ParsedScript, SimpleCommand } from '../parse/nodes.js';
import { MAX_CWD_CANDIDATES, type ModelCommand } from './command-model.js';

/** Most flow nodes evaluated per unit (loops and function calls evaluate a node several times); beyond it every directory is unknown. */
export const MAX_FLOW_STEPS = 100_000;

/** Deepest chain of function calls followed; deeper calls make the directory unknown. */
const MAX_CALL_DEPTH = 16;

/** Most passes over a loop body before its directories are taken as unknown. */
const MAX_LOOP_PASSES = 8;

/** Linux's PATH_MAX: a longer `cd` target fails (and bounds the work per path). */
const PATH_MAX = 4096;

/** What the working directory may be at one point: some known directories, or (also) unknown ones. Empty and not `top`: the point is not reached. */
interface Dirs {
  readonly set: ReadonlySet<string>;
  readonly top: boolean;
}

const BOTTOM: Dirs = { set: new Set(), top: false };
const TOP: Dirs = { set: new Set(), top: true };

function join(...ds: Dirs[]): Dirs {
  if (ds.some((d) => d.top)) return TOP;
  const set = new Set<string>();
  for (const d of ds) for (const x of d.set) set.add(x);
  return set.size > MAX_CWD_CANDIDATES ? TOP : { set, top: false };
}

function same(a: Dirs, b: Dirs): boolean {
  return a.top === b.top && a.set.size === b.set.size && [...a.set].every((x) => b.set.has(x));
}

/** The state after a construct: when its exit status is 0, and when it is not. */
interface Outcome {
  readonly ok: Dirs;
  readonly fail: Dirs;
}

const both = (d: Dirs): Outcome => ({ ok: d, fail: d });

/** Where `break`/`continue` of one loop and `return` of one function body deliver their directories. */
interface Sink {
  breaks: Dirs;
  continues: Dirs;
}

/** One evaluation of a called function body ({@link workingDirectories}' `calledBody`). */
interface BodyRun {
  readonly out: Outcome;
  /** Where its `return`s leave the directory. */
  readonly returns: Dirs;
  /** What it delivered to the caller's enclosing loops (`break`/`continue`), outermost first. */
  readonly loops: readonly Sink[];
  /** Flow nodes it evaluated. */
  readonly steps: number;
}

interface Ctx {
  /** The exit status is tested here, so `set -e` does not end the shell on a failure. */
  readonly tested: boolean;
  /** False inside command substitutions (bash does not pass `-e` into them unless `inherit_errexit`). */
  readonly errexitScope: boolean;
  /** Enclosing loops, innermost last (dynamic: a function called in a loop may `break` it). */
  readonly loops: readonly Sink[];
  /** The body of the function being run, for `return`. */
  readonly fn: Sink | undefined;
  readonly callDepth: number;
}

const CD_LIKE: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd']);

/** Wrappers that run their command in the current shell (so a `cd` through them moves it): the `builtin`/`command` builtins and the `time` keyword. */
const IN_SHELL_WRAPPERS: ReadonlySet<string> = new Set(['builtin', 'command', 'time']);

/** `via` of embedded code that runs in the current shell (src/parse/embedded.ts): its `cd` moves the host's shell. */
function inCurrentShell(via: string | undefined): boolean {
  return via === 'eval' || via === 'trap' || via === 'alias' || (via !== undefined && /^(mapfile|readarray) /.test(via));
}

/** The directory `cd TARGET` leads to from `cur`, or undefined when it is not known. */
function cdTarget(target: string, cur: string, home: string | undefined): string | undefined {
  let p = target;
  if (p === '~' || p.startsWith('~/')) {
    if (home === undefined) return undefined;
    p = home + p.slice(1);
  }
  if (p.startsWith('~')) return undefined;
  if (hasDriveLetter(p)) {
    const posixForm = toPosixPath(p);
    if (posixForm === undefined) return undefined;
    p = posixForm;
  }
  if (p === '') return cur;
  const out = (p.startsWith('/') ? posix.normalize(p) : posix.join(cur, p)).replace(/(.)\/+$/, '$1');
  return out.length > PATH_MAX ? undefined : out;
}

/**
 * The working-directory candidates of each command of `commands` (indexed like it): the absolute
 * directories it may run in, or `undefined` when not known (see the module comment). `cwd`: the
 * absolute directory the unit starts in (unknown when absent); `home` for `cd` and `cd ~/…`.
 * Commands the flow does not reach (after `exit`) and commands of hand-built views without a
 * `flow` are `undefined`. Never throws.
 */
export function workingDirectories(parsed: ParsedScript, commands: readonly ModelCommand[], options: { readonly cwd?: string; readonly home?: string }): (readonly string[] | undefined)[] {
  const n = commands.length;
  const recorded: (Dirs | undefined)[] = new Array(n).fill(undefined);
  const start: Dirs = options.cwd?.startsWith('/') ? { set: new Set([posix.normalize(options.cwd).replace(/(.)\/+$/, '$1')]), top: false } : TOP;
  const flow = parsed.flow;
  const result = (): (readonly string[] | undefined)[] => recorded.map((d) => (d === undefined || d.top || d.set.size === 0 ? undefined : [...d.set]));
  if (!flow) return result();
  const home = options.home;

  // Function definitions of the unit's own text, by name.
  const functions = new Map<string, FlowNode[]>();
  const defState = new Map<FlowNode, Dirs>();
  const collect = (node: FlowNode): void => {
    const stack = [node];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (x.type === 'function_definition') {
        const name = functionName(x, parsed.text);
        if (name !== undefined) functions.set(name, [...(functions.get(name) ?? []), x]);
      }
      for (const i of x.items) if (typeof i !== 'string') stack.push(i);
    }
  };
  collect(flow);

  // Each command's resolution and callee, computed once (loops and function calls visit a command many times).
  const resolvedMemo = new Map<ModelCommand, ReturnType<typeof resolveCommand>>();
  const resolved = (m: ModelCommand): ReturnType<typeof resolveCommand> => {
    if (resolvedMemo.has(m)) return resolvedMemo.get(m);
    const r = resolveCommand(m.instances[0]!);
    resolvedMemo.set(m, r);
    return r;
  };
  const calleeMemo = new Map<ModelCommand, string | undefined>();
  /** The function a command calls, when it calls one of the unit's functions by its name. */
  const callee = (m: ModelCommand): string | undefined => {
    if (m.cmd.embedded || functions.size === 0) return undefined;
    if (calleeMemo.has(m)) return calleeMemo.get(m);
    const name = calleeOf(m);
    calleeMemo.set(m, name);
    return name;
  };
  const calleeOf = (m: ModelCommand): string | undefined => {
    const r = resolved(m);
    const name = r?.nameWord.value;
    if (name === undefined || !functions.has(name) || !r!.wrappers.every((w) => w === 'time')) return undefined;
    return name;
  };
  // Uses of a function name other than a call seen here (`trap f`, `eval f`, `xargs f`, a command
  // word not known before it runs, `source`): the body may run from anywhere, so it starts unknown.
  const calledFromUnknown = new Set<string>();
  const anyUnknownCaller = commands.some((m) => m.unknown !== undefined || m.program === 'source' || m.program === '.');
  if (functions.size > 0) {
    for (const m of commands) {
      const call = callee(m);
      const words = m.cmd.name ? [m.cmd.name, ...m.cmd.args] : m.cmd.args;
      let skipped = false;
      for (const w of words) {
        if (w.value === undefined || !functions.has(w.value)) continue;
        if (!skipped && call === w.value) {
          skipped = true;
          continue;
        }
        calledFromUnknown.add(w.value);
      }
    }
    if (anyUnknownCaller) for (const f of functions.keys()) calledFromUnknown.add(f);
  }
  const calledSomewhere = new Set<string>();
  for (const m of commands) {
    const c = callee(m);
    if (c !== undefined) calledSomewhere.add(c);
  }

  // Embedded code run in the current shell (`eval`, `trap`, an alias) that may change directory:
  // its top-level host leaves the directory unknown.
  const topHost = (k: number): { host: number; current: boolean } => {
    let current = true;
    let j = k;
    for (let guard = 0; commands[j]!.cmd.embedded && commands[j]!.cmd.host !== undefined && guard < 64; guard++) {
      if (!inCurrentShell(commands[j]!.cmd.via)) current = false;
      j = commands[j]!.cmd.host!;
    }
    return { host: j, current };
  };
  const changer = (m: ModelCommand): boolean => (m.program !== undefined && (CD_LIKE.has(m.program) || m.program === 'source' || m.program === '.')) || (m.cmd.name?.value !== undefined && functions.has(m.cmd.name.value));
  const leaksCd = new Set<number>();
  for (let k = 0; k < n; k++) {
    const m = commands[k]!;
    if (!m.cmd.embedded || !changer(m)) continue;
    const t = topHost(k);
    if (t.current) leaksCd.add(t.host);
  }
  // `CDPATH` set in the unit: a relative `cd` may go through it.
  const cdpath = (parsed.assignmentStatements ?? []).some((a) => a.assignment.name === 'CDPATH') || (parsed.declarations ?? []).some((d) => d.assignments.some((a) => a.name === 'CDPATH')) || commands.some((m) => m.cmd.assignments.some((a) => a.name === 'CDPATH'));
  // `shopt -s lastpipe`: the last stage of a pipeline may run in the current shell.
  const lastpipe = commands.some((m) => m.program === 'shopt' && m.cmd.args.some((a) => a.value === 'lastpipe' || a.value === undefined));
  // `set -e` is followed only when nothing in the unit may turn it off again.
  const errexitOff = commands.some((m) => m.program === 'set' && m.cmd.args.some((a) => a.value === undefined || /^\+[A-Za-z]*e/.test(a.value) || a.value === '+o'));
  let errexit = false;

  let steps = 0;
  let overflow = false;
  const record = (k: number, d: Dirs): void => {
    const old = recorded[k];
    recorded[k] = old === undefined ? d : join(old, d);
  };
  const commandAt = (x: FlowNode): ModelCommand | undefined => (x.command !== undefined ? commands[x.command] : undefined);

  /** Whether a command under `node` may change the directory (a `cd`, a call of one of the unit's functions, `source`, code run by `eval` …). */
  const mayChange = (node: FlowNode): boolean => {
    const stack = [node];
    while (stack.length > 0) {
      const x = stack.pop()!;
      const m = commandAt(x);
      if (m && (changer(m) || leaksCd.has(m.index))) return true;
      for (const i of x.items) if (typeof i !== 'string') stack.push(i);
    }
    return false;
  };

  /**
   * A construct whose structure is not modelled (an ERROR node, what tree-sitter-bash nests in a
   * here-document redirection): run as a list when nothing in it may change the directory; else
   * every command in it, and everything after it, runs in an unknown directory.
   */
  const unmodelled = (node: FlowNode, d: Dirs, ctx: Ctx): Outcome => {
    if (!mayChange(node)) {
      seq(node.items, d, ctx);
      return both(d);
    }
    markUnknown(node);
    return both(TOP);
  };

  /** Every command under `node` runs in an unknown directory, and so do the bodies of the functions it calls. */
  const markUnknown = (node: FlowNode): void => {
    const stack = [node];
    while (stack.length > 0) {
      const x = stack.pop()!;
      const m = commandAt(x);
      if (x.command !== undefined) record(x.command, TOP);
      const f = m ? callee(m) : undefined;
      if (f !== undefined) calledFromUnknown.add(f);
      for (const i of x.items) if (typeof i !== 'string') stack.push(i);
    }
  };

  const topMemo = new Map<FlowNode, boolean>();
  const atTop = (f: FlowNode): boolean => {
    let v = topMemo.get(f);
    if (v === undefined) {
      v = topLevelDefinition(flow, f);
      topMemo.set(f, v);
    }
    return v;
  };

  const nodes = (x: FlowNode): FlowNode[] => x.items.filter((i): i is FlowNode => typeof i !== 'string');

  /** A list of statements run one after the other (`;`, newlines), `&` making the one before it a background job. */
  const seq = (items: readonly (FlowNode | string)[], d: Dirs, ctx: Ctx): Outcome => {
    let cur = d;
    let last: Outcome = { ok: d, fail: BOTTOM };
    for (let i = 0; i < items.length; i++) {
      const it = items[i]!;
      if (typeof it === 'string') continue;
      if (items[i + 1] === '&') {
        isolated(it, cur, ctx);
        last = { ok: cur, fail: BOTTOM };
        continue;
      }
      last = evalNode(it, cur, ctx);
      cur = join(last.ok, last.fail);
    }
    return last;
  };

  /** Runs `node` in a shell of its own: nothing it does changes the directory after it. */
  const isolated = (node: FlowNode, d: Dirs, ctx: Ctx, errexitScope = ctx.errexitScope): void => {
    evalNode(node, d, { tested: ctx.tested, errexitScope, loops: [], fn: undefined, callDepth: ctx.callDepth });
  };

  const call = (name: string, d: Dirs, ctx: Ctx): Outcome => {
    if (ctx.callDepth >= MAX_CALL_DEPTH) {
      for (const f of functions.get(name) ?? []) markUnknown(f);
      return both(TOP);
    }
    let ok = BOTTOM;
    let fail = BOTTOM;
    for (const f of functions.get(name) ?? []) {
      const r = calledBody(f, d, ctx);
      ok = join(ok, r.out.ok, r.returns);
      fail = join(fail, r.out.fail, r.returns);
    }
    return { ok, fail };
  };

  /**
   * The run of function body `f` called from `d` in `ctx`, evaluated once per entry state: what
   * a body does depends only on `f`, the directories it starts from (in their order), the call
   * depth, the number of enclosing loops, the `tested`/`errexitScope` flags and whether `set -e`
   * is in force, so a later call in the same state replays the first run. Replaying is exact:
   * the directories it recorded for the commands of the body are already there (a join), its
   * `break`s/`continue`s of the caller's loops are joined into their sinks again (collected in
   * sinks of its own, which nothing reads before the body returns) and its steps count again
   * against {@link MAX_FLOW_STEPS}.
   */
  const calledBody = (f: FlowNode, d: Dirs, ctx: Ctx): BodyRun => {
    const key = `${ctx.callDepth} ${ctx.loops.length} ${ctx.tested ? 1 : 0}${ctx.errexitScope ? 1 : 0}${errexit ? 1 : 0} ${d.top ? '*' : [...d.set].join('\0')}`;
    let runs = bodyRuns.get(f);
    let run = runs?.get(key);
    if (run) {
      steps += run.steps;
      if (steps > MAX_FLOW_STEPS) overflow = true;
    } else {
      const sink: Sink = { breaks: BOTTOM, continues: BOTTOM };
      const loops: Sink[] = ctx.loops.map(() => ({ breaks: BOTTOM, continues: BOTTOM }));
      const before = steps;
      const out = functionBody(f, d, { ...ctx, loops, fn: sink, callDepth: ctx.callDepth + 1 });
      run = { out, returns: sink.breaks, loops, steps: steps - before };
      if (!overflow) {
        if (!runs) {
          runs = new Map();
          bodyRuns.set(f, runs);
        }
        runs.set(key, run);
      }
    }
    run.loops.forEach((s, i) => {
      const target = ctx.loops[i]!;
      if (s.breaks.top || s.breaks.set.size > 0) target.breaks = join(target.breaks, s.breaks);
      if (s.continues.top || s.continues.set.size > 0) target.continues = join(target.continues, s.continues);
    });
    return run;
  };
  const bodyRuns = new Map<FlowNode, Map<string, BodyRun>>();

  const functionBody = (f: FlowNode, d: Dirs, ctx: Ctx): Outcome => {
    let out: Outcome = { ok: d, fail: BOTTOM };
    for (const x of nodes(f)) {
      if (x.field === 'name') continue;
      if (x.field === 'body') {
        // `f() ( … )`: the body is a subshell, so the call moves nothing.
        if (x.type === 'subshell') {
          isolated(x, d, ctx);
          out = both(d);
        } else out = evalNode(x, d, ctx);
      }
      else isolated(x, d, ctx); // the redirections of `f() { …; } > file`, applied at each call
    }
    return out;
  };

  /** The simple command (or other leaf) `x`, run from `d`. */
  const leaf = (x: FlowNode, d: Dirs, ctx: Ctx): Outcome => {
    // Substitutions in its words run first, each in a subshell.
    for (const i of x.items) if (typeof i !== 'string') isolated(i, d, ctx, false);
    const m = commandAt(x);
    if (x.command !== undefined) record(x.command, d);
    const failOrExit = (fail: Dirs): Dirs => (errexit && ctx.errexitScope && !ctx.tested ? BOTTOM : fail);
    if (!m || m.cmd.compound) return { ok: d, fail: failOrExit(d) };
    if (leaksCd.has(m.index)) return both(TOP);
    const fn = callee(m);
    if (fn !== undefined) {
      const r = call(fn, d, ctx);
      // Defined later in the text (or only on some paths), the name may still run a program of that name.
      const certain = functions.get(fn)!.some((f) => f.span.end <= m.cmd.span.start && atTop(f));
      return certain ? r : { ok: join(r.ok, d), fail: join(r.fail, failOrExit(d)) };
    }
    const r = resolved(m);
    const program = m.program;
    const inShell = r?.wrappers.every((w) => IN_SHELL_WRAPPERS.has(w)) === true;
    if (program === undefined || !inShell) return { ok: d, fail: failOrExit(d) };
    const args = r!.args;
    switch (program) {
      case 'source':
      case '.':
        return both(TOP);
      case 'exit':
        return both(BOTTOM);
      case 'return':
        if (!ctx.fn) return { ok: d, fail: failOrExit(d) };
        ctx.fn.breaks = join(ctx.fn.breaks, d);
        return both(BOTTOM);
      case 'break':
      case 'continue': {
        if (ctx.loops.length === 0) return { ok: d, fail: failOrExit(d) };
        const level = args[0]?.value;
        const one = level === undefined ? args.length === 0 : level === '1';
        const targets = one ? [ctx.loops[ctx.loops.length - 1]!] : ctx.loops;
        for (const s of targets) {
          if (program === 'break' || !one) s.breaks = join(s.breaks, d);
          if (program === 'continue' || !one) s.continues = join(s.continues, d);
        }
        return both(BOTTOM);
      }
      case 'set':
        if (!m.cmd.embedded && !errexitOff && m.cmd.place?.chain === undefined && !m.cmd.pipeline && ctx.callDepth === 0 && ctx.errexitScope) {
          if (args.some((a, i) => (a.value !== undefined && /^-[A-Za-z]*e/.test(a.value)) || (a.value === '-o' && args[i + 1]?.value === 'errexit'))) errexit = true;
        }
        return { ok: d, fail: failOrExit(d) };
      case 'true':
      case ':':
        return { ok: d, fail: BOTTOM };
      case 'false':
        return { ok: BOTTOM, fail: failOrExit(d) };
      default:
        break;
    }
    if (!CD_LIKE.has(program) || m.cmd.embedded) return { ok: d, fail: failOrExit(d) };
    return { ok: cdOutcome(m, d), fail: failOrExit(d) };
  };

  /** Where a successful `cd`/`pushd`/`popd` leads from `d` (TOP when not known). */
  const cdOutcome = (m: ModelCommand, d: Dirs): Dirs => join(...m.instances.map((inst) => cdInstance(m, inst, d)));

  /** {@link cdOutcome} for one form of the command (loop values and assigned literals substituted). */
  const cdInstance = (m: ModelCommand, inst: SimpleCommand, d: Dirs): Dirs => {
    const r = resolveCommand(inst);
    if (!r) return TOP;
    let operands = r.args;
    if (m.program !== 'popd') {
      const ops: (typeof operands)[number][] = [];
      let options = true;
      for (const a of r.args) {
        if (options && a.value === '--') {
          options = false;
          continue;
        }
        if (options && a.value !== undefined && /^-[LPe@]+$/.test(a.value)) continue;
        ops.push(a);
      }
      operands = ops;
    }
    if (m.program === 'popd' || (m.program === 'pushd' && operands.length === 0)) return TOP;
    if (operands.length > 1 || m.argv.some((a) => a.kind === 'glob')) return TOP;
    const t = operands[0];
    const target = t === undefined ? home : t.value;
    if (target === undefined || target === '-') return TOP;
    // A glob the shell expands (quoted characters are literal).
    if (t !== undefined && /[*?[]/.test(target) && !t.parts.every((p) => p.kind === 'literal' && p.quoted)) return TOP;
    if (t !== undefined && cdpath && !/^(\/|\.\.?(\/|$))/.test(target)) return TOP;
    // From an unknown directory only a target that does not depend on it is known.
    const from = d.top ? ['/'] : [...d.set];
    if (d.top && !/^(\/|~$|~\/)/.test(target) && !(t === undefined)) return TOP;
    const set = new Set<string>();
    for (const cur of from) {
      const to = cdTarget(target, cur, home);
      if (to === undefined) return TOP;
      set.add(to);
    }
    return join({ set, top: false });
  };

  const loop = (x: FlowNode, d: Dirs, ctx: Ctx): Outcome => {
    const cond: (FlowNode | string)[] = [];
    let body: FlowNode | undefined;
    const words: FlowNode[] = [];
    for (const i of x.items) {
      if (typeof i === 'string') continue;
      if (i.field === 'body') body = i;
      else if (x.type === 'while_statement' && i.field === 'condition') cond.push(i);
      else words.push(i);
    }
    const until = x.items.includes('until');
    for (const w of words) isolated(w, d, ctx, false);
    let state = d;
    let exit = BOTTOM;
    for (let pass = 0; ; pass++) {
      if (pass >= MAX_LOOP_PASSES) state = TOP;
      const sink: Sink = { breaks: BOTTOM, continues: BOTTOM };
      let entry = state;
      let leave = state;
      if (x.type === 'while_statement') {
        const c = seq(cond, state, { ...ctx, tested: true });
        entry = until ? c.fail : c.ok;
        leave = until ? c.ok : c.fail;
      }
      const b = body ? seq(body.items, entry, { ...ctx, loops: [...ctx.loops, sink] }) : { ok: entry, fail: BOTTOM };
      const next = join(d, b.ok, b.fail, sink.continues);
      exit = join(leave, sink.breaks);
      if (same(next, state) || pass >= MAX_LOOP_PASSES) break;
      state = join(state, next);
    }
    if (x.type !== 'while_statement') exit = join(exit, state);
    return both(exit);
  };

  const ifStatement = (x: FlowNode, d: Dirs, ctx: Ctx): Outcome => {
    // `if` clause: condition items, `then`, body items; `elif_clause` and `else_clause` nodes follow.
    const clauses: { cond: (FlowNode | string)[]; body: (FlowNode | string)[] }[] = [];
    let otherwise: (FlowNode | string)[] | undefined;
    const split = (items: readonly (FlowNode | string)[]): void => {
      const then = items.indexOf('then');
      clauses.push({ cond: items.slice(0, Math.max(then, 0)).filter((i) => typeof i !== 'string' || i === '&'), body: then < 0 ? [] : items.slice(then + 1) });
    };
    const own: (FlowNode | string)[] = [];
    for (const i of x.items) {
      if (typeof i !== 'string' && i.type === 'elif_clause') split(i.items);
      else if (typeof i !== 'string' && i.type === 'else_clause') otherwise = i.items.filter((j) => j !== 'else');
      else own.push(i);
    }
    split(own);
    // The `if` clause itself was pushed last: move it first.
    clauses.unshift(clauses.pop()!);
    let s = d;
    let ok = BOTTOM;
    let fail = BOTTOM;
    for (const c of clauses) {
      const t = seq(c.cond, s, { ...ctx, tested: true });
      const b = seq(c.body, t.ok, ctx);
      ok = join(ok, b.ok);
      fail = join(fail, b.fail);
      s = t.fail;
    }
    if (otherwise) {
      const e = seq(otherwise, s, ctx);
      ok = join(ok, e.ok);
      fail = join(fail, e.fail);
    } else ok = join(ok, s);
    return { ok, fail };
  };

  const caseStatement = (x: FlowNode, d: Dirs, ctx: Ctx): Outcome => {
    let fail = BOTTOM;
    let prev = BOTTOM;
    let fallsThrough = false;
    let catchAll = false;
    let ok = BOTTOM;
    for (const i of x.items) {
      if (typeof i === 'string') continue;
      if (catchAll && !fallsThrough) break;
      if (i.type !== 'case_item') {
        isolated(i, d, ctx, false);
        continue;
      }
      const entry = fallsThrough ? join(d, prev) : d;
      // A bare `*` pattern matches every word: no later arm runs, and "no arm matched" is out.
      if (i.items.some((v) => typeof v !== 'string' && v.field === 'value' && parsed.text.slice(v.span.start, v.span.end) === '*')) catchAll = true;
      const stmts = i.items.filter((j) => typeof j === 'string' || j.field !== 'value');
      for (const v of i.items) if (typeof v !== 'string' && v.field === 'value') isolated(v, entry, ctx, false);
      const r = seq(stmts, entry, ctx);
      ok = join(ok, r.ok);
      fail = join(fail, r.fail);
      prev = join(r.ok, r.fail);
      fallsThrough = i.items.includes(';&') || i.items.includes(';;&');
    }
    // No pattern matched: the status is 0 and nothing ran.
    if (!catchAll) ok = join(ok, d);
    return { ok, fail };
  };

  const list = (x: FlowNode, d: Dirs, ctx: Ctx): Outcome => {
    const items = x.items;
    const first = items.find((i): i is FlowNode => typeof i !== 'string');
    if (!first) return { ok: d, fail: BOTTOM };
    let acc = evalNode(first, d, { ...ctx, tested: true });
    const rest = items.slice(items.indexOf(first) + 1);
    for (let i = 0; i < rest.length; i++) {
      const op = rest[i];
      const right = rest[i + 1];
      if ((op !== '&&' && op !== '||') || right === undefined || typeof right === 'string') continue;
      i++;
      const last = !rest.slice(i + 1).some((j) => j === '&&' || j === '||');
      const rctx = last ? ctx : { ...ctx, tested: true };
      if (op === '&&') {
        const r = evalNode(right, acc.ok, rctx);
        acc = { ok: r.ok, fail: join(acc.fail, r.fail) };
      } else {
        const r = evalNode(right, acc.fail, rctx);
        acc = { ok: join(acc.ok, r.ok), fail: r.fail };
      }
    }
    return acc;
  };

  const pipeline = (x: FlowNode, d: Dirs, ctx: Ctx): Outcome => {
    const stages = nodes(x);
    const negated = x.items[0] === '!';
    let out: Outcome = both(d);
    stages.forEach((s, i) => {
      const last = i === stages.length - 1;
      if (last && lastpipe) out = evalNode(s, d, { ...ctx, tested: ctx.tested || negated });
      else isolated(s, d, { ...ctx, tested: true });
    });
    if (lastpipe) out = { ok: join(out.ok, d), fail: join(out.fail, d) };
    return negated ? { ok: out.fail, fail: out.ok } : out;
  };

  const redirected = (x: FlowNode, d: Dirs, ctx: Ctx): Outcome => {
    if (x.command !== undefined) record(x.command, d);
    let body: FlowNode | undefined;
    const redirects: FlowNode[] = [];
    for (const i of x.items) {
      if (typeof i === 'string') continue;
      if (i.field === 'body') body = i;
      else redirects.push(i);
    }
    // What tree-sitter-bash puts inside a here-document redirection after its start (`cat <<X && cd y`).
    let tail: { op: string; node: FlowNode } | undefined;
    let changed = false;
    for (const r of redirects) {
      if (r.type !== 'heredoc_redirect') {
        isolated(r, d, ctx, false);
        continue;
      }
      const inner = nodes(r).filter((i) => i.type !== 'heredoc_start' && i.type !== 'heredoc_end' && i.type !== 'heredoc_body');
      for (const i of nodes(r)) if (i.type === 'heredoc_body') isolated(i, d, ctx, false);
      if (inner.length === 0) continue;
      const op = r.items.find((i): i is string => i === '&&' || i === '||');
      if (inner.length === 1 && op !== undefined && inner[0]!.field === 'right' && tail === undefined) tail = { op, node: inner[0]! };
      else if (inner.map((i) => unmodelled(i, d, ctx).ok.top).some(Boolean)) changed = true;
    }
    if (changed) {
      if (body) evalNode(body, d, ctx);
      return both(TOP);
    }
    if (!tail) return body ? evalNode(body, d, ctx) : { ok: d, fail: BOTTOM };
    const acc = body ? evalNode(body, d, { ...ctx, tested: true }) : { ok: d, fail: BOTTOM };
    if (tail.op === '&&') {
      const r = evalNode(tail.node, acc.ok, ctx);
      return { ok: r.ok, fail: join(acc.fail, r.fail) };
    }
    const r = evalNode(tail.node, acc.fail, ctx);
    return { ok: join(acc.ok, r.ok), fail: r.fail };
  };

  const evalNode = (x: FlowNode, d: Dirs, ctx: Ctx): Outcome => {
    if (++steps > MAX_FLOW_STEPS) overflow = true;
    if (overflow) return both(TOP);
    switch (x.type) {
      case 'program':
      case 'compound_statement':
      case 'do_group':
        return seq(x.items, d, ctx);
      case 'subshell':
        seq(x.items, d, { ...ctx, loops: [], fn: undefined });
        return both(d);
      case 'command_substitution':
      case 'process_substitution':
        seq(x.items, d, { ...ctx, errexitScope: false, loops: [], fn: undefined });
        return both(d);
      case 'list':
        return list(x, d, ctx);
      case 'pipeline':
        return pipeline(x, d, ctx);
      case 'negated_command': {
        const r = seq(x.items, d, { ...ctx, tested: true });
        return { ok: r.fail, fail: r.ok };
      }
      case 'redirected_statement':
        return redirected(x, d, ctx);
      case 'if_statement':
        return ifStatement(x, d, ctx);
      case 'while_statement':
      case 'for_statement':
      case 'c_style_for_statement':
        return loop(x, d, ctx);
      case 'case_statement':
        return caseStatement(x, d, ctx);
      case 'function_definition':
        defState.set(x, join(defState.get(x) ?? BOTTOM, d));
        return { ok: d, fail: BOTTOM };
      case 'ERROR':
      case 'heredoc_redirect':
      case 'elif_clause':
      case 'else_clause':
      case 'case_item':
        return unmodelled(x, d, ctx);
      default:
        return leaf(x, d, ctx);
    }
  };

  const top: Ctx = { tested: false, errexitScope: true, loops: [], fn: undefined, callDepth: 0 };
  evalNode(flow, start, top);
  // Functions no command here calls by name run from where something else calls them: followed
  // from their definition, and from an unknown directory when a caller is not visible.
  errexit = false;
  for (const [name, defs] of functions) {
    for (const f of defs) {
      const entry = calledFromUnknown.has(name) ? TOP : calledSomewhere.has(name) ? undefined : defState.get(f) ?? TOP;
      if (entry !== undefined) functionBody(f, entry, { ...top, fn: { breaks: BOTTOM, continues: BOTTOM } });
    }
  }
  if (overflow) return new Array(n).fill(undefined);

  // Embedded code (`sh -c '…'`, `eval '…'`) runs where its host runs, with `cd`s of its own, in
  // document order; a `cd` in a loop or function body of it makes the whole of it unknown.
  const groupUnknown = new Set<number>();
  for (let k = 0; k < n; k++) {
    const m = commands[k]!;
    if (m.cmd.embedded && m.program !== undefined && CD_LIKE.has(m.program) && (m.places.includes('loop-body') || m.places.includes('function-body'))) groupUnknown.add(topHost(k).host);
  }
  const after = new Map<number, Dirs>();
  for (let k = 0; k < n; k++) {
    const m = commands[k]!;
    if (!m.cmd.embedded || m.cmd.host === undefined) continue;
    const h = m.cmd.host;
    if (groupUnknown.has(topHost(k).host)) {
      recorded[k] = TOP;
      continue;
    }
    const here = after.get(h) ?? recorded[h] ?? TOP;
    recorded[k] = here;
    const r = resolved(m);
    const inShell = r?.wrappers.every((w) => IN_SHELL_WRAPPERS.has(w)) === true;
    if (m.program !== undefined && inShell && CD_LIKE.has(m.program)) after.set(h, join(here, cdOutcome(m, here)));
    else if (m.program === 'source' || m.program === '.') after.set(h, TOP);
  }
  return result();
}

/** The name a function definition defines (its `name` field), when static. */
function functionName(f: FlowNode, text: string): string | undefined {
  const name = f.items.find((i): i is FlowNode => typeof i !== 'string' && i.field === 'name');
  if (!name) return undefined;
  const s = text.slice(name.span.start, name.span.end);
  return /^[^\s$`'"\\]+$/.test(s) ? s : undefined;
}

/** True when `f` is a statement of the unit's top level (or of a `{ …; }` group there): once reached, it has run on every path. */
function topLevelDefinition(root: FlowNode, f: FlowNode): boolean {
  const stack: FlowNode[] = [root];
  while (stack.length > 0) {
    const x = stack.pop()!;
    for (const i of x.items) {
      if (i === f) return true;
      if (typeof i !== 'string' && i.type === 'compound_statement') stack.push(i);
    }
  }
  return false;
}
