/**
 * Finding and reading the configuration (the I/O edge of src/config/): the shellward config via
 * cosmiconfig (module name `shellward`: shellward.config.{js,mjs,json,yaml}, .shellwardrc*,
 * package.json#shellward) and Claude Code's project settings `.claude/settings.json` and
 * `.claude/settings.local.json` next to it. Everything else is pure (src/config/config.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { cosmiconfig } from 'cosmiconfig';
import { claudeSettingsDefaultMode, claudeSettingsPermissions, ConfigError, mergeSources, packSetFrom, validateConfig, validatePack, type PolicySource, type ResolvedConfig, type ShellwardConfig } from './config.js';
import type { Pack, PackSet } from '../analyses/destructive.js';
import { homedir } from 'node:os';

/** Options of {@link loadConfig}. */
export interface LoadOptions {
  /** Directory the search starts in, and that displayed paths are relative to. */
  readonly cwd: string;
  /** An explicit config file (`--config`); no search then. */
  readonly configFile?: string;
  /** Read `.claude/settings*.json` (default: the config's `claudeSettings`, else true). */
  readonly claudeSettings?: boolean;
}

/** Where the config is looked for in each directory, first match wins (DESIGN.md §6). */
export const SEARCH_PLACES: readonly string[] = [
  'package.json',
  '.shellwardrc',
  '.shellwardrc.json',
  '.shellwardrc.yaml',
  '.shellwardrc.yml',
  '.shellwardrc.js',
  '.shellwardrc.mjs',
  '.shellwardrc.cjs',
  'shellward.config.json',
  'shellward.config.yaml',
  'shellward.config.yml',
  'shellward.config.js',
  'shellward.config.mjs',
  'shellward.config.cjs',
];

function display(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' || rel.startsWith('..') || rel.startsWith(sep) ? path : rel.split(sep).join('/');
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw new ConfigError(path, `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The directory whose `.claude/` holds the project settings when no shellward config is found.
 * The project is the nearest of `cwd` and its ancestors with a `.git` or a `package.json`; its
 * settings are in the nearest `.claude` directory from `cwd` up to that root (a monorepo package
 * may have its own). Without such a root only `cwd` itself is considered, so a stray `.claude`
 * higher up (in `/tmp`, say) is never taken for the project's; and the home directory's
 * `.claude`, which holds the user's own settings, never counts.
 */
async function projectRoot(cwd: string): Promise<string> {
  const home = homedir();
  let anchor: string | undefined;
  for (let dir = cwd; ; ) {
    if ((await exists(join(dir, '.git'))) || (await exists(join(dir, 'package.json')))) {
      anchor = dir;
      break;
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  const stop = anchor ?? cwd;
  for (let dir = cwd; ; ) {
    if (dir !== home && (await exists(join(dir, '.claude')))) return dir;
    const up = dirname(dir);
    if (dir === stop || up === dir) break;
    dir = up;
  }
  return stop;
}

/**
 * The config file cosmiconfig would try first from `cwd` upwards (the first existing name of
 * {@link SEARCH_PLACES}, `package.json` only with a `shellward` key), for naming it in an error.
 */
async function firstConfigCandidate(cwd: string): Promise<string | undefined> {
  for (let dir = cwd; ; ) {
    for (const name of SEARCH_PLACES) {
      const path = join(dir, name);
      if (!(await exists(path))) continue;
      if (name !== 'package.json') return path;
      const text = await readOptional(path);
      if (text !== undefined && /"shellward"\s*:/.test(text)) return path;
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/**
 * Loads and merges the configuration. Root directory (where `.claude/` is read and `ignore`
 * globs are relative to): the config file's directory, else the project root around `cwd`. Throws {@link ConfigError} (file and key path in the message) for a config that
 * cannot be read or parsed, fails the schema, or holds a malformed permission rule; a missing
 * explicit `configFile` is an error too. Missing settings files are simply absent.
 */
export async function loadConfig(options: LoadOptions): Promise<ResolvedConfig> {
  const cwd = resolve(options.cwd);
  // Walk up from cwd to the project root (the first directory with a package.json).
  const explorer = cosmiconfig('shellward', { searchStrategy: 'project', searchPlaces: [...SEARCH_PLACES] });
  let found: { filepath: string; config: unknown } | null;
  try {
    found = options.configFile ? await explorer.load(resolve(cwd, options.configFile)) : await explorer.search(cwd);
  } catch (err) {
    // Name the file that failed: cosmiconfig's own message does not always (a `.cjs` syntax error).
    const file = options.configFile ?? (await firstConfigCandidate(cwd)) ?? cwd;
    throw new ConfigError(display(resolve(cwd, file), cwd), `cannot be loaded: ${err instanceof Error ? err.message : String(err)}`);
  }
  const sources: PolicySource[] = [];
  let config: ShellwardConfig = {};
  let root = await projectRoot(cwd);
  let packs: PackSet | undefined;
  if (found) {
    const file = display(found.filepath, cwd);
    const custom = await readPacks(found.config, dirname(found.filepath), cwd);
    config = validateConfig(found.config ?? {}, file, new Set(custom.flatMap((p) => p.rules.map((r) => r.id))));
    if (config.packs) packs = packSetFrom(config, file, custom);
    root = dirname(found.filepath);
    const json = /\.json$|rc$/.test(found.filepath) && !/\.(ya?ml|js|cjs|mjs|ts)$/.test(found.filepath);
    const isPackage = basename(found.filepath) === 'package.json';
    sources.push({
      file,
      kind: 'shellward-config',
      text: (await readOptional(found.filepath)) ?? '',
      json,
      ...(isPackage ? { jsonRoot: ['shellward'] } : {}),
      permissions: config.permissions ?? {},
      ...(config.additionalDirectories ? { additionalDirectories: config.additionalDirectories } : {}),
    });
  }
  const useSettings = options.claudeSettings ?? config.claudeSettings ?? true;
  if (useSettings) {
    for (const [name, kind] of [['settings.local.json', 'claude-settings-local'], ['settings.json', 'claude-settings']] as const) {
      const path = join(root, '.claude', name);
      const text = await readOptional(path);
      if (text === undefined) continue;
      const file = display(path, cwd);
      let value: unknown;
      try {
        value = JSON.parse(text.replace(/^\uFEFF/, ''));
      } catch (err) {
        throw new ConfigError(file, `is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
      }
      const defaultMode = claudeSettingsDefaultMode(value);
      sources.push({ file, kind, text, json: true, permissions: claudeSettingsPermissions(value, file), ...(defaultMode !== undefined ? { defaultMode } : {}) });
    }
  }
  const merged = mergeSources(config, sources, root);
  return packs ? { ...merged, packs } : merged;
}

/**
 * The custom packs named by `packs.files` of a raw config value (paths relative to `dir`), read
 * and validated; `[]` when there are none (a malformed `packs` is left to the config schema).
 * Throws {@link ConfigError} naming the pack file for one that cannot be read, is not JSON or
 * fails validation.
 */
async function readPacks(raw: unknown, dir: string, cwd: string): Promise<Pack[]> {
  const files = (raw as { packs?: { files?: unknown } } | null)?.packs?.files;
  if (!Array.isArray(files)) return [];
  const out: Pack[] = [];
  const taken = new Set<string>();
  for (const f of files) {
    if (typeof f !== 'string' || f === '') continue;
    const path = resolve(dir, f);
    const file = display(path, cwd);
    const text = await readOptional(path);
    if (text === undefined) throw new ConfigError(file, 'pack file not found (config packs.files)');
    let value: unknown;
    try {
      value = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (err) {
      throw new ConfigError(file, `is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    const pack = validatePack(value, file, taken);
    for (const r of pack.rules) taken.add(r.id);
    out.push(pack);
  }
  return out;
}
