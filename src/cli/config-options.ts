/** The `--config` / `--no-claude-settings` options shared by `lint`, `check` and `print-config`. */
import type { Command } from 'commander';
import type { PermissionMode } from '../rules/decide.js';
import type { PathHost } from '../analyses/paths.js';
import { MAX_LISTED_ENTRIES } from '../analyses/bash-glob.js';
import type { LinterOptions } from '../lint.js';
import { accessSync, closeSync, constants, existsSync, fstatSync, lstatSync, opendirSync, openSync, readlinkSync, readSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { ConfigError, type ResolvedConfig } from '../config/config.js';
import { loadConfig } from '../config/load.js';
import { linterOptionsFor } from '../linter-options.js';

/** Parsed values of the config options. */
export interface ConfigCliOptions {
  config?: string;
  /** `false` with `--no-claude-settings`; commander sets `true` otherwise. */
  claudeSettings?: boolean;
  /** `--permission-mode`: Claude Code's permission mode the decisions assume. */
  permissionMode?: PermissionMode;
}

/** The values of `--permission-mode`. */
export const PERMISSION_MODE_CHOICES: readonly PermissionMode[] = ['default', 'acceptEdits'];

/**
 * Adds `--config FILE`, `--no-claude-settings` and `--permission-mode` to `cmd`. Options are made
 * with `cmd.createOption` (commander's `new Option`), so that this module, which the hook loads,
 * does not load commander itself.
 */
export function addConfigOptions(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'shellward config file (default: search for shellward.config.*, .shellwardrc*, package.json#shellward)')
    .option('--no-claude-settings', 'do not read .claude/settings.json and .claude/settings.local.json')
    .addOption(
      cmd.createOption('--permission-mode <mode>', "Claude Code permission mode the decisions assume (default: permissions.defaultMode of .claude/settings*.json, else 'default'); in 'acceptEdits' writes inside the working directories are allowed")
        .choices([...PERMISSION_MODE_CHOICES]),
    );
}

const REALPATHS = new Map<string, string | undefined>();
const MAX_REALPATHS = 4096;

/**
 * The path host of commands that would run on this machine (`check`, `sandbox-check`): `~` is
 * this user's home, and symlinks are followed with `realpathSync` (`undefined` for a path that
 * does not exist). Transcripts recorded elsewhere use the linter's lexical default instead.
 */
export const LOCAL_PATH_HOST: PathHost = {
  home: homedir(),
  isBareRepository(dir: string): boolean {
    // git's is_git_directory (setup.c): HEAD a valid ref (a symlink into refs/, `ref: refs/…` or
    // an object id), and `objects` and `refs` of the common directory (`commondir`, if any)
    // accessible with X_OK, whatever their file type (executable regular files pass).
    // GIT_OBJECT_DIRECTORY is not consulted: only this process's own environment would have it.
    try {
      if (existsSync(join(dir, '.git'))) return false;
      const head = join(dir, 'HEAD');
      const st = lstatSync(head);
      if (st.isSymbolicLink()) {
        if (!readlinkSync(head).startsWith('refs/')) return false;
      } else {
        if (!st.isFile()) return false;
        const text = LOCAL_PATH_HOST.readFile?.(head) ?? '';
        if (!/^ref:\s*refs\//.test(text) && !/^[0-9a-f]{40}(?:[0-9a-f]{24})?\s*$/.test(text)) return false;
      }
      const commondir = LOCAL_PATH_HOST.readFile?.(join(dir, 'commondir'))?.trim();
      const common = commondir ? resolve(dir, commondir) : dir;
      accessSync(join(common, 'objects'), constants.X_OK);
      accessSync(join(common, 'refs'), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
  readFile(path: string): string | undefined {
    return LOCAL_PATH_HOST.readBytes?.(path, 65_536)?.toString();
  },
  readBytes(path: string, limit: number): Buffer | undefined {
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
    } catch {
      return undefined;
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || st.size > limit) return undefined;
      const buf = Buffer.alloc(st.size);
      let total = 0;
      while (total < buf.length) {
        const n = readSync(fd, buf, total, buf.length - total, total);
        if (n === 0) break;
        total += n;
      }
      return buf.subarray(0, total);
    } catch {
      return undefined;
    } finally {
      closeSync(fd);
    }
  },
  list(dir: string): readonly string[] | undefined {
    // Read entry by entry, so that a huge directory costs at most the cap; names read as bytes so
    // that one that is not UTF-8 (which a pattern could not be compared with) is seen.
    let d: ReturnType<typeof opendirSync>;
    try {
      d = opendirSync(dir, { encoding: 'buffer' as BufferEncoding, bufferSize: 64 });
    } catch {
      return undefined;
    }
    try {
      const names: string[] = [];
      for (;;) {
        const e = d.readSync();
        if (e === null) return names;
        if (names.length >= MAX_LISTED_ENTRIES) return undefined;
        const raw = e.name as unknown as Buffer;
        const name = raw.toString('utf8');
        if (!Buffer.from(name, 'utf8').equals(raw)) return undefined;
        names.push(name);
      }
    } catch {
      return undefined;
    } finally {
      d.closeSync();
    }
  },
  readlink(path: string): string | undefined {
    try {
      return readlinkSync(path);
    } catch {
      return undefined;
    }
  },
  realpath(path: string): string | undefined {
    // `check --jsonl` resolves the same directories again and again: remember the answers of one
    // process (bounded; the cache is dropped when full). A path created meanwhile is seen late.
    if (REALPATHS.has(path)) return REALPATHS.get(path);
    let resolved: string | undefined;
    try {
      resolved = realpathSync(path);
    } catch {
      resolved = undefined;
    }
    if (REALPATHS.size >= MAX_REALPATHS) REALPATHS.clear();
    REALPATHS.set(path, resolved);
    return resolved;
  },
};

/**
 * The {@link LinterOptions} of a subcommand: the config's severities and policy, the
 * `--permission-mode`, and (with `local`) the {@link LOCAL_PATH_HOST}.
 */
export function linterOptions(resolved: ResolvedConfig, opts: ConfigCliOptions, local = false): LinterOptions {
  return { ...linterOptionsFor(resolved, opts.permissionMode), ...(local ? { pathHost: LOCAL_PATH_HOST } : {}) };
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
