/**
 * The fourth attack review's root cause B when the link is already on disk (a repository may ship
 * `tools/format -> /usr/bin/rm`): a path command word is resolved on this machine, and a link to a
 * denied program is denied, a link out of the project asks while deny rules exist. The machine is
 * a fake path host (`realpath` from a table).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../../src/lint.js';
import { verdictFor } from '../../src/verdict.js';

const LINKS: Readonly<Record<string, string>> = {
  '/work/proj/tools/format': '/usr/bin/rm',
  '/work/proj/myrm': '/bin/rm',
  '/work/proj/bin/py': '/usr/bin/python3.11',
  '/work/proj/node_modules/.bin/vitest': '/work/proj/node_modules/vitest/vitest.mjs',
};

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create({ pathHost: { home: '/home/u', realpath: (p: string) => LINKS[p] ?? p } });
});

const DENY = ['Bash(rm:*)', 'Bash(curl:*)', 'Bash(git push:*)'];
const check = (command: string, allow: string[], deny: string[]) => verdictFor(command, { cwd: '/work/proj', mode: 'default', permissions: { allow, deny, ask: [] } }, linter);

describe('a path command word that is a link on this machine', () => {
  it.each(['./tools/format victim', 'tools/format -rf src', './myrm victim', 'exec ./myrm victim', 'command ./myrm victim', 'env ./myrm victim', 'nice ./myrm victim'])('%j is denied when the link leads to a denied program', (command) => {
    for (const allow of [[], ['Bash'], ['Bash(./tools/format:*)', 'Bash(./myrm:*)']]) {
      const v = check(command, allow, DENY);
      expect(v.decision, `${command} ${allow.join(',')}`).toBe('deny');
    }
    expect(check('./tools/format victim', ['Bash'], DENY).reason).toMatch(/`\.\/tools\/format` is a link to `\/usr\/bin\/rm`/);
  });
  it('a link out of the project asks under deny rules, and not without them', () => {
    expect(check('./bin/py -V', ['Bash'], DENY).decision).toBe('ask');
    expect(check('./bin/py -V', ['Bash'], []).decision).toBe('allow');
  });
  it('a link inside the project, or no link, stays allowed', () => {
    expect(check('./node_modules/.bin/vitest run', ['Bash'], DENY).decision).toBe('allow');
    expect(check('./build.sh', ['Bash'], DENY).decision).toBe('allow');
  });
});
