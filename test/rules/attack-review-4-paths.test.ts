/**
 * Attack review 4, outside reads and writes by programs that had no path table: under allow-all
 * `Bash` beside a deny rule (and with `Bash` alone, and with no rules at all) each of them asks,
 * in every spelling the program's parser accepts; the same programs with paths inside the
 * project stay allowed under allow-all. A program shellward has no path table for asks when a word
 * names a path outside (absolute, `~`, `$HOME`, or a `..` that leaves the project), with the reason
 * that its target cannot be checked before it runs.
 */
import { describe, expect, it } from 'vitest';
import { bypassHarness } from './bypass-harness.js';

const { check, neverAllowed } = bypassHarness();
const ALL = ['Bash'];
const DENY = ['Bash(rm:*)', 'Bash(curl:*)'];

/** Asserts `command` is never allowed and asks under allow-all, with and without deny rules, naming `shown` in the reason. */
function asksUnderAllowAll(command: string, shown?: string): void {
  neverAllowed(command);
  for (const deny of [DENY, []]) {
    const v = check(command, ALL, deny);
    expect(v.decision, `${command} (deny: ${deny.join(' ')})`).toBe('ask');
    expect(v.reason, command).toMatch(/^path-constraint: /);
    if (shown !== undefined) expect(v.reason, command).toContain(`\`${shown}\``);
  }
}

describe('writes outside the project by programs that had no path table', () => {
  it.each([
    ['install a.txt /tmp/a4/x', '/tmp/a4/x'],
    ['install -d /tmp/a4/d', '/tmp/a4/d'],
    ['install -t /tmp/a4 a.txt', '/tmp/a4'],
    ['install -Dm644 a.txt /usr/local/x', '/usr/local/x'],
    ['install -m 644 a.txt ~/x', '~/x'],
    // (a relative target names a file in the link's directory: /tmp/a4/a.txt, read outside too)
    ['ln -s /work/proj/a.txt /tmp/a4/lnk', '/tmp/a4/lnk'],
    ['ln -s a.txt /tmp/a4/lnk', '/tmp/a4/a.txt'],
    ['ln -sf /tmp/a4/x ~/.bashrc', '/tmp/a4/x'],
    ['ln -t /tmp/a4 a.txt', '/tmp/a4'],
    ['split -b 1 a.txt /tmp/a4/pre', '/tmp/a4/pre'],
    ['split -b1 a.txt -- /tmp/a4/pre', '/tmp/a4/pre'],
    ['csplit -f /tmp/a4/pre a.txt 1', '/tmp/a4/pre'],
    ['truncate -s 0 /tmp/a4/outside.txt', '/tmp/a4/outside.txt'],
    ['shred -u /tmp/a4/outside.txt', '/tmp/a4/outside.txt'],
    ['mkfifo /tmp/a4/f', '/tmp/a4/f'],
    ['mkfifo -m 600 ~/f', '~/f'],
    ['mknod /tmp/a4/f p', '/tmp/a4/f'],
    ['gzip /tmp/a4/outside.txt', '/tmp/a4/outside.txt'],
    ['bzip2 /tmp/a4/outside.txt', '/tmp/a4/outside.txt'],
    ['xz /tmp/a4/outside.txt', '/tmp/a4/outside.txt'],
    ['gunzip /tmp/a4/o.gz', '/tmp/a4/o.gz'],
    ['unzip x.zip -d /tmp/a4', '/tmp/a4'],
    ['unzip -d/tmp/a4 x.zip', '/tmp/a4'],
    ['zip /tmp/a4/x.zip a.txt', '/tmp/a4/x.zip'],
    ['git init /tmp/a4/newrepo', '/tmp/a4/newrepo'],
    ['git -C . init /tmp/a4/newrepo', '/tmp/a4/newrepo'],
    ['git clone . /tmp/a4/clone', '/tmp/a4/clone'],
    ['git bundle create /tmp/a4/b.bundle HEAD', '/tmp/a4/b.bundle'],
    ['patch /tmp/a4/outside.txt < x.patch', '/tmp/a4/outside.txt'],
    ['patch -o /tmp/a4/x a.txt < x.patch', '/tmp/a4/x'],
    ['setfacl -m u:nobody:r /tmp/a4/outside.txt', '/tmp/a4/outside.txt'],
    ['chattr +i /tmp/a4/outside.txt', '/tmp/a4/outside.txt'],
    ['mktemp -p /tmp/a4', '/tmp/a4'],
    ['mktemp /tmp/a4/XXXX', '/tmp/a4/XXXX'],
    ['rsync a.txt /tmp/a4/x', '/tmp/a4/x'],
    ['scp a.txt /tmp/a4/x', '/tmp/a4/x'],
    ["sqlite3 /tmp/a4/x.db 'create table t(x)'", '/tmp/a4/x.db'],
    ['openssl enc -in a.txt -out /tmp/a4/x', '/tmp/a4/x'],
    ['gpg -o /tmp/a4/x -c a.txt', '/tmp/a4/x'],
    ["ssh-keygen -f /tmp/a4/key -N ''", '/tmp/a4/key'],
    ['script -q /tmp/a4/x -c true', '/tmp/a4/x'],
    ['shuf -o /tmp/a4/x a.txt', '/tmp/a4/x'],
    ['iconv -f utf8 -t ascii -o /tmp/a4/x a.txt', '/tmp/a4/x'],
    ['sdiff -o/tmp/a4/x a.txt b.txt', '/tmp/a4/x'],
  ])('%s asks', (command, shown) => {
    asksUnderAllowAll(command, shown);
  });
});

describe('reads outside the project by programs that had no path table', () => {
  it.each([
    ['shuf /etc/passwd', '/etc/passwd'],
    ['join /etc/passwd /etc/group', '/etc/passwd'],
    ['iconv -f utf8 /etc/passwd', '/etc/passwd'],
    ['base32 /etc/passwd', '/etc/passwd'],
    ['basenc --base64 /etc/passwd', '/etc/passwd'],
    ['cksum /etc/passwd', '/etc/passwd'],
    ['b2sum /etc/passwd', '/etc/passwd'],
    ['gzip -c /etc/passwd', '/etc/passwd'],
    ['xz -c /etc/passwd', '/etc/passwd'],
    ['zcat /etc/x.gz', '/etc/x.gz'],
    ['install /etc/shadow ./sh', '/etc/shadow'],
    ['rsync /etc/shadow .', '/etc/shadow'],
    ['scp /etc/shadow .', '/etc/shadow'],
    ['ln /etc/shadow h', '/etc/shadow'],
    ['split /etc/passwd pre', '/etc/passwd'],
    ['zip x.zip /etc/passwd', '/etc/passwd'],
    ['zip -r x.zip /etc', '/etc'],
    ['tar -cf x.tar /etc/passwd', '/etc/passwd'],
    ['tar cf x.tar /etc/passwd', '/etc/passwd'],
    ['tar czf x.tgz ../x', '../x'],
    ['openssl enc -in /etc/shadow -base64', '/etc/shadow'],
    ['openssl base64 -in /etc/shadow', '/etc/shadow'],
    ['ptx /etc/passwd', '/etc/passwd'],
    ['look root /etc/passwd', '/etc/passwd'],
    ['dos2unix -n /etc/passwd out', '/etc/passwd'],
    ['git hash-object /etc/passwd', '/etc/passwd'],
    ['diff3 /etc/passwd a.txt a.txt', '/etc/passwd'],
    ['sdiff /etc/passwd a.txt', '/etc/passwd'],
    ['yq . /etc/x', '/etc/x'],
    ['truncate --reference=/etc/shadow x', '/etc/shadow'],
  ])('%s asks', (command, shown) => {
    asksUnderAllowAll(command, shown);
  });

  it.each([
    ['sqlite3 /etc/x.db .dump', '/etc/x.db'],
    ['sqlite3 -readonly /etc/x.db .dump', '/etc/x.db'],
  ])('%s asks: for the outside read under allow-all, and as SQLite code nobody analyses beside deny rules', (command, shown) => {
    neverAllowed(command);
    const alone = check(command, ALL, []);
    expect(alone.decision).toBe('ask');
    expect(alone.reason).toMatch(/^path-constraint: /);
    expect(alone.reason).toContain(`\`${shown}\``);
    const withDeny = check(command, ALL, DENY);
    expect(withDeny.decision).toBe('ask');
    expect(withDeny.reason).toMatch(/^unknown-program: `sqlite3` runs SQLite/);
  });

  it.each([
    ['git clone /etc/repo d', '/etc/repo'],
    ['git clone file:///etc/repo d', '/etc/repo'],
    ['git clone ./x:y /tmp/d', '/tmp/d'],
  ])('%s asks: a local repository or a file:// URL is a path', (command, shown) => {
    asksUnderAllowAll(command, shown);
  });

  it('a remote repository URL names no local path (its text, a password included, is never resolved as one)', () => {
    for (const url of ['https://alice:pw@example.com/r.git', 'ssh://git@example.com/r.git', 'git@example.com:r.git', 'ext::sh -c x', 'example.com:r.git']) {
      const v = check(`git clone '${url}' d`, ALL, []);
      expect(v.reason, url).not.toMatch(/path-constraint/);
      expect(JSON.stringify(v), url).not.toContain(`/${url.split('/')[0]}`);
    }
  });

  it('a symbolic link made to a file outside asks, so the `cat` of it that follows is never allowed', () => {
    asksUnderAllowAll('ln -s /etc/passwd p && cat p', '/etc/passwd');
    // A brace expansion asks on its own (a parser differential); never allowed either way.
    neverAllowed('ln -s {a.txt,/etc/passwd} d');
    expect(check('ln -s {a.txt,/etc/passwd} d', ALL, DENY).decision).toBe('ask');
  });
});

describe('every spelling the program parser accepts', () => {
  it.each([
    ['install --target-directory=/tmp/x a.txt', '/tmp/x'],
    ['install --target-dir=/tmp/x a.txt', '/tmp/x'],
    ['install --targ /tmp/x a.txt', '/tmp/x'],
    ['ln --target-directory /tmp/x a.txt', '/tmp/x'],
    ['ln -st/tmp/x a.txt', '/tmp/x'],
    ['csplit --prefix=/tmp/x a.txt 1', '/tmp/x'],
    ['csplit --pre=/tmp/x a.txt 1', '/tmp/x'],
    ['gzip --stdout /etc/passwd', '/etc/passwd'],
    ['gzip --std /etc/passwd', '/etc/passwd'],
    ['tar --create --file=x.tar /etc/passwd', '/etc/passwd'],
    ['tar -c -f x.tar -- /etc/passwd', '/etc/passwd'],
    ['git init --separate-git-dir=/tmp/x', '/tmp/x'],
    ['git init --sep=/tmp/x', '/tmp/x'],
    ['git clone --reference=/tmp/r https://example.invalid/x d', '/tmp/r'],
    ['shuf --out=/tmp/x a.txt', '/tmp/x'],
    ['shuf -o/tmp/x a.txt', '/tmp/x'],
    ['iconv --output=/tmp/x a.txt', '/tmp/x'],
    ['patch --input=/etc/x.patch a.txt', '/etc/x.patch'],
    ['patch -d /tmp/a4 -p1', '/tmp/a4'],
    ['mktemp --tmpdir=/tmp/a4', '/tmp/a4'],
    ['setfacl --restore=/tmp/acl.txt', '/tmp/acl.txt'],
  ])('%s asks', (command, shown) => {
    asksUnderAllowAll(command, shown);
  });

  it('options that run a program ask under allow-all beside a deny rule', () => {
    for (const c of ["split --filter='sh -c id' a.txt", 'split --fil=sh a.txt', 'install --strip-program=./x a.txt b', 'diff3 --diff-program=./x a b c', 'sdiff --diff-program=./x a b', 'openssl enc -engine ./e.so -in a.txt']) {
      const v = check(c, ALL, DENY);
      expect(v.decision, c).toBe('ask');
      expect(v.reason, c).toMatch(/^option-effect: /);
    }
  });

  it('options that write or read files the command line does not show ask', () => {
    for (const c of ["sqlite3 x.db \"attach '/tmp/y.db' as y\"", "sqlite3 x.db 'vacuum into \"y.db\"'", 'yq -s \'.a\' a.yaml', "yq 'load(\"/etc/x\")' a.yaml", 'xz --files=list.txt', 'cksum -c sums.txt']) {
      expect(check(c, ALL, DENY).decision, c).toBe('ask');
    }
  });
});

describe('the same programs inside the project stay allowed under allow-all', () => {
  it.each([
    'install a.txt b.txt',
    'install -d build/out',
    'ln -s a.txt b',
    'ln -sf ../proj/a.txt b',
    'split -b 1 a.txt pre',
    'csplit -f pre a.txt 1',
    'truncate -s 0 a.txt',
    'gzip -c a.txt',
    'gzip a.txt',
    'zip -r x.zip src',
    'tar czf x.tgz src',
    'git init sub',
    'git clone https://example.invalid/x.git',
    'git clone git@example.invalid:x/y.git dir',
    'git bundle create b.bundle HEAD',
    'git hash-object a.txt',
    'mktemp -d',
    'mktemp tmp.XXXX',
    'rsync -a src/ backup/',
    'shuf a.txt',
    'shuf -e /etc/passwd x',
    'echo /etc/passwd',
    'printf "%s\\n" /usr/bin',
    'basename /usr/bin/x',
    'test -d /usr',
    '[ -f /etc/passwd ]',
    'git log HEAD~3..HEAD',
    'git status',
    'npm run build',
    'node dist/x.js --out=build',
  ])('%s is allowed', (command) => {
    const v = check(command, ALL, DENY);
    expect(v.decision, `${command}: ${v.reason}`).toBe('allow');
  });

  // Their members (or the patched files) are named only inside the archive or patch, and one may
  // be a protected file: allowed under allow-all alone, asked beside deny rules
  // (test/rules/attack-review-5-precision.test.ts).
  it.each(['unzip x.zip -d out', 'tar -xf x.tar -C out', 'patch -p1 < x.patch'])('%s is allowed under allow-all alone, asked beside deny rules', (command) => {
    expect(check(command, ALL, []).decision, command).toBe('allow');
    expect(check(command, ALL, DENY).decision, command).toBe('ask');
  });
});

describe('a program with no path table: words that name a path outside cannot be checked', () => {
  it.each([
    ['foo /etc/passwd', '/etc/passwd'],
    ['foo --input=/etc/passwd', '/etc/passwd'],
    ['foo -I/usr/include x.c', '/usr/include'],
    ['foo ../x', '../x'],
    ['foo a/../../x', 'a/../../x'],
    ['foo ~/x', '~/x'],
    ['foo ~root/x', '~root/x'],
    ['foo "$HOME/.ssh/id_rsa"', '$HOME'],
    ['foo "${HOME}/x"', 'HOME'],
    ['foo --out="$HOME/x"', 'HOME'],
    ['foo key=/etc/x', '/etc/x'],
    ['python3 /tmp/x.py', '/tmp/x.py'],
    ['git commit -F /tmp/msg', '/tmp/msg'],
    ['git apply /tmp/x.patch', '/tmp/x.patch'],
    ['docker run -v /:/host img', '/:/host'],
    ['sudo foo /etc/shadow', '/etc/shadow'],
  ])('%s asks under allow-all and under a prefix rule for the program', (command, shown) => {
    for (const deny of [DENY, []]) {
      const v = check(command, ALL, deny);
      expect(v.decision, `${command} (deny: ${deny.join(' ')})`).toBe('ask');
      expect(v.reason, command).toMatch(/^path-constraint: .*cannot be checked before it runs/);
      expect(v.reason, command).toContain(shown);
    }
    // A prefix rule for the program asks too (for a word that is not static, already because it may be an option).
    expect(check(command, [`Bash(${command.split(' ')[0]}:*)`]).decision, command).toBe('ask');
    neverAllowed(command);
  });

  it('an exact allow rule names the whole command, paths included', () => {
    expect(check('foo /etc/passwd', ['Bash(foo /etc/passwd)']).decision).toBe('allow');
  });

  it('paths inside the project, pseudo-devices and words that are no paths pass', () => {
    for (const c of ['foo /work/proj/a.txt', 'foo ./a.txt sub/../b', 'foo /dev/null', 'foo https://example.invalid/x', 'foo HEAD~1 main..dev', 'foo --level=3']) {
      expect(check(c, ALL, DENY).decision, c).toBe('allow');
    }
  });

  it('with no rules the decision is unchanged: an unknown program asks, and read-only ones stay allowed', () => {
    expect(check('foo /etc/passwd').decision).toBe('ask');
    expect(check('foo /etc/passwd').reason).toBe('no-matching-rule');
    for (const c of ['echo /etc/passwd', 'basename /usr/bin/x', 'date', 'date -d tomorrow', 'test -f /etc/passwd']) expect(check(c).decision, c).toBe('allow');
  });
});

describe('acceptEdits and read-only auto-allow', () => {
  it('outside writes and links out of the project are not file edits', () => {
    for (const c of ['install a.txt /tmp/x', 'ln -s /etc/passwd p', 'split a.txt /tmp/pre', 'truncate -s0 /tmp/x']) {
      expect(check(c, [], [], 'acceptEdits').decision, c).not.toBe('allow');
    }
  });
  it('date -f prints the lines of the file it cannot parse: not read-only outside', () => {
    expect(check('date -f /etc/shadow').decision).toBe('ask');
    expect(check('date --file=/etc/shadow').decision).toBe('ask');
    expect(check('date -r a.txt').decision).toBe('allow');
  });
});

describe('Read() and Edit() rules see the operands of the new tables', () => {
  it('a Read deny rule on a file inside denies the programs that read it', () => {
    for (const c of ['zip x.zip .env', 'shuf .env', 'base32 .env', 'tar cf x.tar .env', 'install .env /work/proj/x', 'gzip -c .env', 'git hash-object .env']) {
      expect(check(c, ALL, ['Read(.env)']).decision, c).toBe('deny');
    }
  });
  it('an Edit deny rule on a file inside denies the programs that write it', () => {
    for (const c of ['truncate -s0 keep.txt', 'shred keep.txt', 'split a.txt keep.txt', 'shuf -o keep.txt a.txt']) {
      expect(check(c, ALL, ['Edit(keep.txt)']).decision, c).toBe('deny');
    }
  });
});

describe('protected files written by programs that had no path table', () => {
  it.each([
    'install new.json .claude/settings.json',
    'install cfg.txt shellward.config.json',
    'ln -sf cfg.txt .claude/settings.json',
    'install -m 644 cfg.txt .git/config',
    'patch .git/config < p.diff',
    'install -m 755 evil.sh .git/hooks/pre-commit',
    'ln -sf ../../evil.sh .git/hooks/post-checkout',
    'rsync evil.sh .git/hooks/pre-commit',
    'split -n1 cfg.txt .git/hooks/pre-commi',
    'unzip -o x.zip -d .git/hooks',
    'install cfg.txt Makefile',
    'foo cfg.txt .claude/settings.json',
    'foo --out=.git/config',
    'git checkout HEAD~1 -- .claude/settings.json',
    'git restore --source=HEAD~1 .claude/settings.json',
    'git mv -f new.json .claude/settings.json',
    'git checkout-index -f .claude/settings.json',
    'git rm .claude/settings.json',
    'git worktree add ../wt-out',
  ])('%s asks under allow-all', (command) => {
    neverAllowed(command);
    for (const deny of [DENY, []]) expect(check(command, ALL, deny).decision, command).toBe('ask');
  });

  it('git subcommands that only record or read protected files stay allowed', () => {
    // (`git checkout main` rewrites the work tree: where the tracked files are not known it asks, test/rules/attack-review-5-precision.test.ts.)
    for (const c of ['git add package.json Makefile', 'git commit -m x package.json', 'git checkout -b feature', 'git log -- Makefile', 'git diff package.json', 'make build', 'npm run build']) {
      expect(check(c, ALL, DENY).decision, c).toBe('allow');
    }
  });
});

describe('git run in another repository under allow-all beside a deny rule', () => {
  it('-C, --git-dir and --work-tree ask: that repository config can name programs git runs', () => {
    for (const c of ['git -C sub status', 'git --git-dir=sub status', 'git --git-dir=sub --work-tree=. status', 'git -C ../other log']) {
      expect(check(c, ALL, DENY).decision, c).toBe('ask');
      neverAllowed(c);
    }
    // Without deny or ask rules allow-all covers what the program runs.
    expect(check('git -C sub status', ALL, []).decision).toBe('allow');
  });
});
