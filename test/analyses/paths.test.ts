/** Path extraction and validation (SPEC-bashtool.md §3.4): src/analyses/paths.ts. */
import { describe, expect, it } from 'vitest';
import { extractPaths, PATH_EXTRACTORS, unitPaths, validatePath, type PathAccess, type PathCheck, type PathContext, type PathHost } from '../../src/analyses/paths.js';
import { parse } from '../helpers.js';

/** `path:operation` of every access of every command of `src`, with `(source)` when not an argument. */
async function paths(src: string): Promise<string[]> {
  const p = await parse(src);
  return p.commands.flatMap((c) => extractPaths(c).map((a) => `${a.path}:${a.operation}${a.source === 'argument' ? '' : `(${a.source})`}`));
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
    // git: only diff --no-index
    ['git diff --no-index a /etc/b c', ['a:read', '/etc/b:read']],
    ['git diff --no-index -- -a b', ['-a:read', 'b:read']],
    ['git diff a b', []],
    ['git log -- /etc', []],
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
    expect(await paths('grep -f pats a')).toEqual(['a:read']);
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
    expect(await paths('jq -L lib .a f')).toEqual(['f:read']);
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
    expect(await paths('sed -i.bak s/a/b/ f')).toEqual(['f:write']);
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
    expect(await globs('rm *.o "*.o" {a,b}.txt x')).toEqual([true, false, true, false]);
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

  it('a static cd moves the cwd for later commands of a script', async () => {
    expect(await walk('cd /tmp\ntouch x\ncd sub && touch y')).toEqual([
      '/tmp→/tmp:outside',
      'x→/tmp/x:outside',
      'sub→/tmp/sub:outside',
      'y→/tmp/sub/y:outside',
    ]);
    expect(await walk('cd src; touch ../x')).toEqual(['src→/work/proj/src:inside', '../x→/work/proj/x:inside']);
    expect(await walk('cd\ntouch x')).toEqual(['~→/home/u:outside', 'x→/home/u/x:outside']);
  });

  it('a dynamic cd or `cd -` makes the cwd unknown for later relative paths', async () => {
    expect(await walk('cd "$dir" || exit 1\ntouch x /etc/y')).toEqual(['"$dir"→?:variable', 'x→?:unknown-cwd', '/etc/y→/etc/y:outside']);
    expect(await walk('cd -\ntouch x')).toEqual(['-→?:unknown-cwd', 'x→?:unknown-cwd']);
    expect(await walk(`cd /${'a'.repeat(5000)}; touch x`)).toEqual([`/${'a'.repeat(5000)}→/${'a'.repeat(5000)}:outside`, 'x→?:unknown-cwd']);
    expect(await walk('cd "$d"; cd /work/proj; touch x')).toEqual(['"$d"→?:variable', '/work/proj→/work/proj:inside', 'x→/work/proj/x:inside']);
  });

  it('a cd in a subshell ends with it; in a pipeline or in the background it changes nothing', async () => {
    expect(await walk('(cd /tmp; touch a); touch b')).toEqual(['/tmp→/tmp:outside', 'a→/tmp/a:outside', 'b→/work/proj/b:inside']);
    expect(await walk('(cd /tmp && touch a) && touch b')).toEqual(['/tmp→/tmp:outside', 'a→/tmp/a:outside', 'b→/work/proj/b:inside']);
    expect(await walk('cd /tmp | cat; touch b')).toEqual(['/tmp→/tmp:outside', 'b→/work/proj/b:inside']);
    expect(await walk('cd /tmp & touch b')).toEqual(['/tmp→/tmp:outside', 'b→/work/proj/b:inside']);
  });

  it('a cd inside a command substitution is unknown for the rest of that command only', async () => {
    const out = await walk('cat $(cd /tmp; cat x) y; touch z');
    expect(out.filter((s) => s.startsWith('z'))).toEqual(['z→/work/proj/z:inside']);
    expect(out.filter((s) => s.startsWith('x'))).toEqual(['x→?:unknown-cwd']);
  });

  it('a cd inside a brace group, if, loop or function body makes the cwd unknown from there on (never guessed)', async () => {
    expect(await walk('f() { cd /tmp; }\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→?:unknown-cwd']);
    expect(await walk('if true; then cd /tmp; fi\ntouch x')).toEqual(['/tmp→/tmp:outside', 'x→?:unknown-cwd']);
    expect(await walk('{ cd /tmp; }; touch x')).toEqual(['/tmp→/tmp:outside', 'x→?:unknown-cwd']);
    expect(await walk('for d in a b; do cd "$d"; done; touch x')).toEqual(['"$d"→?:variable', 'x→?:unknown-cwd']);
    // Compound commands without a cd leave the cwd alone.
    expect(await walk('cd src\nif true; then touch a; fi\ntouch b')).toEqual(['src→/work/proj/src:inside', 'a→/work/proj/src/a:inside', 'b→/work/proj/src/b:inside']);
  });
});
