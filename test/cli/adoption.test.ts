/**
 * Adopting shellward on an existing repository, through the built CLI in temporary git
 * repositories: inline suppressions in scripts and Makefiles, baselines, `--staged`.
 */
import { mkdir, mkdtemp, readFile, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { shellward } from './cli.js';

/** A new git repository in a temporary directory, with an identity for commits. */
async function gitRepo(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'shellward-repo-'));
  await git(dir, 'init', '-q');
  await git(dir, 'config', 'user.email', 'test@example.com');
  await git(dir, 'config', 'user.name', 'test');
  await git(dir, 'config', 'commit.gpgsign', 'false');
  return dir;
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  return String((await execa('git', args, { cwd })).stdout);
}

/** The finding lines of a text report: `file:line:col: severity: … [rule]`. */
function findings(stdout: unknown): string[] {
  return String(stdout)
    .split('\n')
    .filter((l) => /^\S+:\d+:\d+: /.test(l))
    .map((l) => `${l.replace(/: .*\[/, ' [')}`);
}

describe('inline suppressions', () => {
  it('applies next-line and file-wide directives in scripts and reports the bad ones', async () => {
    const dir = await gitRepo();
    await writeFile(
      join(dir, 'build.sh'),
      [
        '#!/bin/sh',
        '# shellward-disable-file git-reset-hard -- scratch checkout',
        'git reset --hard',
        '# shellward-disable-next-line rm-recursive-force -- generated output',
        'rm -rf build',
        'rm -rf dist',
        '# shellward-disable-next-line rm-recursive-force',
        'rm -rf out',
        '# shellward-disable-next-line no-such-rule -- typo',
        'echo hi',
        '# shellward-disable-next-line rm-recursive-force -- stale',
        'echo hi',
        'git reset --hard',
        '',
      ].join('\n'),
    );
    const r = await shellward(['lint', '--no-color', '--fail-on', 'none', '.'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(findings(r.stdout)).toEqual([
      'build.sh:6:1 [rm-recursive-force]',
      'build.sh:7:1 [suppression-invalid]',
      'build.sh:8:1 [rm-recursive-force]',
      'build.sh:9:1 [suppression-invalid]',
      'build.sh:11:1 [suppression-unused]',
    ]);
  });

  it('applies directives to Makefile recipe lines', async () => {
    const dir = await gitRepo();
    await writeFile(
      join(dir, 'Makefile'),
      [
        '# shellward-disable-file git-reset-hard -- CI only',
        'clean:',
        '\t# shellward-disable-next-line rm-recursive-force -- build/ is generated',
        '\trm -rf build',
        '\trm -rf dist',
        '\tgit reset --hard',
        '# shellward-disable-next-line rm-recursive-force -- nothing here',
        'all: clean',
        '',
      ].join('\n'),
    );
    const r = await shellward(['lint', '--no-color', '--fail-on', 'none', '.'], { cwd: dir });
    expect(findings(r.stdout)).toEqual(['Makefile:5:2 [rm-recursive-force]', 'Makefile:7:1 [suppression-unused]']);
  });

  it('honours the configured severity of the suppression rules', async () => {
    const dir = await gitRepo();
    await writeFile(join(dir, 'a.sh'), '#!/bin/sh\n# shellward-disable-next-line rm-recursive-force\nrm -rf x\n');
    await writeFile(join(dir, '.shellwardrc.json'), JSON.stringify({ rules: { 'suppression-invalid': 'off' } }));
    const r = await shellward(['lint', '--no-color', '--fail-on', 'none', 'a.sh'], { cwd: dir });
    expect(findings(r.stdout)).toEqual(['a.sh:3:1 [rm-recursive-force]']);
  });
});

describe('baselines', () => {
  it('writes the current findings, then reports only new ones, also after lines move', async () => {
    const dir = await gitRepo();
    const script = join(dir, 'deploy.sh');
    await writeFile(script, '#!/bin/sh\nrm -rf build\ngit reset --hard\n');
    const w = await shellward(['lint', '--no-color', '--write-baseline', 'baseline.json', '.'], { cwd: dir });
    expect(w.exitCode).toBe(0);
    expect(String(w.stderr)).toContain('wrote 2 findings to baseline baseline.json');
    expect(findings(w.stdout)).toEqual(['deploy.sh:2:1 [rm-recursive-force]', 'deploy.sh:3:1 [git-reset-hard]']);
    const written = JSON.parse(await readFile(join(dir, 'baseline.json'), 'utf8'));
    expect(written.version).toBe(1);
    expect(typeof written.toolVersion).toBe('string');
    expect(written.entries.map((e: { file: string; ruleId: string }) => [e.file, e.ruleId])).toEqual([
      ['deploy.sh', 'git-reset-hard'],
      ['deploy.sh', 'rm-recursive-force'],
    ]);

    const clean = await shellward(['lint', '--no-color', '--fail-on', 'warning', '--baseline', 'baseline.json', '.'], { cwd: dir });
    expect(findings(clean.stdout)).toEqual([]);
    expect(String(clean.stderr)).toBe('shellward: 2 findings in baseline baseline.json not shown');
    expect(clean.exitCode).toBe(0);

    // New lines above the old findings, and one new finding. `rm -rf dist` inside the project is a
    // note in a script (rules/packs/files.json `inProject`), so fail on notes to see the new one fail.
    await writeFile(script, '#!/bin/sh\nset -eu\necho start\n\nrm -rf build\ngit reset --hard\nrm -rf dist\n');
    const r = await shellward(['lint', '--no-color', '--fail-on', 'note', '--baseline', 'baseline.json', '.'], { cwd: dir });
    expect(findings(r.stdout)).toEqual(['deploy.sh:7:1 [rm-recursive-force]']);
    expect(r.exitCode).toBe(1);
  });

  it('fails with a one-line error naming a missing or malformed baseline', async () => {
    const dir = await gitRepo();
    await writeFile(join(dir, 'a.sh'), '#!/bin/sh\necho hi\n');
    const missing = await shellward(['lint', '--baseline', 'nope.json', 'a.sh'], { cwd: dir });
    expect(missing.exitCode).toBe(2);
    expect(String(missing.stderr)).toBe('shellward: baseline nope.json: no such file');
    await writeFile(join(dir, 'bad.json'), '{"version": 1, "entries": 3}');
    const bad = await shellward(['lint', '--baseline', 'bad.json', 'a.sh'], { cwd: dir });
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toBe('shellward: baseline bad.json: not a shellward baseline (`entries` is not an array)');
    expect(String(bad.stdout)).toBe('');
  });
});

describe('lint --staged', () => {
  it('lints the staged bytes of changed files, not the working tree, with paths as in the repository', async () => {
    const dir = await gitRepo();
    await mkdir(join(dir, 'scripts'));
    await writeFile(join(dir, 'scripts/old.sh'), '#!/bin/sh\nrm -rf build\n');
    await writeFile(join(dir, 'README'), 'text\n');
    await git(dir, 'add', '.');
    await git(dir, 'commit', '-q', '-m', 'init');

    // Staged: a destructive command; working tree: changed to something else entirely.
    await writeFile(join(dir, 'scripts/deploy.sh'), '#!/bin/sh\necho deploy\ngit reset --hard\n');
    await writeFile(join(dir, 'Makefile'), 'clean:\n\trm -rf dist\n');
    await writeFile(join(dir, 'tool'), '#!/bin/bash\ngit clean -fdx\n');
    await writeFile(join(dir, 'notes.txt'), 'rm -rf /\n');
    await git(dir, 'add', 'scripts/deploy.sh', 'Makefile', 'tool', 'notes.txt');
    await writeFile(join(dir, 'scripts/deploy.sh'), '#!/bin/sh\necho safe\n');
    await unlink(join(dir, 'tool'));
    // Unstaged and untracked changes are not linted.
    await writeFile(join(dir, 'scripts/old.sh'), '#!/bin/sh\nrm -rf build\ngit push --force\n');
    await writeFile(join(dir, 'new.sh'), '#!/bin/sh\nrm -rf x\n');

    const r = await shellward(['lint', '--no-color', '--staged'], { cwd: join(dir, 'scripts') });
    expect(r.exitCode).toBe(0);
    expect(findings(r.stdout)).toEqual(['Makefile:2:2 [rm-recursive-force]', 'scripts/deploy.sh:3:1 [git-reset-hard]', 'tool:2:1 [git-clean-force]']);

    // Paths narrow the staged files.
    const narrowed = await shellward(['lint', '--no-color', '--staged', '.'], { cwd: join(dir, 'scripts') });
    expect(findings(narrowed.stdout)).toEqual(['scripts/deploy.sh:3:1 [git-reset-hard]']);

    // Nothing staged: nothing to report.
    await git(dir, 'commit', '-q', '-m', 'second');
    const none = await shellward(['lint', '--no-color', '--staged'], { cwd: dir });
    expect(none.exitCode).toBe(0);
    expect(findings(none.stdout)).toEqual([]);
  });

  it('fails outside a git work tree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-nogit-'));
    const r = await shellward(['lint', '--staged'], { cwd: dir, env: { GIT_CEILING_DIRECTORIES: tmpdir() } });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toBe('shellward: --staged: not inside a git work tree');
  });
});
