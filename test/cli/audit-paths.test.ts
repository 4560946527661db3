import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayBase } from '../../src/cli/audit-command.js';
import { REPO, shellward } from './cli.js';

const FIXTURES = join(REPO, 'test/fixtures/transcripts');

/** The deepest folder holding both absolute paths, computed here independently of the code under test. */
function commonFolder(a: string, b: string): string {
  const x = a.split('/');
  const y = b.split('/');
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return x.slice(0, i).join('/') || '/';
}

describe('audit paths', () => {
  let elsewhere: string;
  beforeAll(async () => {
    elsewhere = await mkdtemp(join(tmpdir(), 'shellward-audit-cwd-'));
  });
  afterAll(async () => {
    await rm(elsewhere, { recursive: true, force: true });
  });

  it('are relative to the deepest folder holding every argument when they lie outside the working directory', async () => {
    expect(await displayBase([join(FIXTURES, 'codex'), join(FIXTURES, 'gemini')], elsewhere)).toBe(FIXTURES);
    expect(await displayBase([join(FIXTURES, 'codex')], elsewhere)).toBe(join(FIXTURES, 'codex'));
    expect(await displayBase(['test/fixtures/transcripts/codex', 'test/fixtures/transcripts/gemini'], REPO)).toBe(REPO);
    expect(await displayBase([join(FIXTURES, 'codex/*.jsonl'), join(FIXTURES, 'gemini')], elsewhere)).toBe(FIXTURES);
    // Nothing in common but the root: the working directory, as before. (The checkout may itself
    // lie in the temporary directory, as CI's fresh clone does: then that folder is in common.)
    const common = commonFolder(join(FIXTURES, 'codex'), elsewhere);
    expect(await displayBase([join(FIXTURES, 'codex'), elsewhere], '/no/such/cwd')).toBe(common === '/' ? '/no/such/cwd' : common);
  });

  it('audit --format markdown of two folders outside the working directory prints no absolute path', async () => {
    const r = await shellward(['audit', '--format', 'markdown', join(FIXTURES, 'codex'), join(FIXTURES, 'gemini')], { cwd: elsewhere });
    const out = String(r.stdout);
    const where = out.split('\n').filter((l) => /^\| [^|]+\.jsonl?:\d+ \|/.test(l));
    expect(where.length).toBeGreaterThan(0);
    for (const l of where) expect(l).toMatch(/^\| (codex|gemini)\//);
    expect(out).not.toContain(FIXTURES);
  });
});
