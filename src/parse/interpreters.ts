/**
 * Code that a command hands to an interpreter of another language than the shell's
 * (rules/commands/interpreters.json): `lua -e CODE`, `php -r CODE`, `tclsh <<< CODE`,
 * `echo CODE | python3`, ed's `!command`, `git filter-branch --tree-filter CODE`. The command
 * model cannot see what such code runs; the permission decision asks about it under deny and ask
 * rules, and denies when a denied program is visible in it (src/rules/decide.ts). The `shell`
 * entries' code is shell code, which src/parse/embedded.ts parses as embedded code.
 *
 * Options are read as getopt reads them (`-e CODE`, `-eCODE`, clusters such as `-Se CODE`,
 * `--eval=CODE`), or as whole words for programs with single-dash long options (`-eval`). Pure;
 * linear in the number of words; never throws.
 */
import table from '../../rules/commands/interpreters.json' with { type: 'json' };
import type { Span } from '../core/types.js';
import { resolveCommand } from './command-name.js';
import type { SimpleCommand } from './nodes.js';
import { visibleStdin, wordCode } from './stdin-code.js';
import type { Word } from './words.js';

/** One row of the interpreter table (see rules/schema/interpreters.schema.json). */
export interface InterpreterSpec {
  readonly language: string;
  readonly runs: string;
  readonly source: string;
  readonly codeOptions?: readonly string[];
  readonly fileOptions?: readonly string[];
  readonly optionsWithValue?: readonly string[];
  readonly inertFlags?: readonly string[];
  readonly singleDashLong?: boolean;
  readonly operands: 'script' | 'scripts' | 'data';
  readonly codeOperandPattern?: string;
  readonly stdin: 'always' | 'without-code' | 'without-code-operands' | 'never';
  readonly requiresFlags?: readonly string[];
  readonly codeOperandsFrom?: number;
  readonly commandPattern?: string;
  readonly shell?: boolean;
  readonly launchers?: readonly string[];
}

const SPECS: ReadonlyMap<string, InterpreterSpec> = new Map(Object.entries(table.interpreters as Record<string, InterpreterSpec>));
const ALIASES: ReadonlyMap<string, string> = new Map(Object.entries((table as { aliases?: Record<string, string> }).aliases ?? {}));

/** A piece of code visible in the command. */
export interface CodePiece {
  /** The code, after quote removal. */
  readonly text: string;
  /** Where it is in the source: the word, words or heredoc body that holds it. */
  readonly span: Span;
  /** Offset of `text` in the source when `exact` (a verbatim slice), else `span.start`. */
  readonly base: number;
  readonly exact: boolean;
  /** How it is given: `-e`, `--tree-filter`, `operand`, `here-string`, `heredoc`, `pipe`. */
  readonly via: string;
}

/** The code a command hands to an interpreter. */
export interface InterpreterCode {
  /** The table entry: `tclsh`, `python`, `git filter-branch`. */
  readonly key: string;
  readonly spec: InterpreterSpec;
  /** The code written in the command, in order. */
  readonly code: readonly CodePiece[];
  /** Why some code it runs is not visible (a dynamic code option, standard input from a pipe); absent when all of it is. */
  readonly hidden?: string;
  /** The word or body the finding is placed on. */
  readonly span: Span;
}

/** Git's own options that take the next word (https://git-scm.com/docs/git#_options). */
const GIT_VALUE_OPTIONS: ReadonlySet<string> = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--attr-source', '--list-cmds']);

/**
 * The subcommand of `git` given `args` (its arguments after the program word): git's own options
 * skipped, and the index of the subcommand word; `undefined` when there is none or a word before
 * it is not known before the command runs.
 */
export function gitSubcommand(args: readonly Word[]): { readonly name: string; readonly index: number } | undefined {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return undefined;
    if (GIT_VALUE_OPTIONS.has(v)) {
      i++;
      continue;
    }
    if (v.startsWith('-')) continue;
    return { name: v, index: i };
  }
  return undefined;
}

/** The table entry for program `name` with arguments `args`, and the arguments it reads. */
function lookup(name: string, args: readonly Word[]): { key: string; spec: InterpreterSpec; args: readonly Word[] } | undefined {
  if (name === 'git') {
    const sub = gitSubcommand(args);
    if (!sub) return undefined;
    const key = `git ${sub.name}`;
    const spec = SPECS.get(key);
    return spec ? { key, spec, args: args.slice(sub.index + 1) } : undefined;
  }
  let key = ALIASES.get(name) ?? name;
  let spec = SPECS.get(key);
  if (!spec) {
    // A versioned name (`python3.12`, `tclsh8.6`, `lua5.4`) reads like the entry without the version.
    const bare = name.replace(/-?[0-9][0-9.]*$/, '');
    if (bare !== name && bare !== '') {
      key = ALIASES.get(bare) ?? bare;
      spec = SPECS.get(key);
    }
  }
  return spec ? { key, spec, args } : undefined;
}

/** Whether `name` (a program's base name) is an interpreter of the table, under any of its spellings (`python3.12`). */
export function interpreterKnown(name: string): boolean {
  return lookup(name, []) !== undefined;
}

/**
 * Whether `git <subcommand>` (`subcommand` as written, e.g. `filter-branch`) has a `shell` entry
 * in rules/commands/interpreters.json: the code it runs is given in its options, which
 * src/parse/embedded.ts parses as embedded shell code.
 */
export function gitShellSubcommand(subcommand: string): boolean {
  return SPECS.get(`git ${subcommand}`)?.shell === true;
}

/** Whether a word with an expansion may expand to something starting with `-` (an option). */
function mayBeOption(w: Word): boolean {
  const first = w.parts[0];
  return !(first && first.kind === 'literal' && first.value !== '' && !first.value.startsWith('-'));
}

/**
 * The code `cmd` hands to an interpreter of rules/commands/interpreters.json (through any
 * wrapper), or `undefined` when its program is not one, when it is given only inert flags
 * (`--version`), when its code is all in files (a script operand, `-f FILE`, `< file`), or when
 * the visible code cannot run a program (the entry's `commandPattern` matches none of it).
 * `source` is the text `cmd`'s spans index; `siblings` the command list its
 * `place.pipeline.previous` indexes (for `echo CODE | lua`).
 */
export function interpreterCode(cmd: SimpleCommand, source: string, siblings?: readonly SimpleCommand[]): InterpreterCode | undefined {
  const resolved = resolveCommand(cmd);
  if (!resolved) return undefined;
  const found = lookup(resolved.name, resolved.args);
  if (!found) return undefined;
  const { key, spec, args } = found;
  const has = (list: readonly string[] | undefined, o: string): boolean => list?.includes(o) ?? false;
  const code: CodePiece[] = [];
  let hidden: string | undefined;
  let inert = false;
  let codeOption = false;
  let file = false;
  let stdinOperand = false;
  let required = spec.requiresFlags === undefined;
  let operandCount = 0;
  let codeOperand = false;
  const piece = (w: Word, via: string, cut = 0): void => {
    codeOption = true;
    if (w.value === undefined) {
      hidden ??= `the code of \`${via}\` is not known before the command runs`;
      return;
    }
    if (cut === 0) {
      const c = wordCode(w, source)!;
      code.push({ ...c, span: w.span, via });
    } else code.push({ text: w.value.slice(cut), base: w.span.start, exact: false, span: w.span, via });
  };
  let options = true;
  scan: for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    // A code option whose value is not known (`-e"$x"`, `--upload-pack="$x"`).
    if (options && v === undefined) {
      const first = w.parts[0];
      const lead = first?.kind === 'literal' ? first.value : '';
      const name = lead.startsWith('--') ? lead.slice(0, lead.includes('=') ? lead.indexOf('=') : lead.length) : lead.length >= 2 && lead.startsWith('-') && !spec.singleDashLong ? lead.slice(0, 2) : lead;
      if (name.startsWith('-') && has(spec.codeOptions, name)) {
        codeOption = true;
        hidden ??= `the code of \`${name}\` is not known before the command runs`;
        continue;
      }
    }
    // (Shell entries are git subcommands: git's own parsing of a dynamic word is the option-effect analysis's concern.)
    if (options && v === undefined && mayBeOption(w) && !spec.shell) {
      hidden ??= `\`${w.raw.slice(0, 40)}\` is not known before the command runs and may be an option that gives code`;
      continue;
    }
    if (options && v === '--') {
      options = false;
      continue;
    }
    if (options && v?.startsWith('-') && v.length > 1) {
      const eq = v.indexOf('=');
      const whole = v.startsWith('--') || spec.singleDashLong === true || [spec.codeOptions, spec.fileOptions, spec.optionsWithValue, spec.inertFlags].some((l) => has(l, v));
      if (whole) {
        const name = v.startsWith('--') && eq > 0 ? v.slice(0, eq) : v;
        const attached = v.startsWith('--') && eq > 0;
        if (has(spec.inertFlags, name)) inert = true;
        if (has(spec.requiresFlags, name)) required = true;
        if (has(spec.codeOptions, name)) {
          if (attached) piece(w, name, eq + 1);
          else if (args[i + 1]) piece(args[++i]!, name);
        } else if (has(spec.fileOptions, name)) {
          file = true;
          if (!attached) i++;
          if (spec.operands === 'script') break;
        } else if (has(spec.optionsWithValue, name) && !attached) i++;
        continue;
      }
      // A cluster of short options: the first one taking a value takes the rest of the word, or the next word.
      for (let k = 1; k < v.length; k++) {
        const o = `-${v[k]}`;
        const rest = v.slice(k + 1);
        if (has(spec.inertFlags, o)) inert = true;
        if (has(spec.requiresFlags, o)) required = true;
        if (has(spec.codeOptions, o)) {
          if (rest !== '') piece(w, o, k + 1);
          else if (args[i + 1]) piece(args[++i]!, o);
          continue scan;
        }
        if (has(spec.fileOptions, o)) {
          file = true;
          if (rest === '') i++;
          if (spec.operands === 'script') break scan;
          continue scan;
        }
        if (has(spec.optionsWithValue, o)) {
          if (rest === '') i++;
          continue scan;
        }
      }
      continue;
    }
    // An operand.
    if (v === '-') {
      stdinOperand = true;
      if (spec.operands === 'script') break;
      continue;
    }
    operandCount++;
    if (spec.codeOperandsFrom !== undefined && operandCount >= spec.codeOperandsFrom) {
      codeOperand = true;
      piece(w, 'operand');
      continue;
    }
    if (spec.codeOperandPattern !== undefined) {
      if (v === undefined) hidden ??= `the operand \`${w.raw.slice(0, 40)}\` is not known before the command runs and may be code`;
      else if (new RegExp(spec.codeOperandPattern).test(v)) piece(w, 'operand');
    }
    if (spec.operands === 'script') {
      file = true;
      break;
    }
    if (spec.operands === 'scripts') file = true;
  }
  if (inert || !required) return undefined;
  const readsStdin = spec.stdin === 'always' || stdinOperand || (spec.stdin === 'without-code' && !codeOption && !file) || (spec.stdin === 'without-code-operands' && !codeOperand);
  if (readsStdin) {
    const seen = visibleStdin(cmd, source, siblings);
    for (const s of seen) {
      code.push({ text: s.text, span: s.span, base: s.base, exact: s.exact, via: s.via });
      if (s.expands) hidden ??= `bash expands the ${s.via === 'pipe' ? 'piped ' : ''}heredoc before \`${resolved.name}\` reads it`;
    }
    // Standard input from a file (`python3 < z.py`) is code from stdin, as `bash < x.sh` is: its text is not in the command.
    const fromFile = cmd.redirects.find((r) => (r.operator === '<' || r.operator === '<>') && (r.fd === undefined || r.fd === '0'));
    if (seen.length === 0 && fromFile) hidden ??= `it reads its code from the file \`${(fromFile.target?.value ?? fromFile.target?.raw ?? '').slice(0, 60)}\` on its standard input, which is not visible here`;
    else if (seen.length === 0) {
      if (cmd.redirects.some((r) => r.operator === '<<<')) hidden ??= 'its standard input is a here-string that is not known before the command runs';
      else hidden ??= cmd.place?.pipeline && cmd.place.pipeline.stage > 0 ? 'it reads its code from a pipe whose content is not visible here' : 'it reads its code from its standard input, which is not visible here';
    }
  }
  if (code.length === 0 && hidden === undefined) return undefined;
  if (hidden === undefined && spec.commandPattern !== undefined) {
    const re = new RegExp(spec.commandPattern);
    if (!code.some((c) => re.test(c.text))) return undefined;
  }
  const span = code[0]?.span ?? cmd.span;
  return { key, spec, code, ...(hidden !== undefined ? { hidden } : {}), span };
}
