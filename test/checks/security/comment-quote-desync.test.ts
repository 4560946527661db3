import { describe, expect, it } from 'vitest';
import { detect } from '../../../src/checks/security/comment-quote-desync.js';
import { commandForText } from '../../../src/checks/security/statement.js';
import { SECURITY_BATTERY } from '../../../src/checks/index.js';
import { expectNone, expectOne } from './lint.js';

const ID = 'comment-quote-desync';

describe(ID, () => {
  it.each([
    ["ls # don't", '1:4'],
    ['echo ok # say "hi', '1:9'],
    ['ls # "it\'s"', '1:4'],
    ["ls # 'a' <<'M'\necho x\nM", '1:4'],
    // the attack of the Claude Code source: the comment's quotes would swallow the next line
    ["echo \"it's\" # ' \" <<'MARKER'\nrm -rf /tmp/x\nMARKER", '1:13'],
    ["ls\n  # it's here\necho x", '2:3'],
  ])('reports %j', async (cmd, at) => {
    await expectOne(ID, cmd, at);
  });

  it.each([
    ['ls # plain comment'],
    ['echo "a # b\'s"'], // # inside quotes
    ["echo 'a # b\"s'"],
    ['echo \\# "x"'], // escaped #
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });

  describe('with the parse tree (deviation, both sides tested)', () => {
    it('a comment whose quotes pair up leaves every quote tracker in step', async () => {
      await expectNone(ID, 'echo ok # say "hi"');
      await expectNone(ID, "# the 'x' flag\nls");
      expect(detect(commandForText('echo ok # say "hi"', SECURITY_BATTERY))).toMatchObject({ start: 8 }); // regex path
    });

    it('a mid-word # is not a comment for bash or tree-sitter', async () => {
      await expectNone(ID, "echo a#'b'");
      expect(detect(commandForText("echo a#'b'", SECURITY_BATTERY))).toMatchObject({ start: 6 }); // regex path
    });

    it('a # line inside a quoted heredoc body is stdin text', async () => {
      const cmd = "cat <<'EOF'\n# it's\nEOF";
      await expectNone(ID, cmd);
      expect(detect(commandForText(cmd, SECURITY_BATTERY))).toMatchObject({ start: 12 }); // regex path
    });

    it('falls back to the regex behaviour when the parse has a syntax error', async () => {
      await expectOne(ID, "echo a#'b' (", '1:7');
    });
  });
});
