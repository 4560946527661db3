/**
 * The one decision over the command model: harmless constructs are proven instead of asked
 * about, settings never change the decision, and every way to run a denied program comes back
 * deny or ask (never allow), with the deny rule alone and with an allow-all rule beside it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../../src/lint.js';
import { verdictFor, type PermissionRules } from '../../src/verdict.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create();
});

const CWD = '/work/proj';
const decision = (command: string, permissions: PermissionRules = {}, l: Linter = linter): string =>
  verdictFor(command, { cwd: CWD, permissions }, l).decision;

describe('proven instead of asked (no rules)', () => {
  const allowed = [
    'for f in a.txt b.txt; do cat "$f"; done',
    'for f in *.py; do head -n 5 "$f"; done',
    'for f in ./*.py; do wc -l "$f"; done',
    'if [ -f x ]; then cat x; else echo none; fi',
    'case "$x" in a|b) ls;; *) pwd;; esac',
    'f() { ls; }; f',
    'echo $((1 + 2))',
    '# list the files\nls',
    'ls\npwd',
    'ls 2>&1',
    'ls >&2',
    'ls > /dev/null',
    'wc -l src/*.py',
    'cd sub && rg foo | head',
    'printf "%s\\n" b a | sort',
    'echo "$HOME"',
    'x=1; echo "$x"',
    'cat <<"EOF"\nliteral $(rm x)\nEOF',
    '[[ -f x ]] && cat x',
    'git log --oneline | head -5',
  ];
  for (const c of allowed) it(`allows ${JSON.stringify(c)}`, () => expect(decision(c)).toBe('allow'));

  const asked = [
    'cat <<EOF\n$(rm x)\nEOF',
    'cat "$f"',
    'sort "$x"',
    'ls > out.txt',
    'cat /etc/passwd',
    'cd sub && cat ../../x',
    'for f in a b; do rm "$f"; done',
    'echo `rm x`',
  ];
  for (const c of asked) it(`asks ${JSON.stringify(c)}`, () => expect(decision(c)).toBe('ask'));

  it('allows in-project writes under an explicit allow rule, not outside', () => {
    expect(decision('mkdir build', { allow: ['Bash(mkdir *)'] })).toBe('allow');
    expect(decision('mkdir /tmp/x', { allow: ['Bash(mkdir *)'] })).toBe('ask');
    expect(decision('npm test > out.log', { allow: ['Bash(npm test)', 'Bash(npm test:*)'] })).toBe('allow');
  });

  it('decides `cd <the working directory itself> && git …` like `git …`', () => {
    for (const c of ['cd /work/proj && git status', 'cd /work/proj/ && git log --oneline -5', 'cd . && git diff --stat', 'cd "/work/proj" && git status']) {
      expect(decision(c), c).toBe(decision(c.replace(/^cd [^&]+&& /, '')));
    }
    // Anywhere else, a planted repository's config could run code: still asked.
    for (const c of ['cd sub && git status', 'cd /work/proj/../proj && git status', 'cd /work && git status', 'cd sub; cd .; git status']) {
      expect(decision(c), c).toBe('ask');
    }
  });

  it('keeps facts whatever the decision', () => {
    const v = verdictFor('cat /proc/self/environ', { cwd: CWD }, linter);
    // It writes nothing (read-only), and it reads secrets (ask).
    expect([v.decision, v.readOnly]).toEqual(['ask', true]);
    expect(v.reason).toMatch(/^proc-environ-access/);
    const w = verdictFor('cat /etc/passwd', { cwd: CWD }, linter);
    expect([w.decision, w.readOnly, w.outsideCwd]).toEqual(['ask', true, true]);
  });
});

describe('settings change what is printed, never the decision', () => {
  it('rules: {newlines: off} does not turn an ask into an allow', async () => {
    const off = await Linter.create({ severity: { newlines: 'off', 'unicode-whitespace': 'off' } });
    const cmd = $`ls\ncat /etc/passwd`;
    expect(decision(cmd, {}, off)).toBe(decision(cmd));
    expect(decision(cmd, {}, off)).toBe('ask');
    const differential = 'ls\u00a0-la';
    expect(decision(differential, {}, off)).toBe('ask');
    expect(verdictFor(differential, { cwd: CWD }, off).findings.some((f) => f.ruleId === 'unicode-whitespace')).toBe(false);
  });
});

function $(s: TemplateStringsArray): string {
  return s.raw.join('').replace(/\\n/g, '\n');
}

/** Ways to run `rm` that a deny rule must see, or at least never allow. */
const BYPASSES: readonly string[] = [
  '{rm,x}',
  '${RM:-rm} x',
  'a=rm; $a x',
  '`echo rm` x',
  'coproc rm x',
  "trap 'rm x' EXIT",
  "mapfile -C 'rm x' -c 1 a < f",
  "x='$(rm x)'; echo ${x@P}",
  'hash -p /bin/rm ls; ls x',
  "echo 'rm x' | sh",
  'cat <<EOF | sh\nrm x\nEOF',
  'echo cm0geA== | base64 -d | sh',
  'BASH_ENV=<(echo rm x) bash -c true',
  "alias ls='rm x'\nls",
  "env -S 'rm x'",
  "flock l -c 'rm x'",
  "script -qc 'rm x' /dev/null",
  "su -c 'rm x'",
  'runuser -u u -- rm x',
  "runuser u -c 'rm x'",
  'chroot / rm x',
  'unshare -r rm x',
  'nsenter -t 1 -m rm x',
  'taskset 1 rm x',
  'taskset -c 0 rm x',
  'numactl --membind=0 rm x',
  'strace -o /dev/null rm x',
  'ltrace rm x',
  'valgrind rm x',
  "gdb -ex 'shell rm x' -batch",
  'eatmydata rm x',
  'fakeroot rm x',
  'proot rm x',
  'firejail rm x',
  'bwrap --bind / / rm x',
  'systemd-run --user rm x',
  'parallel rm ::: x',
  "parallel ::: 'rm x'",
  'busybox rm x',
  'toybox rm x',
  "echo 'rm x' | at now",
  'nocorrect rm x',
  'find . -name x -exec rm {} \\;',
  'find . -delete',
  'xargs rm < list',
  `eval "eval \\"eval 'eval \\\\\\"eval rm x\\\\\\"'\\""`,
  "sh -c \"sh -c 'sh -c \\\"sh -c \\\\\\\"sh -c rm\\\\\\\"\\\"'\"",
  'sh <<E"O"F\nrm x\nEOF',
  'sh <<EOF;\nrm x\nEOF',
  'PATH=/tmp/evil ls',
  'LD_PRELOAD=/tmp/x.so ls',
  'source ./x.sh',
  'bash ./x.sh',
  'frobnicate rm x',
];

describe('a denied program is never allowed', () => {
  for (const c of BYPASSES) {
    it(`deny rule alone: ${JSON.stringify(c)}`, () => {
      expect(['deny', 'ask']).toContain(decision(c, { deny: ['Bash(rm:*)'] }));
    });
    it(`deny rule with allow Bash: ${JSON.stringify(c)}`, () => {
      expect(['deny', 'ask']).toContain(decision(c, { deny: ['Bash(rm:*)'], allow: ['Bash'] }));
    });
  }

  const visible = ['{rm,x}', '${RM:-rm} x', 'a=rm; $a x', '`echo rm` x', 'coproc rm x', "trap 'rm x' EXIT", "echo 'rm x' | sh", 'cat <<EOF | sh\nrm x\nEOF', "env -S 'rm x'", "flock l -c 'rm x'", 'chroot / rm x', 'busybox rm x', 'find . -delete', 'sh <<EOF;\nrm x\nEOF'];
  for (const c of visible) {
    it(`denies where rm is visibly reachable: ${JSON.stringify(c)}`, () => {
      expect(decision(c, { deny: ['Bash(rm:*)'], allow: ['Bash'] })).toBe('deny');
    });
  }

  it('caps say so in the reason', () => {
    const deep = 'eval ' + "'eval ".repeat(1) + 'x';
    void deep;
    let code = 'rm x';
    for (let i = 0; i < 6; i++) code = `sh -c ${JSON.stringify(code)}`;
    const v = verdictFor(code, { cwd: CWD, permissions: { deny: ['Bash(curl:*)'], allow: ['Bash'] } }, linter);
    expect(v.decision).toBe('ask');
    expect(v.reason).toMatch(/Cap reached|not known|reads/);
  });
});

describe('the verdict schema documents every field', () => {
  it('validates verdicts of proven, asked and denied commands', async () => {
    const { readFileSync } = await import('node:fs');
    const { Ajv } = await import('ajv');
    const schema = JSON.parse(readFileSync(new URL('../../schemas/shellward-report.schema.json', import.meta.url), 'utf8')) as { definitions: Record<string, object> };
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addSchema(schema, 'report');
    const validate = ajv.getSchema('report#/definitions/verdict')!;
    for (const [c, p] of [['for f in a b; do cat "$f"; done', {}], ['cat /etc/passwd', {}], ['rm -rf x', { deny: ['Bash(rm:*)'] }], ['npm test', { allow: ['Bash(npm test)'] }]] as const) {
      const v = verdictFor(c, { cwd: CWD, permissions: p }, linter);
      expect(validate(JSON.parse(JSON.stringify(v))), JSON.stringify(validate.errors)).toBe(true);
    }
  });
});

describe('harmless forms proven from what the command does (and their unsafe neighbours)', () => {
  it.each([
    // git clean with -n / --dry-run removes nothing, whatever else is given (https://git-scm.com/docs/git-clean).
    ['git clean -f -n', 'allow'],
    ['pwd && git clean -f -n', 'allow'],
    ['git clean -f -n -x', 'allow'],
    ['git clean -nfdx', 'allow'],
    ['git clean --dry-run -d', 'allow'],
    ['git clean -f', 'ask'],
    ['git clean -fdx', 'ask'],
    ['git clean -f -n --no-dry-run', 'ask'],
    ['git clean -n -i', 'ask'],
    // git tag -n[<num>] implies --list: its words are patterns (https://git-scm.com/docs/git-tag).
    ["git tag -n 'v1.*'", 'allow'],
    ['git tag -n5 v1', 'allow'],
    ['git tag -n v1 HEAD', 'allow'],
    ['git tag v1 HEAD', 'ask'],
    ['git tag -n -- v1', 'ask'],
    ['git tag -n -d v1', 'ask'],
    // A program in the system's own directories is that program.
    ['/bin/ls -la .', 'allow'],
    ['/usr/bin/ls', 'allow'],
    ['/bin/ls /etc', 'ask'],
    ['./ls', 'ask'],
    ['/tmp/ls', 'ask'],
    ['/usr/local/bin/ls', 'ask'],
    ['/bin/rm -f x', 'ask'],
    // A cd outside reads nothing; what runs after it is judged from there.
    ['cd /elsewhere && echo hi', 'allow'],
    ['cd /etc && cat passwd', 'ask'],
    ['cd /etc && ls', 'ask'],
    ['cd /etc; touch x', 'ask'],
    ['cd /etc && git status', 'ask'],
    // A comment whose quotes pair up leaves every quote tracker in step.
    ['# which skill is "finishing-a-branch" here\nls', 'allow'],
    ["# don't\nls", 'ask'],
    ['# a "it\'s"\nls', 'ask'],
    ["# 'a' <<'M'\nls", 'ask'],
  ])('%j → %s', (command, expected) => {
    expect(decision(command)).toBe(expected);
  });
});
