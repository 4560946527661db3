/**
 * The verdict of `shellward check` (src/verdict.ts): the stable field set, the honest
 * placeholder values, destructive ids, finding offsets, the reason precedence with Claude Code's
 * order and deferral rule (claude-code-reference.md §1.4), and request validation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ruleMeta } from '../src/checks/index.js';
import { Linter } from '../src/lint.js';
import {
  commandUnit,
  FINDING_FIELDS,
  PATH_FIELDS,
  NO_MATCHING_RULE,
  parseCheckRequest,
  reasonFor,
  securityRankOf,
  VERDICT_FIELDS,
  verdictFor,
  type SecurityRank,
  type Verdict,
  type VerdictFinding,
} from '../src/verdict.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create();
});

function check(command: string, request = {}): Verdict {
  return verdictFor(command, request, linter);
}

/** The stable code at the start of a reason. */
function code(reason: string): string {
  const i = reason.indexOf(': ');
  return i === -1 ? reason : reason.slice(0, i);
}

/** True when some finding is a misparsing security ask. */
function hasMisparsing(v: Verdict): boolean {
  return v.findings.some((f) => securityRankOf(f.ruleId, undefined)?.misparsing === true);
}

const SAMPLE = [
  'git status',
  'git push --force origin main && rm -rf build',
  'echo $(date) > out.txt',
  'cat <<EOF\nhello\nEOF',
  'if true; then ls',
  '',
  'ls\n\necho "a\u0000b" \ud800',
];

describe('shape', () => {
  it.each(SAMPLE.map((c) => [JSON.stringify(c), c] as const))('%s has exactly the stable fields, in order', (_l, command) => {
    const v = check(command);
    expect(Object.keys(v)).toEqual([...VERDICT_FIELDS]);
    expect(typeof v.reason).toBe('string');
    expect(typeof v.readOnly).toBe('boolean');
    expect(typeof v.outsideCwd).toBe('boolean');
    for (const id of v.destructive) expect(typeof id).toBe('string');
    for (const f of v.findings) {
      expect(Object.keys(f)).toEqual([...FINDING_FIELDS]);
      expect(['error', 'warning', 'note']).toContain(f.severity);
      expect(Number.isInteger(f.start) && Number.isInteger(f.end)).toBe(true);
      expect(0 <= f.start && f.start <= f.end && f.end <= command.length).toBe(true);
    }
    // Survives a JSON round trip unchanged (no undefined, no non-JSON values).
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
  });

  it('pins the field names (a rename breaks every consumer)', () => {
    expect(VERDICT_FIELDS).toEqual(['decision', 'reason', 'readOnly', 'destructive', 'outsideCwd', 'findings', 'suggestions', 'matchedRule', 'paths']);
    expect(PATH_FIELDS).toEqual(['path', 'operation', 'resolved', 'allowed', 'reason']);
    expect(FINDING_FIELDS).toEqual(['ruleId', 'severity', 'message', 'start', 'end']);
  });

  it('establishes readOnly (claude-code-reference.md §3.3) and allows read-only commands without a rule', () => {
    expect(check('git status')).toMatchObject({ decision: 'allow', readOnly: true });
    expect(code(check('git status').reason)).toBe('read-only');
    expect(check('ls -la src && grep -rn foo src | head -5')).toMatchObject({ decision: 'allow', readOnly: true });
    // A heredoc fed to cat is data: read-only. The others write, do not parse or hold a NUL.
    for (const command of SAMPLE.slice(1).filter((c) => c !== '' && !c.startsWith('cat <<'))) expect(check(command).readOnly, command).toBe(false);
    expect(check('cat <<EOF\nhello\nEOF').readOnly).toBe(true);
    expect(check('rg --pre cat x').readOnly).toBe(false);
    expect(check('git status', { permissions: { deny: ['Bash(git:*)'] } }).decision).toBe('deny');
  });

  it('takes a request mode: acceptEdits allows writes inside the cwd, a malformed mode is rejected', () => {
    expect(check('touch a', { cwd: '/work/p', mode: 'acceptEdits' }).decision).toBe('allow');
    expect(check('touch a', { cwd: '/work/p', mode: 'default' }).decision).toBe('ask');
    expect(parseCheckRequest({ command: 'ls', mode: 'plan' })).toEqual({ ok: false, error: '"mode" must be "default" or "acceptEdits"' });
    expect(parseCheckRequest({ command: 'ls', mode: 'acceptEdits' })).toEqual({ ok: true, request: { command: 'ls', mode: 'acceptEdits' } });
  });

  it('establishes outsideCwd and paths against the working directories (claude-code-reference.md §3.4)', () => {
    const inside = check('cat src/a.txt', { cwd: '/work/p' });
    expect(inside).toMatchObject({ decision: 'allow', outsideCwd: false });
    expect(inside.paths).toEqual([{ path: 'src/a.txt', operation: 'read', resolved: '/work/p/src/a.txt', allowed: true, reason: 'inside' }]);
    const outside = check('cat /etc/passwd', { cwd: '/work/p' });
    expect(outside).toMatchObject({ decision: 'ask', outsideCwd: true, readOnly: true });
    expect(code(outside.reason)).toBe('path-constraint');
    const extra = check('cat /etc/passwd', { cwd: '/work/p', permissions: { additionalDirectories: ['/etc'] } });
    expect(extra).toMatchObject({ decision: 'allow', outsideCwd: false });
    // A write inside the project is allowed by an explicit allow rule for the command, not without
    // one; outside it asks even with the rule. No cwd → no path facts.
    expect(check('touch a', { cwd: '/work/p', permissions: { allow: ['Bash(touch:*)'] } }).decision).toBe('allow');
    const write = check('touch a', { cwd: '/work/p' });
    expect(write.decision).toBe('ask');
    expect(code(write.reason)).toBe('path-constraint');
    expect(check('touch /tmp/a', { cwd: '/work/p', permissions: { allow: ['Bash(touch:*)'] } }).decision).toBe('ask');
    expect(check('cat /etc/passwd').paths).toEqual([]);
    // A variable is unknown, not outside.
    expect(check('rm "$X/y"', { cwd: '/work/p' })).toMatchObject({ outsideCwd: false });
    expect(check('rm /tmp/x', { cwd: '/work/p' }).outsideCwd).toBe(true);
  });

  it('analyses the command as one agent command unit', () => {
    const u = commandUnit('ls -la', { cwd: '/work' });
    expect(u).toMatchObject({ text: 'ls -la', hostText: 'ls -la', granularity: 'command', profile: 'agent', origin: { kind: 'command' }, context: { cwd: '/work' } });
    expect(u.sourceMap.toHost(4)).toBe(4);
    expect(commandUnit('ls').context).toBeUndefined();
  });
});

describe('reason', () => {
  it('is no-matching-rule when nothing decided', () => {
    const v = check('make build');
    expect(v.reason).toBe(NO_MATCHING_RULE);
    expect(v.findings).toEqual([]);
    // An empty command runs nothing.
    expect(check('').decision).toBe('allow');
  });

  it('evaluates the request\'s permission rules', () => {
    const v = check('git status', { permissions: { allow: ['Bash(git status)'], deny: ['Bash(rm:*)'], ask: [] } });
    expect(v.decision).toBe('allow');
    expect(v.reason).toMatch(/^allow-rule: /);
    expect(v.matchedRule).toEqual({ rule: 'Bash(git status)', behavior: 'allow', file: '<request>', path: 'permissions.allow[0]' });
  });

  it('proves a loop by its commands; the parse-too-complex finding stays a printed fact', () => {
    const v = check('ls && for f in a b; do wc -l "$f"; done');
    expect(code(v.reason)).toBe('read-only');
    expect(v.findings.find((f) => f.ruleId === 'parse-too-complex')).toMatchObject({ start: 6 });
  });

  it('names a parse error and its offset', () => {
    const v = check('if true; then ls');
    if (!hasMisparsing(v)) expect(v.reason).toMatch(/^parse-error: .*at offset \d+/);
    expect(v.findings.some((f) => f.ruleId === 'parse-error')).toBe(true);
  });

  it('puts an internal error (a parse time-out) first', async () => {
    const hurried = await Linter.create({ parseTimeoutMs: 0 });
    // Under the length cap (longer commands are not parsed at all).
    const v = verdictFor('echo ' + 'a | '.repeat(2_400) + 'b', {}, hurried);
    expect(v.decision).toBe('ask');
    expect(code(v.reason)).toBe('internal-error');
  });

  it('knows the rules the deferral tests below use (a renamed rule fails here, not silently)', () => {
    for (const id of ['newlines', 'command-substitution', 'output-redirection']) expect(ruleMeta(id)?.claudeCode, id).toBeDefined();
  });

  it(
    'lets a later misparsing ask win over an earlier deferred newline ask (claude-code-reference.md §1.4 item 6)',
    () => {
      const v = check('ls\necho $(date)');
      expect(v.findings.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['newlines', 'command-substitution']));
      expect(securityRankOf('newlines', undefined)).toMatchObject({ misparsing: false });
      // Neither is a gate any more: the model sees `date` and `ls`, both read-only.
      expect(code(v.reason)).toBe('read-only');
    },
  );

  it('returns the deferred newline ask when nothing else asks', () => {
    // Several lines are decided by their commands (the newlines finding is printed, not deciding).
    expect(code(check('ls\ncat x').reason)).toBe('read-only');
    expect(check('ls\ncat x').findings.some((f) => f.ruleId === 'newlines')).toBe(true);
  });

  it('returns the deferred redirection ask when nothing else asks', () => {
    const v = check('echo hello > out.txt');
    // Without a working directory the write cannot be placed; nothing allows it.
    expect(code(v.reason)).toBe('no-matching-rule');
    expect(v.findings.some((f) => f.ruleId === 'output-redirection')).toBe(true);
  });
});

describe('reasonFor: Claude Code order and deferral rule', () => {
  const f = (ruleId: string, start = 0): VerdictFinding => ({ ruleId, severity: 'warning', message: `msg of ${ruleId}`, start, end: start + 1 });
  const mis = (order: number): SecurityRank => ({ misparsing: true, order });
  const deferred = (order: number): SecurityRank => ({ misparsing: false, order });

  it('returns the first misparsing ask in validator order, not in text order', () => {
    expect(reasonFor([f('late', 0), f('early', 5)], [mis(20), mis(3)], {})).toBe('early: msg of early');
  });

  it('prefers the leftmost finding of equal order', () => {
    expect(reasonFor([f('a', 0), f('b', 9)], [mis(4), mis(4)], {})).toBe('a: msg of a');
  });

  it('defers non-misparsing asks behind any misparsing ask, even a later validator', () => {
    expect(reasonFor([f('redirect', 0), f('operators', 3)], [deferred(17), mis(20)], {})).toBe('operators: msg of operators');
  });

  it('returns the first deferred ask when no misparsing ask exists', () => {
    expect(reasonFor([f('redirect', 0), f('newline', 3)], [deferred(18), deferred(13)], {})).toBe('newline: msg of newline');
  });

  it('puts parse complexity between misparsing and deferred asks', () => {
    const complex = f('parse-too-complex', 2);
    expect(reasonFor([complex, f('newline', 3)], [undefined, deferred(13)], {})).toBe('parse-too-complex: msg of parse-too-complex');
    expect(reasonFor([complex, f('subst', 3)], [undefined, mis(16)], {})).toBe('subst: msg of subst');
    expect(reasonFor([f('parse-too-complex', 0), f('parse-error', 7)], [undefined, undefined], {})).toBe('parse-error: msg of parse-error (at offset 7)');
  });

  it('puts internal errors before everything', () => {
    expect(reasonFor([f('subst', 0), f('internal-error', 1)], [mis(1), undefined], {})).toBe('internal-error: msg of internal-error');
  });

  it('ignores findings without a rank (destructive warnings, paths)', () => {
    expect(reasonFor([f('git-push-force', 0)], [undefined], {})).toBe(NO_MATCHING_RULE);
    expect(reasonFor([], [], { permissions: { allow: ['Bash(ls)'] } })).toBe(NO_MATCHING_RULE);
  });

  it('reads ranks defensively and lets a finding carry its own order', () => {
    expect(securityRankOf('git-push-force', { order: 1, misparsing: true })).toBeUndefined();
    expect(securityRankOf('no-such-rule', undefined)).toBeUndefined();
    const withMeta = 'command-substitution';
    const meta = ruleMeta(withMeta)?.claudeCode;
    expect(meta, withMeta).toBeDefined();
    expect(securityRankOf(withMeta, undefined)).toEqual({ misparsing: meta?.misparsing, order: meta?.order });
    expect(securityRankOf(withMeta, { order: 99, misparsing: false })).toEqual({ misparsing: false, order: 99 });
    expect(securityRankOf(withMeta, { order: 'x' })).toEqual({ misparsing: meta?.misparsing, order: meta?.order });
  });
});

describe('destructive', () => {
  it('lists the destructive rule ids of every simple command, in document order, once each', () => {
    expect(check('git push --force origin main && rm -rf build').destructive).toEqual(['git-push-force', 'rm-recursive-force']);
    expect(check('rm -rf a; rm -rf b').destructive).toEqual(['rm-recursive-force']);
    expect(check('echo $(git reset --hard)').destructive).toEqual(['git-reset-hard']);
    expect(check('sudo kubectl delete pod x | terraform destroy').destructive).toEqual(['kubectl-delete', 'terraform-destroy']);
  });

  it('is empty for text that only mentions a destructive command', () => {
    expect(check('echo "rm -rf /"').destructive).toEqual([]);
    expect(check('git status # git reset --hard').destructive).toEqual([]);
  });
});

describe('finding offsets', () => {
  it('are 0-based UTF-16 offsets into the command, end exclusive', () => {
    const command = 'ls\n\n😀 && echo $(date)';
    const v = check(command);
    const f = v.findings.find((x) => x.ruleId === 'parse-too-complex')!;
    expect(f.start).toBe(command.indexOf('$('));
    expect(command.slice(f.start, f.end)).toBe('$(date)');
  });

  it('span a whole destructive command', () => {
    const command = 'cd x && git push -f';
    const f = check(command).findings.find((x) => x.ruleId === 'git-push-force')!;
    expect(command.slice(f.start, f.end)).toBe('git push -f');
  });

  it('are sorted by position', () => {
    const v = check('echo $(date); rm -rf x; git push --force');
    const starts = v.findings.map((x) => x.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });
});

describe('any input', () => {
  it.each([
    ['NUL and control bytes', 'echo \u0000\u0001\u001b[31m\u007f'],
    ['lone surrogates', 'make \ud800 \udfff x\udbff'],
    ['only whitespace', ' \t\n '],
    ['unbalanced everything', '$( ( { [[ " \' `'],
    ['CRLF', 'ls\r\necho x\r\n'],
  ])('returns a verdict for %s', (_l, command) => {
    const v = check(command);
    // Whitespace runs nothing; everything else here asks.
    expect(v.decision).toBe(command.trim() === '' ? 'allow' : 'ask');
    expect(Object.keys(v)).toEqual([...VERDICT_FIELDS]);
  });
});

describe('parseCheckRequest', () => {
  it('accepts a full request and keeps only known fields', () => {
    const r = parseCheckRequest({ command: 'ls', cwd: '/w', permissions: { allow: ['Bash(ls)'], ask: [], deny: ['Bash(rm:*)'], defaultMode: 'x' }, extra: 1 });
    expect(r).toEqual({ ok: true, request: { command: 'ls', cwd: '/w', permissions: { allow: ['Bash(ls)'], ask: [], deny: ['Bash(rm:*)'] } } });
  });

  it('treats null cwd and permissions as absent', () => {
    expect(parseCheckRequest({ command: '', cwd: null, permissions: null })).toEqual({ ok: true, request: { command: '' } });
  });

  it.each([
    ['not an object', 'ls', /JSON object/],
    ['null', null, /JSON object/],
    ['an array', ['ls'], /JSON object/],
    ['no command', { cwd: '/' }, /missing "command"/],
    ['a numeric command', { command: 1 }, /"command" must be a string/],
    ['a numeric cwd', { command: 'ls', cwd: 3 }, /"cwd"/],
    ['permissions as an array', { command: 'ls', permissions: [] }, /"permissions"/],
    ['a non-array rule list', { command: 'ls', permissions: { allow: 'Bash(ls)' } }, /permissions\.allow/],
    ['a non-string rule', { command: 'ls', permissions: { deny: [1] } }, /permissions\.deny/],
  ])('rejects %s', (_l, value, error) => {
    const r = parseCheckRequest(value);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(error);
  });
});

describe('dangerous removal in the verdict', () => {
  it('names the non-overridable removal limit as the reason', () => {
    const v = check('rm -rf /');
    expect(v.decision).toBe('ask');
    expect(v.reason).toMatch(/^path-dangerous-removal: /);
    expect(v.destructive).toEqual(['rm-recursive-force']);
  });
  it('keeps a misparsing security ask ahead of it', () => {
    expect(check('rm -rf $IFS/').reason).not.toMatch(/^path-dangerous-removal/);
  });
});
