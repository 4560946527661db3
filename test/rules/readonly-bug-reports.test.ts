/**
 * Read-only recognition (claude-code-reference.md §3.3), path validation (§3.4) and sed validation (§4)
 * on an independent set of commands drawn from public bug reports and advisories ("Done
 * when"). Each case cites its source; where the report describes a bypass Claude Code later fixed,
 * the expected verdict is the fixed one (not read-only / ask). Verdicts are built the way
 * bug-reports.test.ts builds them: one shared Linter, `verdictFor(command, { cwd: '/repo', … })`.
 *
 * The `it.fails` cases at the end are KNOWN BUGS found while writing this file: each one asserts
 * the correct verdict and is labelled "known bug: …"; flip it to `it` once fixed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { extractPaths } from '../../src/analyses/paths.js';
import { Linter } from '../../src/lint.js';
import { buildViews } from '../../src/parse/nodes.js';
import { initParser, parseBash } from '../../src/parse/parser.js';
import type { PermissionLists } from '../../src/rules/policy.js';
import { verdictFor, type Verdict } from '../../src/verdict.js';

const HOME = '/home/u';
let linter: Linter;
let acceptEdits: Linter;
beforeAll(async () => {
  linter = await Linter.create({ pathHost: { home: HOME } });
  acceptEdits = await Linter.create({ pathHost: { home: HOME }, mode: 'acceptEdits' });
});

type Permissions = PermissionLists & { readonly additionalDirectories?: readonly string[] };
const verdict = (command: string, permissions: Permissions = {}, l: Linter = linter): Verdict =>
  verdictFor(command, { cwd: '/repo', permissions }, l);

interface Expect {
  readonly readOnly: boolean;
  readonly outsideCwd: boolean;
  readonly decision: 'allow' | 'ask' | 'deny';
}
/** [source, rules, command, expected] */
type Case = readonly [source: string, rules: Permissions, command: string, expected: Expect];

const RO_ALLOW: Expect = { readOnly: true, outsideCwd: false, decision: 'allow' };
const RO_OUTSIDE: Expect = { readOnly: true, outsideCwd: true, decision: 'ask' };
const ASK: Expect = { readOnly: false, outsideCwd: false, decision: 'ask' };
const ASK_OUTSIDE: Expect = { readOnly: false, outsideCwd: true, decision: 'ask' };

const CASES: readonly Case[] = [
  // anthropics/claude-code#4956 — with `Bash(echo *)`, `echo "test" && ls` runs without a prompt.
  // That part is by design: `ls` is read-only and the echo is allowed by the rule.
  ['claude-code#4956', { allow: ['Bash(echo *)'] }, 'echo "test" && ls', RO_ALLOW],
  // anthropics/claude-code#28784 — `Bash(cd:*)` must not cover `&& python3 …`; the cd target is outside.
  ['claude-code#28784', { allow: ['Bash(cd:*)'] }, 'cd /some/path && python3 script.py', ASK_OUTSIDE],
  // anthropics/claude-code#37621 — `cd ..` must not hide an ask rule (fixed: ask).
  ['claude-code#37621', { ask: ['Bash(testcommand *)'] }, 'cd .. && testcommand abc', ASK_OUTSIDE],
  // anthropics/claude-code#66173 — searching the parent directory must prompt.
  ['claude-code#66173', {}, 'grep -rn "pattern" ..', RO_OUTSIDE],
  ['claude-code#66173', {}, 'ls ..', RO_OUTSIDE],
  ['claude-code#66173', {}, 'find .. -name "*.md"', RO_OUTSIDE],
  // anthropics/claude-code#36682 — a directory added with /add-dir (additionalDirectories) is inside.
  ['claude-code#36682', { additionalDirectories: ['/extra'] }, 'ls /extra/ | grep -i "SOMEFILE"', RO_ALLOW],
  ['claude-code#36682', {}, 'ls /extra/ | grep -i "SOMEFILE"', RO_OUTSIDE],
  // anthropics/claude-code#51180 — reading a file outside the cwd prompts.
  ['claude-code#51180', {}, 'cat ~/code/mongo-c-driver/README.rst', RO_OUTSIDE],
  // anthropics/claude-code#43085 — writes into .claude/ prompt, also through `bash -c` (fixed: ask).
  ['claude-code#43085', {}, "echo '...' >> .claude/file", ASK],
  ['claude-code#43085', {}, `bash -c 'echo "x" >> .claude/file'`, ASK],
  // anthropics/claude-code#29059 — `git tag xyz` (and fetch/add/reset) auto-approved; must ask.
  ['claude-code#29059', { allow: ['Bash(git diff:*)', 'Bash(git show:*)'] }, 'git tag xyz', ASK],
  ['claude-code#29059', { allow: ['Bash(git diff:*)', 'Bash(git show:*)'] }, 'git fetch', ASK],
  ['claude-code#29059', { allow: ['Bash(git diff:*)', 'Bash(git show:*)'] }, 'git add .', ASK],
  ['claude-code#29059', { allow: ['Bash(git diff:*)', 'Bash(git show:*)'] }, 'git reset --hard', ASK],
  // anthropics/claude-code#81667 — a redirect turns an allowed read-only command into a write.
  // A redirection into the project under an allow rule for the command is allowed (the write stays inside).
  ['claude-code#81667', { allow: ['Bash(git status:*)'] }, 'git status --short --branch > b.txt', { readOnly: false, outsideCwd: false, decision: 'allow' }],
  ['claude-code#81667', {}, 'echo ARBITRARY-CONTENT > c.txt', ASK],
  ['claude-code#81667', {}, 'touch a.txt', ASK],
  ['claude-code#81667', { allow: ['Bash(git status:*)'] }, 'git status --short && touch a.txt', ASK],
  // anthropics/claude-code#6413 — `xargs rm` ran without a prompt.
  ['claude-code#6413', {}, 'cd /repo && xargs rm -rf < .buildignore', ASK],
  // anthropics/claude-code#15711 — rm -rf with an allow list of read-only tools must ask.
  ['claude-code#15711', { allow: ['Bash(wc:*)', 'Bash(find:*)', 'Bash(ls:*)', 'Bash(git checkout:*)'] }, 'rm -rf /repo/services/auth', ASK],
  // anthropics/claude-code#17287 — unicode in the trailing echo.
  ['claude-code#17287', {}, 'rm -rf remy/tasks/train/rec_adult && echo "삭제 완료"', ASK],
  // anthropics/claude-code#29984 — em dash and `~1` inside double quotes.
  ['claude-code#29984', { allow: ['Bash(curl:*)', 'Bash(git push:*)'] }, 'rm -rf /repo/.esphome && echo "Deleted .esphome/ — freed ~1 GB"', ASK],
  // anthropics/claude-code#6778 — cd then rm.
  ['claude-code#6778', {}, 'cd /repo/cppcon2025 && rm -rf lib/', ASK],
  // anthropics/claude-code#7316 — a plain rm.
  ['claude-code#7316', {}, 'rm /repo/service/tests/rating_bug_test.rs', ASK],
  // anthropics/claude-code#20022 — a heredoc into a command no rule allows.
  ['claude-code#20022', { allow: ['Bash(npx tsc:*)'] }, "npx cdk import StackName --resource-mapping /dev/stdin << 'EOF'\n{}\nEOF", ASK],
  // anthropics/claude-code#1128 — find | head with 2>/dev/null is read-only ("now supported").
  ['claude-code#1128', {}, 'find /repo -type d -name "somestring" 2>/dev/null | head -1', RO_ALLOW],
  // anthropics/claude-code#19457 / #25181 — df, ps, du, echo, cat are read-only; lsusb is not in the set.
  ['claude-code#19457', {}, 'df', RO_ALLOW],
  ['claude-code#19457', {}, 'ps', RO_ALLOW],
  ['claude-code#19457', {}, 'cat README.md', RO_ALLOW],
  ['claude-code#19457', {}, 'lsusb', ASK],
  ['claude-code#25181', {}, 'du -sh', RO_ALLOW],
  ['claude-code#25181', {}, 'df -h', RO_ALLOW],
  ['claude-code#25181', {}, 'echo "test"', RO_ALLOW],
  // anthropics/claude-code#33772 — cat of a project file with 2>/dev/null || echo: read-only, inside.
  ['claude-code#33772', {}, 'cat /repo/.vscode/settings.json 2>/dev/null || echo "NOT FOUND"', RO_ALLOW],
  // anthropics/claude-code#55313 — sed line printing is in the read-only set (claude-code-reference.md §4.3, closed as duplicate).
  ['claude-code#55313', {}, "sed -n '1,3p' README.md 2>/dev/null || sed -n '1,3p' CLAUDE.md", RO_ALLOW],
  // GHSA "Sed Command Validation Bypass that Allows Arbitrary File Writes" (@anthropic-ai/claude-code,
  // fixed in 2.0.31; cited in joesaby/astro-mermaid#25): write / execute forms of sed must ask.
  ['GHSA sed bypass (<2.0.31)', {}, "sed 's/a/b/w /tmp/x'", ASK],
  ['GHSA sed bypass (<2.0.31)', {}, "sed 's/a/b/e'", ASK],
  ['GHSA sed bypass (<2.0.31)', {}, "sed -n '1p;1e id'", ASK],
  ['GHSA sed bypass (<2.0.31)', {}, "sed 'e ls'", ASK],
  ['GHSA sed bypass (<2.0.31)', {}, "sed -n '1w /tmp/x' f", ASK],
  ['GHSA sed bypass (<2.0.31)', {}, "sed -n -e 1p -e 'w /tmp/x' f", ASK],
  ['GHSA sed bypass (<2.0.31)', {}, 'sed -n 1p f -i', ASK],
  ['GHSA sed bypass (<2.0.31)', {}, 'sed -ni 1p f', ASK],
  ['GHSA sed bypass (<2.0.31)', {}, "sed -i 's/a/b/' /etc/passwd", ASK_OUTSIDE],
  // assafkip/kipi-system#85 — "read-only" tools that write or run code.
  ['kipi-system#85', {}, "sed -n 'w .claude/settings.json' /etc/hosts", ASK_OUTSIDE],
  ['kipi-system#85', {}, 'sort -o .claude/settings.json /dev/null', ASK],
  ['kipi-system#85', {}, 'uniq /dev/null .claude/settings.json', ASK],
  ['kipi-system#85', {}, 'tree -o .claude/settings.json .', ASK],
  ['kipi-system#85', {}, 'xxd /dev/null .claude/settings.json', ASK],
  ['kipi-system#85', {}, 'find /tmp -name x -fprint .claude/settings.json', ASK_OUTSIDE],
  ['kipi-system#85', {}, `awk 'BEGIN{system("touch .claude/settings.json")}'`, ASK],
  // kirodotdev/KiroCrew#5038 — six spellings of sort's write/exec options.
  ...['sort -S 1k --compress-program=./payload big.txt', 'sort -o FILE in', 'sort --output=FILE in', 'sort -oFILE in', 'sort -uo FILE in', 'sort --o FILE in'].map(
    (c) => ['KiroCrew#5038', {}, c, ASK] as const,
  ),
  // vitali87/code-graph-rag#1388 — abbreviated GNU long options.
  ['code-graph-rag#1388', {}, 'sort --out=FILE INPUT', ASK],
  ['code-graph-rag#1388', {}, 'sort --files0=LIST', ASK],
  // resilient-tech/india-compliance#4851 — ripgrep --pre runs a preprocessor program.
  ['india-compliance#4851', {}, 'rg --pre ./x pattern', ASK],
  ['india-compliance#4851', {}, 'rg --pre=sh foo', ASK],
  // danielmiessler/LifeOS#732 — find | xargs rm, path traversal to /.
  ['LifeOS#732', {}, 'find / | xargs -I% rm -f %', ASK_OUTSIDE],
  ['LifeOS#732', {}, 'rm -rf ../../../../../../../../../../', ASK_OUTSIDE],
  // affaan-m/ECC#2291 — find -exec after a harmless first command.
  ['ECC#2291', {}, 'echo x && find . -exec rm {} \\;', ASK],
  ['ECC#2291', {}, 'true; find . -name "*.log" -exec rm -rf {} \\;', ASK],
  // Jaxton07/percho#3 — chained writes; a quoted `&&` is text.
  ['percho#3', {}, 'cd xx && ls && rm -rf xxx', ASK],
  ['percho#3', {}, 'sleep 1 & rm -rf x', ASK],
  ['percho#3', {}, 'echo "a && rm -rf x"', RO_ALLOW],
  // QwenLM/qwen-code#8645 — git config that executes programs is not read-only.
  ['qwen-code#8645', {}, 'git -c core.fsmonitor=x status', ASK],
  ['qwen-code#8645', {}, 'git -c core.pager=sh log', ASK],
  ['qwen-code#8645', {}, 'git status', RO_ALLOW],
  // anthropics/claude-code#92542 (wrappers) — a wrapper does not hide an outside read (the command
  // still writes nothing: readOnly is a fact, the outside read is what asks).
  ['claude-code#92542', {}, 'timeout 5 cat /etc/passwd', RO_OUTSIDE],
  ['claude-code#92542', {}, 'nice -n 5 cat /etc/passwd', RO_OUTSIDE],
];

describe('read-only and outside-cwd verdicts on cases from public bug reports', () => {
  it.each(CASES)('%s %j: %s', (_source, rules, command, expected) => {
    const v = verdict(command, rules);
    expect({ readOnly: v.readOnly, outsideCwd: v.outsideCwd, decision: v.decision }).toEqual(expected);
  });

  it('claude-code#36682: the added directory is a path inside (paths)', () => {
    const v = verdict('ls /extra/ | grep -i "SOMEFILE"', { additionalDirectories: ['/extra'] });
    expect(v.paths).toEqual([{ path: '/extra/', operation: 'read', resolved: '/extra', allowed: true, reason: 'inside' }]);
  });

  it('claude-code#66173: `..` resolves to the parent (paths)', () => {
    const v = verdict('grep -rn "pattern" ..');
    expect(v.paths).toEqual([{ path: '..', operation: 'read', resolved: '/', allowed: false, reason: 'outside' }]);
  });

  it('claude-code#28784: the cd target is the outside path', () => {
    const v = verdict('cd /some/path && python3 script.py', { allow: ['Bash(cd:*)'] });
    expect(v.paths.filter((p) => p.reason === 'outside').map((p) => p.resolved)).toEqual(['/some/path']);
  });

  it('acceptEdits (claude-code#36595 class): a write inside is allowed, outside asks', () => {
    expect(verdict("sed -i 's/a/b/' f", {}, acceptEdits).decision).toBe('allow');
    expect(verdict('mkdir -p ../x', {}, acceptEdits)).toMatchObject({ decision: 'ask', outsideCwd: true });
    expect(verdict('touch /etc/x', {}, acceptEdits)).toMatchObject({ decision: 'ask', outsideCwd: true });
    expect(verdict('rm -rf /', {}, acceptEdits).decision).toBe('ask');
  });
});

describe('adversarial inputs (review of claude-code-reference.md §3.3/§3.4/§4)', () => {
  const HOSTILE: readonly (readonly [command: string, expected: Expect])[] = [
    // wrappers and indirection are never read-only
    ['sudo ls', ASK],
    ['env ls', ASK],
    ['watch ls', ASK],
    ['echo x | xargs rm', ASK],
    ['echo x | xargs -I {} sh -c {}', ASK],
    ['xargs -0 -- rm', ASK],
    ['echo x | xargs echo', RO_ALLOW],
    // git options that redirect or execute
    ['git -C /etc status', ASK],
    ['git --git-dir=/tmp/x log', ASK],
    ['git diff --output=/tmp/x', ASK],
    ['git grep --open-files-in-pager=sh foo', ASK],
    ['git branch newb', ASK],
    ['git tag -l -- v1', ASK],
    ['GIT_PAGER=sh git log', ASK],
    // write-capable flags
    ['tree -o /tmp/x', ASK_OUTSIDE],
    ['tree -R -H .', ASK],
    ['sort --output=/tmp/x f', ASK],
    ['find . -fprint0 /tmp/x', ASK],
    ['find . -fls /tmp/x', ASK],
    ['find . -delete', ASK],
    ['fd -x rm', ASK],
    ['awk -f prog.awk f', ASK],
    ['jq -f prog.jq f', ASK],
    ['jq -rf prog.jq f', ASK],
    ['jq --rawfile a /etc/passwd . f', ASK_OUTSIDE],
    ['man -P id ls', ASK],
    ['date -s 2020', ASK],
    ['hostname evil', ASK],
    ['ps axe', ASK],
    // redirections
    ['echo hi >| /tmp/x', ASK_OUTSIDE],
    ['echo hi &> /tmp/x', ASK_OUTSIDE],
    ['echo x > /dev/sda', ASK_OUTSIDE],
    ['echo x > /dev/tcp/1.2.3.4/80', ASK_OUTSIDE],
    ['ls 2>/dev/null', RO_ALLOW],
    ['ls > /dev/null 2>&1', RO_ALLOW],
    ['ls /etc 2>/dev/null', RO_OUTSIDE],
    ['cat < /etc/passwd', RO_OUTSIDE],
    ['cat <<< hi', ASK],
    // quoting, escapes and `..`
    ["cat $'\\x2e\\x2e/x'", ASK_OUTSIDE],
    ["cat '/etc/'passwd", RO_OUTSIDE],
    ['cat /e\\tc/passwd', RO_OUTSIDE],
    ['ls \\/etc', RO_OUTSIDE],
    ['l\\s /etc', ASK_OUTSIDE],
    ['cat -- /etc/passwd', RO_OUTSIDE],
    ['cat /repo/../etc/passwd', RO_OUTSIDE],
    ['cat /repo/a/../../etc/passwd', RO_OUTSIDE],
    ['cat ./../../etc/passwd', RO_OUTSIDE],
    ['cat /repo2/x', RO_OUTSIDE],
    ['cat /repo/x/..', RO_ALLOW],
    ['cat ~/../../etc/passwd', RO_OUTSIDE],
    ['ls /r?po/../etc', RO_OUTSIDE],
    ['ls /repo*', RO_OUTSIDE], // the glob may match /repo2, outside
    ['ls /ｅｔｃ', RO_OUTSIDE],
    // Entering the home directory reads nothing there, and nothing runs after it.
    ['cd', { readOnly: true, outsideCwd: true, decision: 'allow' }],
    ['cd ../x && touch y', ASK_OUTSIDE],
    ['cd sub && git log', ASK],
    ['cd sub && echo x > f', ASK],
    ['head -n 5 /etc/passwd', RO_OUTSIDE],
    ['git diff --no-index /etc/passwd x', RO_OUTSIDE],
    ['find . -newer /etc/passwd', RO_OUTSIDE],
  ];
  it.each(HOSTILE)('%s', (command, expected) => {
    const v = verdict(command);
    expect({ readOnly: v.readOnly, outsideCwd: v.outsideCwd, decision: v.decision }).toEqual(expected);
  });

  it('`~root` / `~+` are not allowed (ask, path reason tilde-user)', () => {
    for (const c of ['ls ~root', 'cat ~+/x']) {
      const v = verdict(c);
      expect(v.decision).toBe('ask');
      expect(v.paths[0]!.reason).toBe('tilde-user');
    }
  });

  it('acceptEdits: sed -i outside the safe subset still asks', () => {
    for (const c of ["sed -i 's/a/b/w /tmp/x' f", "sed -i -e 's/a/b/' -e 'w x' f", 'sed -i.bak s/a/b/ f', "sed -i 's/a/b/' *.txt"]) {
      expect(verdict(c, {}, acceptEdits).decision, c).toBe('ask');
    }
  });

  it('1 MB inputs come back quickly as ask, never read-only', () => {
    const inputs = ['cat ' + '../'.repeat(300_000) + 'etc/passwd', 'echo ' + 'a'.repeat(1 << 20), "sed -n '" + '1p;'.repeat(250_000) + "w /tmp/x' f", 'find . ' + '-name x '.repeat(100_000) + '-delete'];
    for (const c of inputs) {
      const v = verdict(c);
      expect(v.decision).toBe('ask');
      expect(v.readOnly).toBe(false);
    }
  }, 60_000);
});

describe('bugs found by review: fixed ones, and known gaps (flip `it.fails` to `it` when fixed)', () => {
  it('fixed: acceptEdits does not allow creating HEAD/objects/refs/hooks then running git (claude-code-reference.md §3.3.1 item 4 git guard; trailofbits/claude-code-devcontainer#42, claude-code#52578)', () => {
    // The compound plants a bare repository in the cwd; Claude Code's git guard makes the git
    // subcommand not read-only, so the whole command asks (it was allowed as accept-edits).
    expect(verdict('mkdir -p objects refs hooks && touch HEAD && git status', {}, acceptEdits).decision).toBe('ask');
  });

  it('fixed: acceptEdits asks for writes to protected paths .claude/ .git/ .vscode/ .bashrc (claude-code-reference.md §3.4.3 step 7.3 safety check; claude-code#51180, #43085)', () => {
    for (const c of ["sed -i 's/a/b/' .git/config", 'touch .claude/settings.local.json', 'cp x .claude/settings.json', 'touch .vscode/settings.json', 'touch .bashrc']) {
      expect(verdict(c, {}, acceptEdits).decision, c).toBe('ask');
    }
  });

  it('fixed: outsideCwd is true for outside paths read by read-only commands that are not PATH_EXTRACTORS (tac, rev, cmp, tree, du, fd, readlink, man -l, info -f; extension paths, facts only)', () => {
    for (const c of ['tac /etc/shadow', 'rev /etc/shadow', 'cmp /etc/shadow x', 'tree /etc', 'du /etc', 'fd . /etc', 'fd --base-directory=/etc x', 'readlink /etc/x', 'man -l /etc/passwd', 'info -f /etc/passwd']) {
      expect(verdict(c).outsideCwd, c).toBe(true);
    }
  });

  it('fixed: each alternative of a brace expansion is judged as its own path, so `{x,/etc/passwd}` is outside (extension paths, facts only)', () => {
    for (const c of ['cat {x,/etc/passwd}', 'cat /repo/{a,../../etc/passwd}', 'ls {.,/etc}']) {
      expect(verdict(c).outsideCwd, c).toBe(true);
    }
  });

  it('fixed: the value of grep/rg -f (a pattern file read from disk) is an extension path, so an outside read sets outsideCwd', () => {
    for (const c of ['grep -f /etc/shadow .', 'rg -f /etc/shadow .']) {
      expect(verdict(c).outsideCwd, c).toBe(true);
    }
  });

  it('fixed: ~500k arguments (1 MB) do not overflow the stack in path extraction', async () => {
    // A command this long gets no verdict from a parse (it is over the length cap), so the path
    // extractor is exercised directly.
    const text = 'ls ' + 'a '.repeat(500_000) + '/etc';
    // What is tested is the stack depth of path extraction, not parse speed: a budget no load reaches.
    const tree = parseBash(await initParser(), text, 300_000)!;
    try {
      const [cmd] = buildViews(tree, text).commands;
      const paths = extractPaths(cmd!);
      expect(paths).toHaveLength(500_001);
      expect(paths.at(-1)?.path).toBe('/etc');
    } finally {
      tree.delete();
    }
    expect(verdict('ls ' + 'a '.repeat(500_000) + '/etc').decision).toBe('ask');
  }, 300_000);
});

describe('findings of the code review (fixed)', () => {
  it('acceptEdits does not allow a file edit behind an assignment: Claude Code reads the first word (`PATH=./bin`)', () => {
    for (const c of ['PATH=./bin mkdir foo', 'LD_PRELOAD=./evil.so touch x', 'BASH_ENV=./e rm x']) {
      expect(verdict(c, {}, acceptEdits).decision, c).toBe('ask');
    }
    expect(verdict('mkdir foo', {}, acceptEdits).decision).toBe('allow');
  });

  it('an exact allow of the whole command does not lift path asks or the cd checks (claude-code-reference.md §2.6 items 7–11)', () => {
    for (const c of ['echo hi > /etc/cron.d/x', 'cp -t /etc x', 'sed -i s/a/b/ /etc/hosts', 'cd sub && git status']) {
      expect(verdict(c, { allow: [`Bash(${c})`] }).decision, c).toBe('ask');
    }
    // It still decides for a command the gates would stop, and for a plain one.
    expect(verdict('echo $(date)', { allow: ['Bash(echo $(date))'] }).decision).toBe('allow');
    expect(verdict('make build', { allow: ['Bash(make build)'] }).decision).toBe('allow');
  });

  it('protected paths are compared without case (.GIT is .git on macOS and Windows)', () => {
    for (const c of ['touch .GIT/hooks/pre-commit', 'cp evil .Git/config', 'touch .BASHRC']) {
      expect(verdict(c, {}, acceptEdits).decision, c).toBe('ask');
    }
  });

  it('a relative recorded cwd does not switch path checks off: nothing is known to be inside', () => {
    for (const cwd of ['sub', '.', '']) {
      const v = verdictFor('cat /etc/shadow', { cwd }, linter);
      expect(v.decision, JSON.stringify(cwd)).toBe('ask');
      expect(v.reason.startsWith('path-constraint')).toBe(true);
    }
  });

  it('git in a bare repository is not read-only (claude-code-reference.md §3.3.1 item 4), through the host', async () => {
    const bare = await Linter.create({ pathHost: { home: HOME, isBareRepository: (d) => d === '/repo' } });
    expect(verdictFor('git status', { cwd: '/repo' }, bare)).toMatchObject({ readOnly: false, decision: 'ask' });
    expect(verdictFor('git status', { cwd: '/repo' }, linter)).toMatchObject({ readOnly: true, decision: 'allow' });
    expect(verdictFor('ls', { cwd: '/repo' }, bare).decision).toBe('allow');
  });

  it('returns on inputs that were quadratic: a long -rrr…r! cluster and a deep a/a/a/… path', () => {
    expect(verdict(`grep -${'r'.repeat(80_000)}! x`).decision).toBe('ask');
    expect(verdict(`cat ${'a/'.repeat(20_000)}x`).decision).toBeDefined();
  }, 60_000);
});
