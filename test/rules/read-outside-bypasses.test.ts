/**
 * Reads outside the project and environment dumps are never auto-allowed: every path fact
 * decides (shellward's extension extractors included), and environment-dumping forms are not
 * read-only. Each is checked with no rules and with a deny rule beside an allow-all rule.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../../src/lint.js';
import { verdictFor } from '../../src/verdict.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create({ pathHost: { home: '/home/u' } });
});

const check = (command: string, allow: string[] = [], deny: string[] = []) =>
  verdictFor(command, { cwd: '/work/proj', permissions: { allow, deny, ask: [] } }, linter);

const OUTSIDE_READS = [
  'tac /etc/passwd', 'rev /etc/passwd', 'fold /etc/passwd', 'expand /etc/passwd', 'pr /etc/passwd', 'comm /etc/passwd x', 'cmp -l /etc/passwd x',
  'tsort /etc/passwd', 'tree /etc', 'tree /', 'du -a /root', 'fd . /root', 'find /', 'ls -R /', 'grep -f ~/p.txt x',
  // Second attack review: response files, format files, page files, start points from a file.
  'strings @/etc/shadow', 'strings a.txt @../outside.txt', 'hexdump -f/etc/shadow a.txt', 'hexdump --format-file=/etc/passwd a.txt',
  'hexdump -Cf/etc/passwd a.txt', "printf '.so /etc/shadow\\n' | man -l /dev/stdin", "printf '/etc\\0' | find -files0-from - -maxdepth 1",
  'info ../outside.txt',
];
const ENV_DUMPS = ['cat /proc/self/environ', 'env', 'printenv', 'printenv AWS_SECRET_ACCESS_KEY', 'set', 'declare -p', 'export -p', 'typeset -p'];

describe('reads outside the working directories ask', () => {
  it.each(OUTSIDE_READS)('%s', (command) => {
    expect(check(command).decision).toBe('ask');
    expect(check(command, ['Bash'], ['Bash(rm:*)']).decision).not.toBe('allow');
  });
  it('the same commands inside the project stay allowed', () => {
    for (const c of ['tac f', 'tree src', 'du -a src', 'fd . src']) expect(check(c).decision, c).toBe('allow');
  });
});

/** Dumps that are proven to write nothing: `readOnly` is a fact, the decision still asks. */
const READ_ONLY_DUMPS = new Set(['cat /proc/self/environ', 'declare -p', 'export -p', 'typeset -p']);

describe('environment dumps ask; readOnly says only whether they write', () => {
  it.each(ENV_DUMPS)('%s', (command) => {
    const v = check(command);
    expect(v.decision).toBe('ask');
    expect(v.readOnly).toBe(READ_ONLY_DUMPS.has(command));
    expect(check(command, [], ['Bash(rm:*)']).decision).toBe('ask');
  });
  it('the bulk-printing builtins say they print the environment', () => {
    for (const c of ['declare -p', 'export -p', 'export', 'declare -x', 'typeset -p HOME']) {
      const v = check(c);
      expect(v.reason, c).toMatch(/^environment-read: .*prints the environment/);
    }
    // An exact allow of the whole command names it; `export FOO=1` prints nothing.
    expect(check('export -p', ['Bash(export -p)']).decision).toBe('allow');
    expect(check('export FOO=1').decision).toBe('allow');
  });
});
