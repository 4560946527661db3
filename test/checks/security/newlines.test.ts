import { describe, expect, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'newlines';

describe(ID, () => {
  it.each([
    ['echo a\nrm -rf /tmp/x', '1:7'],
    ['tr\\\naceroute', '1:4'], // mid-word continuation is still flagged
    ['echo a &&\necho b', '1:10'],
    ['ls\r whoami', '1:3'], // CR counts as well
    ['echo x\n\n\n  y', '1:7'],
  ])('reports %j', async (cmd, at) => {
    const d = await expectOne(ID, cmd, at);
    expect(d.data).toMatchObject({ checkId: 7, misparsing: false, order: 13 });
  });

  it.each([
    ['ls \\\n  --all'], // continuation at a word boundary
    ["echo 'a\nb'"], // quoted newline
    ['echo "a\nb"'],
    ['ls\n'], // trailing newline
    ['ls\n\n  \t'],
    ["cat <<'EOF'\nline one\nline two\nEOF"], // quoted heredoc bodies are inert
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });

  it('checks the view before redirect stripping (no phantom continuation)', async () => {
    // Stripping `>/dev/null` would leave `cmd \` + newline, a fake continuation.
    await expectOne(ID, 'cmd \\>/dev/null\nwhoami', '1:16');
  });

  it('does not see an unquoted heredoc body as separate commands only when the heredoc is quoted', async () => {
    await expectOne(ID, 'cat <<EOF\nhello\nEOF', '1:10');
  });

  it('is off in the script profile, where each statement is checked separately', async () => {
    await expectNone(ID, 'echo a\nrm -rf /tmp/x', { profile: 'script', granularity: 'script' });
    await expectNone(ID, 'echo a\nrm -rf /tmp/x', { profile: 'agent', granularity: 'script' });
  });
});
