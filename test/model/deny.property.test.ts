/**
 * Property: whatever wrappers, expansions, nesting and option spellings are composed around a
 * denied program, the decision is never `allow` — with the deny rule alone and with `Bash`
 * (allow everything) beside it. The seed is fixed in CI (test/setup.ts).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../../src/lint.js';
import { verdictFor } from '../../src/verdict.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create();
});

const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** One layer around a command string `c` (already shell text). */
const LAYERS: readonly ((c: string) => string)[] = [
  (c) => `sudo ${c}`,
  (c) => `env FOO=1 ${c}`,
  (c) => `timeout 5 ${c}`,
  (c) => `nice -n 5 ${c}`,
  (c) => `nohup ${c}`,
  (c) => `command ${c}`,
  (c) => `xargs ${c} < list`,
  (c) => `strace -f ${c}`,
  (c) => `taskset -c 0 ${c}`,
  (c) => `chroot / ${c}`,
  (c) => `busybox ${c}`,
  (c) => `sh -c ${sq(c)}`,
  (c) => `bash -lc ${sq(c)}`,
  (c) => `eval ${sq(c)}`,
  (c) => `echo ${sq(c)} | sh`,
  (c) => `sh <<'EOF'\n${c}\nEOF`,
  (c) => `flock /tmp/l -c ${sq(c)}`,
  (c) => `trap ${sq(c)} EXIT`,
  (c) => `(${c})`,
  (c) => `{ ${c}; }`,
  (c) => `echo "$(${c})"`,
  (c) => `for i in 1; do ${c}; done`,
  (c) => `if true; then ${c}; fi`,
  (c) => `f() { ${c}; }; f`,
  (c) => `true && ${c}`,
  (c) => `ls | ${c}`,
  (c) => `${c} &`,
  (c) => `cd sub && ${c}`,
];

/** Spellings of the program itself. */
const PROGRAM = fc.constantFrom('rm', '/bin/rm', '/usr/bin/rm', '\\rm', "'rm'", '"rm"', 'r""m', "r''m", '{rm,-f}', '${RM:-rm}', '`echo rm`', '$(echo rm)',
  // Globs and empty substitutions inside the command word (second attack review).
  'r``m', '/bin/[r]m', '/usr/bin/r?', '/???/r?', 'r*', '/usr/*/rm', 'r`true`m', 'r$(true)m');
const OPTIONS = fc.constantFrom('', '-rf', '-r -f', '--recursive --force', '-f --', '--rec --for');

const COMMAND = fc
  .tuple(PROGRAM, OPTIONS, fc.array(fc.integer({ min: 0, max: LAYERS.length - 1 }), { maxLength: 3 }), fc.constantFrom('x', 'a.txt', '"$f"'))
  .map(([p, o, layers, target]) => layers.reduce((c, k) => LAYERS[k]!(c), [p, o, target].filter((x) => x !== '').join(' ')));

describe('compositions around a denied program', () => {
  it('are never allowed under a deny rule, with or without allow-all', () => {
    fc.assert(
      fc.property(COMMAND, (c) => {
        for (const permissions of [{ deny: ['Bash(rm:*)'] }, { deny: ['Bash(rm:*)'], allow: ['Bash'] }]) {
          const v = verdictFor(c, { cwd: '/work/proj', permissions }, linter);
          if (v.decision === 'allow') throw new Error(`allowed: ${JSON.stringify(c)} ${JSON.stringify(permissions)} (${v.reason})`);
        }
      }),
      { numRuns: 600 },
    );
    expect(true).toBe(true);
  });
});
