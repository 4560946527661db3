import { describe, expect, it } from 'vitest';
import { detect } from '../../../src/checks/security/backslash-escaped-operators.js';
import { commandForText } from '../../../src/checks/security/statement.js';
import { SECURITY_BATTERY } from '../../../src/checks/index.js';
import { expectNone, expectOne } from './lint.js';

const ID = 'backslash-escaped-operators';

describe(ID, () => {
  it.each([
    ['cat safe.txt \\; echo ~/.ssh/id_rsa && true', '1:14'],
    ['find . -exec rm {} \\; && echo done', '1:20'],
    ['tac "x\\"y" \\; echo ~/.ssh/id_rsa; ls', '1:12'], // \" inside "…" does not desync
    ['cat "x\\\\" \\; echo /etc/passwd; ls', '1:11'], // \\ inside "…" does not desync
    ['echo a \\| b; ls', '1:8'],
    ['echo a \\& b || true', '1:8'],
    ['echo a \\< b; ls', '1:8'],
    ['echo a \\> b; ls', '1:8'],
    ['x=$(echo \\; && y)', '1:10'], // operators nested in a substitution count
  ])('reports %j', async (cmd, at) => {
    await expectOne(ID, cmd, at);
  });

  it.each([
    ['find . \\( -name x -o -name y \\)'], // \( and \) are not operators
    ['echo "a\\;b" && ls'], // inside double quotes
    ["echo 'a\\;b'; ls"], // inside single quotes
    ['echo \\\\; ls'], // even backslashes: the ; is a real operator, not escaped
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });

  describe('without real operator nodes in the parse (deviation from the regex path, both sides tested)', () => {
    it.each([
      ["find . -name '*.pyc' -exec rm {} \\;"],
      ['find . -exec grep -l x {} \\; -print'],
      ['cat safe.txt \\; echo ~/.ssh/id_rsa'], // one cat command for bash and for tree-sitter
      ['cat safe.txt \\; echo /etc/passwd > ./out'], // claude-code-reference.md §1.4 deferral payload
      ['find . -exec rm {} \\; | wc -l'], // a pipe is not an operator node
    ])('passes %j, which the regex path reports', async (cmd) => {
      await expectNone(ID, cmd);
      expect(detect(commandForText(cmd, SECURITY_BATTERY))).toBeDefined();
    });

    it('applies the regex check when the parse has a syntax error', async () => {
      await expectOne(ID, 'cat x \\; echo y (', '1:7');
    });

    it('does not count operators inside comments or quoted heredocs', async () => {
      await expectNone(ID, 'find . -exec rm {} \\; # a; b && c');
      await expectNone(ID, "find . -exec cat {} \\; <<'EOF'\na; b && c\nEOF");
    });
  });
});
