import { describe, expect, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'incomplete-commands';

describe(ID, () => {
  it.each([
    // subId 1: optional whitespace then a tab
    ['\tls', '1:1', 1],
    ['  \tls', '1:3', 1],
    // subId 2: trimmed command starts with -
    ['-rf /tmp/x', '1:1', 2],
    ['   --force', '1:4', 2],
    // subId 3: &&, ||, ;, >, >>, <
    ['&& echo done', '1:1', 3],
    ['|| true', '1:1', 3],
    ['; ls', '1:1', 3],
    ['> out.txt', '1:1', 3],
    ['>> log.txt', '1:1', 3],
    ['  < in.txt', '1:3', 3],
  ] as const)('reports %j (subId %s)', async (cmd, at, subId) => {
    const d = await expectOne(ID, cmd, at);
    expect(d.data).toMatchObject({ checkId: 1, subId, misparsing: true, order: 3 });
  });

  it.each([['echo ok'], ['  ls -la'], ['| grep x'], ['& x'], ['echo -n x']])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });

  it('is off in the script profile', async () => {
    await expectNone(ID, '-rf /tmp/x', { profile: 'script', granularity: 'script' });
  });
});
