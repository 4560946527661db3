import { describe, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'jq-system-function';

describe(ID, () => {
  it.each([
    ['jq -n \'system("id")\'', '1:8'],
    ["jq '.[] | system (.cmd)' list.json", '1:11'],
    ['jq ".x|system\t(1)"', '1:8'],
  ])('reports %j', async (cmd, at) => {
    await expectOne(ID, cmd, at);
  });

  it.each([
    ["jq '.system' data.json"], // no (
    ["jq '.filesystem(1)' data.json"], // not a word start
    ['echo \'system("id")\''], // not jq
    [' jq \'system("id")\''], // leading space: the base command is empty, as in Claude Code
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });
});
