/**
 * What `npm pack` puts in the tarball (the package.json `files` list), and that the unpacked
 * tarball runs: the CLI, its rule tables and schemas, the build record init pins from; not the
 * benchmarks, the Action (it has its own bundle), tests or source maps of them. The parser's
 * `.wasm` files come from the declared dependencies (tree-sitter-bash, web-tree-sitter), which
 * the unpacked CLI must find. `--ignore-scripts`: the test runs on the existing build (`dist/`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let tmp: string;
let files: string[];
let pkgDir: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'shellward-pack-'));
  const out = execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [info] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
  files = info!.files.map((f) => f.path).sort();
  execFileSync('tar', ['-xzf', join(tmp, info!.filename), '-C', tmp]);
  pkgDir = join(tmp, 'package');
  // As if installed: the dependencies next to it.
  await symlink(join(ROOT, 'node_modules'), join(pkgDir, 'node_modules'), 'dir');
}, 120_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('the npm tarball', () => {
  it('has the CLI, the rule tables, the schemas and the build record', () => {
    // rules/destructive.json was replaced by the destructive-command packs (rules/packs/*.json).
    for (const f of ['package.json', 'README.md', 'CHANGELOG.md', 'dist/src/cli/bin.js', 'dist/src/cli/bin.cjs', 'dist/src/cli/hook-bundle.cjs', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/package.json', 'dist/build-info.json', 'schemas/shellward-config.schema.json', 'schemas/sarif-schema-2.1.0.json', 'rules/packs/files.json']) {
      expect(files, f).toContain(f);
    }
  });

  it('has no benchmarks, no Action build, no tests', () => {
    expect(files.filter((f) => f.startsWith('dist/bench/') || f.startsWith('dist/action/') || f.startsWith('action/') || f.startsWith('bench/'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('test/') || f.startsWith('dist/test/') || /\.test\.[cm]?[jt]s$/.test(f))).toEqual([]);
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('scripts/'))).toEqual([]);
  });

  it('depends on the packages that ship the parser’s .wasm files, and the unpacked CLI finds them', async () => {
    const pkg = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).toEqual(expect.arrayContaining(['tree-sitter-bash', 'web-tree-sitter']));
    const req = createRequire(join(pkgDir, 'dist/src/parse/parser.js'));
    expect(req.resolve('tree-sitter-bash/tree-sitter-bash.wasm')).toMatch(/tree-sitter-bash\.wasm$/);
    expect(req.resolve('web-tree-sitter/tree-sitter.wasm')).toMatch(/tree-sitter\.wasm$/);
  });

  it('runs: the unpacked CLI lints a script', async () => {
    const script = join(tmp, 'a.sh');
    await writeFile(script, '#!/bin/sh\nrm -rf /\n');
    let out = '';
    let code = 0;
    try {
      out = execFileSync(process.execPath, [join(pkgDir, 'dist/src/cli/bin.js'), 'lint', '--no-color', script], { cwd: tmp, encoding: 'utf8' });
    } catch (err) {
      const e = err as { status: number; stdout: string };
      code = e.status;
      out = e.stdout;
    }
    expect(code).toBe(1);
    expect(out).toContain('path-dangerous-removal');
  });

  it('runs its package.json bin (the CommonJS launcher): a hook event is answered, other commands load the ES modules', async () => {
    const pkg = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8')) as { bin: Record<string, string>; version: string };
    expect(pkg.bin.shellward).toBe('dist/src/cli/bin.cjs');
    const bin = join(pkgDir, pkg.bin.shellward ?? '');
    const event = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: tmp, session_id: 's', transcript_path: join(tmp, 't.jsonl'), permission_mode: 'default' });
    const env = { ...process.env, SHELLWARD_NO_SERVER: '1', XDG_CACHE_HOME: join(tmp, 'cache') };
    for (let run = 0; run < 2; run++) {
      // The second run takes the bundle's compiled code from the cache the first one wrote.
      const out = execFileSync(process.execPath, [bin, 'hook', '--deny-on', 'error'], { cwd: tmp, input: event, env, encoding: 'utf8' });
      expect(JSON.parse(out).hookSpecificOutput.permissionDecision, `run ${run + 1}`).toBe('deny');
    }
    expect(execFileSync(process.execPath, [bin, '--version'], { cwd: tmp, encoding: 'utf8' }).trim()).toBe(pkg.version);
  });
});
