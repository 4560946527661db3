/**
 * The `shellward` command: argv → subcommand → exit code. Thin: every subcommand calls the
 * library. Exit codes: see exit-codes.ts.
 */
import { Command, CommanderError } from 'commander';
import { RULES } from '../checks/index.js';
import { BUILTIN_PACKS, BUILTIN_PACK_SET } from '../analyses/destructive.js';
import { addConfigOptions, loadCliConfig, type ConfigCliOptions } from './config-options.js';
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
    .showHelpAfterError()
    .exitOverride();
  registerLintCommand(program, setExit);
  registerCheckCommand(program, setExit);
  registerAuditCommand(program, setExit);
  registerPrintConfigCommand(program, setExit);
  registerSandboxCheckCommand(program, setExit);
  registerInitCommand(program, setExit);
  addConfigOptions(
    program.command('rules').description('list every rule with its code, category and default severities, then the destructive-command packs (with the config\'s custom packs) and their rules'),
  ).action(async (opts: ConfigCliOptions) => {
    for (const r of RULES) {
      process.stdout.write(`${r.id.padEnd(28)} ${r.code}  ${r.category.padEnd(11)} agent=${r.severity.agent.padEnd(7)} script=${r.severity.script.padEnd(7)} ${r.title}\n`);
    }
    const resolved = await loadCliConfig(opts, process.cwd());
    if (!resolved) {
      setExit(EXIT.ERROR);
      return;
    }
    const active = resolved.packs ?? BUILTIN_PACK_SET;
    process.stdout.write('\npacks (destructive-command rules; config `packs` turns them off or adds more):\n');
    for (const p of [...BUILTIN_PACKS, ...active.packs.filter((x) => !BUILTIN_PACKS.includes(x))]) {
      const on = active.packs.includes(p);
      const custom = !BUILTIN_PACKS.includes(p);
      process.stdout.write(`${p.id.padEnd(14)} ${on ? 'on ' : 'off'}${custom ? ' custom' : ''}  ${p.title}: ${p.rules.map((r) => r.id).join(', ')}\n`);
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
