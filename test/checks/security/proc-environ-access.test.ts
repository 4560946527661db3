import { describe, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'proc-environ-access';

describe(ID, () => {
  it.each([
    ['cat /proc/self/environ', '1:5'],
    ['cat /proc/1/environ', '1:5'],
    ['cat /proc/self/../self/environ', '1:5'],
    ["tr '\\0' '\\n' < /proc/$PID/environ", '1:16'],
    ['strings "/proc/12/environ"', '1:10'],
    ['ls /tmp\ncat /proc//environ', '2:5'],
  ])('reports %j', async (cmd, at) => {
    await expectOne(ID, cmd, at);
  });

  it.each([
    ['cat /proc/cpuinfo'],
    ['ls /proc/self/'],
    ['cat /proc/environ'], // needs a path component between
    ['ls /proc/1\ncat /x/environ'], // not on the same line
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });
});
