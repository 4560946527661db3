/** The `--config` / `--no-claude-settings` options shared by `lint`, `check` and `print-config`. */
import type { Command } from 'commander';
import { ConfigError, type ResolvedConfig } from '../config/config.js';
import { loadConfig } from '../config/load.js';

/** Parsed values of the config options. */
export interface ConfigCliOptions {
  config?: string;
  /** `false` with `--no-claude-settings`; commander sets `true` otherwise. */
  claudeSettings?: boolean;
}

/** Adds `--config FILE` and `--no-claude-settings` to `cmd`. */
export function addConfigOptions(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'shellward config file (default: search for shellward.config.*, .shellwardrc*, package.json#shellward)')
    .option('--no-claude-settings', 'do not read .claude/settings.json and .claude/settings.local.json');
}

/**
 * Loads the configuration for a subcommand run in `cwd`; on a configuration error prints it to
 * stderr (`shellward: <file>: <key path>: <problem>`) and returns `undefined`.
 */
export async function loadCliConfig(opts: ConfigCliOptions, cwd: string): Promise<ResolvedConfig | undefined> {
  try {
    return await loadConfig({
      cwd,
      ...(opts.config !== undefined ? { configFile: opts.config } : {}),
      // commander's default for a --no-* flag is true; only an explicit --no-claude-settings turns it off.
      ...(opts.claudeSettings === false ? { claudeSettings: false } : {}),
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`shellward: ${err.message}\n`);
      return undefined;
    }
    throw err;
  }
}
