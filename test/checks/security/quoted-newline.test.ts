import { describe, expect, it } from 'vitest';
import { detect } from '../../../src/checks/security/quoted-newline.js';
import { commandForText } from '../../../src/checks/security/statement.js';
import { SECURITY_BATTERY } from '../../../src/checks/index.js';
import { expectNone, expectOne } from './lint.js';

const ID = 'quoted-newline';

describe(ID, () => {
  it.each([
    // claude-code-reference.md §1.6 ID 23
    ["mv ./decoy '\n#' ~/.ssh/id_rsa ./exfil_dir", '2:1'],
    ['echo "a\n   # b"', '2:1'],
    ["cp x 'a\n\t#b' /etc/shadow .", '2:1'],
  ])('reports %j', async (cmd, at) => {
    await expectOne(ID, cmd, at);
  });

  it.each([
    ["echo 'line1\nline2'"], // other multi-line quoted arguments pass
    ["printf 'a\n  b #x'"],
    ['echo x\n# comment'], // unquoted newline: not this rule
    ["echo 'a#b'"], // no newline
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });

  it('skips quoted heredoc bodies with the parse tree (deviation, both sides tested)', async () => {
    const cmd = "cat <<'EOF'\nit's\n# note\nEOF";
    await expectNone(ID, cmd);
    expect(detect(commandForText(cmd, SECURITY_BATTERY))).toMatchObject({ start: 17 });
  });

  it('is off in the script profile', async () => {
    await expectNone(ID, "mv ./decoy '\n#' ~/.ssh/id_rsa ./exfil_dir", { profile: 'script', granularity: 'script' });
  });
});
