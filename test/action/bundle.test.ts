/**
 * The committed Action bundle (action/dist/) is what action.yml runs, so it must be exactly what
 * `npm run bundle` builds from the current sources and lockfile: rebuild it into a temporary
 * directory and compare byte for byte. A failure means: run `npm run bundle` and commit
 * action/dist/.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const COMMITTED = join(ROOT, 'action/dist');
const STALE = 'action/dist is stale: run `npm run bundle` and commit action/dist/';

let fresh: string;

beforeAll(async () => {
  fresh = await mkdtemp(join(tmpdir(), 'shellward-bundle-'));
  await promisify(execFile)(process.execPath, [join(ROOT, 'scripts/bundle-action.mjs'), '--outdir', fresh], { cwd: ROOT });
}, 120_000);

afterAll(async () => {
  await rm(fresh, { recursive: true, force: true });
});

async function files(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}

describe('action/dist', () => {
  it('holds exactly the files npm run bundle writes', async () => {
    const built = await files(fresh);
    expect(built).toEqual(expect.arrayContaining(['index.mjs', 'tree-sitter.wasm', 'tree-sitter-bash.wasm', 'THIRD_PARTY_LICENSES.txt']));
    expect(await files(COMMITTED), STALE).toEqual(built);
  });

  it('is byte-identical to a fresh build', async () => {
    const stale: string[] = [];
    for (const name of await files(fresh)) {
      const [a, b] = await Promise.all([readFile(join(fresh, name)), readFile(join(COMMITTED, name)).catch(() => Buffer.alloc(0))]);
      if (!a.equals(b)) stale.push(name);
    }
    expect(stale, `${STALE} (differs: ${stale.join(', ')})`).toEqual([]);
  });

  it('is deterministic: a second build is byte-identical to the first', async () => {
    const again = await mkdtemp(join(tmpdir(), 'shellward-bundle-'));
    try {
      await promisify(execFile)(process.execPath, [join(ROOT, 'scripts/bundle-action.mjs'), '--outdir', again], { cwd: ROOT });
      for (const name of await files(fresh)) expect((await readFile(join(again, name))).equals(await readFile(join(fresh, name))), name).toBe(true);
    } finally {
      await rm(again, { recursive: true, force: true });
    }
  }, 120_000);
});
