/**
 * The hook's bundle runs with V8's code cache (src/cli/code-cache.ts): compiled from source and
 * cached on the first run, compiled from the cache afterwards; a cache that is unsafe, corrupt
 * or from another build is not used; the cache directory must be this user's alone. And the
 * built hook still reaches the code it loads only for some runs (YAML and JavaScript config
 * files, the config validator) when its code comes from the cache.
 */
import { chmod, mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeCacheDir, KEPT_CACHES, loadBundle } from '../../src/cli/code-cache.js';
import { REPO, shellward } from './cli.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shellward-code-cache-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A small CommonJS bundle reading a host value and `require`. */
async function bundle(name: string, body = 'exports.answer = () => `${greeting} ${require("node:path").basename(__filename)}`;'): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, body);
  return file;
}

/**
 * Loads `file` in a fresh process (the built code-cache.js; V8 also keeps compiled code per
 * process, so only another process shows whether the cache file was used) and returns how
 * its code was compiled and `answer()`; the cache is saved afterwards.
 */
async function loadInChild(file: string, cache: string, greeting: string): Promise<{ cache: string; answer: string }> {
  const code = `import { loadBundle } from ${JSON.stringify(join(REPO, 'dist/src/cli/code-cache.js'))};
const b = loadBundle(${JSON.stringify(file)}, { greeting: ${JSON.stringify(greeting)} }, ${JSON.stringify(cache)});
console.log(JSON.stringify({ cache: b.cache, answer: b.exports.answer() }));
b.saveCache();`;
  const r = await execa(process.execPath, ['--input-type=module', '-e', code]);
  return JSON.parse(r.stdout) as { cache: string; answer: string };
}

async function cacheDir(name: string): Promise<string> {
  const d = join(dir, name);
  await mkdir(d, { mode: 0o700 });
  return d;
}

describe('loadBundle', () => {
  it('compiles and caches on the first run, uses the cache on the next', async () => {
    const file = await bundle('a.cjs');
    const cache = await cacheDir('cache-a');
    const first = loadBundle(file, { greeting: 'hello' }, cache);
    expect(first.cache).toBe('compiled');
    expect((first.exports.answer as () => string)()).toBe('hello a.cjs');
    first.saveCache();
    const files = await readdir(cache);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^a\\.cjs-${process.version}-${process.arch}-\\d+-\\d+-\\d+\\.v8cache$`));
    expect((await stat(join(cache, files[0]!))).mode & 0o777).toBe(0o600);
    expect(await loadInChild(file, cache, 'hi')).toEqual({ cache: 'used', answer: 'hi a.cjs' });
  });

  it('runs without a cache directory', async () => {
    const b = loadBundle(await bundle('b.cjs'), { greeting: 'x' }, undefined);
    expect(b.cache).toBe('off');
    expect((b.exports.answer as () => string)()).toBe('x b.cjs');
    b.saveCache();
  });

  it('does not use a cache others may write, nor a corrupt one (and replaces the corrupt one)', async () => {
    const file = await bundle('c.cjs');
    const cache = await cacheDir('cache-c');
    loadBundle(file, { greeting: 'x' }, cache).saveCache();
    const [name] = await readdir(cache);
    const path = join(cache, name!);
    await chmod(path, 0o666);
    expect(await loadInChild(file, cache, 'x')).toEqual({ cache: 'compiled', answer: 'x c.cjs' });
    await chmod(path, 0o600);
    expect((await loadInChild(file, cache, 'x')).cache).toBe('used');
    await writeFile(path, Buffer.from('not a code cache'), { mode: 0o600 });
    expect(await loadInChild(file, cache, 'y')).toEqual({ cache: 'compiled', answer: 'y c.cjs' });
    expect((await loadInChild(file, cache, 'x')).cache).toBe('used');
  });

  it('does not use the cache of an earlier build of the bundle', async () => {
    const file = await bundle('d.cjs', 'exports.v = 1;');
    const cache = await cacheDir('cache-d');
    loadBundle(file, {}, cache).saveCache();
    await writeFile(file, 'exports.v = 2;');
    await utimes(file, new Date(), new Date(Date.now() + 5000));
    const again = loadBundle(file, {}, cache);
    expect(again.cache).toBe('compiled');
    expect(again.exports.v).toBe(2);
    again.saveCache();
    expect(await readdir(cache)).toHaveLength(2);
  });

  it(`keeps the ${KEPT_CACHES} newest caches of a bundle name`, async () => {
    const file = await bundle('e.cjs', 'exports.v = 1;');
    const cache = await cacheDir('cache-e');
    for (let i = 0; i < KEPT_CACHES + 3; i++) {
      const old = join(cache, `e.cjs-old-${i}.v8cache`);
      await writeFile(old, 'x', { mode: 0o600 });
      await utimes(old, new Date(1_000_000 + i * 1000), new Date(1_000_000 + i * 1000));
    }
    await writeFile(join(cache, 'other.cjs-1.v8cache'), 'x');
    loadBundle(file, {}, cache).saveCache();
    const left = (await readdir(cache)).sort();
    expect(left.filter((f) => f.startsWith('e.cjs-'))).toHaveLength(KEPT_CACHES);
    expect(left).toContain('other.cjs-1.v8cache');
    expect(left).not.toContain('e.cjs-old-0.v8cache');
  });

  it('throws what the bundle throws', async () => {
    expect(() => loadBundle(join(dir, 'missing.cjs'), {}, undefined)).toThrow(/ENOENT/);
    const file = await bundle('f.cjs', 'throw new Error("top level failed");');
    expect(() => loadBundle(file, {}, undefined)).toThrow('top level failed');
  });
});

describe('codeCacheDir', () => {
  it('is $XDG_CACHE_HOME/shellward, created with mode 0700', async () => {
    const base = join(dir, 'xdg');
    const d = codeCacheDir({ XDG_CACHE_HOME: base });
    expect(d).toBe(join(base, 'shellward'));
    expect((await stat(d!)).mode & 0o777).toBe(0o700);
  });

  it('is ~/.cache/shellward without an absolute XDG_CACHE_HOME', () => {
    expect(codeCacheDir({ XDG_CACHE_HOME: 'relative' })).toMatch(/[\\/]\.cache[\\/]shellward$/);
  });

  it('refuses a directory others may write to, and one that cannot be made', async () => {
    const base = join(dir, 'xdg-open');
    await mkdir(join(base, 'shellward'), { recursive: true });
    await chmod(join(base, 'shellward'), 0o777);
    expect(codeCacheDir({ XDG_CACHE_HOME: base })).toBeUndefined();
    await writeFile(join(dir, 'a-file'), '');
    expect(codeCacheDir({ XDG_CACHE_HOME: join(dir, 'a-file') })).toBeUndefined();
  });
});

describe('the built hook, code taken from the cache', () => {
  /** Runs the built hook for `command` in `cwd` twice (the second run compiles from the cache) and returns both answers. */
  async function twice(cwd: string, command: string, args: string[] = []): Promise<string[]> {
    const env = { SHELLWARD_NO_SERVER: '1', XDG_CACHE_HOME: join(dir, 'hook-cache') };
    const input = JSON.stringify({ session_id: 's', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } });
    const answers: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await shellward(['hook', ...args], { cwd, input, env });
      expect(r.exitCode, String(r.stderr)).toBe(0);
      answers.push(JSON.parse(String(r.stdout)).hookSpecificOutput.permissionDecision as string);
    }
    return answers;
  }

  it('writes a cache and answers the same with it', async () => {
    const cwd = await cacheDir('plain');
    expect(await twice(cwd, 'git status')).toEqual(['allow', 'allow']);
    expect((await readdir(join(dir, 'hook-cache', 'shellward'))).some((f) => f.startsWith('hook-bundle.cjs-'))).toBe(true);
  });

  it('loads a YAML config (and validates it)', async () => {
    const cwd = await cacheDir('yaml');
    await writeFile(join(cwd, 'shellward.config.yaml'), 'permissions:\n  deny: ["Bash(git status:*)"]\n');
    expect(await twice(cwd, 'git status')).toEqual(['deny', 'deny']);
    await writeFile(join(cwd, 'shellward.config.yaml'), 'permissions:\n  deny: [1]\n');
    expect(await twice(cwd, 'git status')).toEqual(['ask', 'ask']);
  });

  it('loads a JavaScript config named with --config', async () => {
    const cwd = await cacheDir('mjs');
    await writeFile(join(cwd, 'guard.config.mjs'), 'export default { permissions: { deny: ["Bash(ls:*)"] } };\n');
    expect(await twice(cwd, 'ls', ['--config', 'guard.config.mjs'])).toEqual(['deny', 'deny']);
    expect(await twice(cwd, 'git status', ['--config', 'guard.config.mjs'])).toEqual(['allow', 'allow']);
  });

  it('prints help and usage errors through commander', async () => {
    const env = { SHELLWARD_NO_SERVER: '1', XDG_CACHE_HOME: join(dir, 'hook-cache') };
    const help = await shellward(['hook', '--help'], { env });
    expect(help.exitCode).toBe(0);
    expect(String(help.stdout)).toContain('Usage: shellward hook [options]');
    const bad = await shellward(['hook', '--mode', 'bogus'], { env, input: '{}' });
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toContain("argument 'bogus' is invalid");
  });
});
