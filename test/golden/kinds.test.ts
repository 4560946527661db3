/**
 * Golden tests of whole project trees (test/fixtures/kinds/<name>/): `shellward lint .` run in the
 * tree by the built CLI, its text output compared with `<name>.out`. `real-project` holds real
 * workflows, Dockerfiles and a package.json of public repositories (its README names them);
 * `ci-configs` the corners of every other kind. `UPDATE_GOLDEN=1` rewrites the `.out` files
 * (review them by eye). Run `npm run build` first.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { checkGolden } from './golden.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIR = join(ROOT, 'test/fixtures/kinds');
const BIN = join(ROOT, 'dist/src/cli/bin.js');

const trees = readdirSync(DIR).filter((f) => statSync(join(DIR, f)).isDirectory()).sort();

describe('lint . on project trees', () => {
  it('has the trees', () => {
    expect(trees).toEqual(['ci-configs', 'real-project']);
  });

  it.each(trees)('%s matches its golden output', async (name) => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.FORCE_COLOR;
    const r = await execa(process.execPath, [BIN, 'lint', '--no-color', '--profile', 'script', '.'], { cwd: join(DIR, name), env, extendEnv: false, reject: false });
    expect(r.stderr).toBe('');
    const diff = checkGolden(join(DIR, `${name}.out`), String(r.stdout));
    expect(diff).toBeUndefined();
  }, 60_000);
});
