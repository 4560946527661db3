/**
 * The program runner shared by the whole CLI (main.ts) and the hook-only entry (hook-main.ts):
 * argv → the registered subcommand → exit code. It imports no subcommand itself; the caller
 * passes the subcommands with a loader each.
 */
import { Command, CommanderError } from 'commander';
import { reportActionError } from './action-error.js';
import { EXIT } from './exit-codes.js';
import { VERSION } from './version.js';

/** Adds one subcommand to the program; `setExit` receives the exit code of its action. */
export type Register = (program: Command, setExit: (code: number) => void) => void;

/** Subcommands in help order: each name with a loader of the function that registers it. */
export type Subcommands = readonly (readonly [string, () => Promise<Register>])[];

/**
 * Builds the program with the subcommands of `subcommands` that `argv` needs (as process.argv:
 * the subcommand is `argv[2]`; all of them when it names none or an unknown one); `setExit`
 * receives the exit code of the action that runs.
 */
export async function buildProgram(subcommands: Subcommands, setExit: (code: number) => void, argv: readonly string[] = []): Promise<Command> {
  const program = new Command('shellward')
    .description('Policy linter for shell commands written or run by AI coding agents')
    .version(VERSION, '-V, --version')
    // A usage error is one line and a pointer to the help, not the whole help (as git and ESLint do).
    .showHelpAfterError('(run shellward --help for usage)')
    .exitOverride();
  const named = subcommands.find(([name]) => name === argv[2]);
  const chosen = named ? [named] : subcommands;
  const registers = await Promise.all(chosen.map(([, load]) => load()));
  for (const register of registers) register(program, setExit);
  for (const c of program.commands) c.showHelpAfterError(`(run shellward ${c.name()} --help for usage)`);
  return program;
}

/**
 * Runs the program made of `subcommands` with `argv` (as process.argv) and returns the exit
 * code; never throws.
 */
export async function runProgram(subcommands: Subcommands, argv: readonly string[]): Promise<number> {
  let code: number = EXIT.OK;
  let program: Command;
  try {
    program = await buildProgram(subcommands, (c) => {
      code = c;
    }, argv);
  } catch (err) {
    process.stderr.write(`shellward: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT.ERROR;
  }
  try {
    await program.parseAsync([...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit with 0; usage errors with 2.
      return err.exitCode === 0 ? EXIT.OK : EXIT.ERROR;
    }
    return reportActionError(err);
  }
  return code;
}
