import { describe, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'quote-parser-differential';

describe(ID, () => {
  it.each([
    // claude-code-reference.md §1.4 step 2: 'safe\\' '--upload-pack=evil' — even count, another ' later.
    ["git ls-remote 'safe\\\\' '--upload-pack=evil' 'repo'", '1:20'],
    // odd count: always
    ["echo 'abc\\' x", '1:10'],
    ["echo '\\'", '1:7'],
    ["echo '\\\\\\' x", '1:7'],
    // a later ' anywhere, even inside double quotes
    ["echo 'a\\\\' \"it's\"", '1:8'],
  ])('reports %j', async (cmd, at) => {
    await expectOne(ID, cmd, at);
  });

  it.each([
    ["echo 'a\\\\'"], // even count and no later quote: shell-quote backtracks and agrees
    ["echo 'plain' 'x'"],
    ['echo "a\\\\" \'b\''], // backslashes in double quotes do not count
    ["echo it\\'s"], // escaped quote outside quotes
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });
});
