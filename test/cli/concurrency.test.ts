/**
 * `lint --concurrency`: the report of a run in worker threads is byte for byte the report of a run
 * in the main thread, in every output format, with the same exit code; bad values are usage
 * errors.
 */
import { describe, expect, it } from 'vitest';
import { shellward } from './cli.js';

/** Scripts, Makefiles, CI files, package scripts, a Dockerfile and transcripts of this repository's fixtures. */
const PATHS = ['examples', 'test/fixtures/makefiles', 'test/fixtures/kinds', 'test/fixtures/transcripts'];

describe('lint --concurrency', () => {
  // Two whole CLI runs per format, on a machine that may be busy.
  it.each(['json', 'sarif', 'text'])('gives the report of the main thread in %s, with the same exit code', { timeout: 180_000 }, async (format) => {
    const serial = await shellward(['lint', '--no-color', '--format', format, '--concurrency', 'off', ...PATHS]);
    const pooled = await shellward(['lint', '--no-color', '--format', format, '--concurrency', '3', ...PATHS]);
    // The fixtures have findings, so the comparison is of real reports.
    expect(serial.exitCode).toBe(1);
    expect(String(serial.stdout).length).toBeGreaterThan(1000);
    expect(pooled.exitCode).toBe(serial.exitCode);
    expect(String(pooled.stdout)).toBe(String(serial.stdout));
    expect(String(pooled.stderr)).toBe(String(serial.stderr));
  });

  it('rejects a value that is not a positive number, auto or off', async () => {
    for (const bad of ['0', '-1', '1.5', 'many']) {
      const r = await shellward(['lint', '--concurrency', bad, 'examples']);
      expect(r.exitCode).toBe(2);
      expect(String(r.stderr)).toContain("option '--concurrency <n>' argument");
    }
    const help = String((await shellward(['lint', '--help'])).stdout);
    expect(help).toMatch(/--concurrency <n>\s+worker threads for the files/);
  });
});
