import { describe, expect, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'shell-metacharacters';

describe(ID, () => {
  it.each([
    // subId 1: a whole quoted word with ; or & (only residual quotes count: a ' inside "…")
    ['echo "\'x;y\'"', '1:7', 1], // reported at the surviving quote
    ['echo "\'a&b\'" z', '1:7', 1],
    ['jq "a;b" data.json', '1:4', 1], // jq keeps its double quotes
    // subId 2: -name/-path/-iname + quoted text with ; | &
    ['find . -name "\'a|b\'"', '1:8', 2],
    ['find . -path "\'x;y\'z"', '1:8', 2],
    ['find . -iname "\'a&b\'z"', '1:8', 2],
    // subId 3: -regex + quoted text with ; &
    ['find . -regex "\'a&b\'x"', '1:8', 3],
  ] as const)('reports %j (subId %s)', async (cmd, at, subId) => {
    const d = await expectOne(ID, cmd, at);
    expect(d.data).toMatchObject({ checkId: 5, subId });
  });

  it.each([
    ['echo "a;b"'], // the delimiting quotes are removed from the view
    ["echo 'a;b'"],
    ["find . -name '*.ts'"],
    ['find . -name "*;*"'],
    ['find . -regex "\'a|b\'x"'], // | is not in the -regex set
    ['echo "\'x;y\'"z'], // the closing quote must end the word
    ["echo \\'a\\;b\\'"], // an escaped quote survives, but is preceded by its backslash
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });
});
