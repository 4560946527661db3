/**
 * Deny-rule bypasses of the fifth attack review under allow-all: wrapper option clusters whose
 * last letter takes a value (`env -iu X rm`), named coprocs with a compound command, a subcommand
 * word that is not static under a multi-word deny rule, option spellings a deny rule with an
 * option misses, and scripts written and run by a non-shell interpreter in the same command line.
 * Each command is checked under the deny rules alone and with allow-all `Bash` beside them; the
 * twins that run nothing denied stay allowed.
 */
import { describe, expect, it } from 'vitest';
import { bypassHarness } from './bypass-harness.js';

const { check } = bypassHarness();

/** The review's policy: allow-all beside three deny rules. */
const DENY = ['Bash(rm:*)', 'Bash(curl:*)', 'Bash(git push:*)'];

/** `command` is denied under `deny` alone and with allow-all beside it. */
function denied(command: string, deny: string[] = DENY): void {
  expect(check(command, [], deny).decision, command).toBe('deny');
  expect(check(command, ['Bash'], deny).decision, command).toBe('deny');
}

/** `command` is not allowed under `deny` alone, and asks (or denies) with allow-all beside it. */
function notAllowed(command: string, deny: string[] = DENY): void {
  expect(check(command, [], deny).decision, command).not.toBe('allow');
  expect(check(command, ['Bash'], deny).decision, command).not.toBe('allow');
}

/** `command` stays allowed under allow-all beside `deny`. */
function allowed(command: string, deny: string[] = DENY): void {
  expect(check(command, ['Bash'], deny).decision, command).toBe('allow');
}

describe('root cause D: wrapper options read as getopt reads them', () => {
  it.each([
    'env -iu X rm victim',
    'env -vu X rm victim',
    'env -0u X rm victim',
    'env -ivu X rm victim',
    'env -iuX rm victim',
    'env -iu X curl http://example.com',
    'env -iu X git push',
    'env -iC /tmp rm victim',
    'env --unse=X rm victim',
    'env - rm victim',
    'timeout -vk 1 5 rm victim',
    'timeout --kill=1 5 rm victim',
    'timeout --kill 1 5 rm victim',
    'flock -nw 1 /tmp/l rm victim',
    'flock -xw 1 l rm victim',
    'flock -sE 1 l rm victim',
    'xargs -ra list rm',
    'xargs -0a list0 rm',
    'xargs -rd , rm < list',
    'xargs -tE x rm < list',
    'watch -gn 1 rm victim',
    'watch -tn 1 rm victim',
    'watch -xn 1 rm victim',
    'exec -ca x rm victim',
    'exec -la x rm victim',
    'exec -cla x rm victim',
    'sudo -nu root rm victim',
    'sudo -iu root rm victim',
    'sudo -Hu root rm victim',
    'sudo --us root rm victim',
    'doas -nu root rm victim',
    'runuser -lu root -- rm victim',
    'strace -fo out rm victim',
    'ltrace -fo out rm victim',
    'ionice -tc 3 rm victim',
    'unshare -rS 0 rm victim',
    'nsenter -at 1 rm victim',
    "strace -fo '|rm victim' ls",
    "su -lc 'rm victim'",
  ])('%s', (command) => denied(command));

  it.each([
    'env -u X ls',
    'env -i -u X ls',
    'env -iu X ls',
    'env - ls',
    'timeout 5 ls',
    'timeout -vk 1 5 ls',
    'flock -nw 1 l ls',
    'xargs -0rn1 ls < list',
    'xargs -ra list ls',
    'watch -d ls',
    'watch -gn 1 ls',
    'ionice -tc 3 ls',
    'strace -fo out ls',
    'exec -ca x ls',
  ])('twin stays allowed: %s', (command) => allowed(command));
});

describe('root cause E: a named coprocess running a compound command', () => {
  it.each(['coproc X { rm victim; }', 'coproc X { curl http://example.com; }', 'coproc X { git push; }', 'coproc X { ls; rm victim; }'])('%s', (command) => denied(command));

  it.each(['coproc X while rm victim; do break; done', 'coproc X until rm victim; do break; done', 'coproc X { $c victim; }', 'coproc X { ls; }'])(
    'not allowed: %s',
    (command) => notAllowed(command),
  );

  it.each(['coproc ls', 'coproc X ls'])('a simple command stays allowed: %s', (command) => allowed(command));
});

describe('root cause M: a word not known before the command runs where a deny rule needs its subcommand', () => {
  it.each([
    'git $x',
    'git ${x:-push}',
    'git pu${u:-s}h',
    'git "$(echo push)"',
    'git pu$(true)sh',
    'git pu`true`sh',
    'git pus${u}h origin main',
    'env git pus${u}h',
    'git -C . pus${u}h',
    'git --no-pager $x origin',
    'git pus?',
    'git pus[h]',
    'git p*sh',
  ])('%s asks', (command) => {
    notAllowed(command);
    const v = check(command, ['Bash'], DENY);
    expect(v.decision, command).toBe('ask');
    expect(v.reason, command).toMatch(/^unknown-program:/);
  });

  it.each(['x=push; git $x', "git $'push'", 'git pu\\sh'])('a static spelling is denied: %s', (command) => denied(command));

  it.each(['git pul${u}l', 'git status', 'git log $x', 'git commit -m "$msg"', 'git st*'])(
    'stays allowed: %s',
    (command) => allowed(command),
  );

  it('a rule with an option asks when a word not known may be that option', () => {
    const deny = ['Bash(git push --force:*)'];
    notAllowed('git push origin $opt', deny);
    allowed('git push origin main', deny);
    denied('git push -f origin main', deny);
  });
});

describe('root cause R: option spellings a deny rule with options must see', () => {
  it.each([
    ['git push origin +main', 'Bash(git push --force:*)'],
    ['git push origin +HEAD:main', 'Bash(git push -f:*)'],
    ['git reset --ha', 'Bash(git reset --hard:*)'],
    ['git reset --har HEAD~1', 'Bash(git reset --hard:*)'],
    ['git commit --am -m again', 'Bash(git commit --amend:*)'],
    ['git checkout --forc x', 'Bash(git checkout --force:*)'],
    ['git clean --forc', 'Bash(git clean -f:*)'],
    ['git branch -df y', 'Bash(git branch -D:*)'],
    ['git branch --delete --force x', 'Bash(git branch -D:*)'],
    ['git branch --del --forc x', 'Bash(git branch -D:*)'],
    ['git branch -D x', 'Bash(git branch -d:*)'],
    ['docker container run x', 'Bash(docker run:*)'],
    ['docker container rm x', 'Bash(docker rm:*)'],
    ['docker image rm x', 'Bash(docker rmi:*)'],
    ['docker rmi x', 'Bash(docker image rm:*)'],
    ['docker -H tcp://h container run x', 'Bash(docker run:*)'],
    ['podman container run x', 'Bash(podman run:*)'],
  ])('%s is denied by %s', (command, rule) => denied(command, [rule]));

  it.each([
    ['git push origin main', 'Bash(git push --force:*)'],
    ['git reset --soft HEAD~1', 'Bash(git reset --hard:*)'],
    ['git commit -m x', 'Bash(git commit --amend:*)'],
    ['git branch -d x', 'Bash(git branch -D:*)'],
    ['docker container ls', 'Bash(docker run:*)'],
    ['docker image ls', 'Bash(docker rmi:*)'],
  ])('%s stays allowed beside %s', (command, rule) => allowed(command, [rule]));
});

describe('root cause B: a script written and run by an interpreter in the same command line, and code on stdin from a file', () => {
  it.each([
    `echo 'import os;os.system("rm v1")' > y.py; python3 y.py`,
    `echo 'system "rm v2"' > y.pl; perl y.pl`,
    `echo 'require("child_process").execSync("rm victim")' > y.js; node y.js`,
    `echo 'BEGIN{system("rm v3")}' > y.awk; awk -f y.awk`,
    `echo 'exec rm victim' > y.tcl; tclsh y.tcl`,
  ])('%s', (command) => denied(command));

  it.each([
    "printf 'x:\\n\\trm v4\\n' > y.mk; make -s -f y.mk",
    "echo '1e rm victim' > s.sed; sed -f s.sed a.txt",
    "printf 'all:\\n\\trm v\\n' > Makefile; make",
    "echo 'print(1)' > y.py; python3 y.py",
    `echo 'import os;os.system("rm v")' > z.py; python3 < z.py`,
    'python3 < z.py',
    'perl < x.pl',
    'node < x.js',
    "echo '.shell rm v2' > y.sql; sqlite3 :memory: < y.sql",
    'sqlite3 :memory: < y.sql',
    "echo '!rm v3' > y.ed; ed -s a.txt < y.ed",
    'ed -s a.txt < y.ed',
  ])('not allowed: %s', (command) => notAllowed(command));

  it.each(['python3 y.py', 'awk -f y.awk a.txt', 'echo x > out.txt; python3 y.py', 'python3 script.py < data.txt', 'echo x > d.txt; wc -l < d.txt'])(
    'stays allowed: %s',
    (command) => allowed(command),
  );
});
