/**
 * Destructive-command detection on parsed argv: the table rules/destructive.json (Claude Code
 * destructiveCommandWarning.ts, SPEC-bashtool.md §3.5, plus shellward's additions) applied to a
 * simple command after wrappers are stripped. Within one command the first matching rule wins.
 */
import table from '../../rules/destructive.json' with { type: 'json' };
import type { SimpleCommand } from '../parse/nodes.js';
import { resolveCommand } from '../parse/command-name.js';
import { scanArgs, type ScannedArgs } from './args.js';

/** A predicate over a command's scanned arguments (see rules/schema/destructive.schema.json). */
export type MatchExpr =
  | { readonly always: true }
  | { readonly option: readonly string[] }
  | { readonly operand: string }
  | { readonly firstOperand: string }
  | { readonly subcommandIs: string }
  | { readonly runs: readonly string[] }
  | { readonly sql: string }
  | { readonly all: readonly MatchExpr[] }
  | { readonly any: readonly MatchExpr[] }
  | { readonly not: MatchExpr };

/** One row of the destructive table. */
export interface DestructiveRule {
  readonly id: string;
  readonly code: string;
  readonly family: string;
  readonly subcommand?: readonly string[];
  readonly match: MatchExpr;
  readonly title: string;
  readonly message: string;
  readonly rationale: string;
  readonly fix: string;
  readonly exceptions?: string;
  readonly examples: { readonly valid: readonly string[]; readonly invalid: readonly string[] };
}

interface Family {
  readonly names: readonly string[];
  readonly globalValueOptions?: readonly string[];
  readonly valueOptions?: readonly string[];
  readonly singleDashLong?: boolean;
  readonly noEndOfOptions?: boolean;
  readonly commandOptions?: readonly string[];
  readonly subcommands?: Readonly<Record<string, { readonly valueOptions?: readonly string[] }>>;
  readonly sql?: Readonly<Record<string, readonly string[]>>;
  readonly sqlOperandAfter?: Readonly<Record<string, number>>;
}

/** The rows of rules/destructive.json, in table order. */
export const DESTRUCTIVE_RULES: readonly DestructiveRule[] = table.rules as DestructiveRule[];
const FAMILIES = table.families as Readonly<Record<string, Family>>;

const familyByName = new Map<string, string>();
for (const [key, fam] of Object.entries(FAMILIES)) for (const n of fam.names) familyByName.set(n, key);

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

/** Everything a predicate may look at for one command. */
interface Facts {
  readonly subcommand: string | undefined;
  readonly scanned: ScannedArgs;
  /** Programs run by the family's command options (find -exec …), wrappers stripped. */
  readonly runs: readonly string[];
  readonly sql: readonly string[];
}

function evaluate(expr: MatchExpr, f: Facts): boolean {
  if ('always' in expr) return true;
  if ('option' in expr) return expr.option.some((o) => f.scanned.options.has(o));
  if ('operand' in expr) {
    const r = re(expr.operand);
    return f.scanned.operands.some((o) => o !== undefined && r.test(o));
  }
  if ('firstOperand' in expr) {
    const o = f.scanned.operands[0];
    return o !== undefined && re(expr.firstOperand).test(o);
  }
  if ('subcommandIs' in expr) return f.subcommand === expr.subcommandIs;
  if ('runs' in expr) return f.runs.some((r) => expr.runs.includes(r));
  if ('sql' in expr) {
    const r = re(expr.sql, 'i');
    return f.sql.some((s) => r.test(s));
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

/**
 * The first destructive rule that matches `cmd`, or `undefined`. Pure; linear in the size of the
 * command.
 */
export function matchDestructive(cmd: SimpleCommand): DestructiveRule | undefined {
  const resolved = resolveCommand(cmd);
  if (!resolved) return undefined;
  const familyKey = familyByName.get(resolved.name);
  if (!familyKey) return undefined;
  const fam = FAMILIES[familyKey]!;
  const args = resolved.args;
  let subcommand: string | undefined;
  let rest = args;
  if (fam.subcommands || fam.globalValueOptions) {
    const global = scanArgs(args, {
      valueOptions: fam.globalValueOptions ?? [],
      singleDashLong: fam.singleDashLong ?? false,
      stopAtOperand: true,
    });
    subcommand = args[global.next]?.value;
    rest = args.slice(global.next + 1);
  }
  const syntax = {
    commandOptions: fam.commandOptions ?? [],
    valueOptions: (subcommand !== undefined ? fam.subcommands?.[subcommand]?.valueOptions : undefined) ??
      fam.valueOptions ?? fam.globalValueOptions ?? [],
    singleDashLong: fam.singleDashLong ?? false,
    noEndOfOptions: fam.noEndOfOptions ?? false,
  };
  const scanned = scanArgs(rest, syntax);
  const facts: Facts = {
    subcommand,
    scanned,
    runs: scanned.commands.flatMap((words) => {
      const inner = words[0] ? resolveCommand({ ...cmd, name: words[0], args: words.slice(1), assignments: [] }) : undefined;
      return inner ? [inner.name] : [];
    }),
    sql: fam.sql ? sqlTexts(resolved.name, fam, scanArgs(args, syntax), cmd) : [],
  };
  for (const rule of DESTRUCTIVE_RULES) {
    if (rule.family !== familyKey) continue;
    if (rule.subcommand && (subcommand === undefined || !rule.subcommand.includes(subcommand))) continue;
    if (evaluate(rule.match, facts)) return rule;
  }
  return undefined;
}
