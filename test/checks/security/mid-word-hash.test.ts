import { describe, expect, it } from 'vitest';
import { buildSecurityViews } from '../../../src/analyses/security-views.js';
import { expectNone, expectOne } from './lint.js';

const ID = 'mid-word-hash';

describe(ID, () => {
  it.each([
    ["echo 'x'#", '1:9'], // the kept quote delimiter reveals the adjacency (claude-code-reference.md §1.3: 'x'# → ''#)
    ['echo a#b', '1:7'],
    ['echo "x"#y', '1:9'],
    ['foo\\\n#bar', '2:1'], // continuation-joined view
    ['echo \\$#', '1:8'], // an escaped $ does not make a variable
    ['curl https://x.org/#frag', '1:20'],
  ])('reports %j', async (cmd, at) => {
    await expectOne(ID, cmd, at);
  });

  it.each([
    ['echo ${#var}'], // string length
    ["echo '#'"], // inside quotes
    ['echo "a#b"'],
    ['ls # comment'],
    ['echo x\n# comment'],
    ["cat <<'EOF'\na#b\nEOF"], // quoted heredoc body
    ['echo $#'], // deviation: shell-quote reads $# as a variable
    ['foo\\\\\n#bar'], // an even backslash run is no continuation
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });

  it("builds the keep-quote view of claude-code-reference.md §1.3 ('x'# → ''#)", () => {
    expect(buildSecurityViews("echo 'x'#", []).unquotedKeepQuoteChars.text).toBe("echo ''#");
  });
});
