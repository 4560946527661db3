/**
 * Globs judged by what they can match on this machine (the fourth attack review's root cause F,
 * glob side): a glob word in a read path is expanded over bounded directory listings of the path
 * host (src/analyses/bash-glob.ts) and each name it may match is judged as the literal path would
 * be — symbolic links followed — so `cat etcl*` with `etclink -> /etc` in the project reads
 * outside, and `cat note*` past a `Read(./.env)` deny rule, where `notes.txt -> .env`, is denied.
 * Each case under the deny rule alone and with allow-all `Bash` beside it. The machine is a fake
 * path host (test/rules/glob-host.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../../src/lint.js';
import { verdictFor, type Verdict } from '../../src/verdict.js';
import { expandGlob } from '../../src/analyses/bash-glob.js';
import { fakeHost, type FakeTree } from './glob-host.js';

const TREE: FakeTree = {
  dirs: {
    '/': ['etc', 'home', 'root', 'work', 'usr'],
    '/etc': ['passwd', 'shadow', 'ssh'],
    '/etc/ssh': ['ssh_config'],
    '/home': ['u'],
    '/home/u': ['.ssh', 'notes'],
    '/home/u/.ssh': ['id_ed25519', 'known_hosts'],
    '/root': ['.ssh'],
    '/root/.ssh': ['authorized_keys'],
    '/usr': ['share'],
    '/usr/share': ['doc'],
    '/usr/share/doc': ['README'],
    '/work': ['proj', 'other'],
    '/work/other': ['x.txt'],
    '/work/proj': ['etclink', 'notes.txt', '.env', '.editorconfig', 'a.txt', 'b.txt', 'src', 'big', 'docs', 'dash'],
    '/work/proj/dash': ['--compress-program=sh', 'a.txt'],
    '/work/proj/src': ['main.ts', 'util.ts'],
    '/work/proj/docs': ['guide.md', 'share'],
    '/work/proj/big': [],
  },
  links: { '/work/proj/etclink': '/etc', '/work/proj/notes.txt': '.env', '/work/proj/docs/share': '../../../usr/share' },
  unlistable: ['/work/proj/big'],
};

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create({ pathHost: fakeHost(TREE) });
});

const check = (command: string, allow: string[] = [], deny: string[] = []): Verdict =>
  verdictFor(command, { cwd: '/work/proj', mode: 'default', permissions: { allow, deny, ask: [] } }, linter);

const RM = ['Bash(rm:*)'];
const ENV = ['Read(./.env)'];

/** Not allowed with no rules, under the deny rule alone, and with allow-all beside it. */
function neverAllowed(command: string, deny: string[] = RM): void {
  expect(check(command).decision, command).not.toBe('allow');
  expect(check(command, [], deny).decision, command).not.toBe('allow');
  expect(check(command, ['Bash'], deny).decision, command).not.toBe('allow');
}

describe('a glob that matches a link out of the project reads outside', () => {
  it.each(['cat etcl*/passwd', 'cat e?clink/passwd', 'cat [e]tclink/passwd', "cat 'etc'l*/shadow", 'head -n1 etcl*/passwd', 'grep root etcl*/passwd', 'wc -l etcl*/shadow', 'tail etcl*/passwd', 'sed -n 1p etcl*/passwd', 'ls etcl*/', 'ls -la etcl*', 'cat e*/ssh/*', 'grep -rh root etcl*', 'cat etclink/pass*'])('%s asks', (command) => {
    neverAllowed(command);
    const v = check(command, ['Bash'], RM);
    expect(v.decision, command).toBe('ask');
    expect(v.reason, command).toMatch(/\(\/etc(\/[a-z_]+)*\), outside the allowed working directories/);
  });

  it('a relative link target is followed from the link directory', () => {
    neverAllowed('cat docs/sh*/doc/README');
    expect(check('cat docs/sh*/doc/README', ['Bash'], RM).reason).toContain('/usr/share/doc/README');
  });

  it('a glob whose matches all stay inside stays allowed', () => {
    for (const c of ['cat a*', 'cat src/*.ts', 'cat [ab].txt', 'head -5 src/*', 'cat *.txt']) {
      expect(check(c).decision, c).toBe('allow');
      expect(check(c, ['Bash'], RM).decision, c).toBe('allow');
    }
  });

  it('a directory that cannot be listed, or a quoted glob character, is judged from the text as before', () => {
    expect(check('cat big/*').decision).toBe('allow');
    expect(check('cat etcl\\*/passwd').decision).toBe('allow');
    expect(check("cat 'etcl*'/passwd").decision).toBe('allow');
  });
});

describe('Read() deny rules see what a glob matches', () => {
  it.each(['cat note*', 'cat .e*', 'cat .en?', 'head note*', 'cat notes.*'])('%s is denied past Read(./.env)', (command) => {
    expect(check(command, [], ENV).decision, command).toBe('deny');
    expect(check(command, ['Bash'], ENV).decision, command).toBe('deny');
    expect(check(command, ['Bash'], ENV).reason, command).toMatch(/^policy-deny: Denied by rule Read\(\.\/\.env\)/);
  });

  it('a name matched only under some shell option (dotglob, nocaseglob) asks', () => {
    // bash matches a leading dot only with a literal dot, unless dotglob is set.
    for (const c of ['cat [.]e*', 'cat ?env', 'cat .E*']) {
      expect(check(c, [], ENV).decision, c).toBe('ask');
      expect(check(c, ['Bash'], ENV).decision, c).toBe('ask');
    }
  });

  it('a glob that cannot match the denied file stays allowed', () => {
    expect(check('cat a*', ['Bash'], ENV).decision).toBe('allow');
    expect(check('cat src/*', ['Bash'], ENV).decision).toBe('allow');
  });
});

describe('the glob matcher follows bash', () => {
  const host = { list: (d: string) => (TREE.unlistable?.includes(d) ? undefined : TREE.dirs[d]), resolve: (p: string) => p.replace(/\/+$/, '') || '/' };
  const names = (pattern: string, certainOnly = false): string[] | undefined =>
    expandGlob(pattern, '/work/proj', host)
      ?.filter((m) => !certainOnly || m.certain)
      .map((m) => m.path);

  it('`*` and `?` do not match a leading dot; a literal dot does', () => {
    expect(names('*', true)).toEqual(['etclink', 'notes.txt', 'a.txt', 'b.txt', 'src', 'big', 'docs', 'dash']);
    expect(names('.e*', true)).toEqual(['.env', '.editorconfig']);
    // dotglob would add the dot files: possible, not certain.
    expect(names('*')).toContain('.env');
  });

  it('`.*` may match `.` and `..` (bash before 5.2, or without globskipdots)', () => {
    expect(names('.*')).toEqual(expect.arrayContaining(['.', '..']));
    expect(names('.*', true)).not.toContain('..');
  });

  it('bracket expressions, negation, quoted characters', () => {
    expect(names('[ab].txt', true)).toEqual(['a.txt', 'b.txt']);
    expect(names('[!a].txt', true)).toEqual(['b.txt']);
    expect(names('\\**')).toEqual([]);
    expect(names('\\a*', true)).toEqual(['a.txt']);
    expect(names('src/*.ts', true)).toEqual(['src/main.ts', 'src/util.ts']);
  });

  it('forms it does not model are not expanded', () => {
    expect(names('**/x')).toBeUndefined();
    expect(names('@(a|b).txt')).toBeUndefined();
    expect(names('[ab')).toBeUndefined();
    expect(names('big/*')).toBeUndefined();
  });
});

describe('the repository\'s own hook directory and hook managers\' configs are protected writes', () => {
  const REPO: FakeTree = {
    dirs: { '/': ['repo'], '/repo': ['.git', '.githooks', 'run.sh', 'src'], '/repo/.git': ['config', 'HEAD'], '/repo/.githooks': ['pre-commit'], '/repo/src': [] },
    links: {},
    files: { '/repo/.git/config': '[core]\n\trepositoryformatversion = 0\n\thooksPath = .githooks\n', '/repo/.git/HEAD': 'ref: refs/heads/main\n' },
  };
  let repo: Linter;
  beforeAll(async () => {
    repo = await Linter.create({ pathHost: fakeHost(REPO) });
  });
  const inRepo = (command: string, allow: string[] = [], deny: string[] = []): Verdict =>
    verdictFor(command, { cwd: '/repo', mode: 'acceptEdits', permissions: { allow, deny, ask: [] } }, repo);

  it.each(['cp run.sh .githooks/pre-commit', 'echo x > .githooks/post-checkout', 'mv run.sh .githooks/pre-push', 'cp run.sh lefthook.yml', 'cp run.sh .lefthook.yml', 'cp run.sh lefthook-local.yaml', 'cp run.sh .config/lefthook.toml', 'cp run.sh .lefthook/pre-commit/x.sh', 'cp run.sh .overcommit.yml', 'cp run.sh .git-hooks/pre_commit/x.rb'])('%s asks in acceptEdits', (command) => {
    expect(inRepo(command).decision, command).toBe('ask');
    expect(inRepo(command, [], RM).decision, command).toBe('ask');
    expect(inRepo(command).reason, command).toMatch(/runs code later/);
  });

  it('other writes in acceptEdits stay allowed', () => {
    expect(inRepo('cp run.sh src/run.sh').decision).toBe('allow');
  });
});

describe('following links while walking the tree asks, as grep -R, find -L, du -L and rg -L do', () => {
  it.each(['ls -RL', 'ls -LR', 'ls -R -L src', 'ls -lRL docs', 'ls --recursive --dereference', 'ls --dereference -R .', 'tree -l', 'tree -al docs', 'fd -L passwd', 'fd --follow passwd', 'fd -HL x', 'fdfind -L x'])('%s asks', (command) => {
    neverAllowed(command);
    expect(check(command, ['Bash'], RM).reason, command).toMatch(/follows symbolic links/);
  });

  it.each([
    ['ls -RL', 'Bash(ls:*)'],
    ['tree -l', 'Bash(tree:*)'],
    ['fd -L x', 'Bash(fd:*)'],
    ['fd -x rm {} ;', 'Bash(fd:*)'],
  ])('%s is not allowed by the prefix rule %s beside a deny rule', (command, rule) => {
    expect(check(command, [rule], RM).decision, command).not.toBe('allow');
  });

  it('walking without following links, or following only the operand, stays allowed', () => {
    for (const c of ['ls -R', 'ls -L', 'ls -la src', 'tree', 'tree -L 2 src', 'fd x', 'fd -H x src']) {
      expect(check(c).decision, c).toBe('allow');
      expect(check(c, ['Bash'], RM).decision, c).toBe('allow');
    }
  });
});

describe('a glob lists the directory it walks, whatever the program does with the names', () => {
  it.each(['echo ~/.ssh/*', 'echo ~/.ssh/id_*', "printf '%s\\n' ~/.ssh/*", "printf '%s\\n' /root/*", 'echo /home/*/.ssh/*', 'echo /root/.ssh/*', 'echo ../*', 'echo ../*/.env', 'echo /etc/pass*', 'true /etc/*'])('%s asks, as `ls` of that directory does', (command) => {
    neverAllowed(command);
    expect(check(command, ['Bash'], RM).reason, command).toMatch(/^path-constraint: .*outside the allowed working directories/);
  });

  it('a glob of the project\'s own directories, or a quoted one, stays allowed', () => {
    for (const c of ['echo *', 'echo *.txt', 'echo src/*', "echo '/root/*'", 'echo \\*']) {
      expect(check(c).decision, c).toBe('allow');
      expect(check(c, ['Bash'], RM).decision, c).toBe('allow');
    }
  });
});

describe('a listing proves that a glob spells no option', () => {
  const inDir = (cwd: string, command: string, allow: string[] = [], deny: string[] = []): Verdict =>
    verdictFor(command, { cwd, mode: 'default', permissions: { allow, deny, ask: [] } }, linter);
  const SRC = '/work/proj/src';

  it.each(['grep x *', 'wc -l *', 'sort *', 'grep -n x * | head -5', 'cd /work/proj/src && wc -l *.ts', 'file *'])('%s is allowed where no name starts with `-`', (command) => {
    expect(inDir(SRC, command).decision, command).toBe('allow');
    expect(inDir(SRC, command, ['Bash'], RM).decision, command).toBe('allow');
  });

  it.each(['grep x *', 'wc -l *', 'sort *', 'sort \\-*', 'sort [-]*', 'git grep x *'])('%s still asks where a name starts with `-`', (command) => {
    for (const [allow, deny] of [[[], []], [[], RM], [['Bash'], RM]] as const) {
      expect(inDir('/work/proj/dash', command, [...allow], [...deny]).decision, command).not.toBe('allow');
    }
  });

  it.each(['touch -- -x; grep x *', 'touch -- -x && wc -l *', 'cp a.ts -- -x | sort *', 'grep x * ; mkdir -- --output=x'])('%s asks: another command of the unit may create a name first', (command) => {
    expect(inDir(SRC, command).decision, command).not.toBe('allow');
    expect(inDir(SRC, command, ['Bash'], RM).decision, command).not.toBe('allow');
  });

  it('`ls` with a glob asks where the listing shows a name starting with `-` (a file `-RL` would make it walk links)', () => {
    for (const c of ['ls *', 'ls -la *', 'ls \\-*']) {
      expect(inDir('/work/proj/dash', c).decision, c).not.toBe('allow');
      expect(inDir('/work/proj/dash', c, ['Bash'], RM).decision, c).not.toBe('allow');
    }
    expect(inDir(SRC, 'ls *').decision).toBe('allow');
    expect(inDir(SRC, 'ls -la *.ts').decision).toBe('allow');
  });

  it('a directory that cannot be listed proves nothing', () => {
    expect(inDir('/work/proj/big', 'grep x *').decision).not.toBe('allow');
    expect(inDir('/work/proj/big', 'grep x *', ['Bash'], RM).decision).not.toBe('allow');
  });
});
