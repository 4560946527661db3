/** `shellward init`: starter files in a temporary directory, never overwritten without --force. */
import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { kindByName } from '../../src/sources/registry.js';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/validate.js';
import { loadConfig } from '../../src/config/load.js';
import { ruleMeta } from '../../src/checks/index.js';
import { ACTION_REF, CONFIG_FILE, HUSKY_HOOK, initProject, mergeHuskyHook, PIN, pinFor, STARTER_CONFIG } from '../../src/cli/init-command.js';
import { parseBuildInfo } from '../../src/cli/build-info.js';
import { execFileSync } from 'node:child_process';
import { REPO, shellward } from './cli.js';

// js-yaml comes with cosmiconfig (no types of its own here).
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

async function tempDir(): Promise<string> {
  // A package.json makes the directory the project root for the config search.
  const dir = await mkdtemp(join(tmpdir(), 'shellward-init-'));
  await writeFile(join(dir, 'package.json'), '{"name": "demo", "private": true}\n');
  return dir;
}

describe('initProject', () => {
  it('writes a starter config that the project loader accepts', async () => {
    const dir = await tempDir();
    const r = await initProject(dir, {});
    expect(r).toEqual({ written: [CONFIG_FILE], skipped: [], warnings: [] });
    const text = await readFile(join(dir, CONFIG_FILE), 'utf8');
    expect(JSON.parse(text)).toEqual(STARTER_CONFIG);
    expect(text.endsWith('}\n')).toBe(true);
    const resolved = await loadConfig({ cwd: dir, claudeSettings: false });
    expect(resolved.sources.map((s) => s.file)).toEqual([CONFIG_FILE]);
    expect(resolved.config.profile).toEqual(STARTER_CONFIG.profile);
    expect(resolved.severity).toEqual(STARTER_CONFIG.rules);
    expect(resolved.policy.deny.map((rule) => rule.raw)).toEqual(['Bash(git push --force:*)']);
    // Every example rule id exists; the schema is the repository's file at the pinned commit, not a node_modules path.
    for (const id of Object.keys(STARTER_CONFIG.rules)) expect(ruleMeta(id), id).toBeDefined();
    expect(validateConfig(JSON.parse(text), CONFIG_FILE)).toBeTruthy();
    expect(STARTER_CONFIG.$schema).toBe(`https://raw.githubusercontent.com/shellward/shellward/${PIN.ref}/schemas/shellward-config.schema.json`);
    await expect(stat(join(REPO, 'schemas/shellward-config.schema.json'))).resolves.toBeTruthy();
  });

  it('writes the husky hook, the workflow and the pre-commit config on request', async () => {
    const dir = await tempDir();
    const r = await initProject(dir, { husky: true, workflow: true, preCommitConfig: true });
    expect(r.written).toEqual([CONFIG_FILE, '.husky/pre-commit', '.github/workflows/shellward.yml', '.pre-commit-config.yaml']);
    const hook = await readFile(join(dir, '.husky/pre-commit'), 'utf8');
    expect(hook).toContain('npx --no-install shellward lint --staged\n');
    expect((await stat(join(dir, '.husky/pre-commit'))).mode & 0o111).not.toBe(0);

    const workflow = yaml.load(await readFile(join(dir, '.github/workflows/shellward.yml'), 'utf8')) as {
      on: Record<string, unknown>;
      permissions: Record<string, string>;
      jobs: { shellward: { steps: Array<{ uses: string; with?: Record<string, unknown>; if?: string }> } };
    };
    expect(Object.keys(workflow.on)).toEqual(['push', 'pull_request']);
    expect(workflow.permissions['security-events']).toBe('write');
    const steps = workflow.jobs.shellward.steps;
    expect(steps.map((s) => s.uses)).toEqual(['actions/checkout@v4', ACTION_REF, 'github/codeql-action/upload-sarif@v3']);
    // A shallow checkout is enough (the action fetches the base it needs); the SARIF path comes from the step's output.
    expect(steps[0]!.with).toBeUndefined();
    // The Action's paths default to the whole repository, and the workflow itself is a kind shellward reads.
    expect(steps[1]!.with).toEqual({ paths: '.' });
    expect(kindByName(join(dir, '.github/workflows/shellward.yml'))?.id).toBe('github-workflow');
    expect(steps[2]).toEqual({ uses: 'github/codeql-action/upload-sarif@v3', if: 'always()', with: { sarif_file: '${{ steps.shellward.outputs.sarif-file }}', category: 'shellward' } });

    const preCommit = yaml.load(await readFile(join(dir, '.pre-commit-config.yaml'), 'utf8')) as { repos: Array<{ repo: string; rev: string; hooks: Array<{ id: string }> }> };
    expect(preCommit.repos).toEqual([{ repo: 'https://github.com/shellward/shellward', rev: PIN.ref, hooks: [{ id: 'shellward' }] }]);
    // The hook id exists in this repository's .pre-commit-hooks.yaml.
    const hooks = yaml.load(await readFile(join(REPO, '.pre-commit-hooks.yaml'), 'utf8')) as Array<{ id: string }>;
    expect(hooks.map((h) => h.id)).toContain('shellward');
  });

  it('pins a full commit SHA when the build knows it, and says how to pin when not', async () => {
    const sha = 'c'.repeat(40);
    const pinned = pinFor(parseBuildInfo(JSON.stringify({ version: '1.2.3', commit: sha, dirty: false }), '0'));
    expect(pinned).toMatchObject({ ref: sha, pinned: true });
    const dir = await tempDir();
    const r = await initProject(dir, { workflow: true, preCommitConfig: true, pin: pinned });
    expect(r.warnings).toEqual([]);
    const wf = await readFile(join(dir, '.github/workflows/shellward.yml'), 'utf8');
    expect(wf).toContain(`- uses: shellward/shellward@${sha} # shellward 1.2.3; no release tag yet: a full commit SHA (\`git ls-remote https://github.com/shellward/shellward refs/heads/main\` gives the newest)`);
    expect(await readFile(join(dir, '.pre-commit-config.yaml'), 'utf8')).toContain(`rev: ${sha} #`);
    expect(JSON.parse(await readFile(join(dir, CONFIG_FILE), 'utf8')).$schema).toBe(`https://raw.githubusercontent.com/shellward/shellward/${sha}/schemas/shellward-config.schema.json`);

    // Built outside a git checkout (or a malformed record): main, and a warning with the command to pin.
    for (const text of [undefined, '{"version":"1.0.0","commit":null}', '{"commit":"main"}']) expect(pinFor(parseBuildInfo(text, '0')).pinned).toBe(false);
    const other = await tempDir();
    const u = await initProject(other, { workflow: true, pin: pinFor({ version: '1.0.0' }) });
    expect(await readFile(join(other, '.github/workflows/shellward.yml'), 'utf8')).toContain('- uses: shellward/shellward@main # moving reference: pin a full commit SHA');
    expect(u.warnings).toEqual([expect.stringContaining('git ls-remote https://github.com/shellward/shellward refs/heads/main')]);
  });

  it('pins a real commit in the README (no release tag exists yet)', async () => {
    const readme = await readFile(join(REPO, 'README.md'), 'utf8');
    const refs = new Set([...readme.matchAll(/uses: shellward\/shellward@(\S+)/g)].map((m) => m[1]!));
    const revs = new Set([...readme.matchAll(/rev: (\S+)/g)].map((m) => m[1]!));
    expect(refs.size).toBe(1);
    const [sha] = [...refs];
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    expect([...revs]).toEqual([sha]);
    // A commit of this repository's history (unless this clone is shallow and lacks it).
    const shallow = execFileSync('git', ['rev-parse', '--is-shallow-repository'], { cwd: REPO, encoding: 'utf8' }).trim() === 'true';
    let known = true;
    try {
      execFileSync('git', ['cat-file', '-e', `${sha}^{commit}`], { cwd: REPO, stdio: 'ignore' });
    } catch {
      known = false;
    }
    if (!shallow) expect(known, `${sha} is not a commit of this repository`).toBe(true);
  });

  it('adds shellward to an existing husky hook with --force instead of replacing it', async () => {
    expect(mergeHuskyHook('npm test\n')).toBe(`npm test\n${HUSKY_HOOK}`);
    expect(mergeHuskyHook('npm test')).toBe(`npm test\n${HUSKY_HOOK}`);
    expect(mergeHuskyHook('')).toBe(HUSKY_HOOK);
    const dir = await tempDir();
    await mkdir(join(dir, '.husky'));
    await writeFile(join(dir, '.husky/pre-commit'), 'npm test\n');
    const r = await initProject(dir, { husky: true, force: true });
    expect(r.written).toContain('.husky/pre-commit');
    expect(await readFile(join(dir, '.husky/pre-commit'), 'utf8')).toBe(`npm test\n${HUSKY_HOOK}`);
    // Once is enough.
    const again = await initProject(dir, { husky: true, force: true });
    expect(again.skipped).toEqual([{ file: '.husky/pre-commit', reason: 'already runs shellward; left as it is' }]);
    expect(await readFile(join(dir, '.husky/pre-commit'), 'utf8')).toBe(`npm test\n${HUSKY_HOOK}`);
  });

  it('never overwrites without --force, still writes the other files, and overwrites with it', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, CONFIG_FILE), '{"rules": {}}\n');
    await mkdir(join(dir, '.husky'));
    await writeFile(join(dir, '.husky/pre-commit'), 'npm test\n');
    const r = await initProject(dir, { husky: true, workflow: true });
    expect(r.written).toEqual(['.github/workflows/shellward.yml']);
    expect(r.skipped.map((s) => s.file)).toEqual([CONFIG_FILE, '.husky/pre-commit']);
    expect(await readFile(join(dir, CONFIG_FILE), 'utf8')).toBe('{"rules": {}}\n');
    expect(await readFile(join(dir, '.husky/pre-commit'), 'utf8')).toBe('npm test\n');

    const forced = await initProject(dir, { husky: true, force: true });
    expect(forced.written).toEqual([CONFIG_FILE, '.husky/pre-commit']);
    expect(JSON.parse(await readFile(join(dir, CONFIG_FILE), 'utf8'))).toEqual(STARTER_CONFIG);
    expect(await readFile(join(dir, '.husky/pre-commit'), 'utf8')).toBe(`npm test\n${HUSKY_HOOK}`);
  });

  it('does not add a second config next to another one', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, '.shellwardrc.yaml'), 'rules: {}\n');
    const r = await initProject(dir, {});
    expect(r.written).toEqual([]);
    expect(r.skipped).toEqual([{ file: CONFIG_FILE, reason: 'not written: .shellwardrc.yaml already configures shellward (--force writes it anyway)' }]);
    const forced = await initProject(dir, { force: true });
    expect(forced.written).toEqual([CONFIG_FILE]);
    expect(forced.warnings).toEqual([`.shellwardrc.yaml is found before ${CONFIG_FILE} and stays in effect`]);

    const pkg = await tempDir();
    await writeFile(join(pkg, 'package.json'), '{"name": "demo", "shellward": {"rules": {}}}\n');
    expect((await initProject(pkg, {})).skipped[0]!.reason).toContain('package.json (key "shellward") already configures shellward');
  });
});

describe('shellward init (CLI)', () => {
  it('writes the files, names the ones it leaves alone and exits 2 for them', async () => {
    const dir = await tempDir();
    const first = await shellward(['init', '--husky'], { cwd: dir });
    expect(first.exitCode).toBe(0);
    expect(String(first.stdout)).toBe(`wrote ${CONFIG_FILE}\nwrote .husky/pre-commit`);
    const again = await shellward(['init', '--husky', '--workflow', '--pre-commit-config'], { cwd: dir });
    expect(again.exitCode).toBe(2);
    expect(String(again.stdout)).toBe('wrote .github/workflows/shellward.yml\nwrote .pre-commit-config.yaml');
    expect(String(again.stderr)).toBe(
      [
        `shellward: init: ${CONFIG_FILE} already exists; not overwritten (--force overwrites it)`,
        'shellward: init: .husky/pre-commit already runs shellward; left as it is',
      ].join('\n'),
    );
    // The built CLI pins the commit it was built from (dist/build-info.json).
    const built = JSON.parse(await readFile(join(REPO, 'dist/build-info.json'), 'utf8')) as { commit: string | null };
    const wf = await readFile(join(dir, '.github/workflows/shellward.yml'), 'utf8');
    if (built.commit) expect(wf).toContain(`- uses: shellward/shellward@${built.commit} #`);
    else expect(String(again.stderr)).toContain('git ls-remote');
    const forced = await shellward(['init', '--force'], { cwd: dir });
    expect(forced.exitCode).toBe(0);
    // The written config is what lint loads.
    await writeFile(join(dir, 'a.sh'), '#!/bin/sh\necho hi\n');
    const lint = await shellward(['lint', '--no-color', 'a.sh'], { cwd: dir });
    expect(lint.exitCode).toBe(0);
    expect(String(lint.stderr)).toBe('');
  });
});
