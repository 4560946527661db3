/**
 * `shellward lint` flags every allow rule whose program takes code-running options, by name, in a
 * Claude Code settings file and in a shellward config.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellward } from './cli.js';

const DANGEROUS = [
  'Bash(git diff:*)', 'Bash(sort:*)', 'Bash(find:*)', 'Bash(git grep:*)', 'Bash(rg:*)', 'Bash(man:*)', 'Bash(tar:*)', 'Bash(zip:*)',
  'Bash(vim:*)', 'Bash(make:*)', 'Bash(git log:*)', 'Bash(git:*)', 'Bash(npm run:*)', 'Bash(go test:*)',
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'shellward-overbroad-'));
  await writeFile(join(dir, 'package.json'), '{"name":"p"}');
  await mkdir(join(dir, '.claude'));
  await writeFile(join(dir, '.claude/settings.json'), JSON.stringify({ permissions: { allow: DANGEROUS } }, null, 2));
  await mkdir(join(dir, 'cfg'));
  await writeFile(join(dir, 'cfg/package.json'), '{"name":"q"}');
  // cfg is a project of its own (a repository top): its config's allow rules are its policy.
  await mkdir(join(dir, 'cfg/.git'));
  await writeFile(join(dir, 'cfg/.git/HEAD'), 'ref: refs/heads/main\n');
  await writeFile(join(dir, 'cfg/shellward.config.json'), JSON.stringify({ claudeSettings: false, permissions: { allow: DANGEROUS } }, null, 2));
  await writeFile(join(dir, 'x.sh'), '#!/bin/sh\necho hi\n');
  await writeFile(join(dir, 'cfg/x.sh'), '#!/bin/sh\necho hi\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('policy-overbroad-allow names code-running options', () => {
  it.each([
    ['a Claude Code settings file', '.', '.claude/settings.json'],
    ['a shellward config', 'cfg', 'shellward.config.json'],
  ])('in %s', async (_what, sub, file) => {
    const r = await shellward(['lint', 'x.sh'], { cwd: join(dir, sub) });
    const out = String(r.stdout);
    for (const rule of DANGEROUS) {
      const line = out.split('\n').find((l) => l.includes(file) && l.includes(`\`${rule}\``) && l.includes('[policy-overbroad-allow]'));
      expect(line, `${rule} in ${out}`).toBeDefined();
    }
    expect(out).toContain('`--compress-program`');
    expect(out).toContain('`--ext-diff`');
  });
});
