import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { lintProgress, progressWanted } from '../../src/cli/progress.js';
import { shellward } from './cli.js';

/** A stream that records what is written, optionally claiming to be a terminal. */
function sink(isTTY: boolean): PassThrough & { isTTY?: boolean; columns?: number; text(): string } {
  const s = new PassThrough() as PassThrough & { isTTY?: boolean; columns?: number; text(): string };
  const chunks: string[] = [];
  s.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
  if (isTTY) {
    s.isTTY = true;
    s.columns = 120;
  }
  s.text = () => chunks.join('');
  return s;
}

describe('progressWanted', () => {
  it('is on for a terminal outside CI, off for a pipe or in CI, and the flags win', () => {
    expect(progressWanted(undefined, { isTTY: true }, {})).toBe(true);
    expect(progressWanted(undefined, { isTTY: false }, {})).toBe(false);
    expect(progressWanted(undefined, {}, {})).toBe(false);
    expect(progressWanted(undefined, { isTTY: true }, { CI: 'true' })).toBe(false);
    expect(progressWanted(undefined, { isTTY: true }, { CI: '1' })).toBe(false);
    expect(progressWanted(undefined, { isTTY: true }, { CI: 'false' })).toBe(true);
    expect(progressWanted(undefined, { isTTY: true }, { CI: '' })).toBe(true);
    expect(progressWanted(false, { isTTY: true }, {})).toBe(false);
    expect(progressWanted(true, { isTTY: false }, { CI: 'true' })).toBe(true);
  });
});

describe('lintProgress', () => {
  it('draws nothing before the delay and nothing for a run that is already done', () => {
    let t = 0;
    const out = sink(true);
    const p = lintProgress(out, 500, () => t);
    p.update(0, 40, 0);
    t = 499;
    p.update(10, 40, 1000);
    t = 2000;
    p.update(40, 40, 5000);
    p.stop();
    expect(out.text()).toBe('');
  });

  it('on a terminal draws files done of total and megabytes in place, and clears the line on stop', () => {
    let t = 0;
    const out = sink(true);
    const p = lintProgress(out, 500, () => t);
    t = 600;
    p.update(12, 40, 3_400_000);
    const drawn = out.text();
    expect(drawn).toContain('shellward lint [');
    expect(drawn).toContain('12/40 files · 3.4 MB');
    expect(drawn).not.toContain('\n');
    p.stop();
    // The last thing written erases the line (ESC [ 2 K), so the report starts on a clean line.
    expect(out.text().endsWith('\x1b[2K')).toBe(true);
    p.stop();
    p.update(13, 40, 0);
    expect(out.text().endsWith('\x1b[2K')).toBe(true);
  });

  it('on a stream that is not a terminal (forced with --progress) writes plain lines without cursor movement', () => {
    let t = 0;
    const out = sink(false);
    const p = lintProgress(out, 0, () => t);
    t = 1;
    p.update(3, 9, 0);
    p.stop();
    expect(out.text()).toMatch(/^shellward lint \[[^\]]+\] 3\/9 files · 0\.0 MB/);
    expect(out.text()).not.toContain('\x1b');
  });
});

describe('lint progress from the CLI', () => {
  it('prints no progress when stderr is not a terminal, and --help documents --progress and --no-progress', async () => {
    const r = await shellward(['lint', 'examples']);
    expect(String(r.stderr)).not.toContain('shellward lint [');
    const help = String((await shellward(['lint', '--help'])).stdout);
    expect(help).toContain('--progress');
    expect(help).toContain('--no-progress');
  });
});
