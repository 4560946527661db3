/**
 * The README's pre-commit framework hook, for real: `pre-commit try-repo` installs this checkout
 * the way `.pre-commit-config.yaml` users get it (`language: node`: `npm pack` + install into an
 * isolated environment) and runs the `shellward` hook on a staged script. Skipped, with the
 * reason, where the `pre-commit` tool is not installed (`.ci/run` installs Debian's package).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

function preCommitMissing(): string | undefined {
  try {
    execFileSync('pre-commit', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'the pre-commit tool is not installed';
  }
}

const skip = preCommitMissing();
const ROOT = resolve(import.meta.dirname, '../..');

describe.skipIf(skip !== undefined)(`pre-commit framework hook${skip ? ` (skipped: ${skip})` : ''}`, () => {
  it('installs from this repository and blocks a staged script with an error finding', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-pre-commit-'));
    try {
      await execa('git', ['init', '-q'], { cwd: dir });
      await writeFile(join(dir, 'bad.sh'), '#!/bin/sh\nrm -rf /\n');
      await writeFile(join(dir, 'good.sh'), '#!/bin/sh\necho ok\n');
      await execa('git', ['add', '.'], { cwd: dir });
      const env = { ...process.env, PRE_COMMIT_HOME: join(dir, '.cache') };
      const r = await execa('pre-commit', ['try-repo', ROOT, 'shellward', '--files', 'bad.sh', 'good.sh'], { cwd: dir, env, reject: false });
      const out = String(r.stdout);
      expect(r.exitCode, out).toBe(1);
      expect(out).toContain('bad.sh:2:8: error: `rm -rf /` removes the root directory. [path-dangerous-removal]');
      expect(out).not.toContain('good.sh:');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
