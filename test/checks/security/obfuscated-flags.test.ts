import { describe, expect, it } from 'vitest';
import { detect } from '../../../src/checks/security/obfuscated-flags.js';
import { commandForText } from '../../../src/checks/security/statement.js';
import { SECURITY_BATTERY } from '../../../src/checks/index.js';
import { expectNone, expectOne } from './lint.js';

const ID = 'obfuscated-flags';

describe(ID, () => {
  // claude-code-reference.md §1.6 ID 4: the sub-check table, in Claude Code's order.
  it.each([
    ["ls $'-la'", '1:4', 5],
    ["'test'$'-exec'", '1:7', 5],
    ["ls $''", '1:4', 5], // empty ANSI-C quoting
    ['ls $"-la"', '1:4', 6],
    ["ls $'\"-la", '1:4', 9], // $ + two quote characters + dash
    ["find . ''-exec rm {} +", '1:8', 7],
    ['find . "" -exec rm {} +', '1:8', 7],
    ["''\"\"-f x", '1:1', 7],
    ['jq """-f" prog.jq', '1:4', 10],
    ['x $x"""-f"', '1:5', 10], // position-agnostic
    ['ls """x"-la', '1:4', 11],
    ['ls \'\'\'x', '1:4', 11],
    // subId 4: whitespace + quote; (a) dashes + flag char inside
    ['find . "-exec" rm {} +', '1:8', 4],
    ["find . '--delete'", '1:8', 4],
    ['ls "-$X"', '1:4', 4],
    // (b) only dashes inside, a flag-continuation character after
    ['ls "-"la', '1:4', 4],
    ["ls '--'output", '1:4', 4],
    ['ls "-"{exec,delete}', '1:4', 4],
    ['ls "-"$VAR', '1:4', 4],
    // (c) chained quoted segments
    ['ls "-""la"', '1:4', 4],
    ['ls "-"\'-\'exec', '1:4', 4],
    ['ls """-"exec', '1:4', 10], // caught earlier by subId 10
    ['ls "" "-"x', '1:7', 4],
    // subId 1: whitespace + dash, quote inside the flag text
    ['find . -e"xec" rm {} +', '1:8', 1],
    ["git -c'core.x=y' status", '1:5', 1],
    // subIds 2 and 3 on the fully unquoted view
    ['ls `-la', '1:4', 2],
    ['ls ``-la', '1:4', 3],
  ] as const)('reports %j (subId %s)', async (cmd, at, subId) => {
    const d = await expectOne(ID, cmd, at);
    expect(d.data).toMatchObject({ checkId: 4, subId });
  });

  it('reports the git-commit dash message as subId 5 at the git-commit position', async () => {
    const d = await expectOne(ID, 'git commit -m "-x"', '1:15');
    expect(d.data).toMatchObject({ checkId: 4, subId: 5, order: 4, misparsing: true });
  });

  it.each([
    ['make test TEST="file.py -v"'], // flags inside quotes
    ["cut -d'\"' -f2 data.csv"], // cut -d special case
    ['ls -- "-"*'], // glob after a dash-only quote
    ['printf "---" x'], // pure dashes followed by whitespace
    ['printf "--" ;'],
    ["printf '%s' 'it'\"'\"'s'"], // the '"'"' idiom
    ["echo $'-x'"], // echo without | & ; is exempt
    ["echo '\"\"\"-f\" text'"], // the documented FP, exempt for echo
    ['grep -e "pattern" file'],
    ['ls -la "dir name"'],
    ["find . -name '*.ts'"],
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });

  it('keeps the known false positive for a literal """-f" inside single quotes', async () => {
    await expectOne(ID, "printf '\"\"\"-f\" text'", '1:9');
  });

  it('does not exempt echo in a compound command', async () => {
    await expectOne(ID, "echo x | sh $'-c'", '1:13');
  });

  it('is off in the script profile: quoting a flag in a script is ordinary (`[ "$1" = "--help" ]`)', async () => {
    const script = { profile: 'script', granularity: 'script' } as const;
    await expectNone(ID, 'if [ "$1" = "--help" ]; then usage; fi', script);
    await expectNone(ID, 'find . "-exec" rm {} +', script);
    // The agent profile, where Claude Code's flag checks are what is being evaded, reports it.
    await expectOne(ID, 'find . "-exec" rm {} +', '1:8');
  });

  // Large adversarial shapes: what the scan finds (its time is measured by `npm run bench`).
  it.each([
    ['a chain of empty segments', 'ls ""' + '``'.repeat(100_000) + 'x', undefined],
    ['chains inside backtick segments', 'ls ""' + '` ""`'.repeat(40_000), undefined],
    ['many whitespace + quote starts', ' "'.repeat(100_000), undefined],
    ['a long flag', ' -' + 'a'.repeat(200_000) + '"', { start: 1, end: 200_003, subId: 1 }],
    ['many empty pairs', " ''".repeat(100_000) + 'x', undefined],
  ])('on %s finds %j', (_name, t, expected) => {
    const hit = detect(commandForText(t, SECURITY_BATTERY));
    expect(hit === undefined ? undefined : { start: hit.start, end: hit.end, subId: hit.subId }).toEqual(expected);
  });
});
