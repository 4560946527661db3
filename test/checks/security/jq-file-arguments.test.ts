import { describe, expect, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'jq-file-arguments';

describe(ID, () => {
  it.each([
    ['jq -f prog.jq data.json', '1:4', '-f'],
    ['jq --from-file prog.jq data.json', '1:4', '--from-file'],
    ['jq --rawfile k /etc/passwd .', '1:4', '--rawfile'],
    ['jq --slurpfile k other.json .', '1:4', '--slurpfile'],
    ['jq -L /tmp/mods .', '1:4', '-L'],
    ['jq --library-path /tmp/mods .', '1:4', '--library-path'],
    ['jq -r . x.json -f p.jq', '1:16', '-f'],
  ])('reports %j', async (cmd, at, flag) => {
    const d = await expectOne(ID, cmd, at);
    expect(d.data).toMatchObject({ flag, checkId: 3 });
  });

  it.each([
    ['jq . data.json'], // file operands are allowed (path validation handles them)
    ['jq -r .name package.json'],
    ['jq --arg f x .a data.json'],
    ['jq -fx .'], // -f must end the word
    ['jq -rf prog.jq'], // combined short flags are not recognised, as in Claude Code
    ['jqx -f prog.jq'],
    ['jq\t-f p.jq'], // the base command is the text before the first space: `jq\t-f`, as in Claude Code
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });
});
