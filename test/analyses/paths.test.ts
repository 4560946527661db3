/** Path extraction and validation (claude-code-reference.md §3.4): src/analyses/paths.ts. */
import { describe, expect, it } from 'vitest';
import {
  EXTENSION_EXTRACTORS,
  extractPaths,
  MAX_BRACE_ALTERNATIVES,
  PATH_EXTRACTORS,
  unitPaths,
  validatePath,
  type PathAccess,
  type PathCheck,
  type PathContext,
  type PathHost,
} from '../../src/analyses/paths.js';
import { parse } from '../helpers.js';

/** `path:operation` of every access of every command of `src`, with `(source)` when not an argument and `+ext` for an extension path. */
async function paths(src: string): Promise<string[]> {
  const p = await parse(src);
  return p.commands.flatMap((c) => extractPaths(c).map((a) => `${a.path}:${a.operation}${a.source === 'argument' ? '' : `(${a.source})`}${a.extension ? '+ext' : ''}`));
}

/** The accesses Claude Code checks (no extension paths), as {@link paths} prints them. */
async function ccPaths(src: string): Promise<string[]> {
  return (await paths(src)).filter((p) => !p.endsWith('+ext'));
}

const HOST: PathHost = { home: '/home/u' };
const CTX: PathContext = { cwd: '/work/proj', workingDirectories: ['/work/proj'], host: HOST };

function acc(path: string, operation: PathAccess['operation'] = 'write', extra: Partial<PathAccess> = {}): PathAccess {
  return { path, static: true, operation, source: 'argument', command: 'x', span: { start: 0, end: 0 }, ...extra };
}

function check(path: string, operation: PathAccess['operation'] = 'write', ctx: PathContext = CTX, extra: Partial<PathAccess> = {}): Pick<PathCheck, 'resolved' | 'allowed' | 'reason'> {
  const { resolved, allowed, reason } = validatePath(acc(path, operation, extra), ctx);
  return { resolved, allowed, reason };
}

/** `path→resolved:reason` of the unit's checks. */
async function walk(src: string, ctx: PathContext = CTX, trackCd = true): Promise<string[]> {
  const p = await parse(src);
  return unitPaths(p, ctx, { trackCd }).map((c) => `${c.path}→${c.resolved ?? '?'}:${c.reason}`);
}

describe('the extractor table', () => {
  it('has the 36 commands of Claude Code', () => {
    expect([...PATH_EXTRACTORS.keys()].sort()).toEqual(
      [
        'cd', 'ls', 'find', 'mkdir', 'touch', 'rm', 'rmdir', 'mv', 'cp', 'cat', 'head', 'tail', 'sort', 'uniq', 'wc', 'cut', 'paste',
        'column', 'file', 'stat', 'diff', 'awk', 'strings', 'hexdump', 'od', 'base64', 'nl', 'sha256sum', 'sha1sum', 'md5sum', 'tr',
        'grep', 'rg', 'sed', 'jq', 'git',
      ].sort(),
    );
    expect(PATH_EXTRACTORS.size).toBe(36);
  });
});

describe('extractPaths', () => {
  it.each([
    // cd: all arguments joined, home without arguments
    ['cd', ['~:read(cd)']],
    ['cd src', ['src:read(cd)']],
    ['cd my dir', ['my dir:read(cd)']],
    ['cd -P -- /opt', ['/opt:read(cd)']],
    ['cd -', ['-:read(cd)']],
    // ls: filterOutFlags, default .
    ['ls', ['.:read(default)']],
    ['ls -la src /etc', ['src:read', '/etc:read']],
    // mkdir, touch: create
    ['mkdir -p a/b', ['a/b:create']],
    ['touch x y', ['x:create', 'y:create']],
    // rm, rmdir, mv, cp: write
    ['rm -rf build', ['build:write']],
    ['rmdir empty', ['empty:write']],
    ['mv a b', ['a:write', 'b:write']],
    ['cp -r a /tmp/b', ['a:write', '/tmp/b:write']],
    // the read commands
    ...['cat', 'head', 'tail', 'sort', 'uniq', 'wc', 'cut', 'paste', 'column', 'file', 'stat', 'diff', 'awk', 'strings', 'hexdump', 'od', 'base64', 'nl', 'sha256sum', 'sha1sum', 'md5sum'].map(
      (c) => [`${c} -x f`, ['f:read']] as [string, string[]],
    ),
    // no default for the read commands
    ['cat', []],
    // git diff: every operand (outside a work tree `git diff a b` compares files); git grep: operands after the pattern
    ['git diff --no-index a /etc/b c', ['a:read', '/etc/b:read', 'c:read']],
    ['git diff --no-index -- -a b', ['-a:read', 'b:read']],
    ['git diff a b', ['a:read', 'b:read']],
    ['git grep KEY .env', ['.env:read']],
    ['git grep -e KEY -- a b', ['a:read', 'b:read']],
    // git log/show/blame: pathspecs after `--` name files whose content (history) is printed
    ['git log -- /etc', ['/etc:read+ext']],
  ] as [string, string[]][])('%s', async (src, expected) => {
    expect(await paths(src)).toEqual(expected);
  });

  it('keeps everything after `--` and skips flags, but not flag values (`head -n 5 f` counts `5`, as Claude Code does)', async () => {
    expect(await paths('rm -- -rf -x')).toEqual(['-rf:write', '-x:write']);
    expect(await paths('head -n 5 f')).toEqual(['5:read', 'f:read']);
    expect(await paths('cat - f')).toEqual(['f:read']);
  });

  it('strips wrappers and directory prefixes', async () => {
    expect(await paths('sudo -u root /bin/rm -f /etc/x')).toEqual(['/etc/x:write']);
    expect(await paths('timeout 5 touch t')).toEqual(['t:create']);
    expect(await paths('echo /etc/x')).toEqual([]);
  });

  it('tr: skips one character set with a delete flag, two otherwise', async () => {
    expect(await paths('tr a-z A-Z f')).toEqual(['f:read']);
    expect(await paths('tr -d a f')).toEqual(['f:read']);
    expect(await paths('tr --delete a f')).toEqual(['f:read']);
    expect(await paths('tr -cd a f')).toEqual(['f:read']);
    expect(await paths('tr a-z A-Z')).toEqual([]);
  });

  it('grep: first operand is the pattern unless -e/-f gave it; value flags consume; recursive default', async () => {
    expect(await paths('grep foo a b')).toEqual(['a:read', 'b:read']);
    expect(await paths('grep -e foo a')).toEqual(['a:read']);
    expect(await paths('grep --regexp=foo a')).toEqual(['a:read']);
    expect(await ccPaths('grep -f pats a')).toEqual(['a:read']);
    expect(await paths('grep -A 3 -m 1 --include "*.ts" foo src')).toEqual(['src:read']);
    expect(await paths('grep --include=*.ts foo src')).toEqual(['src:read']);
    expect(await paths('grep foo')).toEqual([]);
    expect(await paths('grep -r foo')).toEqual(['.:read(default)']);
    expect(await paths('grep -R foo')).toEqual(['.:read(default)']);
    expect(await paths('grep --recursive foo')).toEqual(['.:read(default)']);
    expect(await paths('grep -rn foo')).toEqual(['.:read(default)']);
    expect(await paths('grep -r foo /etc')).toEqual(['/etc:read']);
    expect(await paths('grep -- -v f')).toEqual(['f:read']);
  });

  it('rg: same pattern rule, its own value flags, default `.`', async () => {
    expect(await paths('rg foo')).toEqual(['.:read(default)']);
    expect(await paths('rg foo src')).toEqual(['src:read']);
    expect(await paths('rg -e foo src')).toEqual(['src:read']);
    expect(await paths('rg -t ts -g "!x" -r bar --max-depth 2 foo src')).toEqual(['src:read']);
  });

  it('find: roots before the first non-global flag, path-valued primaries, default `.`', async () => {
    expect(await paths('find')).toEqual(['.:read(default)']);
    expect(await paths('find -name x')).toEqual(['.:read(default)']);
    expect(await paths('find -L a b -type f')).toEqual(['a:read', 'b:read']);
    expect(await paths('find . -newer /etc/passwd -samefile s -path "./x"')).toEqual(['.:read', '/etc/passwd:read', 's:read', './x:read']);
    expect(await paths('find . -neweram ref -newermt 2024-01-01')).toEqual(['.:read', 'ref:read']);
    expect(await paths('find . -wholename w -iwholename i -lname l -ilname il -ipath ip -anewer an -cnewer cn -mnewer mn')).toEqual(
      ['.', 'w', 'i', 'l', 'il', 'ip', 'an', 'cn', 'mn'].map((p) => `${p}:read`),
    );
    expect(await paths('find \\( -name a \\)')).toEqual(['.:read(default)']);
    expect(await paths('find -- -odd')).toEqual(['-odd:read']);
  });

  it('jq: the first operand is the filter; value flags (two for --arg …) consume; no default', async () => {
    expect(await paths('jq .a f.json')).toEqual(['f.json:read']);
    expect(await paths('jq .a')).toEqual([]);
    expect(await paths('jq --arg k v --indent 2 .a f g')).toEqual(['f:read', 'g:read']);
    expect(await ccPaths('jq -L lib .a f')).toEqual(['f:read']);
  });

  it('sed: script, -e/-f, clusters, `--`; read when the read-only allowlist passes (src/analyses/sed.ts), write otherwise', async () => {
    expect(await paths('sed -n 1p f')).toEqual(['f:read']);
    // Not in Claude Code's read-only allowlist, so a write as far as the permission check goes.
    expect(await paths('sed s/a/b/ f')).toEqual(['f:write']);
    expect(await paths('sed -i s/a/b/ f')).toEqual(['f:write']);
    expect(await paths("sed -i -e 's/a/b/' f g")).toEqual(['f:write', 'g:write']);
    expect((await paths("sed -n -e '/x/p' f")).map((p) => p.split(':')[0])).toEqual(['f']);
    expect((await paths("sed -ne '/x/p' f")).map((p) => p.split(':')[0])).toEqual(['f']);
    // The -f script file is always read.
    expect(await paths('sed -i -f /etc/script.sed f')).toEqual(['/etc/script.sed:read', 'f:write']);
    expect(await paths('sed -n --file=s.sed f')).toEqual(['s.sed:read', 'f:write']);
    expect(await paths('sed -nfs.sed f')).toEqual(['s.sed:read', 'f:write']);
    expect((await paths("sed --expression 's/a/b/' -- -f")).map((p) => p.split(':')[0])).toEqual(['-f']);
    // The backup copy is a write too: the suffix appended, or each `*` replaced by the name.
    expect(await paths('sed -i.bak s/a/b/ f')).toEqual(['f:write', 'f.bak:write']);
    expect(await paths("sed --in-place='/tmp/*' s/a/b/ f")).toEqual(['f:write', '/tmp/f:write']);
    expect(await paths("sed --in-pl='.git/*' s/a/b/ sub/config")).toEqual(['sub/config:write', '.git/sub/config:write']);
    expect(await paths('sed -i s/a/b/ f')).toEqual(['f:write']);
  });

  it('output redirections are writes; /dev/null, /dev/stdout, /dev/stderr, /dev/fd/N and descriptor duplications are exempt', async () => {
    expect(await paths('echo hi > out.txt')).toEqual(['out.txt:write(redirect)']);
    expect(await paths('echo hi >> /etc/x 2> err &> all &>> more >| clob')).toEqual(
      ['/etc/x', 'err', 'all', 'more', 'clob'].map((p) => `${p}:write(redirect)`),
    );
    expect(await paths('cmd > /dev/null 2>&1 >&2 2>/dev/stderr >/dev/stdout 3>/dev/fd/1 >&-')).toEqual([]);
    expect(await paths('cmd >& file')).toEqual(['file:write(redirect)']);
    expect(await paths('cmd < in')).toEqual([]);
    expect(await paths('cp a b > log')).toEqual(['a:write', 'b:write', 'log:write(redirect)']);
  });

  it('keeps the raw text of a word with an expansion and marks it non-static; spans point at the word', async () => {
    const p = await parse('rm -f "$dir/x"');
    const [a] = extractPaths(p.commands[0]!);
    expect(a).toMatchObject({ path: '"$dir/x"', static: false, operation: 'write', source: 'argument', command: 'rm', span: { start: 6, end: 14 } });
  });

  it('marks unquoted globs and brace expansion; a quoted glob is a plain name', async () => {
    const globs = async (src: string) => extractPaths((await parse(src)).commands[0]!).map((a) => a.glob);
    // The brace word's alternatives (extension paths) follow it; they are plain names.
    expect(await globs('rm *.o "*.o" {a,b}.txt x')).toEqual([true, false, true, false, false, false]);
  });
});

describe('validatePath', () => {
  it('resolves relative paths against the cwd, `..` included, and judges them at path-segment boundaries', () => {
    expect(check('src/a.ts')).toEqual({ resolved: '/work/proj/src/a.ts', allowed: true, reason: 'inside' });
    expect(check('.')).toEqual({ resolved: '/work/proj', allowed: true, reason: 'inside' });
    expect(check('../other/x')).toEqual({ resolved: '/work/other/x', allowed: false, reason: 'outside' });
    expect(check('src/../../x')).toEqual({ resolved: '/work/x', allowed: false, reason: 'outside' });
    expect(check('/work/proj2/x')).toEqual({ resolved: '/work/proj2/x', allowed: false, reason: 'outside' });
    expect(check('/work/proj/')).toEqual({ resolved: '/work/proj', allowed: true, reason: 'inside' });
    expect(check('/etc/passwd', 'read')).toEqual({ resolved: '/etc/passwd', allowed: false, reason: 'outside' });
  });

  it('1: strips one quote at each end of a non-static word', () => {
    expect(check('"$x"', 'write', CTX, { static: false })).toMatchObject({ reason: 'variable' });
    expect(validatePath(acc("'/etc/x'", 'write', { static: false }), CTX)).toMatchObject({ allowed: false, reason: 'variable' });
  });

  it('2, 4: expands `~` and `~/`; `~user`, `~+`, `~-` are not allowed', () => {
    expect(check('~/.bashrc')).toEqual({ resolved: '/home/u/.bashrc', allowed: false, reason: 'outside' });
    expect(check('~', 'read', { ...CTX, workingDirectories: ['/home/u'] })).toEqual({ resolved: '/home/u', allowed: true, reason: 'inside' });
    expect(check('~root/x')).toEqual({ resolved: null, allowed: false, reason: 'tilde-user' });
    expect(check('~+/x')).toEqual({ resolved: null, allowed: false, reason: 'tilde-user' });
    expect(check('~-')).toEqual({ resolved: null, allowed: false, reason: 'tilde-user' });
  });

  it('5: `$`, `%` or a leading `=` (or any expansion) is not allowed', () => {
    expect(check('$HOME/x')).toEqual({ resolved: null, allowed: false, reason: 'variable' });
    expect(check('%TEMP%\\x')).toEqual({ resolved: null, allowed: false, reason: 'variable' });
    expect(check('=ls')).toEqual({ resolved: null, allowed: false, reason: 'variable' });
    expect(check('$(pwd)/x', 'write', CTX, { static: false })).toMatchObject({ allowed: false, reason: 'variable' });
  });

  it('6: a glob is not allowed for a write; a read validates the directory before the first glob (the whole path with `..`)', () => {
    expect(check('*.o', 'write')).toEqual({ resolved: null, allowed: false, reason: 'glob-write' });
    expect(check('build/*', 'create')).toEqual({ resolved: null, allowed: false, reason: 'glob-write' });
    expect(check('src/*.ts', 'read')).toEqual({ resolved: '/work/proj/src', allowed: true, reason: 'inside' });
    expect(check('*.ts', 'read')).toEqual({ resolved: '/work/proj', allowed: true, reason: 'inside' });
    expect(check('/etc/*.conf', 'read')).toEqual({ resolved: '/etc', allowed: false, reason: 'outside' });
    expect(check('src/*/../../../x', 'read')).toEqual({ resolved: '/work/x', allowed: false, reason: 'outside' });
    // A quoted glob character is a plain name when the extractor says so.
    expect(check('a*b', 'write', CTX, { glob: false })).toEqual({ resolved: '/work/proj/a*b', allowed: true, reason: 'inside' });
  });

  it('7: a relative path with an unknown cwd is unknown; an absolute one is still judged', () => {
    const ctx = { ...CTX, cwd: undefined };
    expect(check('x', 'write', ctx)).toEqual({ resolved: null, allowed: false, reason: 'unknown-cwd' });
    expect(check('/etc/x', 'write', ctx)).toEqual({ resolved: '/etc/x', allowed: false, reason: 'outside' });
  });

  it('allows the additional working directories', () => {
    const ctx = { ...CTX, workingDirectories: ['/work/proj', '/data/shared/'] };
    expect(check('/data/shared/x', 'write', ctx)).toMatchObject({ allowed: true, reason: 'inside' });
    expect(check('/data/sharedx', 'write', ctx)).toMatchObject({ allowed: false, reason: 'outside' });
    expect(check('/work/proj/x', 'write', ctx)).toMatchObject({ allowed: true });
  });

  it('treats pseudo-devices as devices, not files', () => {
    expect(check('/dev/null')).toEqual({ resolved: '/dev/null', allowed: true, reason: 'device' });
    expect(check('/dev/fd/3')).toMatchObject({ allowed: true, reason: 'device' });
    expect(check('/dev/sda')).toMatchObject({ allowed: false, reason: 'outside' });
  });

  it('follows symlinks through the host: a link inside that points out is outside; a link to the project is inside', () => {
    const links: Record<string, string> = { '/work/proj': '/work/proj', '/work/proj/out': '/etc', '/alias': '/work/proj', '/': '/', '/work': '/work', '/etc': '/etc' };
    const host: PathHost = {
      home: '/home/u',
      realpath: (p) => {
        for (const [from, to] of Object.entries(links).sort((a, b) => b[0].length - a[0].length)) {
          if (p === from) return to;
          if (p.startsWith(from + '/') && from !== '/') {
            const r = to + p.slice(from.length);
            return ['/etc/passwd', '/work/proj/src'].includes(r) ? r : undefined;
          }
        }
        return undefined;
      },
    };
    const ctx = { ...CTX, host };
    expect(check('out/passwd', 'write', ctx)).toEqual({ resolved: '/etc/passwd', allowed: false, reason: 'outside' });
    // A path that does not exist yet resolves through its deepest existing ancestor.
    expect(check('out/new/file', 'create', ctx)).toEqual({ resolved: '/etc/new/file', allowed: false, reason: 'outside' });
    expect(check('src/new.ts', 'create', ctx)).toEqual({ resolved: '/work/proj/src/new.ts', allowed: true, reason: 'inside' });
    // A working directory given through a symlink matches its real location, and the reverse.
    expect(check('/work/proj/src', 'write', { ...ctx, workingDirectories: ['/alias'] })).toMatchObject({ allowed: true, reason: 'inside' });
    // Without realpath the same path is judged lexically.
    expect(check('out/passwd')).toEqual({ resolved: '/work/proj/out/passwd', allowed: true, reason: 'inside' });
  });
});

describe('unitPaths', () => {
  it('validates every access in document order', async () => {
    expect(await walk('touch a; rm /etc/b > ../log')).toEqual(['a→/work/proj/a:inside', '/etc/b→/etc/b:outside', '../log→/work/log:outside']);
  });

  it('without trackCd resolves everything against ctx.cwd (Claude Code)', async () => {
    expect(await walk('cd /tmp && touch x', CTX, false)).toEqual(['/tmp→/tmp:outside', 'x→/work/proj/x:inside']);
  });

  it('a static cd moves the cwd for what runs only after it succeeded', async () => {
    // `&&`, `|| exit` and `set -e` leave no way to go on after a failed cd.
    expect(await walk('cd /tmp && touch x')).toEqual(['/tmp→/tmp:outside', 'x→/tmp/x:outside']);
    expect(await walk('cd /tmp || exit 1\ntouch x\ncd sub && touch y')).toEqual([
      '/tmp→/tmp:outside',
      'x→/tmp/x:outside',
      'sub→/tmp/sub:outside',
      'y→/tmp/sub/y:outside',
    ]);
    expect(await walk('set -e\ncd /tmp\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→/tmp/x:outside']);
    expect(await walk('set -euo pipefail\ncd /tmp\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→/tmp/x:outside']);
    expect(await walk('cd src && touch ../x')).toEqual(['src→/work/proj/src:inside', '../x→/work/proj/x:inside']);
    expect(await walk('cd || exit\ntouch x')).toEqual(['~→/home/u:outside', 'x→/home/u/x:outside']);
    // Inside either way.
    // `y` is inside from both directories (resolved differs, so it is not given); `../x` is `/work/x` after the cd.
    expect(await walk('cd src; touch ../x y')).toEqual(['src→/work/proj/src:inside', '../x→?:unknown-cwd', 'y→?:inside']);
  });

  it('a cd that may have failed leaves both directories possible: not inside, not established outside', async () => {
    expect(await walk('cd /tmp\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→?:unknown-cwd']);
    expect(await walk('cd /tmp; touch /etc/y')).toEqual(['/tmp→/tmp:outside', '/etc/y→/etc/y:outside']);
    // `set -e` does not end the shell for a cd whose status is tested, nor after `set +e`.
    expect(await walk('set -e\ncd /tmp || true\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→?:unknown-cwd']);
    expect(await walk('set -e\nif cd /tmp; then :; fi\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→?:unknown-cwd']);
    expect(await walk('set -e\ncd /tmp\nset +e\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→?:unknown-cwd']);
    // `a || b`: b runs only when a failed.
    expect(await walk('cd /tmp || touch x')).toEqual(['/tmp→/tmp:outside', 'x→/work/proj/x:inside']);
  });

  it('a dynamic cd or `cd -` makes the cwd unknown for later relative paths', async () => {
    expect(await walk('cd "$dir" || exit 1\ntouch x /etc/y')).toEqual(['"$dir"→?:variable', 'x→?:unknown-cwd', '/etc/y→/etc/y:outside']);
    expect(await walk('cd -\ntouch x')).toEqual(['-→?:unknown-cwd', 'x→?:unknown-cwd']);
    expect(await walk(`cd /${'a'.repeat(5000)} && touch x`)).toEqual([`/${'a'.repeat(5000)}→/${'a'.repeat(5000)}:outside`, 'x→?:unknown-cwd']);
    // An absolute cd is known again once it succeeded.
    expect(await walk('cd "$d"; cd /work/proj && touch x')).toEqual(['"$d"→?:variable', '/work/proj→/work/proj:inside', 'x→/work/proj/x:inside']);
    expect(await walk('cd "$d"; cd /work/proj; touch x')).toEqual(['"$d"→?:variable', '/work/proj→/work/proj:inside', 'x→?:unknown-cwd']);
  });

  it('a cd in a subshell ends with it; in a pipeline or in the background it changes nothing', async () => {
    expect(await walk('(cd /tmp && touch a); touch b')).toEqual(['/tmp→/tmp:outside', 'a→/tmp/a:outside', 'b→/work/proj/b:inside']);
    expect(await walk('(cd /tmp; touch a) && touch b')).toEqual(['/tmp→/tmp:outside', 'a→?:unknown-cwd', 'b→/work/proj/b:inside']);
    expect(await walk('cd /tmp | cat; touch b')).toEqual(['/tmp→/tmp:outside', 'b→/work/proj/b:inside']);
    expect(await walk('cd /tmp & touch b')).toEqual(['/tmp→/tmp:outside', 'b→/work/proj/b:inside']);
    expect(await walk('cat x | (cd /tmp && touch a) && touch b')).toEqual(['x→/work/proj/x:inside', '/tmp→/tmp:outside', 'a→/tmp/a:outside', 'b→/work/proj/b:inside']);
  });

  it('a cd inside a command substitution counts inside it only', async () => {
    const out = await walk('cat $(cd /tmp && cat x) y; touch z');
    expect(out.filter((s) => s.startsWith('z'))).toEqual(['z→/work/proj/z:inside']);
    expect(out.filter((s) => s.startsWith('y'))).toEqual(['y→/work/proj/y:inside']);
    expect(out.filter((s) => s.startsWith('x'))).toEqual(['x→/tmp/x:outside']);
  });

  it('branches and loops: every directory a command may run in counts', async () => {
    expect(await walk('if true; then cd /tmp; fi\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→?:unknown-cwd']);
    expect(await walk('if [ -d /tmp ]; then cd /tmp || exit; else exit 1; fi\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→/tmp/x:outside']);
    expect(await walk('{ cd /tmp && touch a; } && touch b')).toEqual(['/tmp→/tmp:outside', 'a→/tmp/a:outside', 'b→/tmp/b:outside']);
    expect(await walk('{ cd /tmp; }; touch x')).toEqual(['/tmp→/tmp:outside', 'x→?:unknown-cwd']);
    expect(await walk('case $1 in a) cd /tmp || exit;; *) exit 1;; esac\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→/tmp/x:outside']);
    expect(await walk('case $1 in a) cd /tmp || exit;; esac\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→?:unknown-cwd']);
    // A loop body runs any number of times: a relative cd in it leads anywhere below.
    expect(await walk('for d in a b; do cd "$d"; done; touch x')).toEqual(['"$d"→?:variable', 'x→?:unknown-cwd']);
    expect(await walk('for d in a b; do touch x; cd sub || exit; done')).toEqual(['x→?:unknown-cwd', 'sub→?:unknown-cwd']);
    expect(await walk('while true; do cd /tmp && break; done; touch x')).toEqual(['/tmp→/tmp:outside', 'x→/tmp/x:outside']);
    // Compound commands without a cd leave the cwd alone.
    expect(await walk('cd src || exit\nif true; then touch a; fi\ntouch b')).toEqual(['src→/work/proj/src:inside', 'a→/work/proj/src/a:inside', 'b→/work/proj/src/b:inside']);
  });

  it('a cd inside a function body applies where the function is called', async () => {
    expect(await walk('f() { cd /tmp; }\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→/work/proj/x:inside']);
    expect(await walk('f() { cd /tmp || exit; }\nf\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→/tmp/x:outside']);
    expect(await walk('f() { cd /tmp; }\nf\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→?:unknown-cwd']);
    // The body runs in the directory of each call.
    expect(await walk('f() { touch y; }\ncd /tmp && f')).toEqual(['y→/tmp/y:outside', '/tmp→/tmp:outside']);
    expect(await walk('f() { touch y; }\nf\ncd /tmp && f')).toEqual(['y→?:unknown-cwd', '/tmp→/tmp:outside']);
    // Called before its definition, the name may run a program of that name (or the function, defined on an earlier pass of a loop).
    expect(await walk('f\nf() { cd /tmp || exit; }\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→?:unknown-cwd']);
    // A name used where the call is not seen (`trap f EXIT`): the body starts anywhere.
    expect(await walk('f() { touch y; }\ntrap f EXIT')).toEqual(['y→?:unknown-cwd']);
  });
});

describe('extension paths (facts only; Claude Code does not check them)', () => {
  it('the extension rows are apart from the 36 and every access they give is marked', async () => {
    expect([...EXTENSION_EXTRACTORS.keys()].some((k) => PATH_EXTRACTORS.has(k))).toBe(false);
    for (const c of ['tac', 'rev', 'cmp', 'comm', 'tree', 'du', 'df', 'fd', 'fdfind', 'readlink', 'realpath', 'man', 'info', 'less', 'pyright']) {
      expect(EXTENSION_EXTRACTORS.has(c), c).toBe(true);
    }
    // Not file accesses: string operations and commands without file operands.
    for (const c of ['basename', 'dirname', 'echo', 'seq', 'numfmt', 'date', 'ps']) expect(EXTENSION_EXTRACTORS.has(c), c).toBe(false);
    const p = await parse('tac /etc/x; tree; rev a');
    const all = p.commands.flatMap((c) => extractPaths(c));
    expect(all.length).toBe(3);
    expect(all.every((a) => a.extension === true)).toBe(true);
  });

  it.each([
    // operands are paths; value options consume their value; `--` and `-` (stdin)
    ['tac -s x /etc/a b', ['/etc/a:read+ext', 'b:read+ext']],
    ['tac --separator=x -- -f', ['-f:read+ext']],
    ['rev - /etc/a', ['/etc/a:read+ext']],
    ['cmp -n 10 /etc/a b 5 7', ['/etc/a:read+ext', 'b:read+ext']],
    ['cmp - /etc/a', ['/etc/a:read+ext']],
    ['comm --output-delimiter , a /etc/b', ['a:read+ext', '/etc/b:read+ext']],
    ['fold -w 80 f', ['f:read+ext']],
    ['fold -sw80 f', ['f:read+ext']],
    ['expand -t 4 f', ['f:read+ext']],
    ['unexpand --tabs=4 f', ['f:read+ext']],
    ['fmt -72 -w 60 f', ['f:read+ext']],
    ['tsort f', ['f:read+ext']],
    ['pr +2 -h title -l 60 f', ['f:read+ext']],
    ['readlink -f /etc/x', ['/etc/x:read+ext']],
    ['realpath --relative-to=/etc x', ['/etc:read+ext', 'x:read+ext']],
    // du: default `.`, -X/--exclude-from/--files0-from name files
    ['du', ['.:read(default)+ext']],
    ['du -sh -d 1 /etc', ['/etc:read+ext']],
    ['du -X /etc/ex --exclude=*.o src', ['/etc/ex:read+ext', 'src:read+ext']],
    ['du --files0-from=/etc/list', ['/etc/list:read+ext']],
    ['df', []],
    ['df -h /mnt', ['/mnt:read+ext']],
    // tree: default `.`; -o writes
    ['tree', ['.:read(default)+ext']],
    ['tree -L 2 -I node_modules /etc', ['/etc:read+ext']],
    ['tree -aL 2 src', ['src:read+ext']],
    ['tree -o /tmp/out src', ['/tmp/out:write+ext', 'src:read+ext']],
    ['tree --gitfile=/etc/gi', ['/etc/gi:read+ext', '.:read(default)+ext']],
    // fd: the pattern is no path; search paths, --search-path, --base-directory, --ignore-file; -x runs a command
    ['fd', ['.:read(default)+ext']],
    ['fd pat', ['.:read(default)+ext']],
    ['fd . /etc', ['/etc:read+ext']],
    ['fd -e ts -t f pat src /etc', ['src:read+ext', '/etc:read+ext']],
    ['fd --base-directory=/etc x', ['/etc:read+ext']],
    ['fd --base-directory /etc x', ['/etc:read+ext']],
    ['fd --search-path /etc --search-path=/opt x', ['/etc:read+ext', '/opt:read+ext']],
    ['fd --ignore-file /etc/ig x src', ['/etc/ig:read+ext', 'src:read+ext']],
    ['fd -x rm {} \\; pat src', ['src:read+ext']],
    ['fd pat src -X cat /etc/x', ['src:read+ext']],
    ['fdfind . /etc', ['/etc:read+ext']],
    // man: page names, files only with -l
    ['man ls', []],
    ['man -S 1 ls', []],
    ['man -l /etc/passwd', ['/etc/passwd:read+ext']],
    ['man -al ./a.1 b.1', ['./a.1:read+ext', 'b.1:read+ext']],
    ['man --local-file x.1', ['x.1:read+ext']],
    ['man -M /opt/man ls', ['/opt/man:read+ext']],
    // info: menu items are no paths; -f/--file/-d name files; -o writes
    ['info ls', []],
    ['info -f /etc/passwd', ['/etc/passwd:read+ext']],
    ['info --file=/etc/passwd node', ['/etc/passwd:read+ext']],
    ['info -d /opt/info -o out coreutils', ['/opt/info:read+ext', 'out:write+ext']],
    ['pyright -p /etc/cfg --level error src', ['/etc/cfg:read+ext', 'src:read+ext']],
    ['less -N +G -k /etc/keys f', ['/etc/keys:read+ext', 'f:read+ext']],
    ['less -o/tmp/log f', ['/tmp/log:write+ext', 'f:read+ext']],
    ['more +10 -n 5 f', ['f:read+ext']],
    ['md5 -s str f', ['f:read+ext']],
    ['xxd -cols 8 -s 16 in out extra', ['in:read+ext', 'out:write+ext']],
    ['xxd -c8 -ps in', ['in:read+ext']],
    // wrappers are stripped as for the 36
    ['sudo -u root tac /etc/shadow', ['/etc/shadow:read+ext']],
  ] as [string, string[]][])('%s', async (src, expected) => {
    expect(await paths(src)).toEqual(expected);
  });

  it('basename and dirname are string operations, not file accesses', async () => {
    expect(await paths('basename /etc/passwd; dirname /etc/passwd')).toEqual([]);
  });

  it('grep/rg -f FILE, --file=FILE, --exclude-from, --ignore-file: the file is an extension read; Claude Code’s paths stay as they were', async () => {
    expect(await paths('grep -f /etc/shadow .')).toEqual(['/etc/shadow:read+ext', '.:read']);
    expect(await paths('grep --file=/etc/shadow a')).toEqual(['/etc/shadow:read+ext', 'a:read']);
    expect(await paths('grep --file /etc/shadow a')).toEqual(['/etc/shadow:read+ext', 'a:read']);
    // Claude Code does not know `-f/etc/shadow` gave the pattern, so `a` is its pattern.
    expect(await paths('grep -f/etc/shadow a')).toEqual(['/etc/shadow:read+ext']);
    // A cluster ending in f takes the next word; Claude Code reads that word as the pattern.
    expect(await paths('grep -if /etc/shadow a')).toEqual(['/etc/shadow:read+ext', 'a:read']);
    expect(await paths('grep -ifpats a')).toEqual(['pats:read+ext']);
    // A value option earlier in the cluster takes the rest: `-mf` is -m with value `f`.
    expect(await paths('grep -m1 x a')).toEqual(['a:read']);
    expect(await paths('grep -f - a')).toEqual(['a:read']);
    expect(await paths('grep --exclude-from=/etc/ex -r x')).toEqual(['/etc/ex:read+ext', '.:read(default)']);
    expect(await paths('rg -f /etc/shadow .')).toEqual(['/etc/shadow:read+ext', '.:read']);
    expect(await paths('rg -f /etc/shadow')).toEqual(['/etc/shadow:read+ext', '.:read(default)']);
    expect(await paths('rg --ignore-file=/etc/ig x src')).toEqual(['/etc/ig:read+ext', 'src:read']);
    expect(await ccPaths('grep -f /etc/shadow .')).toEqual(['.:read']);
  });

  it('jq: the program file, --rawfile/--slurpfile files (second value) and -L directories are extension reads', async () => {
    expect(await paths('jq --rawfile a /etc/passwd . f')).toEqual(['/etc/passwd:read+ext', 'f:read']);
    expect(await paths('jq --slurpfile a s.json . f')).toEqual(['s.json:read+ext', 'f:read']);
    expect(await paths('jq -f /etc/prog.jq f g')).toEqual(['/etc/prog.jq:read+ext', 'g:read']);
    expect(await paths('jq --arg k v . f')).toEqual(['f:read']);
  });
});

describe('brace expansion', () => {
  /** `path[:glob]` of the extension alternatives of the first command's accesses. */
  async function alts(src: string): Promise<string[]> {
    const p = await parse(src);
    return extractPaths(p.commands[0]!)
      .filter((a) => a.extension)
      .map((a) => (a.braceOverflow ? `overflow:${a.path}` : `${a.path}${a.glob ? ':glob' : ''}`));
  }

  it('keeps Claude Code’s access to the unexpanded word and adds each alternative as an extension access with the word’s span', async () => {
    const p = await parse('cat {x,/etc/passwd}');
    const all = extractPaths(p.commands[0]!);
    expect(all.map((a) => [a.path, a.extension ?? false, a.glob])).toEqual([
      ['{x,/etc/passwd}', false, true],
      ['x', true, false],
      ['/etc/passwd', true, false],
    ]);
    expect(new Set(all.map((a) => `${a.span.start}-${a.span.end}`)).size).toBe(1);
  });

  it.each([
    ['cat {x,/etc/passwd}', ['x', '/etc/passwd']],
    ['cat /repo/{a,../../etc/passwd}', ['/repo/a', '/repo/../../etc/passwd']],
    ['ls {.,/etc}', ['.', '/etc']],
    ['cat a{b,c}d', ['abd', 'acd']],
    ['cat {a,b}/{c,d}', ['a/c', 'a/d', 'b/c', 'b/d']],
    ['cat {a,{b,c}}d', ['ad', 'bd', 'cd']],
    ['cat {a}{b,c}', ['{a}b', '{a}c']],
    ['cat {a,b}c}', ['ac}', 'bc}']],
    ['cat {a{,b}', ['{a', '{ab']],
    ['cat x{,.bak}', ['x', 'x.bak']],
    ['cat {a,a}', ['a']],
    // sequences (tree-sitter makes these a brace_expression node)
    ['cat f{1..3}', ['f1', 'f2', 'f3']],
    ['cat {3..1}', ['3', '2', '1']],
    ['cat {1..10..4}', ['1', '5', '9']],
    ['cat {08..10}', ['08', '09', '10']],
    ['cat {-1..1}', ['-1', '0', '1']],
    ['cat {a..c}', ['a', 'b', 'c']],
    ['cat {a..c}{1..2}', ['a1', 'a2', 'b1', 'b2', 'c1', 'c2']],
    // quoting: quoted or escaped braces and commas are literal, a quoted part is kept
    ['cat "{a,b}"', []],
    ["cat '{a,b}'", []],
    ['cat \\{a,b}', []],
    ['cat {a\\,b}', []],
    ['cat {a,"b,c"}', ['a', 'b,c']],
    ['cat {a,"b c"}/x', ['a/x', 'b c/x']],
    ["cat $'/e'{tc,x}", ['/etc', '/ex']],
    // not brace expansions
    ['cat {}', []],
    ['cat {a}', []],
    ['cat x{a,b', []],
    ['cat {1..}', []],
    ['cat {a..3}', []],
    // a word with an expansion is unknown anyway
    ['cat {a,b}$x', []],
    ['cat ${x}{a,b}', []],
    // globs left in an alternative
    ['cat {src/*.ts,/etc/x}', ['src/*.ts:glob', '/etc/x']],
    ['cat "*"{a,b}', ['*a', '*b']],
  ] as [string, string[]][])('%s', async (src, expected) => {
    expect(await alts(src)).toEqual(expected);
  });

  it(`more than ${MAX_BRACE_ALTERNATIVES} alternatives, or one longer than PATH_MAX: one access with reason \`brace\``, async () => {
    expect(await alts('cat {1..100}')).toEqual(['overflow:{1..100}']);
    expect(await alts('cat ' + '{a,b}'.repeat(7))).toEqual(['overflow:' + '{a,b}'.repeat(7)]);
    expect(await alts('cat ' + '{a,b}'.repeat(6))).toHaveLength(64);
    expect(await alts(`cat {a,${'b'.repeat(5000)}}`)).toEqual([`overflow:{a,${'b'.repeat(5000)}}`]);
    const p = await parse('cat {1..100}');
    const overflow = extractPaths(p.commands[0]!).find((a) => a.braceOverflow)!;
    expect(validatePath(overflow, CTX)).toMatchObject({ resolved: null, allowed: false, reason: 'brace' });
  });

  it('expands arguments of every extractor, with option prefixes; not redirection targets or cd (bash: ambiguous redirect / too many arguments)', async () => {
    expect(await paths('rm -f {a,/etc/x}')).toEqual(['{a,/etc/x}:write', 'a:write+ext', '/etc/x:write+ext']);
    expect(await paths('sed -n --file={s,/etc/s} f')).toEqual(['{s,/etc/s}:read', 's:read+ext', '/etc/s:read+ext', 'f:write']);
    expect(await paths('grep -f{p,/etc/p} a')).toEqual(['{p,/etc/p}:read+ext', 'p:read+ext', '/etc/p:read+ext']);
    expect(await paths('find {a,b} -newer {c,d}')).toEqual(['{a,b}:read', 'a:read+ext', 'b:read+ext', '{c,d}:read', 'c:read+ext', 'd:read+ext']);
    expect(await paths('tac {a,/etc/b}')).toEqual(['{a,/etc/b}:read+ext', 'a:read+ext', '/etc/b:read+ext']);
    expect(await paths('echo x > {a,b}')).toEqual(['{a,b}:write(redirect)']);
    expect(await paths('cd {a,b}')).toEqual(['{a,b}:read(cd)']);
  });

  it('validates each alternative: Claude Code’s view of the word is unchanged', async () => {
    const ctx: PathContext = { cwd: '/repo', workingDirectories: ['/repo'], host: HOST };
    expect(await walk('cat /repo/{a,../../etc/passwd}', ctx)).toEqual([
      // Claude Code: a glob with `..` is judged whole, `}` and all.
      '/repo/{a,../../etc/passwd}→/repo/etc/passwd}:inside',
      '/repo/a→/repo/a:inside',
      '/repo/../../etc/passwd→/etc/passwd:outside',
    ]);
    expect(await walk('rm {a,/etc/x}', ctx)).toEqual(['{a,/etc/x}→?:glob-write', 'a→/repo/a:inside', '/etc/x→/etc/x:outside']);
    expect(await walk('cat {1..2}', ctx)).toEqual(['{1..2}→?:variable', '1→/repo/1:inside', '2→/repo/2:inside']);
  });

  it('extracts paths from long words within the brace-expansion caps (1 MB words are timed by npm run bench)', async () => {
    // Each word passes one cap (an alternative of PATH_MAX = 4096 bytes; MAX_BRACE_ALTERNATIVES
    // brace pairs) several times over: the caps, not the size of the input, decide the result.
    const long = 5000;
    const deep = 4 * MAX_BRACE_ALTERNATIVES;
    const big = [
      // one alternative longer than PATH_MAX
      'cat {a,b}' + 'x'.repeat(long),
      // matched braces without a comma: not an expansion
      'cat ' + '{'.repeat(deep) + '}'.repeat(deep),
      // more nested expansions than the cap
      'cat ' + '{a,'.repeat(deep) + '}'.repeat(deep),
      // many words, each within the caps
      'cat ' + '{a,b} '.repeat(2000),
      // one expansion inside literal braces: its alternatives are longer than PATH_MAX
      'cat ' + '{'.repeat(long / 2) + 'a,b' + '}'.repeat(long / 2),
      // literal brace pairs before one expansion: its alternatives are longer than PATH_MAX
      'cat ' + '{x}'.repeat(long / 2) + '{a,b}',
    ];
    const counts: number[] = [];
    const overflows: number[] = [];
    for (const src of big) {
      const p = await parse(src);
      const accesses = p.commands.flatMap((c) => extractPaths(c));
      counts.push(accesses.length);
      overflows.push(accesses.filter((a) => a.braceOverflow).length);
    }
    expect(counts).toEqual([2, 1, 2, 2000 * 3, 2, 2]);
    expect(overflows).toEqual([1, 0, 1, 0, 1, 1]);
  });
});
