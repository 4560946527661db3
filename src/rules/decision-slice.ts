/**
 * One top-level statement of a unit as the permission decision sees it when it judges that
 * statement where the unit runs it (`lint --format json` statement verdicts): the part of the
 * unit's one command model that the statement runs, in the context the statements before it
 * leave. The model already carries that context into each command (the working directory after
 * an earlier `cd`, the value of a variable assigned earlier, a function defined earlier); a slice
 * adds what the statement reaches outside its own text (the bodies of the functions it calls)
 * and what earlier statements leave unknown (an assignment to `PATH`, `shopt`, code sourced or
 * evaluated).
 *
 * All spans are UTF-16 code-unit offsets into the unit's text, 0-based, end exclusive. Pure.
 */
import type { Span } from '../core/types.js';
import type { ParsedScript } from '../parse/nodes.js';
import type { CommandModel, ModelCommand, ModelGap } from '../model/command-model.js';
import { LENGTH_CONSTRUCT } from '../parse/complexity.js';

/** What {@link decide} (src/rules/decide.ts) judges for one statement of a unit. */
export interface DecisionSlice {
  /** The statement's extent. */
  readonly span: Span;
  /**
   * The model commands the statement runs: those inside its span (embedded code included), then
   * the commands of the bodies of the functions it calls (transitively) that are defined before
   * its end, each once, in model order.
   */
  readonly commands: readonly ModelCommand[];
  /**
   * Why not everything the statement runs is known: the model's gaps that overlap the statement
   * or a function body it calls, then the first gap of an earlier statement that leaves the
   * state later statements run in unknown (everything but a command of a known program the model
   * cannot follow, which runs apart from the script's shell). A parse error anywhere in the unit
   * is a gap of every statement: the statements' extents come from that parse, so where bash's
   * statements begin and end is not known (a fragment of a broken function definition is no
   * statement of its own).
   */
  readonly gaps: readonly ModelGap[];
  /** The model's bulk environment reads inside the statement or a function body it calls. */
  readonly environmentReads: readonly ModelGap[];
  /** The functions defined before the statement's end (or inside it). */
  readonly functions: FunctionNames;
  /** Whether the unit has a parse error (see {@link gaps}). */
  readonly parseError: boolean;
}

/** A set of function names (only membership is asked). */
export interface FunctionNames {
  has(name: string): boolean;
}

/** Most commands of called function bodies added to one statement; more is a cap (the statement asks). */
export const MAX_CALLED_COMMANDS = 4096;

/** Programs that run code in the script's own shell, so that what they leave behind is not known. */
const IN_SHELL: ReadonlySet<string> = new Set(['source', '.', 'eval']);

function overlaps(a: Span, s: Span): boolean {
  // An empty span counts where it sits.
  return a.start < s.end && (a.end > s.start || a.start >= s.start);
}

interface FunctionDef {
  readonly name: string;
  readonly span: Span;
  readonly commands: ModelCommand[];
}

/**
 * The {@link DecisionSlice} of each of `statements` (the unit's top-level statements, in
 * document order, non-overlapping) over `model` (built from `parsed`). Work is linear in the
 * model's commands, gaps and their enclosing depth, plus, per statement, the commands of the
 * function bodies it calls (at most {@link MAX_CALLED_COMMANDS}).
 */
export function decisionSlices(model: CommandModel, parsed: ParsedScript, statements: readonly { readonly span: Span }[]): DecisionSlice[] {
  const n = statements.length;
  const own: ModelCommand[][] = statements.map(() => []);
  // The statement holding offset `at`: the last one starting at or before it (the first for offsets before all).
  const statementAt = (at: number): number => {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (statements[mid]!.span.start <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const defs = new Map<string, FunctionDef[]>();
  const defByStart = new Map<string, FunctionDef>();
  for (const m of model.commands) {
    if (n > 0) own[statementAt(m.cmd.span.start)]!.push(m);
    for (let e = m.cmd.place?.chain; e; e = e.parent) {
      const en = e.enclosing;
      if (en.kind !== 'function' || !en.name) continue;
      const key = `${en.span.start}:${en.span.end}:${en.name}`;
      let d = defByStart.get(key);
      if (!d) {
        d = { name: en.name, span: en.span, commands: [] };
        defByStart.set(key, d);
        const list = defs.get(en.name) ?? [];
        list.push(d);
        defs.set(en.name, list);
      }
      d.commands.push(m);
    }
  }
  const firstProblem = parsed.problems[0];
  const problemGap: ModelGap | undefined = firstProblem && {
    span: firstProblem.span,
    reason: `The script does not parse at offset ${firstProblem.span.start}: where bash's statements begin and end around it, and what they run, is not known.`,
  };
  const localGap = new Set<string>();
  for (const m of model.commands) {
    if (m.unknown !== undefined && m.program !== undefined && !IN_SHELL.has(m.program)) localGap.add(`${m.cmd.span.start}:${m.cmd.span.end}:${m.unknown}`);
  }
  const carries = (g: ModelGap): boolean => !localGap.has(`${g.span.start}:${g.span.end}:${g.reason}`);
  // Each gap and bulk read goes to every statement it overlaps (a whole-unit cap to all of them).
  const byStatement = (list: readonly ModelGap[]): ModelGap[][] => {
    const per: ModelGap[][] = statements.map(() => []);
    if (n === 0) return per;
    for (const x of list) {
      const last = statementAt(Math.max(x.span.start, x.span.end - 1));
      for (let i = statementAt(x.span.start); i <= last; i++) if (overlaps(x.span, statements[i]!.span)) per[i]!.push(x);
    }
    return per;
  };
  // The length cap is the cap of one command's text (src/parse/complexity.ts): for a statement,
  // of the statement's own text, not the unit's (the views and the model are whole either way).
  const cx = parsed.complexity;
  const lengthCap = cx.status === 'too-complex' && cx.construct === LENGTH_CONSTRUCT && cx.span ? cx.span : undefined;
  const unitGaps = lengthCap ? model.gaps.filter((x) => !(x.span.start === lengthCap.start && x.span.end === lengthCap.end && x.reason.startsWith('Cap reached'))) : model.gaps;
  const gapsOf = byStatement(unitGaps);
  const readsOf = byStatement(model.environmentReads);
  const defGaps = new Map<FunctionDef, { gaps: ModelGap[]; reads: ModelGap[] }>();
  const gapsOfDef = (d: FunctionDef): { gaps: ModelGap[]; reads: ModelGap[] } => {
    let v = defGaps.get(d);
    if (!v) {
      v = { gaps: unitGaps.filter((x) => overlaps(x.span, d.span)), reads: model.environmentReads.filter((x) => overlaps(x.span, d.span)) };
      defGaps.set(d, v);
    }
    return v;
  };
  // Where each function is first defined: a name is a function from there on.
  const firstDef = new Map<string, number>();
  for (const [name, list] of defs) firstDef.set(name, Math.min(...list.map((d) => d.span.start)));
  // Gaps in document order, walked once: the first carried gap before each statement.
  const gapsByStart = [...unitGaps].sort((a, b) => a.span.start - b.span.start);
  let g = 0;
  let carried: ModelGap | undefined;
  const out: DecisionSlice[] = [];
  for (let i = 0; i < n; i++) {
    const span = statements[i]!.span;
    while (g < gapsByStart.length && gapsByStart[g]!.span.start < span.start) {
      const gap = gapsByStart[g]!;
      if (carried === undefined && carries(gap)) carried = gap;
      g++;
    }
    const end = span.end;
    const functions: FunctionNames = { has: (name) => (firstDef.get(name) ?? Infinity) < end };
    const commands = [...own[i]!];
    const seen = new Set<ModelCommand>(commands);
    const gaps = [...gapsOf[i]!];
    const reads = [...readsOf[i]!];
    const called = new Set<FunctionDef>();
    let added = 0;
    let capped = false;
    for (let k = 0; k < commands.length && !capped; k++) {
      const p = commands[k]!.program;
      if (p === undefined || !functions.has(p)) continue;
      for (const d of defs.get(p) ?? []) {
        if (d.span.start >= span.end || called.has(d)) continue;
        called.add(d);
        const dg = gapsOfDef(d);
        for (const x of dg.gaps) if (!gaps.includes(x)) gaps.push(x);
        for (const x of dg.reads) if (!reads.includes(x)) reads.push(x);
        for (const c of d.commands) {
          if (seen.has(c)) continue;
          if (++added > MAX_CALLED_COMMANDS) {
            capped = true;
            break;
          }
          seen.add(c);
          commands.push(c);
        }
        if (capped) break;
      }
    }
    if (lengthCap && span.end - span.start > lengthCap.start) {
      gaps.unshift({ span: { start: span.start + lengthCap.start, end: span.end }, reason: `Cap reached: the statement is ${span.end - span.start} characters long (the cap is ${lengthCap.start}); too long to prove safe statically.` });
    }
    if (capped) gaps.push({ span, reason: `Cap reached: the functions this statement calls hold more than ${MAX_CALLED_COMMANDS} simple commands.` });
    if (carried && !gaps.includes(carried)) gaps.push({ span: carried.span, reason: `An earlier statement leaves the state this one runs in unknown: ${carried.reason}` });
    // A parse error of the unit: this statement's own one if it has one, else the first.
    if (problemGap && !parsed.problems.some((p) => overlaps(p.span, span))) gaps.unshift(problemGap);
    const parseError = problemGap !== undefined;
    out.push({ span, commands, gaps, environmentReads: reads, functions, parseError });
  }
  return out;
}
