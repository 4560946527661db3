/**
 * The `shellward` command: argv → subcommand → exit code. Thin: every subcommand calls the
 * library. Exit codes: see exit-codes.ts.
 */
import { Command, CommanderError } from 'commander';
import { RULES, ruleByName } from '../checks/index.js';
import { ruleHelpUri } from '../report/sarif.js';
import { EXIT } from './exit-codes.js';
import { registerAuditCommand } from './audit-command.js';
import { registerCheckCommand } from './check-command.js';
import { registerInitCommand } from './init-command.js';
import { registerLintCommand } from './lint-command.js';
import { registerPrintConfigCommand } from './print-config-command.js';
import { registerSandboxCheckCommand } from './sandbox-check-command.js';
import { VERSION } from './version.js';

/** Builds the program; `setExit` receives the exit code of the action that runs. */
export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('shellward')
    .description('Policy linter for shell commands written or run by AI coding agents')
    .version(VERSION, '-V, --version')
    // A usage error is one line and a pointer to the help, not the whole help (as git and ESLint do).
    .showHelpAfterError('(run shellward --help for usage)')
    .exitOverride();
  registerLintCommand(program, setExit);
  registerCheckCommand(program, setExit);
  registerAuditCommand(program, setExit);
  registerPrintConfigCommand(program, setExit);
  registerSandboxCheckCommand(program, setExit);
  registerInitCommand(program, setExit);
  program
    .command('rules')
    .description('list every rule with its code, category and default severities; with a rule id or code (rm-recursive-force, D311), print that rule\'s page')
    .argument('[rule]', 'a rule id or code')
    .action(async (name: string | undefined) => {
      if (name !== undefined) {
        const rule = ruleByName(name);
        if (!rule) {
          process.stderr.write(`shellward rules: unknown rule ${JSON.stringify(name)} (shellward rules lists the ids and codes)\n`);
          return setExit(EXIT.ERROR);
        }
        // The page docs/rules/<id>.md is generated from the same metadata, examples run through the linter.
        const [{ Linter }, { exampleLinter, renderRulePage }] = await Promise.all([import('../lint.js'), import('../docs/rule-docs.js')]);
        process.stdout.write(renderRulePage(rule, exampleLinter(await Linter.create())).replace(/^<!--.*-->\n\n/, ''));
        process.stdout.write(`\nOnline: ${ruleHelpUri(rule.id)}\n`);
        return setExit(EXIT.OK);
      }
      for (const r of RULES) {
        process.stdout.write(`${r.id.padEnd(28)} ${r.code}  ${r.category.padEnd(11)} agent=${r.severity.agent.padEnd(7)} script=${r.severity.script.padEnd(7)} ${r.title}\n`);
      }
      setExit(EXIT.OK);
    });
  for (const c of program.commands) c.showHelpAfterError(`(run shellward ${c.name()} --help for usage)`);
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
    const io = err as NodeJS.ErrnoException;
    if (io?.code && typeof io.path === 'string') {
      // A file the user named could not be read or written (-o, --files-from …): say which.
      process.stderr.write(`shellward: ${io.path}: ${ioReason(io)}\n`);
      return EXIT.ERROR;
    }
    process.stderr.write(`shellward: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return EXIT.ERROR;
  }
  return code;
}

/** A short reason for a file-system error, e.g. `no such file or directory (ENOENT)`. */
function ioReason(err: NodeJS.ErrnoException): string {
  const text: Readonly<Record<string, string>> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'is a directory',
    ENOTDIR: 'a path component is not a directory',
    ENOSPC: 'no space left on device',
    EROFS: 'read-only file system',
  };
  return `${text[err.code ?? ''] ?? err.message} (${err.code})`;
}
