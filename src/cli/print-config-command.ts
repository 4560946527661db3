/** `shellward print-config`: the merged policy and configuration, and where each rule came from. */
import type { Command } from 'commander';
import { formatResolvedConfig } from '../config/config.js';
import { EXIT } from './exit-codes.js';
import { addConfigOptions, loadCliConfig, type ConfigCliOptions } from './config-options.js';

/** Adds the `print-config` subcommand to `program`; `setExit` receives the exit code (0, or 2 for a bad config). */
export function registerPrintConfigCommand(program: Command, setExit: (code: number) => void): void {
  const cmd = program
    .command('print-config')
    .description('print the merged permission policy and configuration, with the file each rule came from')
    .option('--cwd <dir>', 'directory to load the configuration for (default: the current directory)');
  addConfigOptions(cmd).action(async (opts: ConfigCliOptions & { cwd?: string }) => {
    const resolved = await loadCliConfig(opts, opts.cwd ?? process.cwd());
    if (!resolved) return setExit(EXIT.ERROR);
    process.stdout.write(formatResolvedConfig(resolved));
    setExit(EXIT.OK);
  });
}
