import { describe, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'ifs-injection';

describe(ID, () => {
  it.each([
    ['cat$IFS/etc/passwd', '1:4'],
    ['cat${IFS}/etc/passwd', '1:4'],
    ['echo ${IFS:0:1}', '1:6'],
    ['echo ${#IFS}', '1:6'],
    ['echo ${x:-$IFS}', '1:6'],
    ["echo '$IFS'", '1:7'], // the raw command is searched, quotes included
    ['echo $IFSX', '1:6'],
    ['echo ${a} ${bIFS}', '1:11'],
  ])('reports %j', async (cmd, at) => {
    await expectOne(ID, cmd, at);
  });

  it.each([
    ['IFS=: read -r a b'],
    ['echo "$PATH"'],
    ['echo IFS'],
    ['echo ${a}IFS'], // a } before IFS ends the expansion
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });
});
