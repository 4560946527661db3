/**
 * Real input: the machine's own shell scripts (Debian ships hundreds in /usr/bin, /usr/sbin,
 * /usr/lib and /etc). The whole directories are given, so discovery and shebang detection run
 * too. Asserts the run completes without a crash, every shell script found is analysed or
 * reported with a reason, and the SARIF validates.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { codeScanningViolations } from '../report/code-scanning.js';
import { validateSarif } from '../report/sarif-schema.js';
import { shellward } from './cli.js';

const DIRS = ['/usr/bin', '/usr/sbin', '/usr/lib/git-core', '/etc'].filter((d) => existsSync(d));

describe('lint on the machine’s own shell scripts', () => {
  it('finishes with exit 0 or 1 and valid SARIF', async () => {
    const r = await shellward(['lint', '--format', 'sarif', ...DIRS]);
    expect(String(r.stderr)).toBe('');
    expect([0, 1]).toContain(r.exitCode);
    const log = JSON.parse(String(r.stdout));
    expect(validateSarif(log)).toEqual([]);
    // Absolute paths outside the repository: still hashed (the files can be read).
    expect(codeScanningViolations(log, String(r.stdout), { requireLineHash: true })).toEqual([]);
    const results = log.runs[0].results as { ruleId: string }[];
    expect(results.some((x) => x.ruleId === 'internal-error')).toBe(false);
  });

  it('analyses every shell script it finds (JSON lists each file)', async () => {
    const r = await shellward(['lint', '--format', 'json', '--fail-on', 'none', ...DIRS]);
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(String(r.stdout)) as { summary: { files: number }; results: { file: string }[] };
    expect(doc.results.length).toBe(doc.summary.files);
    // A Debian machine has well over a hundred shell scripts in these directories.
    expect(doc.summary.files).toBeGreaterThan(process.platform === 'linux' ? 50 : 0);
  });
});
