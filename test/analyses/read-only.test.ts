import { describe, expect, it } from 'vitest';
import table from '../../rules/read-only.json' with { type: 'json' };
import { hasUncPath, simpleCommandReadOnly, unitReadOnly, type ReadOnlyResult } from '../../src/analyses/read-only.js';
import { parse } from '../helpers.js';

async function check(src: string, options?: { bareRepository?: boolean; cwd?: string }): Promise<ReadOnlyResult> {
  return unitReadOnly(await parse(src), options);
}

/** At least one read-only example for every command of the allowlist (§3.3.3). */
const ALLOWLIST_READ_ONLY: readonly string[] = [
  'xargs -0 grep -l foo',
  'xargs -I {} echo {}',
  'xargs -n 1 -P 4 -L 2 -s 100 wc -l',
  'xargs -E EOF -t -r -x printf x',
  'xargs -d , head',
  'xargs -- tail',
  'xargs',
  'file -b --mime-type x',
  'file --exclude=ascii -m magic x',
  'sed -n 1,5p f',
  "sed 's/a/b/g'",
  "sed -E 's/a+/b/'",
  "sed -n '1p;5p' f",
  'sort -rn f',
  'sort -k 2 -t , f',
  'sort --key=2 --parallel=2 f',
  'man -k printf',
  'man ls',
  'help -d cd',
  'netstat -an',
  'ps aux',
  'ps -ef',
  'ps -p 123 --no-headers',
  'base64 -d f',
  'base64 -w 0 f',
  'base64 -- f',
  'grep -rn foo src',
  'grep -nr foo src',
  'grep -A20 x f',
  'grep -C 3 --color=auto x f',
  'grep -e foo -- -v',
  'grep --max-count=2 -i x f',
  'rg -n foo src',
  "rg -t ts -g '*.ts' foo",
  'rg -A5 foo',
  'sha256sum -c sums',
  'wc -l README.md',
  'wc --lines --words a b',
  'du -sh src',
  'du -d1 .',
  'du --max-depth=1 --apparent-size src',
  'bash -n build.sh',
  'sh -n build.sh arg',
  'dpkg -l',
  'dpkg -l bash coreutils',
  'dpkg-query -l bash',
  'dpkg-query -W --no-pager bash',
  'dpkg-query -s bash',
  'dpkg-query -L bash',
  'rg --files',
  "rg --files -g '*.ts' src",
  "rg --files --iglob '!*.md' --hidden",
  'rg --count-matches --smart-case foo src',
  'sha1sum f',
  'md5sum --tag f',
  'tree -L 2 -a',
  'tree -H base --charset=utf-8 d',
  'date +%s',
  'date -u +%Y',
  'date -d yesterday +%F',
  'date --iso-8601=seconds',
  'date',
  'hostname',
  'hostname -f',
  'info -f coreutils',
  'lsof -i :8080',
  'lsof -p 123 -n',
  'pgrep -f node',
  'pgrep -u root -l sshd',
  'tput cols',
  'tput -T xterm lines',
  'ss -tlnp',
  'ss -f inet',
  'fd -e ts src',
  'fd --max-depth=2 x',
  'fdfind -H x',
  'pyright --outputjson src',
  'pyright -p . --level=error',
  'docker logs --tail 100 web',
  'docker logs -f -t web',
  "docker inspect -f '{{.Id}}' web",
  'docker inspect --size web',
  'git diff HEAD~1',
  'git diff --stat --cached',
  'git diff -M -C --word-diff-regex=x a b',
  'git log --oneline -n 5',
  'git log -5',
  'git log --max-count=5 --author=me --since=2.weeks --graph --all',
  'git log -p -- src',
  'git log -- --output=x',
  'git show HEAD --stat',
  'git show --format=%H -s',
  'git shortlog -sn',
  'git reflog',
  'git reflog show HEAD',
  'git stash list',
  'git stash list --oneline -n 3',
  'git stash show -p',
  'git stash show --stat stash@{0}',
  'git ls-remote',
  'git ls-remote --tags origin',
  'git ls-remote --sort=-version:refname',
  'git status',
  'git status -sb',
  'git status --porcelain --untracked-files=no',
  'git blame -L 1,10 f',
  'git blame -w f',
  'git ls-files',
  'git ls-files -m --exclude-standard',
  'git config --get user.name',
  'git config --get --global core.editor',
  'git remote show origin',
  'git remote',
  'git remote -v',
  'git merge-base main HEAD',
  'git merge-base --is-ancestor a b',
  'git rev-parse HEAD',
  'git rev-parse --abbrev-ref HEAD',
  'git rev-parse --show-toplevel',
  'git rev-list --count HEAD',
  'git describe --tags --always',
  'git cat-file -p HEAD',
  'git status --porcelain=v1',
  'git status --porcelain=v2 --column=always',
  'git ls-tree HEAD',
  'git ls-tree -r --name-only --abbrev=8 HEAD src',
  'git check-ignore -v dist',
  'git check-ignore -q --no-index node_modules',
  'git show-ref --tags',
  'git show-ref --hash=8 --heads',
  'git --version',
  'git --version --build-options',
  'git cat-file -t HEAD',
  'git for-each-ref --sort=-committerdate refs/heads',
  "git for-each-ref --format='%(refname)' --count=5",
  'git grep -n foo',
  'git grep -e foo --cached',
  'git worktree list',
  'git worktree list --porcelain',
  'git tag',
  'git clean -n',
  'git clean -f -n -d -x',
  'git tag -n "v1*"',
  'git tag -n5 v1',
  'git tag -l "v1*"',
  'git tag -li "v1*"',
  'git tag --list --sort=-v:refname',
  'git branch',
  'git branch -a',
  'git branch -vv',
  'git branch --show-current',
  'git branch -l "feat*"',
  'git branch --merged main',
  'git branch --sort=-committerdate',
];

/** Every exclusion and danger check of §3.3.3, one example each. */
const ALLOWLIST_NOT_READ_ONLY: readonly string[] = [
  'xargs rm',
  'xargs -0 rm -rf',
  'xargs sh -c x',
  'xargs -i echo',
  'xargs -e echo',
  'xargs -P4 echo',
  'xargs -I X echo X',
  'xargs -E END echo',
  'xargs -E= echo',
  'xargs -d ab echo',
  'xargs -n x echo',
  'xargs -- rm',
  'file -C -m x',
  'sed -i s/a/b/ f',
  "sed 's/a/b/' f",
  "sed 's/a/b/w out'",
  "sed 'e ls'",
  "sed -n '1d' f",
  'sed --in-place s/a/b/ f',
  'sort -o out f',
  'sort --output=out f',
  'sort -T /tmp f',
  'man -P cat ls',
  'man --pager=cat ls',
  'help -x cd',
  'netstat -p',
  'ps auxe',
  'ps e',
  'ps -u eve',
  'base64 -- --foo',
  'base64 -o out f',
  "grep $'a\\nb' f",
  'grep -rA x f',
  'grep --pre=cat x',
  'rg --pre cat x',
  'rg --pre=cat x',
  "rg $'a\\rb'",
  'rg --search-zip x',
  'sha256sum -o x',
  'wc --files0-from=list',
  'wc --files0=list',
  'wc -l --files0-from list',
  'du --files0-from=list',
  'du -X patterns .',
  'du --exclude-from=patterns .',
  'bash build.sh',
  'bash -n -i build.sh',
  'bash -n -c true',
  'bash -n build.sh -i',
  'sh -n -i build.sh',
  'rg --pre cat foo',
  'rg --pre-glob *.gz --pre zcat foo',
  'rg --hostname-bin ./x foo',
  'rg --ignore-file /etc/x foo',
  'git status --porcelain=$x',
  'git --version extra',
  'git check-ignore --stdin',
  'dpkg -i x.deb',
  'dpkg-query -W --showformat=x bash',
  'tree -R -H x',
  'tree -o out',
  'date 010100002030',
  "date -s 'next day'",
  'date -- 0101',
  'hostname newname',
  'hostname -- newname',
  'info -o out ls',
  'info --dribble=f',
  'lsof +m',
  'lsof +m/x',
  'lsof -D x',
  'pgrep -9 x',
  'tput clear',
  'tput reset',
  'tput -S',
  'tput -xS',
  'tput smcup',
  'ss -K',
  'ss -D f',
  'ss -N ns',
  'fd -x rm',
  'fd --exec rm',
  'fd -X rm',
  'fd -l',
  'pyright --watch',
  'pyright -w',
  'pyright -- --watch',
  'docker logs --bogus web',
  'docker -H tcp://x ps',
  'docker --context x ps',
  'docker run x',
  'docker inspect --bogus x',
  'git diff --output=f',
  'git diff --ext-diff',
  'git log --output=f',
  'git log -n5',
  'git log -n x',
  'git log --max-count=',
  'git log --author=-x',
  'git log --author -x',
  'git show --ext-diff',
  'git shortlog --bogus',
  'git reflog expire --all',
  'git reflog delete HEAD@{1}',
  'git reflog exists HEAD',
  'git stash list --bogus',
  'git stash drop',
  'git stash',
  'git stash show --ext-diff',
  'git ls-remote https://evil/x',
  'git ls-remote git@host:x',
  'git ls-remote origin:x',
  'git ls-remote -o x origin',
  'git ls-remote --server-option=x origin',
  'git ls-remote --upload-pack=x origin',
  'git status --short=x',
  'git status --bogus',
  'git blame --contents f g',
  'git ls-files --with-tree=x',
  'git config user.name x',
  'git config --get --file=x k',
  'git config --unset x',
  'git remote show https://x/y',
  'git remote show a b',
  'git remote show',
  'git remote add x y',
  'git remote -v add x y',
  'git merge-base --bogus',
  'git rev-parse --parseopt',
  'git rev-list --bogus',
  'git describe --bogus',
  'git cat-file --batch',
  'git for-each-ref --bogus',
  'git grep -O foo',
  'git grep --open-files-in-pager=vim foo',
  'git worktree add x',
  'git worktree list --bogus',
  'git tag v1',
  'git clean -f',
  'git clean -f -n --no-dry-run',
  'git tag -n -- v1',
  'git tag -- v1',
  'git tag -l -- v1',
  'git tag -a v1 -m x',
  'git tag -d v1',
  'git branch new',
  'git branch -D x',
  'git branch -m a b',
  'git branch -a foo',
  'git branch -- x',
  'git -C dir status',
  'git commit -m x',
  'git push',
];

/** §3.3.4: one read-only example per generic name and form. */
const FALLBACK_READ_ONLY: readonly string[] = [
  ...table.fallback.generic.map((name) => `${name} x`),
  ...table.fallback.generic.map((name) => name),
  'echo hi',
  "echo 'a;b' \"c d\" e",
  'echo',
  'claude -h',
  'claude --help',
  'uniq -c',
  'uniq -f 2 --skip-chars=3',
  'pwd',
  'whoami',
  'node -v',
  'node --version',
  'python --version',
  'python3 --version',
  'history',
  'history 10',
  'alias',
  'arch',
  'arch -h',
  'ip addr',
  'ifconfig',
  'ifconfig eth0',
  'jq . f',
  "jq -r '.a' f",
  'jq --arg x y .a',
  'cd',
  'cd src',
  "cd 'a b'",
  'cd ..',
  'ls -la',
  'ls',
  "find . -name '*.ts'",
  'find . \\( -name a -o -name b \\) -print',
  'find . -type f -newer x',
  'cat README.md',
  'wc -l f',
  "cat 'a b'",
  'cat http://x/y',
  'docker ps -a',
  'docker images',
  'test -f x',
];

const FALLBACK_NOT_READ_ONLY: readonly string[] = [
  'echo "$x"',
  'echo a#b',
  'echo "a>b"',
  'echo hi!',
  'claude',
  'claude -p x',
  'uniq in out',
  'uniq f',
  'uniq 1 2',
  'uniq -f x',
  'pwd -P',
  'whoami x',
  'node x.js',
  'node -e x',
  'python x.py',
  'python3 -c x',
  'history -c',
  'alias x=y',
  'arch x',
  'ip link',
  'ip addr add x dev y',
  'ifconfig eth0 up',
  'ifconfig 0x',
  'jq -f prog f',
  'jq --from-file prog f',
  'jq --rawfile a f .',
  'jq --slurpfile a f .',
  'jq --run-tests t',
  'jq -L dir .',
  'jq --library-path dir .',
  'jq env',
  "jq '$ENV.HOME'",
  'jq -rf p',
  "jq '.a | `x`'",
  'cd a b',
  'find . -delete',
  'find . -exec rm {} ;',
  'find . -exec rm {} \\;',
  'find . -execdir rm {} +',
  'find . -ok rm {} ;',
  'find . -okdir rm {} ;',
  'find . -fprint out',
  'find . -fprint0 out',
  'find . -fls out',
  'find . -fprintf out %p',
  "find . '-delete'",
  "cat 'a;b'",
  'cat "a|b"',
  "cat '$x'",
  'cat git -c x',
  'catx f',
  'awk 1 f',
  "awk 'BEGIN{system(\"id\")}'",
  "awk '{print > \"f\"}' x",
  'docker ps-x',
  'rm -rf x',
  'touch x',
];

describe('the flag-validated allowlist (claude-code-reference.md §3.3.3)', () => {
  it.each(ALLOWLIST_READ_ONLY)('%s is read-only', async (src) => {
    expect(await check(src)).toEqual({ readOnly: true, reason: '' });
  });

  it.each(ALLOWLIST_NOT_READ_ONLY)('%s is not read-only', async (src) => {
    const r = await check(src);
    expect(r.readOnly).toBe(false);
    expect(r.reason).toMatch(/\S/);
  });

  it('has a read-only example for every command of the table', () => {
    for (const key of Object.keys(table.commands)) {
      expect(ALLOWLIST_READ_ONLY.some((s) => s === key || s.startsWith(`${key} `)), key).toBe(true);
    }
  });

  it('has a not-read-only example for every danger check of the table', () => {
    for (const [key, row] of Object.entries(table.commands) as [string, { dangerous?: unknown[] }][]) {
      if (!row.dangerous) continue;
      expect(ALLOWLIST_NOT_READ_ONLY.some((s) => s.startsWith(`${key} `)), key).toBe(true);
    }
  });

  it('omits gh (internal users only)', () => {
    expect(Object.keys(table.commands).some((k) => k.startsWith('gh'))).toBe(false);
  });

  it('gives a reason that names the offending flag', async () => {
    expect((await check('sort -o out f')).reason).toContain('-o');
    expect((await check('rg --pre cat x')).reason).toContain('--pre');
    expect((await check('date 010100002030')).reason).toContain('010100002030');
    expect((await check('xargs rm')).reason).toContain('rm');
  });
});

describe('argument types and flag forms', () => {
  it.each([
    ['number', 'git log -n 5', true],
    ['number, inline', 'git log --max-count=5', true],
    ['number, not digits', 'git log --max-count=x', false],
    ['number, empty inline', 'git log --max-count=', false],
    ['number, missing', 'git log -n', false],
    ['string', 'git log --author me', true],
    ['string, leading dash', 'git log --author=-me', false],
    ['string, next word is a flag', 'git log --author --all', false],
    ['string, git --sort=-key', 'git for-each-ref --sort=-refname', true],
    ['string, --sort=-key only for git', 'ps --sort=-pid', false],
    ['string, --sort=-digit', 'git for-each-ref --sort=-1', false],
    ['string, stdin dash', 'grep -e - f', false],
    ['char', 'xargs -d , echo', true],
    ['char, two characters', 'xargs -d ab echo', false],
    ['{}', 'xargs -I {} echo', true],
    ['{}, other', 'xargs -I % echo', false],
    ['EOF', 'xargs -E EOF echo', true],
    ['EOF, other', 'xargs -E STOP echo', false],
    ['none with =', 'git status --short=x', false],
    ['none with empty =', 'git status --short=', false],
    ['bundle of none flags', 'grep -nri x f', true],
    ['bundle with an argument flag', 'grep -nA x f', false],
    ['bundle with an unknown letter', 'grep -nQ x f', false],
    ['bundle with =', 'grep -nr=x y', false],
    ['listed two-letter flag', 'ps -ww', true],
    ['attached number (grep)', 'grep -A20 x f', true],
    ['attached number (rg)', 'rg -C3 x', true],
    ['attached non-number', 'grep -Ax f', false],
    ['attached number, not grep/rg', 'git log -n5', false],
    ['git -<digits>', 'git log -5', true],
    ['git -<digits>=x', 'git log -5=x', false],
    ['-<digits> outside git', 'sort -5 f', false],
    ['-- ends the options', 'grep -e x -- -v --pre', true],
    ['-- with respectsDoubleDash false', 'base64 -- -x', false],
    ['-- with respectsDoubleDash false, positional', 'base64 -d -- f', true],
    ['token with $', "git log '$x'", false],
    ['brace list', "git log 'a{b,c}'", false],
    ['brace range', "git log 'a{1..3}'", false],
    ['brace without , or ..', "git log 'a{b}'", true],
    ['backtick', 'git log "a`b"', false],
  ])('%s: %s → %s', async (_what, src, expected) => {
    expect((await check(src)).readOnly).toBe(expected);
  });
});

describe('the fallback forms (claude-code-reference.md §3.3.4)', () => {
  it.each(FALLBACK_READ_ONLY)('%s is read-only', async (src) => {
    expect(await check(src)).toEqual({ readOnly: true, reason: '' });
  });

  it.each(FALLBACK_NOT_READ_ONLY)('%s is not read-only', async (src) => {
    expect((await check(src)).readOnly).toBe(false);
  });

  it('has a read-only example for every form', () => {
    for (const name of Object.keys(table.fallback.forms)) {
      expect(FALLBACK_READ_ONLY.some((s) => s === name || s.startsWith(`${name} `)), name).toBe(true);
    }
  });

  it('does not count a fallback match when git runs with -c, --exec-path or --config-env (§3.3.2 item 5)', async () => {
    expect((await check('cat git -c x')).readOnly).toBe(false);
    expect((await check('cat git --exec-path')).readOnly).toBe(false);
    expect((await check('cat git --config-env')).readOnly).toBe(false);
    expect((await check('cat git -cx')).readOnly).toBe(true);
    expect((await check('cat -c x')).readOnly).toBe(true);
  });
});

describe('the issue: Done when', () => {
  it.each([
    'rg --pre cat x',
    'sort -o out f',
    "sed 's/a/b/w out'",
    "sed 'e ls'",
    'find . -exec rm {} ;',
    'find . -delete',
    'find . -fprint out',
    'git -c core.pager=x log',
    'git --exec-path=/x status',
    'git --config-env=a=b log',
    "awk 'BEGIN{system(\"id\")}'",
    "awk '{print > \"f\"}' x",
    'tree -R -H x',
    'man -P cat ls',
    'docker -H tcp://x ps',
    'git ls-remote https://evil/x',
    'date 010100002030',
  ])('%s is not read-only', async (src) => {
    expect((await check(src)).readOnly).toBe(false);
  });

  it.each([
    'ls -la',
    'cat README.md',
    'git status',
    'git log --oneline -n 5',
    'git diff HEAD~1',
    'grep -rn foo src',
    'wc -l f',
    'pwd',
    'echo hi',
    'date +%s',
    'ps aux',
  ])('%s is read-only', async (src) => {
    expect((await check(src)).readOnly).toBe(true);
  });
});

describe('words (claude-code-reference.md §3.3.2 items 2-3)', () => {
  it.each([
    ['cat $HOME/x', false],
    ['cat "$x"', false],
    ['cat ${x}', false],
    ['cat $(whoami)', false],
    ['echo `id`', false],
    ['cat <(ls)', false],
    ['ls *.ts', false],
    ['ls src/?', false],
    ['ls [ab]', false],
    ['git tag -l v1*', false],
    ["ls 'a*'", true],
    ['ls "a?"', true],
    ['$CMD x', false],
    ["'cat' f", false],
    // A program in the system's own directories is that program; any other path is not.
    ['/bin/ls', true],
    ['./ls', false],
    ['/tmp/ls', false],
    ['/usr/local/bin/ls', false],
    ['/bin/../tmp/ls', false],
  ])('%s → %s', async (src, expected) => {
    expect((await check(src)).readOnly).toBe(expected);
  });

  it.each([
    ['\\\\server\\share\\x', true],
    ['//server/share', true],
    ['/\\server', true],
    ['--file=\\\\host\\x', true],
    ['x@SSL@443', true],
    ['DavWWWRoot', true],
    ['https://example.com/x', false],
    ['a//b', false],
    ['s/\\.x/y/', false],
    ['//', false],
  ])('UNC path in %s → %s', (value, expected) => {
    expect(hasUncPath(value)).toBe(expected);
  });

  it('rejects UNC paths in commands', async () => {
    expect((await check('cat \\\\\\\\server\\\\share\\\\x')).reason).toContain('UNC');
    expect((await check('ls //server/share')).reason).toContain('UNC');
    expect((await check('ls >//server/share')).reason).toContain('UNC');
  });
});

describe('simple command shape', () => {
  it.each([
    ['FOO=1 ls', false],
    ['LANG=C ls', false],
    ['sudo ls', false],
    ['timeout 5 ls', false],
    ['nice ls', false],
    ['env ls', false],
    ['command ls', false],
    ["sh -c 'ls'", false],
    ['bash -c ls', false],
    ["eval 'ls'", false],
    ['ls 2>&1', true],
    ['ls >/dev/null 2>&1', true],
    ['ls 2>/dev/null', true],
    ['ls &>/dev/null', true],
    ['ls >>/dev/null', true],
    ['cat </dev/null', true],
    ['ls >&2', true],
    ['ls 3>/dev/null', false],
    ['ls > out', false],
    ['ls >> out', false],
    ['ls 2> err', false],
    ['ls &> out', false],
    ['ls >&out', false],
    ['cat < f', false],
    ['cat <<< x', false],
    ['cat <<EOF\nx\nEOF', false],
    ["cat <<'EOF'\nx\nEOF", false],
  ])('%s → %s', async (src, expected) => {
    expect((await check(src)).readOnly).toBe(expected);
  });

  it('says why', async () => {
    expect((await check('FOO=1 ls')).reason).toContain('FOO');
    expect((await check('ls > out')).reason).toContain('out');
    expect((await check("sh -c 'ls'")).reason).toMatch(/embedded|sh/);
  });

  it('checks one simple command directly', async () => {
    const p = await parse('ls -la | rm x');
    expect(p.commands.map((c) => simpleCommandReadOnly(c, p.text).readOnly)).toEqual([true, false]);
  });
});

describe('units (claude-code-reference.md §3.3.1)', () => {
  it.each([
    ['ls && pwd', true],
    ['ls | wc -l', true],
    ['ls; pwd', true],
    ['ls &', true],
    ['ls |& grep x', true],
    ['ls\npwd', true],
    ['ls \\\n  -la && \\\n  pwd', true],
    ['ls # comment', true],
    ['# only a comment', true],
    ['', true],
    ['ls && rm x', false],
    ['ls | sh', false],
    ['if true; then ls; fi', false],
    ['for x in a; do ls; done', false],
    ['while true; do ls; done', false],
    ['(ls)', false],
    ['{ ls; }', false],
    ['f() { ls; }', false],
    ['[[ -f x ]]', false],
    ['x=1', false],
    ['! ls', false],
    ['ls $(rm x)', false],
    ['ls "$(pwd)"', false],
    ['ls (', false],
  ])('%j → %s', async (src, expected) => {
    expect((await check(src)).readOnly).toBe(expected);
  });

  describe('git guards', () => {
    it.each([
      ['cd x && git status', 'changing directory'],
      ['pushd x; git log', 'changing directory'],
      ['git status; popd', 'changing directory'],
      ['git status; cd ..', 'changing directory'],
      ['cd x && xargs git status', 'changing directory'],
      ['git status; touch HEAD', 'HEAD'],
      ['git status; mkdir -p refs/heads', 'refs/heads'],
      ['git log; cp x ./hooks/pre-commit', 'hooks'],
      ['git log; mv x objects/ab', 'objects'],
      ['git log > HEAD', 'HEAD'],
      ['echo x > .git/hooks/post-checkout && git status', 'hooks'],
    ])('%s', async (src, reason) => {
      const r = await check(src);
      expect(r.readOnly).toBe(false);
      expect(r.reason).toContain(reason);
    });

    it('allows cd without git and git without cd', async () => {
      expect((await check('cd src && ls')).readOnly).toBe(true);
      expect((await check('git status && git log -1')).readOnly).toBe(true);
    });

    it('refuses git in a bare repository', async () => {
      expect((await check('git status', { bareRepository: true })).reason).toContain('bare');
      expect((await check('ls', { bareRepository: true })).readOnly).toBe(true);
      expect((await check('git status', { bareRepository: false })).readOnly).toBe(true);
    });
  });
});

describe('adversarial input', () => {
  // 100 000 characters: enough for work quadratic in the length to run out of the test's time,
  // a tenth of the cost of a megabyte for the linear scans (their speed is measured in bench/).
  const SIZE = 100_000;
  it.each([
    ['git log', 'git log ' + '-'.repeat(SIZE), false],
    ['git log flags', 'git log ' + '-a'.repeat(SIZE / 2), false],
    ['cat', 'cat ' + 'a'.repeat(SIZE) + '<', false],
    ['generic spaces', 'cat' + ' '.repeat(SIZE) + '|', false],
    ['echo', 'echo ' + "'a' ".repeat(SIZE / 4) + '#', true],
    ['find', 'find ' + '\\('.repeat(SIZE / 2) + '(', false],
    ['find backslashes', 'find ' + '\\\\'.repeat(SIZE / 2) + ';', true],
    ['jq', 'jq ' + 'e'.repeat(SIZE) + ' env', false],
    ['uniq', 'uniq ' + '-a'.repeat(SIZE / 2) + '=', false],
    ['unc', 'cat ' + '/'.repeat(SIZE), true],
    ['unc backslashes', "cat '" + '\\'.repeat(SIZE) + "'", true],
    ['git exception', 'cat git' + ' -'.repeat(SIZE / 2), true],
    ['git guard path', 'git log > ' + './'.repeat(SIZE / 2), false],
    ['grep', 'grep ' + '-n'.repeat(SIZE / 2), false],
  ])('%s returns its verdict', async (_what, src, readOnly) => {
    expect((await check(src)).readOnly).toBe(readOnly);
  });
});

describe('cd into the working directory itself, then git', () => {
  const cwd = '/home/u/project';
  it.each(['cd /home/u/project && git status', 'cd /home/u/project/ && git log --oneline -3', 'cd /home/u/./project && git diff', 'cd . && git status'])(
    '%s is read-only when the working directory is known',
    async (src) => {
      expect((await check(src, { cwd })).readOnly).toBe(true);
    },
  );
  it.each([
    'cd /home/u/project/sub && git status',
    'cd /home/u/project/sub/.. && git status',
    'cd /home/u && git status',
    'cd -P /home/u/project && git status',
    'cd "$PWD" && git status',
    'pushd /home/u/project && git status',
    'cd /home/u/project && cd sub && git status',
  ])('%s is not', async (src) => {
    expect((await check(src, { cwd })).readOnly).toBe(false);
  });
  it('is not without a known working directory', async () => {
    expect((await check('cd /home/u/project && git status')).readOnly).toBe(false);
  });
});
