import { describe, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'backslash-escaped-whitespace';

describe(ID, () => {
  it.each([
    ['echo\\ test/../../../usr/bin/touch /tmp/file', '1:5'], // claude-code-reference.md §1.6 ID 15
    ['cat file\\ name', '1:9'],
    ['ls a\\\tb', '1:5'],
    ['echo "x" a\\ b', '1:11'],
  ])('reports %j', async (cmd, at) => {
    await expectOne(ID, cmd, at);
  });

  it.each([
    ['echo "a\\ b"'], // inside double quotes
    ["echo 'a\\ b'"], // inside single quotes
    ['ls \\\\ x'], // an escaped backslash, then a real space
    ['cat "file name"'],
    ['echo "a\\"" b'], // an escaped quote keeps the tracker in step
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });
});
