/**
 * Commands longer than the complexity length cap are judged from a scan of the text, without a
 * parse (src/oversized-command.ts, src/rules/oversized.ts): never `allow`, `deny` when a deny
 * rule's program is visible, `ask` with the length as the reason otherwise.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_COMPLEXITY_LENGTH } from '../src/parse/complexity.js';
import { ruleProgram, scanOversized } from '../src/rules/oversized.js';
import { Linter } from '../src/lint.js';
import { policyFrom } from '../src/rules/policy.js';
import { verdictFor, type PermissionRules } from '../src/verdict.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create();
});

const pad = (s: string): string => s + ' ; echo ' + 'x'.repeat(MAX_COMPLEXITY_LENGTH);
const run = (command: string, permissions: PermissionRules) => verdictFor(command, { permissions }, linter);

describe('oversized commands', () => {
  it('deny when a denied program occurs as a word, wherever it sits', () => {
    for (const cmd of ['rm -rf x', 'echo a && /bin/rm -rf x', "r''m -rf x", '\\rm x', 'echo $(rm x)', 'for f in a; do rm "$f"; done']) {
      const v = run(pad(cmd), { deny: ['Bash(rm:*)'] });
      expect(v.decision, cmd).toBe('deny');
      expect(v.reason).toMatch(/^policy-deny: .*`rm` occurs/);
      expect(v.matchedRule?.rule).toBe('Bash(rm:*)');
    }
  });

  it('the historical case: rm -rf x; repeated 10 000 times with a Bash(rm:*) deny rule', () => {
    expect(run('rm -rf x; '.repeat(10_000), { deny: ['Bash(rm:*)'] }).decision).toBe('deny');
  });

  it('ask (never allow) when no denied program is visible, even under allow-all', () => {
    const v = run(pad('ls -la'), { allow: ['Bash(*)'], deny: ['Bash(rm:*)'] });
    expect(v.decision).toBe('ask');
    expect(v.reason).toMatch(/^parse-too-complex: The command is \d+ characters long/);
    expect(v.findings.map((f) => f.ruleId)).toEqual(['parse-too-complex']);
    expect(v.findings[0]!.start).toBe(MAX_COMPLEXITY_LENGTH);
    expect(run(pad('git status'), { allow: ['Bash(git status)'] }).decision).toBe('ask');
  });

  it('a word that only contains the program name does not deny', () => {
    expect(run(pad('echo farm rm-like --rmx'), { deny: ['Bash(rm:*)'] }).decision).toBe('ask');
  });

  it('a deny rule that names no program denies every oversized command', () => {
    expect(run(pad('ls'), { deny: ['Bash(* --force)'] }).decision).toBe('deny');
  });

  it('an ask rule whose program is visible is the reason of the ask', () => {
    const v = run(pad('git push'), { ask: ['Bash(git push:*)'] });
    expect(v.decision).toBe('ask');
    expect(v.reason).toMatch(/^policy-ask: /);
  });

  it('a command at the cap is still parsed and decided', () => {
    const cmd = 'echo ' + 'x'.repeat(MAX_COMPLEXITY_LENGTH - 5);
    expect(cmd.length).toBe(MAX_COMPLEXITY_LENGTH);
    expect(run(cmd, { allow: ['Bash(echo:*)'] }).decision).toBe('allow');
  });
});

describe('ruleProgram', () => {
  const rule = (r: string) => policyFrom({ deny: [r] }, 'test').deny[0]!;
  it('names the first word of the pattern, as a basename', () => {
    expect(ruleProgram(rule('Bash(rm:*)'))).toBe('rm');
    expect(ruleProgram(rule('Bash(/usr/bin/git push *)'))).toBe('git');
    expect(ruleProgram(rule('Bash(curl -fsSL https://x)'))).toBe('curl');
    expect(ruleProgram(rule('Bash(git *)'))).toBe('git');
  });
  it('is null for a pattern that may match any program, undefined for rules that match no command', () => {
    expect(ruleProgram(rule('Bash'))).toBeNull();
    expect(ruleProgram(rule('Bash(*)'))).toBeNull();
    expect(ruleProgram(rule('Bash(r* -rf)'))).toBeNull();
    expect(ruleProgram(rule('Read(./secret)'))).toBeUndefined();
    expect(ruleProgram(rule('Bash(run_in_background:true)'))).toBeUndefined();
  });
  it('scanOversized finds nothing without deny or ask rules', () => {
    expect(scanOversized('rm -rf /', policyFrom({ allow: ['Bash(rm:*)'] }, 'test'))).toEqual({});
  });
});

describe('parse budget', () => {
  it('is proportional to the size, capped by the configured time-out', async () => {
    const { parseBudgetMs, PARSE_BUDGET_BASE_MS, PARSE_BUDGET_MS_PER_CHAR } = await import('../src/parse/parser.js');
    expect(parseBudgetMs(0)).toBe(PARSE_BUDGET_BASE_MS);
    expect(parseBudgetMs(100_000)).toBeCloseTo(PARSE_BUDGET_BASE_MS + 100_000 * PARSE_BUDGET_MS_PER_CHAR);
    expect(parseBudgetMs(1e9)).toBe(10_000);
    expect(parseBudgetMs(1e9, 3_000)).toBe(3_000);
  });

  it('a deadline that has passed stops the parse', async () => {
    const { initParser, parseBashBefore, parseClockMs } = await import('../src/parse/parser.js');
    const parser = await initParser();
    expect(parseBashBefore(parser, 'echo a; '.repeat(20_000), parseClockMs() - 1)).toBeUndefined();
    const tree = parseBashBefore(parser, 'echo a', parseClockMs() + 60_000);
    expect(tree?.rootNode.type).toBe('program');
    tree?.delete();
  });

  it('error recovery that stops making progress is stopped long before the deadline', async () => {
    const { initParser, parseTimed, parseWithin, parseClockMs, PARSE_STALL_BASE_MS } = await import('../src/parse/parser.js');
    const parser = await initParser();
    // Unclosed `${` repeated: tree-sitter needs tens of seconds for 100 KB of it (the nesting
    // pre-scan would refuse it unparsed; parseTimed skips that scan).
    const text = '${'.repeat(50_000);
    const r = parseTimed(parser, text, parseClockMs() + 600_000);
    expect(r.tree).toBeUndefined();
    expect(r.stop?.reason).toBe('stalled');
    if (r.stop?.reason !== 'stalled') return;
    expect(r.stop.offset).toBeLessThan(text.length / 2);
    expect(r.stop.spentMs).toBeGreaterThanOrEqual(PARSE_STALL_BASE_MS);
    // The same text is not parsed again, whatever the budget.
    expect(parseTimed(parser, text, parseClockMs() + 600_000).stop?.reason).toBe('stalled');
    expect(parseWithin(parser, text, parseClockMs() + 600_000).stop?.reason).toBe('deep-nesting');
  });

  it('nested brace lists are refused unparsed: ask, with a parse-too-complex reason naming braces', () => {
    const v = verdictFor(`cat ${'{a,'.repeat(300)}${'}'.repeat(300)}`, {}, linter);
    expect(v.decision).toBe('ask');
    expect(v.reason).toMatch(/^parse-too-complex: Braces .* nested more than 200 deep/);
    expect(run(`rm -rf ${'{a,'.repeat(300)}${'}'.repeat(300)}`, { deny: ['Bash(rm:*)'] }).decision).toBe('deny');
  });
});
