import { describe, expect, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'input-redirection';

describe(ID, () => {
  it.each([
    ['cat < /etc/passwd', '1:5'],
    ['wc -l < file.txt', '1:7'],
    ['cat <<EOF\nhi $USER\nEOF', '1:5'], // unquoted heredoc whose body expands: it stays visible
    ['cat </dev/nullx', '1:5'], // boundary rule
  ])('reports %j', async (cmd, at) => {
    const d = await expectOne(ID, cmd, at);
    expect(d.data).toMatchObject({ checkId: 9, misparsing: false, order: 17 });
  });

  it.each([
    ['cat file.txt </dev/null'],
    ['cat file.txt < /dev/null'],
    ['echo "<tag>"'],
    ["echo '<'"],
    ['ls 2>&1'],
    ["cat <<'EOF'\nhi\nEOF"], // a quoted heredoc becomes a placeholder
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });
});
