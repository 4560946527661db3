/**
 * Finding and reading the configuration (the I/O edge of src/config/): the shellward config
 * (shellward.config.{json,yaml,yml,js,mjs,cjs}, .shellwardrc*, package.json#shellward; searched
 * from the working directory up to the project's top directory, the nearest wins, JavaScript
 * only when named with `--config`) and Claude Code's project settings `.claude/settings.json` and
 * `.claude/settings.local.json` (at the top, and restricting only, below it). Every file is opened without blocking and must be a
 * regular file of at most 1 MiB; JSON with a key twice in one object is an error. YAML and
 * JavaScript are parsed by cosmiconfig's loaders. Everything else is pure (src/config/config.ts).
 */
import { constants } from 'node:fs';
import { lstat, open, stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
import { claudeSettingsDefaultMode, claudeSettingsPermissions, ConfigError, mergeSources, packSetFrom, type PolicySource, type ResolvedConfig, type ShellwardConfig } from './config.js';
import type { Pack, PackSet } from '../analyses/destructive.js';
import { homedir } from 'node:os';
import { findDuplicateKey } from './json-locate.js';

/** Options of {@link loadConfig}. */
export interface LoadOptions {
  /** Directory the search starts in, and that displayed paths are relative to. */
  readonly cwd: string;
  /** An explicit config file (`--config`); no search then. */
  readonly configFile?: string;
  /** Read `.claude/settings*.json` (default: the config's `claudeSettings`, else true). */
  readonly claudeSettings?: boolean;
  /**
   * The project directory the agent session was started in, when the agent says so (Claude
   * Code's `CLAUDE_PROJECT_DIR`, Gemini CLI's `GEMINI_PROJECT_DIR` in a hook's environment); an
   * absolute path. It is then the project's top directory (see {@link projectTop}), wherever
   * `cwd` is: a command run after `cd /elsewhere` is judged by the project's policy.
   */
  readonly projectDir?: string;
}

/** Where the config is looked for in each directory, first match wins (architecture.md §6). */
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

/** Largest config or settings file read (1 MiB); a bigger one is an error, not a slow run. */
export const MAX_CONFIG_BYTES = 1 << 20;

/**
 * The text of a config or settings file, `undefined` when it does not exist. Never blocks: the
 * file is opened with O_NONBLOCK and checked with fstat before a byte is read, so a FIFO, a
 * device or a directory under a config name is an error (a FIFO opened for reading would wait
 * for a writer for ever), as is a file over {@link MAX_CONFIG_BYTES}. `shown` names the file in errors.
 */
async function readOptional(path: string, shown: string = path): Promise<string | undefined> {
  let fh: Awaited<ReturnType<typeof open>>;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigError(shown, `cannot be read (${code ?? String(err)})`);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new ConfigError(shown, 'is not a regular file: a FIFO, socket, device or directory is never read as configuration');
    if (st.size > MAX_CONFIG_BYTES) throw new ConfigError(shown, `is ${st.size} bytes, more than the ${MAX_CONFIG_BYTES} a configuration file may have`);
    const buf = Buffer.alloc(Math.min(st.size, MAX_CONFIG_BYTES) + 1);
    let total = 0;
    for (;;) {
      const { bytesRead } = await fh.read(buf, total, buf.length - total, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > MAX_CONFIG_BYTES) throw new ConfigError(shown, `is larger than the ${MAX_CONFIG_BYTES} bytes a configuration file may have`);
      if (total === buf.length) break;
    }
    return buf.subarray(0, total).toString('utf8');
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(shown, `cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  } finally {
    await fh.close();
  }
}

/**
 * Parses JSON config text; a syntax error or a key that occurs twice in one object (JSON.parse
 * would keep only the last, silently dropping, say, the first list of deny rules) is a
 * {@link ConfigError} naming `file` and the line.
 */
/**
 * The 1-based line and column of a `JSON.parse` error, from the `at position N` (a UTF-16 offset
 * into `text`) that V8 puts in its message; `undefined` when the message has none.
 */
function jsonErrorLocation(text: string, message: string): { line: number; column: number } | undefined {
  const m = /at position (\d+)/.exec(message);
  if (!m) return undefined;
  const offset = Math.min(Number(m[1]), text.length);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** A two-line code frame (`> 4 |   }` and a caret under the column), shown once in the error. */
function codeFrame(text: string, at: { line: number; column: number }): string {
  const source = text.split('\n')[at.line - 1] ?? '';
  const gutter = `> ${at.line} | `;
  return `${gutter}${source}\n${' '.repeat(gutter.length - 2)}| ${' '.repeat(at.column - 1)}^`;
}

export function parseConfigJson(text: string, file: string): unknown {
  const body = text.replace(/^\uFEFF/, '');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const at = jsonErrorLocation(body, reason);
    if (!at) throw new ConfigError(file, `is not valid JSON: ${reason}`);
    throw new ConfigError(file, `is not valid JSON: ${reason.replace(/ in JSON at position \d+.*$/, '')}\n\n${codeFrame(body, at)}`, at);
  }
  const dup = findDuplicateKey(body);
  if (dup) {
    throw new ConfigError(file, `line ${dup.line}: the key \`${dup.path.join('.')}\` appears twice in one object; JSON keeps only the last, so the first would be dropped silently`);
  }
  return value;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether a directory entry exists at `path` (a dangling symlink or a FIFO counts: it is read, and rejected, later). */
async function entryExists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The project's top directory around `cwd`: the outermost of `cwd` and its ancestors that holds a
 * `.git` (a repository or worktree top), else the outermost that holds a `package.json`, else
 * `cwd` itself. Only directories below the home directory count when `cwd` is inside it (the home
 * directory is the user's, not a project), and never `/`. The outermost, not the nearest: a
 * package of a monorepo, a dependency under `node_modules/` and a vendored repository are inside
 * the project, and their own files must not replace its policy.
 */
async function projectTop(cwd: string): Promise<string> {
  const home = homedir();
  const underHome = cwd.startsWith(home.endsWith(sep) ? home : home + sep);
  let git: string | undefined;
  let pkg: string | undefined;
  for (let dir = cwd; ; ) {
    const up = dirname(dir);
    if (up === dir || (underHome && dir === home)) break;
    if (await exists(join(dir, '.git'))) git = dir;
    else if (await exists(join(dir, 'package.json'))) pkg = dir;
    dir = up;
  }
  return git ?? pkg ?? cwd;
}

/**
 * The directories from `cwd` up to `top`, nearest first (`top` last); just `[top]` when `cwd`
 * is not inside `top` (a hook's command after `cd` out of the project).
 */
function searchPath(cwd: string, top: string): string[] {
  const rel = relative(top, cwd);
  if (rel.startsWith('..') || rel.startsWith(sep)) return [top];
  const dirs: string[] = [];
  for (let dir = cwd; dir !== top; dir = dirname(dir)) dirs.push(dir);
  dirs.push(top);
  return dirs;
}

/** Config file name endings that are JavaScript: loading one runs it. */
const JS_CONFIG = /\.(?:js|mjs|cjs|ts)$/;

/**
 * The config file of the search through `dirs` (nearest first, see {@link searchPath}): in each
 * directory the names of {@link SEARCH_PLACES} (`package.json` only with a `shellward` key); the
 * nearest wins. The search ends at the project's top, so a config in a parent of the project is
 * never used. Two config files in one directory are an error naming both (no silent precedence).
 * `undefined` when there is none.
 */
async function searchConfig(dirs: readonly string[], cwd: string): Promise<string | undefined> {
  for (const dir of dirs) {
    const found: string[] = [];
    for (const name of SEARCH_PLACES) {
      const path = join(dir, name);
      if (name === 'package.json') {
        const text = await readOptional(path, display(path, cwd));
        if (text === undefined || !text.includes('"shellward"')) continue;
        const value = parseConfigJson(text, display(path, cwd));
        if (value !== null && typeof value === 'object' && Object.hasOwn(value, 'shellward')) found.push(path);
      } else if (await entryExists(path)) found.push(path);
    }
    if (found.length > 1) {
      throw new ConfigError(display(found[1]!, cwd), `and ${display(found[0]!, cwd)} both configure shellward in one directory; keep one of them (neither is used over the other silently)`);
    }
    if (found.length === 1) return found[0];
  }
  return undefined;
}

/**
 * Reads and parses one config file. JSON files (and package.json's `shellward` key) through
 * {@link parseConfigJson}; YAML through cosmiconfig's loader (js-yaml rejects duplicate keys);
 * `.shellwardrc` as JSON, else YAML; JavaScript only when `explicit` (named with `--config`):
 * a config found by the search is the repository's, and loading a JS one would run the
 * repository's code inside shellward.
 */
async function readConfig(path: string, shown: string, explicit: boolean): Promise<unknown> {
  const base = basename(path);
  // cosmiconfig's loaders only for the YAML and JavaScript forms: a hook pays every module it loads.
  const loaders = async () => (await import('cosmiconfig')).defaultLoaders;
  if (JS_CONFIG.test(base) && !explicit) {
    throw new ConfigError(shown, 'is a JavaScript config, which runs code when loaded: shellward loads one only when it is named with --config (a repository\'s config is the repository\'s code)');
  }
  const text = await readOptional(path, shown);
  if (text === undefined) throw new ConfigError(shown, 'does not exist');
  try {
    if (base === 'package.json') return (parseConfigJson(text, shown) as Record<string, unknown>).shellward;
    const ext = extname(base);
    if (ext === '.json') return parseConfigJson(text, shown);
    if (ext === '.yaml' || ext === '.yml') return await (await loaders())['.yaml'](path, text);
    if (JS_CONFIG.test(base)) return await (await loaders())[ext as '.js'](path, text);
    try {
      JSON.parse(text.replace(/^\uFEFF/, ''));
      return parseConfigJson(text, shown);
    } catch (err) {
      if (err instanceof ConfigError) throw err;
      return await (await loaders()).noExt(path, text);
    }
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(shown, `cannot be loaded: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Loads and merges the configuration. The project's top directory ({@link projectTop}, or the
 * agent's `projectDir`) bounds the search; the config file is the nearest from `cwd` up to it (an
 * explicit `configFile` instead: no search), and Claude Code's `.claude/settings.local.json` and
 * `.claude/settings.json` are read at the top and in every directory between `cwd` and the top
 * (never in the home directory: those are the user's own settings), and next to an explicit
 * `configFile`. **Allow rules come only from the top** (and from an explicit `configFile` and the
 * settings next to it): a source below it — a monorepo package's, a
 * dependency's under `node_modules/`, a vendored repository's — adds its deny and ask rules but
 * none of its allow rules, `additionalDirectories` or `defaultMode`, as Claude Code reads a
 * session's project settings from the project directory alone. Root directory of the result
 * (what `ignore` globs are relative to): the config file's directory, else the top. Throws
 * {@link ConfigError} (file and key path in the message) for a config that cannot be read or
 * parsed, fails the schema, or holds a malformed permission rule; a missing explicit
 * `configFile` is an error too. Missing settings files are simply absent.
 */
export async function loadConfig(options: LoadOptions): Promise<ResolvedConfig> {
  const cwd = resolve(options.cwd);
  const top = options.projectDir?.startsWith('/') ? resolve(options.projectDir) : await projectTop(cwd);
  const dirs = searchPath(cwd, top);
  const explicit = options.configFile !== undefined;
  const path = explicit ? resolve(cwd, options.configFile!) : await searchConfig(dirs, cwd);
  const found = path === undefined ? null : { filepath: path, config: await readConfig(path, display(path, cwd), explicit) };
  const sources: PolicySource[] = [];
  let config: ShellwardConfig = {};
  let root = top;
  let packs: PackSet | undefined;
  if (found) {
    const file = display(found.filepath, cwd);
    // The schema validator is loaded only now: a project without a config file never needs it.
    const { validateConfig } = await import('./validate.js');
    const custom = await readPacks(found.config, dirname(found.filepath), cwd);
    config = validateConfig(found.config ?? {}, file, new Set(custom.flatMap((p) => p.rules.map((r) => r.id))));
    if (config.packs) packs = packSetFrom(config, file, custom);
    root = dirname(found.filepath);
    const json = /\.json$|rc$/.test(found.filepath) && !/\.(ya?ml|js|cjs|mjs|ts)$/.test(found.filepath);
    const isPackage = basename(found.filepath) === 'package.json';
    sources.push({
      file,
      kind: 'shellward-config',
      text: (await readOptional(found.filepath, file)) ?? '',
      json,
      ...(isPackage ? { jsonRoot: ['shellward'] } : {}),
      permissions: config.permissions ?? {},
      ...(config.additionalDirectories ? { additionalDirectories: config.additionalDirectories } : {}),
      ...(!explicit && root !== top ? { restrictOnly: true } : {}),
    });
  }
  const useSettings = options.claudeSettings ?? config.claudeSettings ?? true;
  if (useSettings) {
    const home = homedir();
    // The top's settings first (the first modelled defaultMode of the merge order wins), then
    // those of an explicit config's own directory (trusted: the user named it), then those below.
    const full = [top, ...(explicit && found && !dirs.includes(dirname(found.filepath)) ? [dirname(found.filepath)] : [])];
    for (const dir of [...new Set([...full, ...dirs])]) {
      if (dir === home) continue;
      for (const [name, kind] of [['settings.local.json', 'claude-settings-local'], ['settings.json', 'claude-settings']] as const) {
        const path = join(dir, '.claude', name);
        const text = await readOptional(path, display(path, cwd));
        if (text === undefined) continue;
        const file = display(path, cwd);
        const value = parseConfigJson(text, file);
        const defaultMode = claudeSettingsDefaultMode(value);
        sources.push({ file, kind, text, json: true, permissions: claudeSettingsPermissions(value, file), ...(defaultMode !== undefined ? { defaultMode } : {}), ...(!full.includes(dir) ? { restrictOnly: true } : {}) });
      }
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
  const { validatePack } = await import('./validate.js');
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
