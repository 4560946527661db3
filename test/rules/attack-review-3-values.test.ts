/**
 * Third attack review, variable values: a known value is split on IFS and globbed like bash does
 * when it is expanded unquoted, and a variable changed by any other form (a `for` loop, an array
 * element, a name reference, arithmetic, `unset`) no longer has its old value. Each command is
 * checked with no rules, with a deny rule `Bash(rm:*)`, and with allow-all `Bash` beside it, plus
 * `Read(./.env)` deny and acceptEdits where the bypass is of that kind.
 */
import { describe, expect, it } from 'vitest';
import { bypassHarness } from './bypass-harness.js';

const { check, neverAllowed } = bypassHarness();

/** `command` is not allowed under no rules or a deny rule (allow-all legitimately covers it). */
function notAutoAllowed(command: string): void {
  expect(check(command).decision, command).not.toBe('allow');
  expect(check(command, [], ['Bash(rm:*)']).decision, command).not.toBe('allow');
}

/** `command` is not allowed while `Read(./.env)` is denied, in default and acceptEdits mode. */
function envNotRead(command: string): void {
  expect(check(command, [], ['Read(./.env)']).decision, command).not.toBe('allow');
  expect(check(command, [], ['Read(./.env)', 'Bash(rm:*)'], 'acceptEdits').decision, command).not.toBe('allow');
}

describe('an unquoted known value is split into fields and globbed', () => {
  const OUTSIDE = [
    "x='a.txt /etc/passwd'; cat $x",
    "x='a.txt ../outside.txt'; cat $x",
    "x='a.txt /etc/shadow'; head $x",
    "x='a.txt /etc/passwd'; grep root $x",
    "x=$'a.txt\\t../outside.txt'; cat $x",
    "x='-O3 /etc'; find $x",
    "x='-R /'; ls $x",
    "x='HEAD --output=../gdo'; git diff $x",
    "x='-fprintf .git/config [core]\\nfsmonitor=rm\\040victim\\n -quit'; find . $x; git status",
    "x='a.txt /etc/passwd'; cat a$x",
  ];
  it.each(OUTSIDE)('%j', (command) => neverAllowed(command));

  it.each(["x='.[e]nv'; cat $x", "x='.e*'; cat $x", "x='a.txt --files0-from=.env'; wc $x"])('%j does not read .env', (command) => envNotRead(command));

  it.each(['x=*; sort $x', "x='-r .'; rm $x"])('%j', (command) => notAutoAllowed(command));

  it('in acceptEdits a value cannot add a protected or outside target', () => {
    for (const command of ["x='notes.txt .git/config'; cp $x", "x='.g*'; rm -rf $x", "x='a.txt ../cpout'; cp $x"]) {
      expect(check(command, [], [], 'acceptEdits').decision, command).not.toBe('allow');
      expect(check(command, [], ['Bash(rm:*)'], 'acceptEdits').decision, command).not.toBe('allow');
    }
  });

  it('a value that names a program glob is a glob command word', () => {
    for (const command of ["x='rm victim'; $x", "x=rm; $x victim"]) expect(check(command, ['Bash'], ['Bash(rm:*)']).decision, command).toBe('deny');
    expect(check("x='/bin/r?'; $x victim", [], ['Bash(rm:*)']).decision).not.toBe('allow');
  });

  it('an assigned IFS makes the fields unknown', () => {
    expect(check("IFS=.; x='a.txt'; cat $x").decision).not.toBe('allow');
    expect(check("IFS=/; x='a1etc1passwd'; cat $x").decision).not.toBe('allow');
  });

  it('near misses stay allowed: values without IFS characters, quoted expansions, splits into inside files', () => {
    for (const command of ["x='a.txt'; cat $x", "x='a.txt sub/b.txt'; cat $x", 'x=a.txt; cat "$x"', "x='a b.txt'; cat \"$x\"", "x='-l'; wc $x a.txt", "x=' a.txt '; cat $x"]) {
      expect(check(command).decision, command).toBe('allow');
    }
    // A quoted value is one word, however many spaces it holds: `cat 'a.txt /etc/passwd'` reads an inside file.
    expect(check("x='a.txt /etc/passwd'; cat \"$x\"").decision).toBe('allow');
  });
});

describe('a variable changed by any assignment form has no stale value', () => {
  const STALE = [
    'x=ls; for x in rm; do :; done; $x victim',
    'x=cat; for x in bash; do :; done; $x -c "rm victim"',
    'x=ls; for x in sh; do :; done; $x -c "touch PWN"',
    'x=ls; for x in /bin/rm; do :; done; "$x" victim',
    'x=cat; for x in touch; do :; done; $x PWN',
    'x=ls; f() { for x in rm; do :; done; }; f; $x victim',
    'x=ls; { for x in rm; do :; done; }; $x victim',
    'x=ls; for x in rm\ndo :; done; $x victim',
    'x=ls; x[0]=rm; $x victim',
    "x=ls; read 'x[0]' <<< rm; $x victim",
    'x=ls; declare -n r=x; r=rm; $x victim',
    'x=ls; declare -n r; r=x; r=rm; $x victim',
    'x=ls; declare -n r=x; read r <<< rm; $x victim',
    'x=ls; declare -n r=x; export r=rm; $x victim',
    'x=ls; declare -n r=x; declare r=rm; $x victim',
    'x=ls; typeset -n r=x; r=rm; $x victim',
    'x=ls; declare -gn r=x; r=rm; $x victim',
    'x=ls; unset x; $x rm victim',
    'x=ls; select x in rm; do break; done; $x victim',
    'x=ls; printf -vx rm; $x victim',
    'x=ls; read -ax <<< rm; $x victim',
    'x=ls; coproc x { :; }; $x victim',
    // Forms the parse walk records (src/parse/variable-changes.ts), code in quotes included.
    'x=ls; command unset x; $x rm victim',
    "x=ls; eval 'x=rm'; $x victim",
    "x=ls; eval 'for x in rm; do :; done'; $x victim",
    "x=ls; trap 'x=rm' DEBUG; $x victim",
    'x=ls; (( x[0] = 1 )); $x victim',
    "x=ls; [[ 'x=0' -eq 0 ]]; $x victim",
  ];
  it.each(STALE)('%j', (command) => neverAllowed(command));

  const STALE_PATHS = [
    'x=a.txt; for x in /etc/passwd; do :; done; cat $x',
    'x=a.txt; declare -n r=x; r=/etc/passwd; cat $x',
    'x=a.txt; for x in ../outside.txt; do :; done; cat $x',
    'x=a.txt; for x in ~/.ssh/id_rsa; do :; done; cat $x',
    'x=a.txt; (( x=1 )); cat $x',
    'x=a.txt; let x++; cat $x',
    'x=a.txt; : ${x:=b}; cat $x',
  ];
  it.each(STALE_PATHS)('%j', (command) => notAutoAllowed(command));

  it.each(['x=a.txt; for x in .env; do :; done; cat $x', 'x=a.txt; declare -n r=x; r=.env; cat $x'])('%j does not read .env', (command) => envNotRead(command));

  it('a name reference bound later is a gap: it may set any variable', () => {
    const c1 = 'declare -n p; p=GIT_CONFIG_PARAMETERS; p="\'core.fsmonitor=rm victim; false\'"; export p; git status';
    expect(check(c1, [], ['Bash(rm:*)']).decision).not.toBe('allow');
    expect(check(c1, ['Bash'], ['Bash(rm:*)']).decision).not.toBe('allow');
    expect(check('typeset -n p; p=GLOBIGNORE; p=x; cat ?env', [], ['Read(./.env)']).decision).not.toBe('allow');
    expect(check('declare -n p; p=PATH; p=.; ls', [], ['Bash(rm:*)']).decision).not.toBe('allow');
  });

  it('near misses stay allowed: attributes keep the value, other names are not touched', () => {
    for (const command of ['x=a.txt; declare -r x; cat $x', 'x=a.txt; for y in 1 2; do :; done; cat $x', 'x=a.txt; y=2; cat $x', 'x=ls; $x a.txt']) {
      expect(check(command).decision, command).toBe('allow');
    }
  });
});

describe('globs that can expand to an option word', () => {
  it('a wildcard-led glob is not read-only for programs with file-reading options', () => {
    for (const command of ['file *', 'wc *', 'wc -l *', 'wc ??*', 'printf *']) {
      expect(check(command).decision, command).not.toBe('allow');
      expect(check(command, [], ['Read(./.env)']).decision, command).not.toBe('allow');
    }
  });

  it('near misses stay allowed: `--` or `./` before the glob, a literal first character, output-only programs', () => {
    for (const command of ['file ./*', 'file -- *', 'wc -l ./*', 'wc -l -- *.txt', 'wc -l a*', 'cat *', 'ls *', 'head *', 'stat *']) {
      expect(check(command).decision, command).toBe('allow');
    }
  });
});

describe('paths that copying, diffing and grepping programs read meet Read() rules and the working directories', () => {
  it('cp and mv sources are reads for Read() deny rules', () => {
    for (const command of ['cp .env /dev/stdout', 'cp .env /dev/stderr', 'cp .env notes.txt', 'cp ./.env sub/', 'mv .env notes.txt', 'mv .env .env2 && cat .env2']) {
      expect(check(command, [], ['Read(./.env)', 'Bash(rm:*)'], 'acceptEdits').decision, command).not.toBe('allow');
      expect(check(command, ['Bash'], ['Read(./.env)'], 'acceptEdits').decision, command).not.toBe('allow');
    }
    expect(check('cp a.txt b.txt', [], ['Read(./.env)'], 'acceptEdits').decision).toBe('allow');
  });

  it('git diff operands are reads: outside a work tree git compares them as files', () => {
    for (const command of ['git diff /etc/passwd a.txt', 'git diff ../outside.txt a.txt', 'git diff -- /etc/shadow a.txt']) neverAllowed(command);
    envNotRead('git diff .env a.txt');
    for (const command of ['git diff', 'git diff HEAD~1 HEAD', 'git diff a.txt', 'git diff --stat main']) expect(check(command).decision, command).toBe('allow');
  });

  it('git grep pathspecs after the pattern meet Read() rules', () => {
    for (const command of ['git grep --untracked KEY .env', 'git grep --no-index KEY .env', 'git grep -e KEY -- .env']) envNotRead(command);
    // A pathspec may be a directory searched recursively: `a.txt/.env` would match `./.env` (any depth).
    expect(check('git grep KEY -- a.txt', [], ['Read(./.env)']).decision).toBe('ask');
    expect(check('git grep KEY -- a.txt', [], ['Read(./secrets/**)']).decision).toBe('allow');
    expect(check('git grep -n KEY', [], []).decision).toBe('allow');
  });
});

describe('acceptEdits never removes or moves the working directory itself', () => {
  it.each(['rm -rf ../proj', 'rm -rf /work/proj', 'rm -r /work/proj', 'rm -rf ../proj/', 'rm -rf -- ../proj', 'rm -rf sub/../../proj', 'rmdir ../proj', 'mv ../proj ../old', 'rm -rf /work'])('%j', (command) => {
    expect(check(command, [], [], 'acceptEdits').decision, command).not.toBe('allow');
    expect(check(command, [], ['Read(./.env)'], 'acceptEdits').decision, command).not.toBe('allow');
  });

  it('near misses stay allowed: a subdirectory, moving into the working directory', () => {
    for (const command of ['rm -rf sub', 'mv sub/b.txt .', 'cp sub/b.txt .', 'rm -rf ./build']) expect(check(command, [], [], 'acceptEdits').decision, command).toBe('allow');
  });
});

describe('optional option arguments are only attached with `=`', () => {
  it('date --iso-8601 does not consume the next word, which would set the clock', () => {
    for (const command of ['date --iso-8601 0101000025', 'date --iso-8601 1231235999', 'date 0101000025']) expect(check(command).decision, command).not.toBe('allow');
    for (const command of ['date --iso-8601', 'date --iso-8601=seconds', 'date +%s', 'date --iso-8601 +%s']) expect(check(command).decision, command).not.toBe('deny');
    for (const command of ['date --iso-8601', 'date --iso-8601=seconds', 'date +%s']) expect(check(command).decision, command).toBe('allow');
  });

  it('other optional-argument options keep harmless forms allowed', () => {
    for (const command of ['git log --pretty --oneline', 'grep --color x a.txt', 'grep --color=auto x a.txt', 'git rev-parse --short HEAD', 'git status --untracked-files', 'git status --untracked-files=no']) {
      expect(check(command).decision, command).toBe('allow');
    }
    expect(check('grep --color x /etc/passwd').decision).not.toBe('allow');
  });
});
