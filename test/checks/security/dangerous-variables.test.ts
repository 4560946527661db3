import { describe, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'dangerous-variables';

describe(ID, () => {
  it.each([
    ['cat $FILE | grep x', '1:5'],
    ['echo hi > $OUT', '1:9'],
    ['echo hi >$OUT', '1:9'],
    ['ls | $CMD', '1:4'],
    ['sort < $IN', '1:6'],
    ['echo $_x|cat', '1:6'],
  ])('reports %j', async (cmd, at) => {
    await expectOne(ID, cmd, at);
  });

  it.each([
    ['echo "$HOME" | cat'], // variables inside quotes are ignored
    ["echo '$x' > out.txt"],
    ['cat file.txt | grep x'],
    ['echo "$x" > out.txt'],
    ['echo $1 | cat'], // not an identifier start
    ['echo $x y | cat'],
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });
});
