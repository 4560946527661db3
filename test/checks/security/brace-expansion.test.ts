import { describe, expect, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'brace-expansion';

describe(ID, () => {
  it.each([
    ["git diff {@'{'0},--output=/tmp/pwned}", '1:10', 2], // Claude Code's example: more } than { after stripping
    ["echo {a'}'", '1:8', 3], // a quoted single brace, reported where it is
    ['echo {a,"{"}', '1:9', 3],
    ['git ls-remote {--upload-pack="touch /tmp/test",test}', '1:15', 1],
    ['echo {1..5}', '1:6', 1],
    ['echo {a,b}', '1:6', 1],
    ['echo {x,{y}}', '1:6', 1], // comma at the outer level before a nested pair
    ['echo {{a}b,c}', '1:6', 1],
    ['echo \\\\{a,b}', '1:8', 1], // an even backslash run does not escape
    ['echo x{a..c}y', '1:7', 1],
  ] as const)('reports %j (subId %s)', async (cmd, at, subId) => {
    const d = await expectOne(ID, cmd, at);
    expect(d.data).toMatchObject({ checkId: 16, subId });
  });

  it.each([
    ["awk '{print $1}' f"], // quoted braces
    ['echo \\{a,b\\}'], // escaped braces
    ['echo {foo'], // unclosed
    ['echo {a,b'],
    ['git stash show stash@{0}'],
    ['find . -exec ls {} +'],
    ['echo {{.X}}'],
    ['echo {a}{b}'],
    ['echo "{a,b}"'],
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });

  it('runs in linear time on deep nesting', async () => {
    const deep = 'echo ' + '{'.repeat(50_000) + 'a' + '}'.repeat(50_000);
    await expectNone(ID, deep);
  });
});
