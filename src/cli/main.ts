/**
 * The `shellward` command: argv → subcommand → exit code. Thin: every subcommand calls the
 * library. Exit codes: see exit-codes.ts.
 */
import { Command, CommanderError } from 'commander';
import { RULES } from '../checks/index.js';
import { EXIT } from './exit-codes.js';
import { registerCheckCommand } from './check-command.js';
import { registerLintCommand } from './lint-command.js';
import { VERSION } from './version.js';

/** Builds the program; `setExit` receives the exit code of the action that runs. */
export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('shellward')
    .description('Policy linter for shell commands written or run by AI coding agents')
    .version(VERSION, '-V, --version')
    .showHelpAfterError()
    .exitOverride();
  registerLintCommand(program, setExit);
  registerCheckCommand(program, setExit);
  program
    .command('rules')
    .description('list every rule with its code, category and default severities')
    .action(() => {
      for (const r of RULES) {
        process.stdout.write(`${r.id.padEnd(28)} ${r.code}  ${r.category.padEnd(11)} agent=${r.severity.agent.padEnd(7)} script=${r.severity.script.padEnd(7)} ${r.title}\n`);
      }
      setExit(EXIT.OK);
    });
  return program;
}

/** Runs the CLI with `argv` (as process.argv) and returns the exit code; never throws. */
export async function main(argv: readonly string[]): Promise<number> {
  let code: number = EXIT.OK;
  const program = buildProgram((c) => {
    code = c;
  });
  try {
    await program.parseAsync([...argv]);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit with 0; usage errors with 2.
      return err.exitCode === 0 ? EXIT.OK : EXIT.ERROR;
    }
    process.stderr.write(`shellward: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT.ERROR;
  }
  return code;
}
