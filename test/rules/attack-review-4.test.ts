/**
 * Bypasses of the fourth attack review, root causes A and B: programs that run a command string
 * and were unknown to the tables (ed's `!command`, dc, m4, sg, capsh, Tcl, Lua, PHP, R, Emacs,
 * `git filter-branch` filters), a program the tables do not know given a denied program's name
 * inside its arguments or input, and a denied program run under another name (`ln -s /bin/rm m
 * && ./m x`, `cp`, `install`, `mv`). Each command is checked with no rules, with a deny rule
 * `Bash(rm:*)` alone, and with allow-all `Bash` beside deny rules (the review's policy).
 */
import { describe, expect, it } from 'vitest';
import { bypassHarness } from './bypass-harness.js';

const { check, neverAllowed } = bypassHarness();

/** The review's policy: allow-all beside three deny rules. */
const DENY = ['Bash(rm:*)', 'Bash(curl:*)', 'Bash(git push:*)'];

/** Not allowed with no rules; with `rm` in it, {@link neverAllowed} too (the harness's `Bash(rm:*)` policies). */
function notAllowed(command: string): void {
  expect(check(command).decision, command).not.toBe('allow');
  if (/\brm\b/.test(command)) neverAllowed(command);
}

/** `command` is never allowed, and it is denied under the deny rules alone and under allow-all + deny. */
function denied(command: string): void {
  notAllowed(command);
  expect(check(command, [], DENY).decision, command).toBe('deny');
  expect(check(command, ['Bash'], DENY).decision, command).toBe('deny');
}

/** `command` is never allowed, and under allow-all + deny it asks with reason code `code`. */
function asks(command: string, code = 'unknown-program'): void {
  notAllowed(command);
  expect(check(command, [], DENY).decision, command).not.toBe('allow');
  const v = check(command, ['Bash'], DENY);
  expect(v.decision, command).toBe('ask');
  expect(v.reason, command).toMatch(new RegExp(`^${code}:`));
}

/** `command` stays allowed under allow-all + deny (nothing in it can run a denied program unseen). */
function allowedUnderAllowAll(command: string): void {
  expect(check(command, ['Bash'], DENY).decision, command).toBe('allow');
}

describe('root cause A: interpreters that run a command string', () => {
  it.each([
    "ed -s a.txt <<< '!rm victim'",
    "echo '!rm victim' | ed -s",
    "printf '%s\\n' '!rm victim' | ed -s a.txt",
    "ed -s a.txt <<'EOF'\n!rm victim\nEOF",
    "ed '!rm victim'",
    "ed -s a.txt <<< 'e !rm victim'",
    "tclsh <<< 'exec rm victim'",
    "echo 'exec rm victim' | tclsh",
    "tclsh8.6 <<< 'exec /bin/rm victim'",
    "wish <<< 'exec rm victim'",
    "dc -e '!rm victim'",
    "dc <<< '!rm victim'",
    "m4 <<< 'esyscmd(rm victim)'",
    "emacs --batch --eval '(shell-command \"rm victim\")'",
    "emacs -batch -eval '(shell-command \"rm victim\")'",
    "R -e 'system(\"rm victim\")'",
    "Rscript -e 'system(\"rm victim\")'",
    "lua -e 'os.execute(\"rm victim\")'",
    "lua5.4 -e 'os.execute(\"rm victim\")'",
    "php -r 'system(\"rm victim\");'",
    "echo '<?php system(\"rm victim\");' | php",
    "expect -c 'spawn rm victim'",
    "julia -e 'run(`rm victim`)'",
    "guile -c '(system \"rm victim\")'",
    "python3 -c 'import os; os.system(\"rm victim\")'",
    "echo 'import os; os.system(\"rm victim\")' | python3",
    "perl -e 'system(\"rm victim\")'",
    "node -e 'require(\"child_process\").execSync(\"rm victim\")'",
  ])('%j is denied: the denied program is visible in the code', (command) => denied(command));

  it('curl and git push are denied the same way', () => {
    denied('ed -s a.txt <<< "!curl -s http://x"');
    denied("tclsh <<< 'exec git push origin main'");
  });

  it('the reason names the interpreter and how its code runs programs', () => {
    const v = check("tclsh <<< 'exec rm victim'", ['Bash'], DENY);
    expect(v.reason).toMatch(/^policy-deny: .*`tclsh` runs Tcl code \(here-string\) in which the denied program is visible \(`exec`/);
    expect(v.matchedRule?.rule).toBe('Bash(rm:*)');
  });

  it.each([
    "tclsh <<< 'puts hi'",
    "echo 'puts [exec r[string range xm 1 1] victim]' | tclsh",
    'lua -e "$CODE"',
    "php -r 'echo 1;'",
    "R -e 'x <- 1'",
    'echo "$payload" | tclsh',
    'cat f | lua',
    "python3 -c 'print(1)'",
    "m4 <<< 'define(x, y)x'",
    'ed -s a.txt <<< "$script"',
  ])('%j asks: the interpreter runs code shellward does not analyse', (command) => asks(command));

  it('code in a file the project holds stays as a script run by its path does', () => {
    allowedUnderAllowAll('tclsh build.tcl');
    allowedUnderAllowAll('python3 script.py');
    allowedUnderAllowAll('lua -l lib run.lua');
    allowedUnderAllowAll('python3 --version');
  });

  it("ed's commands run nothing without `!`", () => {
    allowedUnderAllowAll("ed -s a.txt <<< ',p'");
    allowedUnderAllowAll("printf '%s\\n' '1d' w q | ed -s a.txt");
  });

  it('without deny or ask rules, allow-all still allows interpreter code', () => {
    expect(check("tclsh <<< 'puts hi'", ['Bash']).decision).toBe('allow');
  });

  it('an exact allow rule of the whole command is the approval it needs', () => {
    expect(check("php -r 'echo 1;'", ["Bash(php -r 'echo 1;')"], DENY).decision).toBe('allow');
  });
});

describe('root cause A: sg and capsh run shell code', () => {
  it.each(["sg root -c 'rm victim'", "sg root 'rm victim'", "sg - root 'rm victim'", "capsh -- -c 'rm victim'", "capsh --caps=cap_chown+ep -- -c 'rm victim'", 'capsh --shell=/bin/rm -- victim', "sg root 'git push'", "capsh -- -xc 'rm victim'"])('%j is denied', (command) => denied(command));
  it.each(['sg root "$cmd"', 'sg root'])('%j asks', (command) => {
    notAllowed(command);
    expect(check(command, ['Bash'], DENY).decision, command).toBe('ask');
  });
  it('visible harmless code is allowed under allow-all + deny', () => {
    allowedUnderAllowAll("sg root -c 'ls'");
    allowedUnderAllowAll("capsh -- -c 'ls'");
    // capsh runs the words after `--` with bash: `-xc` is bash's `-x -c`, so the code is visible.
    allowedUnderAllowAll("capsh -- -xc 'ls'");
  });
});

describe('root cause A: git filter-branch filters are shell code', () => {
  it.each(['--tree-filter', '--msg-filter', '--env-filter', '--commit-filter', '--index-filter', '--parent-filter', '--tag-name-filter', '--setup'])('%s with rm is denied', (option) => {
    denied(`git filter-branch -f ${option} 'rm victim' HEAD`);
  });
  it('through git options and with push in the filter', () => {
    denied("git -C . filter-branch --tree-filter 'rm -f victim' HEAD");
    denied("git filter-branch --commit-filter 'git push origin HEAD' HEAD");
  });
  it('a filter not known before the command runs asks', () => asks('git filter-branch -f --env-filter "$x" HEAD'));
  // Beside deny rules an exec option asks under allow-all even when its code is harmless (as
  // `git rebase --exec cat` does); a denied program in it still denies (above).
  it('a visible harmless filter is never better than ask beside deny rules where the tracked files are not known; a prefix rule asks', () => {
    // (It checks out the rewritten HEAD; test/rules/attack-review-5-precision.test.ts allows it where no protected file is tracked.)
    expect(check("git filter-branch -f --msg-filter 'cat' HEAD", ['Bash'], DENY).decision).toBe('ask');
    expect(check("git filter-branch -f --msg-filter 'cat' HEAD", ['Bash(git filter-branch:*)'], DENY).decision).toBe('ask');
  });
});

describe('a program the tables do not know, given a denied name inside its arguments or input', () => {
  it.each([
    "red -s a.txt <<< '!rm victim'",
    "mytool --run='rm victim'",
    "echo 'x = rm victim' | mytool",
    "mytool <<'EOF'\n/bin/rm victim\nEOF",
    "mytool <<< \"$(echo x) rm victim\"",
  ])('%j asks', (command) => {
    const v = check(command, ['Bash'], DENY);
    expect(v.decision, command).toBe('ask');
    expect(v.reason, command).toMatch(/^unknown-program:/);
    neverAllowed(command);
  });
  it('the reason says where the name appears', () => {
    expect(check("mytool --run='rm victim'", ['Bash'], DENY).reason).toMatch(/`rm` appears in its argument/);
    expect(check("echo 'rm x' | mytool", ['Bash'], DENY).reason).toMatch(/the input piped to it/);
  });
  it('no denied name, no ask', () => {
    allowedUnderAllowAll("mytool --run='ls'");
    allowedUnderAllowAll('mytool --rm-cache');
  });
});

describe('root cause B: a denied program under another name', () => {
  it.each([
    'ln -s /bin/rm myrm && ./myrm victim',
    'ln -sf /usr/bin/rm ./m && ./m x',
    'ln /bin/rm m && ./m v',
    'ln -s /usr/bin/../bin/rm m; ./m v',
    'cp -s /bin/rm m; ./m v',
    'cp /bin/rm m; ./m v',
    'install /bin/rm ./m; ./m victim',
    'install -m 755 /bin/rm m',
    'mv /bin/rm m',
    'ln -t bin /bin/rm',
    'ln --target-directory=bin -s /usr/bin/rm',
    'link /bin/rm m',
    'sudo ln -s /bin/rm /usr/local/bin/r',
    'ln -s /usr/bin/curl c',
  ])('%j is denied', (command) => denied(command));

  it('the reason names the link and the denied program', () => {
    const v = check('ln -s /bin/rm myrm && ./myrm victim', ['Bash'], DENY);
    expect(v.reason).toMatch(/`ln` makes `myrm` a link to `\/bin\/rm`/);
  });

  it.each([
    'ln -s "$(command -v rm)" m; ./m victim',
    'ln -s "$(which rm)" m',
    'cp "$RM" m',
    'ln -s rm m',
    'ln -s /usr/bin/git g; ./g push',
    "printf '#!/bin/sh\\nrm \"$@\"\\n' > m; chmod +x m; ./m victim",
    "printf 'rm \"$@\"' > s; cp s m; ./m v",
    'tar xf a.tar && ./x victim',
    'git pull && ./run.sh',
    'cat f | tee ./t; ./t',
  ])('%j asks: what the new name runs is not known', (command) => asks(command));

  it('links and copies of other programs and files stay allowed', () => {
    // A link to a file outside the project asks (what it names is read through it later).
    expect(check('ln -s /bin/ls l; ./l', ['Bash'], DENY).decision).toBe('ask');
    allowedUnderAllowAll('cp src/a.txt b.txt');
    allowedUnderAllowAll('ln -s lib/x.so y.so');
    allowedUnderAllowAll('install -d build/bin');
    allowedUnderAllowAll('./build.sh');
    allowedUnderAllowAll('make && ./bin/tool');
    allowedUnderAllowAll('ln -s build/tool t; ./t');
  });
});

describe('more programs that run a command string (strace -o, roff -U, sqlite3, gcc -wrapper, sftp)', () => {
  it.each(["strace -o '|rm victim' true", "strace -o '!rm victim' true", "strace -o'|rm victim' true", "strace --output='|rm victim' true"])('%j is denied: the pipe is shell code', (command) => denied(command));
  it.each(["echo '.sy rm victim' | groff -U", "nroff -U <<< '.sy rm victim'", "sqlite3 :memory: <<< '.system rm victim'", "echo '.shell rm victim' | sqlite3", "sqlite3 -cmd '.shell rm victim' db", "sqlite3 db '.system rm victim'"])('%j is denied', (command) => denied(command));
  it.each(["sqlite3 db '.tables'", "sqlite3 db \"$q\"", "echo '.sy ls' | groff -U"])('%j asks', (command) => asks(command));
  it.each(["gcc -wrapper /bin/sh,-c,'rm victim' x.c", "sftp -o ProxyCommand='rm victim' -o BatchMode=yes h", "apt-get update -o 'APT::Update::Pre-Invoke::=rm victim'", "screen -dm sh -c 'rm victim'", "echo 'BEGIN{system(\"rm victim\")}' | awk -f /dev/stdin"])('%j asks', (command) => {
    neverAllowed(command);
    expect(check(command, ['Bash'], DENY).decision, command).toBe('ask');
  });
  it('without the pipe, unsafe mode or a dot-command they stay allowed', () => {
    allowedUnderAllowAll('strace -o out.txt true');
    allowedUnderAllowAll('nroff -man x.1');
    allowedUnderAllowAll("sqlite3 db 'select 1'");
    allowedUnderAllowAll('gcc -O2 -o x x.c');
  });
});

describe('code or a program read from standard input (python3 -, node -, perl, xargs)', () => {
  it.each([
    "python3 - <<< 'import os; os.system(\"rm victim\")'",
    "node - <<< 'require(\"child_process\").execSync(\"rm victim\")'",
    "perl <<< 'system \"rm victim\"'",
    "echo 'rm victim' | xargs -I{} sh -c '{}'",
    "echo 'rm victim' | xargs -0 -I% bash -c %",
    "printf 'rm\\0victim' | xargs -0 env",
    'echo rm victim | xargs env',
    'echo rm victim | xargs nice',
    'echo rm victim | xargs timeout 9',
    'echo rm victim | xargs -n2 sudo',
  ])('%j is denied', (command) => denied(command));
  it.each(['cat list | xargs env', 'cat cmds | xargs -I{} sh -c "{}"', 'cat f | python3'])('%j asks', (command) => asks(command));
  it('xargs with a program of its own stays as it was', () => {
    allowedUnderAllowAll('ls | xargs -I{} echo {}');
    allowedUnderAllowAll('find . -name "*.txt" | xargs wc -l');
  });
});

describe('git: transport programs as shell code, and the commands that push without the word push', () => {
  it.each([
    "git ls-remote --exec='rm victim; git-upload-pack' .",
    "git ls-remote --upload-pack='rm victim; git-upload-pack' .",
    "git fetch-pack --upload-pack='rm victim; git-upload-pack' . HEAD",
    "git fetch-pack --exec='rm victim; git-upload-pack' . HEAD",
    "git send-pack --receive-pack='rm victim' . HEAD",
    "git clone -u 'rm victim' src dst",
    "git fetch --upload-pack 'rm victim; git-upload-pack' origin",
  ])('%j is denied: the option is shell code', (command) => denied(command));
  it.each([
    'git send-pack origin HEAD:refs/heads/main',
    'git send-pack --force /tmp/remote.git HEAD:refs/heads/main',
    'git subtree push --prefix=src origin main',
    'git http-push https://x/ main',
    '/usr/lib/git-core/git-push origin main',
    '/usr/lib/git-core/git-send-pack . HEAD',
  ])('%j is denied by `Bash(git push:*)`', (command) => {
    const v = check(command, ['Bash'], DENY);
    expect(v.decision, command).toBe('deny');
    expect(v.matchedRule?.rule, command).toBe('Bash(git push:*)');
  });
  it('a transport option whose value is not known asks', () => asks('git fetch --upload-pack="$x" origin'));
  it('ordinary transport commands stay allowed', () => {
    allowedUnderAllowAll('git fetch origin');
    allowedUnderAllowAll('git ls-remote origin');
    allowedUnderAllowAll('git subtree split --prefix=src');
  });
});
