/**
 * Option/operand scanning of a command's arguments, as getopt-style programs read them:
 * short-option clusters (`-rf`), attached and separate option values (`-n5`, `-n 5`,
 * `--name=x`, `--name x`), `--` ending the options, and single-dash long options for
 * programs like `find` and `terraform`.
 */
import type { Word } from '../parse/words.js';

/** How a program reads its options. */
export interface OptionSyntax {
  /** Options that take a value (the next word, or attached). */
  readonly valueOptions?: readonly string[];
  /** Options are whole words after one dash (`-delete`); there are no short clusters. */
  readonly singleDashLong?: boolean;
  /** `--` does not end the options (find). */
  readonly noEndOfOptions?: boolean;
  /** Stop at the first operand (options after it belong to a subcommand). */
  readonly stopAtOperand?: boolean;
  /**
   * Options followed by a command that runs to a terminating `;` or `+` word (find's `-exec`,
   * `-execdir`, `-ok`, `-okdir`). Those words are neither options nor operands of the outer
   * program; they are collected in {@link ScannedArgs.commands}.
   */
  readonly commandOptions?: readonly string[];
}

/** The result of scanning: options seen, operands in order, option values. */
export interface ScannedArgs {
  /** Every option seen: long ones by name (`--force`), short ones one by one (`-r`, `-f`). */
  readonly options: ReadonlySet<string>;
  /** Operands (non-option words) in order; `undefined` for a word that is not static. */
  readonly operands: readonly (string | undefined)[];
  /** Values given to value-taking options, keyed by option. */
  readonly optionValues: ReadonlyMap<string, readonly string[]>;
  /** Index in the input of the word after the last one consumed (with `stopAtOperand`, the first operand). */
  readonly next: number;
  /** The commands given to `commandOptions`, without the terminator, in order. */
  readonly commands: readonly (readonly Word[])[];
  /** When a `--` ended the options: how many operands came before it (operands from this index on follow it). */
  readonly dashDashAt?: number;
}

/**
 * Scans `words` (arguments, without the program name) with `syntax`. Dynamic words are
 * operands. Never throws; linear in the total length of the words.
 */
export function scanArgs(words: readonly Word[], syntax: OptionSyntax): ScannedArgs {
  const valueOptions = new Set(syntax.valueOptions ?? []);
  const commandOptions = new Set(syntax.commandOptions ?? []);
  const commands: Word[][] = [];
  const options = new Set<string>();
  const operands: (string | undefined)[] = [];
  const optionValues = new Map<string, string[]>();
  const addValue = (opt: string, value: string | undefined): void => {
    if (value === undefined) return;
    const list = optionValues.get(opt);
    if (list) list.push(value);
    else optionValues.set(opt, [value]);
  };
  let endOfOptions = false;
  let dashDashAt: number | undefined;
  let i = 0;
  for (; i < words.length; i++) {
    const v = words[i]!.value;
    if (endOfOptions || v === undefined || v.length < 2 || !v.startsWith('-')) {
      if (syntax.stopAtOperand) break;
      operands.push(v);
      continue;
    }
    if (v === '--' && !syntax.noEndOfOptions) {
      endOfOptions = true;
      dashDashAt = operands.length;
      continue;
    }
    if (commandOptions.has(v)) {
      options.add(v);
      const start = i + 1;
      let end = start;
      while (end < words.length && words[end]!.value !== ';' && words[end]!.value !== '+') end++;
      commands.push(words.slice(start, end));
      i = end;
      continue;
    }
    // A whole word that names a value option wins over reading it as a cluster (`sqlite3 -cmd`).
    if (v.startsWith('--') || syntax.singleDashLong || valueOptions.has(v)) {
      const eq = v.indexOf('=');
      const name = eq === -1 ? v : v.slice(0, eq);
      options.add(name);
      if (eq !== -1) addValue(name, v.slice(eq + 1));
      else if (valueOptions.has(name)) addValue(name, words[++i]?.value);
      continue;
    }
    // A short-option cluster: -rf, -n5, -uroot.
    for (let j = 1; j < v.length; j++) {
      const opt = '-' + v[j];
      options.add(opt);
      if (valueOptions.has(opt)) {
        const rest = v.slice(j + 1);
        if (rest !== '') addValue(opt, rest);
        else addValue(opt, words[++i]?.value);
        break;
      }
    }
  }
  return { options, operands, optionValues, next: i, commands, ...(dashDashAt !== undefined ? { dashDashAt } : {}) };
}
