/** `shellward lint --changed` and `--sarif-category`, through the built CLI in temporary git repositories. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as Sarif from 'sarif';
import { describe, expect, it } from 'vitest';
import { commitAll, git, gitRepo as newRepo } from '../git-repo.js';
import { validateSarif } from '../report/sarif-schema.js';
import { shellward } from './cli.js';




/** The finding lines of a text report as `file:line [rule]`. */
function findings(stdout: unknown): string[] {
  return String(stdout)
    .split('\n')
    .filter((l) => /^\S.*:\d+:\d+: /.test(l))
    .map((l) => l.replace(/:\d+: .*\[/, ' ['));
}

/** main: two scripts with old findings; feature: a new line in one, a new file, an untouched file. */
async function featureBranch(): Promise<string> {
  const dir = await gitRepo();
  await mkdir(join(dir, 'scripts'));
  await writeFile(join(dir, 'scripts/build.sh'), '#!/bin/sh\nrm -rf build\necho done\n');
  await writeFile(join(dir, 'old.sh'), '#!/bin/sh\ngit reset --hard\n');
  await commitAll(dir, 'init');
  await git(dir, 'checkout', '-q', '-b', 'feature');
  await writeFile(join(dir, 'scripts/build.sh'), '#!/bin/sh\nrm -rf build\necho done\ngit clean -fdx\n');
  await writeFile(join(dir, 'new script.sh'), '#!/bin/sh\necho start\ngit push --force\n');
  await commitAll(dir, 'feature');
  return dir;
}

describe('lint --changed', () => {
  it('lints only changed files and drops findings on lines the change did not touch', async () => {
    const dir = await featureBranch();
    const r = await shellward(['lint', '--no-color', '--fail-on', 'none', '--changed'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(findings(r.stdout)).toEqual(['new script.sh:3 [git-push-force]', 'scripts/build.sh:4 [git-clean-force]']);
    const main = (await git(dir, 'rev-parse', 'main')).slice(0, 7);
    expect(String(r.stderr)).toBe(
      `shellward: --changed: comparing with main (${main})\nshellward: 1 finding on lines the change did not touch not shown (--all-lines shows them)`,
    );

    const all = await shellward(['lint', '--no-color', '--fail-on', 'none', '--changed', '--all-lines'], { cwd: dir });
    expect(findings(all.stdout)).toEqual(['new script.sh:3 [git-push-force]', 'scripts/build.sh:2 [rm-recursive-force]', 'scripts/build.sh:4 [git-clean-force]']);
    expect(String(all.stderr)).toBe(`shellward: --changed: comparing with main (${main})`);
  });

  it('lints the changes from a subdirectory, with or without paths, relative to the repository root', async () => {
    const dir = await featureBranch();
    for (const args of [[], ['.'], ['build.sh']]) {
      const r = await shellward(['lint', '--no-color', '--fail-on', 'none', '--changed', ...args], { cwd: join(dir, 'scripts') });
      expect(findings(r.stdout), args.join(' ')).toEqual(['scripts/build.sh:4 [git-clean-force]']);
      expect(String(r.stderr)).toMatch(/^shellward: --changed: comparing with main \([0-9a-f]{7}\)\n/);
    }
  });

  it('names the merge base when the base moved on, and says when the merge base is HEAD itself', async () => {
    const dir = await featureBranch();
    const fork = (await git(dir, 'rev-parse', 'main')).slice(0, 7);
    await git(dir, 'checkout', '-q', 'main');
    await writeFile(join(dir, 'later.sh'), 'echo later\n');
    await commitAll(dir, 'later on main');
    const main = (await git(dir, 'rev-parse', 'main')).slice(0, 7);
    await git(dir, 'checkout', '-q', 'feature');
    const r = await shellward(['lint', '--no-color', '--fail-on', 'none', '--changed', '--all-lines'], { cwd: dir });
    expect(findings(r.stdout)).toHaveLength(3);
    expect(String(r.stderr)).toBe(`shellward: --changed: comparing with main (${main}, merge base ${fork})`);

    // origin/HEAD pointing at the current branch: the base is HEAD, nothing can have changed.
    const head = (await git(dir, 'rev-parse', 'HEAD')).slice(0, 7);
    await git(dir, 'update-ref', 'refs/remotes/origin/feature', 'HEAD');
    await git(dir, 'symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/feature');
    const same = await shellward(['lint', '--no-color', '--changed'], { cwd: join(dir, 'scripts') });
    expect(same.exitCode).toBe(0);
    expect(String(same.stdout)).toBe('No problems found; 0 files checked');
    expect(String(same.stderr)).toBe(
      `shellward: --changed: comparing with origin/feature (${head})\n` +
        'shellward: --changed: HEAD is already in origin/feature (the merge base is HEAD): nothing has changed relative to it, so nothing is linted ' +
        '(uncommitted changes are not compared; --staged lints the index, --base names another base)',
    );
  });

  it('narrows to the given paths, shows paths relative to the repository root, and takes --base', async () => {
    const dir = await featureBranch();
    const r = await shellward(['lint', '--no-color', '--fail-on', 'none', '--changed', '--base', 'main', '.'], { cwd: join(dir, 'scripts') });
    expect(findings(r.stdout)).toEqual(['scripts/build.sh:4 [git-clean-force]']);
    // An explicit file that did not change is not linted.
    const none = await shellward(['lint', '--no-color', '--changed', 'old.sh'], { cwd: dir });
    expect(none.exitCode).toBe(0);
    expect(findings(none.stdout)).toEqual([]);
  });

  it('does not fail on findings it dropped', async () => {
    const dir = await gitRepo();
    await writeFile(join(dir, 'a.sh'), '#!/bin/sh\ngit reset --hard\n');
    await commitAll(dir, 'init');
    await git(dir, 'checkout', '-q', '-b', 'feature');
    await writeFile(join(dir, 'a.sh'), '#!/bin/sh\ngit reset --hard\necho new\n');
    await commitAll(dir, 'feature');
    const r = await shellward(['lint', '--no-color', '--fail-on', 'note', '--changed'], { cwd: dir });
    expect(findings(r.stdout)).toEqual([]);
    expect(r.exitCode).toBe(0);
    const all = await shellward(['lint', '--no-color', '--fail-on', 'note', '--changed', '--all-lines'], { cwd: dir });
    expect(all.exitCode).toBe(1);
  });

  it('writes SARIF with repository-relative URIs and the category', async () => {
    const dir = await featureBranch();
    const r = await shellward(['lint', '--format', 'sarif', '--sarif-category', 'shellward', '--fail-on', 'none', '--changed', '..'], { cwd: join(dir, 'scripts') });
    expect(r.exitCode).toBe(0);
    const log = JSON.parse(String(r.stdout)) as Sarif.Log;
    expect(validateSarif(log)).toEqual([]);
    expect(log.runs[0]!.automationDetails).toEqual({ id: 'shellward/' });
    expect(log.runs[0]!.results!.map((x) => x.locations![0]!.physicalLocation!.artifactLocation)).toEqual([
      { uri: 'new%20script.sh', uriBaseId: '%SRCROOT%' },
      { uri: 'scripts/build.sh', uriBaseId: '%SRCROOT%' },
    ]);
  });

  it('names the base when it does not resolve, and refuses --staged with --changed', async () => {
    const dir = await featureBranch();
    const bad = await shellward(['lint', '--changed', '--base', 'origin/main'], { cwd: dir });
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toBe(
      'shellward: --changed: base ref "origin/main" does not resolve to a commit; fetch it first (in GitHub Actions, check out with `fetch-depth: 0`)',
    );
    expect(String(bad.stdout)).toBe('');
    const both = await shellward(['lint', '--changed', '--staged'], { cwd: dir });
    expect(both.exitCode).toBe(2);
    expect(String(both.stderr)).toBe('shellward: --staged and --changed cannot be combined');
  });

  it('says when no default base exists', async () => {
    const dir = await gitRepo('dev');
    await writeFile(join(dir, 'a.sh'), 'echo\n');
    await commitAll(dir, 'init');
    const r = await shellward(['lint', '--changed'], { cwd: dir });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toBe('shellward: --changed: no base branch found (origin/HEAD, main, master, origin/main, origin/master); name one with --base');
  });
});

/** A new repository for these tests. */
function gitRepo(branch = 'main'): Promise<string> {
  return newRepo(branch, 'shellward-changed-cli-');
}
