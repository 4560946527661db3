/** Rule strings (claude-code-reference.md §2.1, §2.2, §2.10): parsing and the matcher semantics of each type. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matcherAccepts } from '../../src/rules/match.js';
import { escapeRuleContent, formatBashRule, parseBashContent, parseRule, RuleSyntaxError, splitRuleString, type BashMatcher } from '../../src/rules/parse.js';

const O = { file: 'settings.json', path: 'permissions.allow[0]' };

function bash(rule: string): BashMatcher {
  const r = parseRule(rule, 'allow', O);
  if (!r.bash) throw new Error(`no bash matcher for ${rule}`);
  return r.bash;
}

/** Prefix-mode match of a rule against one candidate. */
function m(rule: string, candidate: string): boolean {
  return matcherAccepts(bash(rule), candidate, 'prefix');
}

describe('§2.1 Tool(content) parsing', () => {
  it('splits at the first unescaped ( and a final unescaped )', () => {
    expect(splitRuleString('Bash(git status)')).toEqual({ toolName: 'Bash', content: 'git status' });
    expect(splitRuleString('Bash')).toEqual({ toolName: 'Bash', content: undefined });
    expect(splitRuleString('Bash(echo \\(x\\))')).toEqual({ toolName: 'Bash', content: 'echo (x)' });
    expect(splitRuleString('Bash(echo \\\\)')).toEqual({ toolName: 'Bash', content: 'echo \\' });
  });

  it('treats a string whose ) is not last, or an empty tool name, as a bare name', () => {
    expect(splitRuleString('Bash(x) y')).toEqual({ toolName: 'Bash(x) y', content: undefined });
    expect(splitRuleString('(x)')).toEqual({ toolName: '(x)', content: undefined });
  });

  it('Bash(), Bash(*) and Bash are the tool-wide rule', () => {
    expect(bash('Bash')).toEqual({ kind: 'any' });
    expect(bash('Bash()')).toEqual({ kind: 'any' });
    expect(bash('Bash(*)')).toEqual({ kind: 'any' });
  });

  it('maps legacy tool names', () => {
    expect(parseRule('Task', 'allow', O).toolName).toBe('Agent');
    expect(parseRule('KillShell', 'allow', O).toolName).toBe('TaskStop');
    expect(parseRule('AgentOutputTool', 'allow', O).toolName).toBe('TaskOutput');
    expect(parseRule('BashOutputTool', 'allow', O).toolName).toBe('TaskOutput');
  });

  it('keeps non-Bash rules without a matcher', () => {
    const r = parseRule('Read(./secrets/**)', 'deny', O);
    expect(r.toolName).toBe('Read');
    expect(r.bash).toBeUndefined();
    expect(parseRule('mcp__github__get_issue', 'allow', O).toolName).toBe('mcp__github__get_issue');
  });

  it('writes escapes backslashes first, then parentheses, and round-trips', () => {
    expect(escapeRuleContent('a\\(b)')).toBe('a\\\\\\(b\\)');
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(splitRuleString(formatBashRule(s))).toEqual({ toolName: 'Bash', content: s });
      }),
    );
  });

  it('names the file, the key path and the rule for a malformed rule', () => {
    for (const bad of ['', '   ', 'Bash(git status', 'Bash(x) y', 'Ba sh', '(x)']) {
      expect(() => parseRule(bad, 'deny', O), bad).toThrow(RuleSyntaxError);
    }
    try {
      parseRule('Bash(git status', 'deny', { file: '.claude/settings.json', path: 'permissions.deny[1]' });
    } catch (e) {
      expect(String((e as Error).message)).toContain('.claude/settings.json (permissions.deny[1])');
      expect(String((e as Error).message)).toContain('"Bash(git status"');
    }
  });

  it('ignores input-parameter rules and Bash(command:…) (§2.10)', () => {
    expect(parseRule('Bash(run_in_background:true)', 'deny', O).ignored).toMatch(/parameter/);
    expect(parseRule('Bash(dangerouslyDisableSandbox:true)', 'ask', O).bash).toBeUndefined();
    expect(parseRule('Bash(command:rm)', 'deny', O).ignored).toMatch(/ignored/);
  });
});

describe('§2.2 content grammar', () => {
  it('prefix: content ending in :* with at least one character before', () => {
    expect(bash('Bash(npm run:*)')).toEqual({ kind: 'prefix', prefix: 'npm run' });
    expect(parseBashContent(':*')).toMatchObject({ kind: 'wildcard' });
  });

  it('prefix matches the prefix itself or prefix + space (word boundary)', () => {
    expect(m('Bash(ls:*)', 'ls')).toBe(true);
    expect(m('Bash(ls:*)', 'ls -la')).toBe(true);
    expect(m('Bash(ls:*)', 'lsof')).toBe(false);
  });

  it('prefix mode also matches bare `xargs <prefix>`', () => {
    expect(m('Bash(grep:*)', 'xargs grep foo')).toBe(true);
    expect(m('Bash(grep:*)', 'xargs grep')).toBe(true);
    expect(m('Bash(grep:*)', 'xargs -n1 grep foo')).toBe(false);
  });

  it(':* only at the end: `git:* push` is a wildcard with a literal colon (§2.10)', () => {
    expect(bash('Bash(git:* push)')).toEqual({ kind: 'wildcard', segments: ['git:', ' push'], optionalTail: false });
    expect(m('Bash(git:* push)', 'git: x push')).toBe(true);
    expect(m('Bash(git:* push)', 'git fetch push')).toBe(false);
  });

  it('wildcard: full-string, case-sensitive, * spans spaces and newlines', () => {
    expect(m('Bash(git * main)', 'git push origin main')).toBe(true);
    expect(m('Bash(git * main)', 'git push origin main2')).toBe(false);
    expect(m('Bash(git * main)', 'GIT push main')).toBe(false);
    expect(m('Bash(echo *)', 'echo a\nb')).toBe(true);
    expect(m('Bash(* run *)', 'npm run build')).toBe(true);
  });

  it('\\* is a literal star, \\\\ a literal backslash, other metacharacters literal', () => {
    expect(m('Bash(echo \\* *)', 'echo * x')).toBe(true);
    expect(m('Bash(echo \\* *)', 'echo a x')).toBe(false);
    expect(m('Bash(a.b *)', 'axb c')).toBe(false);
    expect(m('Bash(a.b *)', 'a.b c')).toBe(true);
    // Two levels: the rule string's `\\\\` is `\\` in the content, a literal backslash in the pattern.
    expect(m('Bash(x\\\\\\\\* *)', 'x\\yy z')).toBe(true);
    expect(m('Bash(x\\\\* *)', 'x\\yy z')).toBe(false);
  });

  it('trims the pattern', () => {
    expect(m('Bash(  git *  )', 'git status')).toBe(true);
  });

  it('a single trailing ` *` is optional: `git *` matches bare `git`; multi-star patterns are not relaxed', () => {
    expect(m('Bash(git *)', 'git')).toBe(true);
    expect(m('Bash(git *)', 'gitk')).toBe(false);
    expect(m('Bash(* run *)', 'npm run')).toBe(false);
  });

  it('`ls *` has a word boundary, `ls*` does not (§2.10)', () => {
    expect(m('Bash(ls *)', 'lsof')).toBe(false);
    expect(m('Bash(ls*)', 'lsof')).toBe(true);
    expect(m('Bash(ls*)', 'ls -la')).toBe(true);
  });

  it('exact: string equality', () => {
    expect(m('Bash(git status)', 'git status')).toBe(true);
    expect(m('Bash(git status)', 'git status -s')).toBe(false);
  });

  it('in exact mode a prefix rule matches only its prefix and wildcard rules never match', () => {
    expect(matcherAccepts(bash('Bash(git:*)'), 'git', 'exact')).toBe(true);
    expect(matcherAccepts(bash('Bash(git:*)'), 'git status', 'exact')).toBe(false);
    expect(matcherAccepts(bash('Bash(foo *)'), 'foo x && curl evil', 'exact')).toBe(false);
  });
});

describe('fuzzing the rule-string parser', () => {
  it('never throws anything but RuleSyntaxError, and every matcher answers every candidate', () => {
    const ruleArb = fc.oneof(fc.string(), fc.string().map((s) => `Bash(${s})`), fc.stringMatching(/^Bash\([a-z *:\\()]{0,12}\)$/));
    fc.assert(
      fc.property(ruleArb, fc.string(), (rule, cand) => {
        let r: ReturnType<typeof parseRule>;
        try {
          r = parseRule(rule, 'deny', O);
        } catch (e) {
          expect(e).toBeInstanceOf(RuleSyntaxError);
          return;
        }
        if (r.bash) {
          expect(typeof matcherAccepts(r.bash, cand, 'prefix')).toBe('boolean');
          expect(typeof matcherAccepts(r.bash, cand, 'exact')).toBe('boolean');
        }
      }),
      { numRuns: 2000 },
    );
  });
});
