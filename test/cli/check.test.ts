/**
 * `shellward check` end to end, on the built CLI (`npx tsc -p tsconfig.json` builds dist/ first):
 * single-command output and exit codes, and `--jsonl` — 10 000 requests answered in order by
 * one process, malformed lines, blank lines, streaming before stdin closes.
 */
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { FINDING_FIELDS, VERDICT_FIELDS, type Verdict } from '../../src/verdict.js';
import { BIN, shellward } from './cli.js';

function parseLines(stdout: unknown): unknown[] {
  return String(stdout)
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as unknown);
}

describe('shellward check -- COMMAND', () => {
  it('prints the decision and reason as text and exits 1 for ask', async () => {
    const r = await shellward(['check', '--', 'make build']);
    expect(r.exitCode).toBe(1);
    expect(String(r.stdout)).toBe('ask  no-matching-rule\n  suggested rules: Bash(make build:*)');
  });

  it('allows a read-only command without a rule and exits 0', async () => {
    const r = await shellward(['check', '--', 'git status']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe('allow  read-only: Read-only command is allowed.');
  });

  it('asks for a write in default mode even with an allow rule; --permission-mode acceptEdits allows it', async () => {
    const args = ['check', '--no-claude-settings', '--format', 'json', '--cwd', '/tmp'];
    const v = JSON.parse(String((await shellward([...args, '--', 'touch notes.txt'])).stdout)) as Verdict;
    expect(v).toMatchObject({ decision: 'ask', outsideCwd: false, paths: [{ path: 'notes.txt', operation: 'create', allowed: true, reason: 'inside' }] });
    expect(v.reason).toMatch(/^path-constraint: /);
    const a = JSON.parse(String((await shellward([...args, '--permission-mode', 'acceptEdits', '--', 'touch notes.txt'])).stdout)) as Verdict;
    expect(a.decision).toBe('allow');
    const o = JSON.parse(String((await shellward([...args, '--permission-mode', 'acceptEdits', '--', 'touch /etc/x'])).stdout)) as Verdict;
    expect(o).toMatchObject({ decision: 'ask', outsideCwd: true });
  });

  it('prints destructive ids and findings with the command and a caret under each', async () => {
    const r = await shellward(['check', '--', 'git push --force && echo $(date)']);
    expect(r.exitCode).toBe(1);
    const out = String(r.stdout);
    expect(out).toContain('  destructive: git-push-force\n');
    expect(out).toMatch(/^ask {2}no-matching-rule\n/); // nothing decided: the reason is its code alone
    // The command with a caret under the finding, not UTF-16 offsets.
    expect(out).toMatch(/^ {2}warning +git-push-force +`git push` with force/m);
    expect(out).toContain('\n    git push --force && echo $(date)\n    ^^^^^^^^^^^^^^^^\n');
    expect(out).toMatch(/^ {2}warning +parse-too-complex +Command substitution/m);
    expect(out).toContain(`\n    git push --force && echo $(date)\n${' '.repeat(4 + 25)}^^^^^^^`);
  });

  it('escapes control characters of the command in text output', async () => {
    const r = await shellward(['check', '--', 'echo \u001b[31m; ls $(x)']);
    expect(String(r.stdout)).not.toContain('\u001b');
  });

  it('prints the verdict as JSON with --format json', async () => {
    const r = await shellward(['check', '--format', 'json', '--cwd', '/tmp', '--', 'rm -rf build']);
    expect(r.exitCode).toBe(1);
    const v = JSON.parse(String(r.stdout)) as Verdict;
    expect(Object.keys(v)).toEqual([...VERDICT_FIELDS]);
    expect(v).toMatchObject({ decision: 'ask', readOnly: false, destructive: ['rm-recursive-force'], outsideCwd: false, suggestions: [], matchedRule: null });
    expect(v.reason).toMatch(/^path-constraint: `rm` writes to `build`/);
    expect(v.paths).toEqual([{ path: 'build', operation: 'write', resolved: '/tmp/build', allowed: true, reason: 'inside' }]);
    expect(Object.keys(v.findings[0]!)).toEqual([...FINDING_FIELDS]);
  });

  it('accepts a command without -- when it does not start with a dash', async () => {
    expect((await shellward(['check', 'make'])).exitCode).toBe(1);
  });

  it('exits 2 on usage errors', async () => {
    expect((await shellward(['check'])).exitCode).toBe(2);
    expect((await shellward(['check', '--jsonl', '--', 'ls'], { input: '' })).exitCode).toBe(2);
    expect((await shellward(['check', '--format', 'sarif', '--', 'ls'])).exitCode).toBe(2);
  });

  it('prints a usage error as one line and a hint, not the whole help', async () => {
    const hint = '(run shellward check --help for usage)';
    const cases: [string[], string][] = [
      [['check'], "shellward check: missing command (shellward check -- 'COMMAND', or --jsonl)"],
      [['check', '--jsonl', '--', 'ls'], 'shellward check: give either a command or --jsonl, not both'],
      [['check', '--bogus', 'ls'], "error: unknown option '--bogus'"],
      [['check', '--format', 'sarif', '--', 'ls'], "error: option '-f, --format <format>' argument 'sarif' is invalid. Allowed choices are text, json."],
    ];
    for (const [args, error] of cases) {
      const r = await shellward(args, { input: '' });
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(String(r.stderr), args.join(' ')).toBe(`${error}\n${hint}`);
      expect(String(r.stdout), args.join(' ')).toBe('');
    }
  });

  it('documents the exit codes and the JSONL protocol in --help', async () => {
    const r = await shellward(['check', '--help']);
    expect(r.exitCode).toBe(0);
    const out = String(r.stdout);
    expect(out).toContain('0 allow, 1 ask, 3 deny, 2 error');
    expect(out).toContain('{"command": "...", "cwd": "...", "permissions": {"allow": [], "ask": [], "deny": []}, "mode": "acceptEdits"}');
    expect(out).toContain('deny, then ask, then per subcommand path constraints, allow rules,');
    expect(out).toContain('--permission-mode <mode>');
    expect(out).toContain('--config <file>');
  });
});

/** Request `i` of the 10 000: four kinds, and a finding offset that encodes `i` so order is checkable. */
function request(i: number): { command: string; cwd?: string; permissions?: unknown } {
  switch (i % 4) {
    case 0:
      return { command: 'make status' };
    case 1:
      return { command: `rm -rf build-${i}`, cwd: '/work' };
    case 2:
      return { command: `echo ${'a'.repeat(i % 97)} $(date)`, permissions: { allow: ['Bash(echo:*)'], ask: [], deny: [] } };
    default:
      return { command: `git push --force origin branch-${i}` };
  }
}

function expectAnswer(i: number, v: Verdict): void {
  expect(Object.keys(v)).toEqual([...VERDICT_FIELDS]);
  // `echo … $(date)` under Bash(echo:*) is allowed: every command it runs is proven (date only reads).
  expect(v.decision).toBe(i % 4 === 2 ? 'allow' : 'ask');
  switch (i % 4) {
    case 0:
      expect(v.reason).toBe('no-matching-rule');
      break;
    case 1:
      expect(v.destructive).toEqual(['rm-recursive-force']);
      expect(v.findings[0]!.end).toBe(`rm -rf build-${i}`.length);
      break;
    case 2:
      expect(v.findings.find((f) => f.ruleId === 'parse-too-complex')?.start).toBe(6 + (i % 97));
      break;
    default:
      expect(v.destructive).toEqual(['git-push-force']);
      expect(v.findings[0]!.end).toBe(`git push --force origin branch-${i}`.length);
  }
}

describe('shellward check --jsonl', () => {
  it('answers 10 000 requests in one process, one line each, in order', async () => {
    const n = 10_000;
    const input = Array.from({ length: n }, (_, i) => JSON.stringify(request(i))).join('\n') + '\n';
    const r = await shellward(['check', '--jsonl'], { input });
    expect(r.exitCode).toBe(0);
    expect(String(r.stderr)).toBe('');
    const out = parseLines(r.stdout) as Verdict[];
    expect(out).toHaveLength(n);
    for (let i = 0; i < n; i++) expectAnswer(i, out[i]!);
  });

  it('answers a malformed line with an error line and goes on, then exits 2', async () => {
    const lines = [
      JSON.stringify({ command: 'make status' }),
      '{"command": "ls"',
      '',
      JSON.stringify({ cmd: 'ls' }),
      JSON.stringify({ command: 42 }),
      '"just a string"',
      JSON.stringify({ command: 'ls', permissions: { allow: 'Bash(ls)' } }),
      JSON.stringify({ command: 'rm -rf x' }),
    ];
    const r = await shellward(['check', '--jsonl'], { input: lines.join('\r\n') });
    expect(r.exitCode).toBe(2);
    const out = parseLines(r.stdout) as Record<string, unknown>[];
    expect(out).toHaveLength(7);
    expect(out[0]).toMatchObject({ decision: 'ask', reason: 'no-matching-rule' });
    expect(out[1]).toEqual({ error: expect.stringMatching(/^invalid JSON/), line: 2 });
    expect(out[2]).toEqual({ error: 'missing "command"', line: 4 });
    expect(out[3]).toEqual({ error: '"command" must be a string', line: 5 });
    expect(out[4]).toEqual({ error: expect.stringMatching(/JSON object/), line: 6 });
    expect(out[5]).toEqual({ error: '"permissions.allow" must be an array of strings', line: 7 });
    expect(out[6]).toMatchObject({ decision: 'ask', destructive: ['rm-recursive-force'] });
  });

  it('exits 0 on empty input', async () => {
    const r = await shellward(['check', '--jsonl'], { input: '' });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toBe('');
  });

  it('streams: answers each request before stdin closes', async () => {
    const child = execa(process.execPath, [BIN, 'check', '--jsonl'], { reject: false, buffer: false });
    const lines: string[] = [];
    let partial = '';
    const waiters: (() => void)[] = [];
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      partial += chunk;
      for (let nl = partial.indexOf('\n'); nl !== -1; nl = partial.indexOf('\n')) {
        lines.push(partial.slice(0, nl));
        partial = partial.slice(nl + 1);
        waiters.shift()?.();
      }
    });
    const next = (): Promise<void> => new Promise((res) => waiters.push(res));
    for (const command of ['git status', 'rm -rf x', 'echo $(id)']) {
      const answered = next();
      child.stdin!.write(JSON.stringify({ command }) + '\n');
      await answered;
    }
    expect(lines).toHaveLength(3);
    expect((JSON.parse(lines[1]!) as Verdict).destructive).toEqual(['rm-recursive-force']);
    child.stdin!.end();
    expect((await child).exitCode).toBe(0);
  });
});

describe('requestCwd', () => {
  it('resolves a request cwd against the default: absolute stays, ~ is home, the rest is relative', async () => {
    const { requestCwd } = await import('../../src/cli/check-command.js');
    const { homedir } = await import('node:os');
    expect(requestCwd(undefined, '/w')).toBe('/w');
    expect(requestCwd('/abs', '/w')).toBe('/abs');
    expect(requestCwd('sub', '/w')).toBe('/w/sub');
    expect(requestCwd('', '/w')).toBe('/w');
    expect(requestCwd('.', '/w')).toBe('/w');
    expect(requestCwd('~/x', '/w')).toBe(`${homedir()}/x`);
  });
});

describe('shellward check in a bare repository', () => {
  it('does not treat git as read-only where HEAD, objects/ and refs/ sit in the cwd', async () => {
    const { mkdtemp, mkdir, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'shellward-bare-'));
    try {
      await writeFile(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
      await mkdir(join(dir, 'objects'));
      await mkdir(join(dir, 'refs'));
      const r = await shellward(['check', '--no-claude-settings', '--format', 'json', '--cwd', dir, '--', 'git status']);
      expect(JSON.parse(String(r.stdout))).toMatchObject({ decision: 'ask', readOnly: false });
      const plain = await shellward(['check', '--no-claude-settings', '--format', 'json', '--cwd', dir, '--', 'ls']);
      expect(JSON.parse(String(plain.stdout))).toMatchObject({ decision: 'allow', readOnly: true });
    } finally {
      await rm(dir, { recursive: true });
    }
  });
});

describe('check with the command as several words', () => {
  it('joins unquoted words as sh -c "$*" would see them', async () => {
    const joined = await shellward(['check', 'git', 'status']);
    const quoted = await shellward(['check', '--', 'git status']);
    expect(joined.exitCode).toBe(0);
    expect(String(joined.stdout)).toBe(String(quoted.stdout));
    const forced = await shellward(['check', '--', 'echo', 'hi', '&&', 'git', 'push', '--force']);
    expect(String(forced.stdout)).toContain('\n    echo hi && git push --force\n' + ' '.repeat(15) + '^'.repeat(16));
  });

  it('answers an unknown option of any command with one line and where the help is, not the whole help', async () => {
    const r = await shellward(['lint', '--bogus']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toBe("error: unknown option '--bogus'\n(run shellward lint --help for usage)");
    const top = await shellward(['--bogus']);
    expect(String(top.stderr)).toBe("error: unknown option '--bogus'\n(run shellward --help for usage)");
  });
});
