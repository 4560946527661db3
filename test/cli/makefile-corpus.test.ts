/**
 * Real input: the machine's own Makefiles (language runtimes and SDKs ship them under /usr/lib,
 * /usr/share, /usr/local and /opt). The files are found by name, named on the command line (as
 * `bench/corpus.sh makefiles` + `--files-from` would), and linted: the run must finish
 * without a crash or an internal error, with valid SARIF. Skipped when the machine has none.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { glob } from 'tinyglobby';
import { validateSarif } from '../report/sarif-schema.js';
import { shellward } from './cli.js';

const ROOTS = ['/usr/share', '/usr/lib', '/usr/local/lib', '/opt'].filter((d) => existsSync(d));

async function findMakefiles(): Promise<string[]> {
  const found: string[] = [];
  for (const cwd of ROOTS) {
    const files = await glob(['**/Makefile', '**/makefile', '**/GNUmakefile', '**/*.mk'], {
      cwd,
      absolute: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      ignore: ['**/node_modules/**'],
      deep: 8,
    });
    found.push(...files);
    if (found.length >= 200) break;
  }
  return found.sort().slice(0, 200);
}

const makefiles = await findMakefiles();

describe.skipIf(makefiles.length === 0)('lint on the machine’s own Makefiles', () => {
  it(`lints ${makefiles.length} Makefiles without a crash, with valid SARIF`, async () => {
    const r = await shellward(['lint', '--format', 'sarif', '--files-from', '-'], { input: makefiles.join('\n') + '\n' });
    expect(String(r.stderr)).toBe('');
    expect([0, 1]).toContain(r.exitCode);
    const log = JSON.parse(String(r.stdout));
    expect(validateSarif(log)).toEqual([]);
    const results = log.runs[0].results as { ruleId: string }[];
    expect(results.some((x) => x.ruleId === 'internal-error')).toBe(false);
  });
});
