/**
 * Shell-level bypasses of the third attack review: here-document delimiters that bash ends
 * earlier than the parser, bash's own hash and alias tables, compatibility levels, assignments
 * made by redirections and arithmetic, locales whose characters swallow a backslash, `$"…"`
 * translations and exported variables that no table proves harmless. Each command is checked with
 * no rules, with a deny rule `Bash(rm:*)`, and with allow-all `Bash` beside that deny rule.
 */
import { describe, expect, it } from 'vitest';
import { bypassHarness } from './bypass-harness.js';
import { lint } from '../checks/security/lint.js';

const { check, neverAllowed } = bypassHarness();

/** `command` is never allowed, and the visible `rm` in it is denied under the deny rule. */
function deniedWhereVisible(command: string): void {
  neverAllowed(command);
  expect(check(command, [], ['Bash(rm:*)']).decision, command).toBe('deny');
  expect(check(command, ['Bash'], ['Bash(rm:*)']).decision, command).toBe('deny');
}

/** `command` is allowed with no rules (read-only) and under the deny rule. */
function stillAllowed(command: string): void {
  expect(check(command).decision, command).toBe('allow');
  expect(check(command, [], ['Bash(rm:*)']).decision, command).toBe('allow');
}

describe('a here-document delimiter glued to an operator ends where bash ends it', () => {
  const HIDDEN = [
    'cat <<X;\nX\ntouch PWN\nX;',
    'cat <<X|cat\nX\ntouch PWN\nX|cat',
    'cat <<X&&true\nX\ntouch PWN\nX&&true',
    'cat <<X||true\nX\ntouch PWN\nX||true',
    'cat <<X&\nX\ntouch PWN\nX&',
    'cat <<X>/dev/null\nX\ntouch PWN\nX>/dev/null',
    'cat <<X>&2\nX\ntouch PWN\nX>&2',
    'cat <<X<a.txt\nX\ntouch PWN\nX<a.txt',
    'cat <<X; echo\nX\ntouch PWN\nX;',
    'cat <<-X;\n\tX\ntouch PWN\nX;',
    "cat <<X'';\nX\ntouch PWN\nX'';",
    'x=$(cat <<X;\nX\ntouch PWN\nX;\n)',
  ];
  it.each(HIDDEN)('%j', (command) => neverAllowed(command));
  it('the hidden rm is denied', () => deniedWhereVisible('cat <<X;\nX\nrm victim\nX;'));
  it('lint reports it', async () => {
    const ds = await lint('cat <<X;\nX\nrm -rf ~\nX;\n', { granularity: 'script', profile: 'script' });
    expect(ds.length).toBeGreaterThan(0);
  });
});

describe('a here-document body line that is only a backslash joins the next line', () => {
  const HIDDEN = [
    'cat <<X\n\\\nX\ntouch PWN\nX',
    'cat <<X\n\\\n\\\nX\ntouch PWN\nX',
    'cat <<X > /dev/null\n\\\nX\ntouch PWN\nX',
    'x=$(cat <<X\n\\\nX\ntouch PWN\nX\n)',
    'cat <<X\nfoo\\\nX\ntouch PWN\nX',
  ];
  it.each(HIDDEN)('%j', (command) => neverAllowed(command));
  it('the hidden rm is denied', () => deniedWhereVisible('cat <<X\n\\\nX\nrm victim\nX'));
  it('lint reports it', async () => {
    const ds = await lint('cat <<Y\n\\\nY\nrm -rf /\nY\n', { granularity: 'script', profile: 'script' });
    expect(ds.length).toBeGreaterThan(0);
  });
});

describe('ordinary here-documents stay allowed', () => {
  const OK = [
    "cat <<'EOF'\nhello\nEOF",
    'cat <<EOF\nhello $HOME\nEOF',
    'cat <<EOF | grep x\nhello\nEOF',
    'cat <<EOF && echo done\nhello\nEOF',
    'cat <<EOF >/dev/null\nhello\nEOF',
    "cat <<'EOF'\na \\\nb\nEOF",
    'cat <<EOF\na \\\nb\nEOF',
  ];
  it.each(OK)('%j', (command) => stillAllowed(command));
});

describe("bash's command hash table and alias table", () => {
  const HIDDEN = [
    'BASH_CMDS[ls]=/bin/rm; ls victim',
    "BASH_CMDS[grep]=/bin/sh; grep -c 'touch pwned2'",
    'BASH_CMDS[cat]=/usr/bin/touch; cat pwned',
    'BASH_CMDS=([ls]=/bin/rm); ls victim',
    'declare -A BASH_CMDS=([ls]=/bin/rm); ls victim',
    'declare -A BASH_CMDS; BASH_CMDS[ls]=/bin/rm; ls victim',
    'BASH_CMDS+=([ls]=/bin/rm); ls victim',
    "read 'BASH_CMDS[ls]' <<< /bin/rm; ls victim",
    "POSIXLY_CORRECT=1\nBASH_ALIASES[ls]='touch v6;'\nls",
    "BASH_ALIASES[ls]='touch v6;'\nls",
    'export POSIXLY_CORRECT=1; ls',
  ];
  it.each(HIDDEN)('%j', (command) => neverAllowed(command));
  it('deny where rm is visible', () => {
    expect(check('BASH_CMDS[ls]=/bin/rm; ls victim', ['Bash(ls:*)'], ['Bash(rm:*)']).decision).not.toBe('allow');
  });
});

describe('compatibility levels that bring back double expansion', () => {
  const HIDDEN = [
    "BASH_COMPAT=51; x='$(touch PWN)'; test -v \"a[$x]\"",
    "BASH_COMPAT=5.1; read x <<< '$(touch PWN)'; test -v \"a[$x]\"",
    "export BASH_COMPAT=51; x=$'\\x24(touch PWN)'; test -v \"a[$x]\"",
    "declare BASH_COMPAT=51; x=$'\\x24(touch PWN)'; [ -v \"a[$x]\" ]",
    "shopt -s compat51; x=$'\\x24(touch PWN)'; test -v \"a[$x]\"",
  ];
  it.each(HIDDEN)('%j', (command) => neverAllowed(command));
});

describe('assignments made by {name} redirections and arithmetic', () => {
  const HIDDEN = [
    ': {GLOBIGNORE}>/dev/null; cat ?env',
    'true {GLOBIGNORE}</dev/null; cat ?env',
    ': {PATH}>/dev/null; ls',
    'echo {PATH}>/dev/null; ls',
    ': {IFS}>/dev/null; x=a1/etc/passwd; cat $x',
    '(( GLOBIGNORE = 1 )); cat ?env',
    ': $(( GLOBIGNORE = 1 )); cat ?env',
    '[[ GLOBIGNORE=1 -eq 1 ]]; cat ?env',
    'a[GLOBIGNORE=1]=x; cat ?env',
    'echo ${a[GLOBIGNORE=1]}; cat ?env',
    '(( PATH=1 )); ls',
    'x=${a[PATH=1]}; ls',
    '(( PATH++ )); ls',
    '(( x=1, PATH|=1 )); ls',
    'let PATH=1; ls',
    "let 'GLOBIGNORE+=1'; cat ?env",
  ];
  it.each(HIDDEN)('%j', (command) => neverAllowed(command));
  it('ordinary arithmetic and descriptors stay allowed', () => {
    stillAllowed('(( i = 1 + 2 )); echo $i');
    stillAllowed('echo $(( 3 * 4 ))');
    stillAllowed('[[ 3 -eq 3 ]] && echo ok');
    stillAllowed('[ $HOME = /root ] && echo root');
    stillAllowed('[[ $PATH == */bin* ]] && echo yes');
    stillAllowed('ls 2>/dev/null; echo {}');
  });
});

describe('a locale whose characters may end in a backslash byte', () => {
  const HIDDEN = [
    'LC_ALL=zh_CN.GBK\ncat 中\\\ntouch PWN_GBK',
    'export LC_ALL=zh_CN.GBK\ncat 中\\\ntouch PWN',
    'LC_CTYPE=zh_TW.BIG5\ncat 中\\\ntouch PWN',
    'LANG=ja_JP.SJIS; cat 中\\\ntouch PWN',
    'LC_ALL=zh_CN.GB18030 :; cat 中\\\ntouch PWN',
    'LC_ALL=$l; cat 中\\\ntouch PWN',
  ];
  it.each(HIDDEN)('%j', (command) => neverAllowed(command));
  it('UTF-8 and C locales stay allowed', () => {
    stillAllowed('LC_ALL=C sort a.txt');
    stillAllowed('LC_ALL=C.UTF-8; ls');
    stillAllowed('export LANG=en_US.UTF-8; ls');
    stillAllowed('LANG=POSIX ls');
    // A prefix of an external command: bash restores its own locale before it reads on.
    stillAllowed('LC_ALL=zh_CN.GBK ls');
  });
});

describe('$"…" translated strings', () => {
  const HIDDEN = [
    'LC_ALL=en_US.UTF-8\nTEXTDOMAINDIR=po\nTEXTDOMAIN=x\necho $"hello"',
    'export TEXTDOMAINDIR=po TEXTDOMAIN=x\necho $"hello"',
    'TEXTDOMAINDIR=po\nTEXTDOMAIN=x\necho $"hello"',
    'declare TEXTDOMAIN=x; echo $"hello"',
  ];
  it.each(HIDDEN)('%j', (command) => neverAllowed(command));
  // Without a domain set in the command, bash translates with the user's own TEXTDOMAIN and
  // TEXTDOMAINDIR (or none): the same trust as the rest of the environment, such as PATH.
  it('a translated string with the environment left alone stays allowed', () => stillAllowed('echo $"hello"'));
});

describe('exported variables are checked against what is proven harmless', () => {
  const HIDDEN = [
    "export GIT_TEST_FSMONITOR='touch PWN; false'; git status",
    "declare -x GIT_TEST_FSMONITOR='touch PWN; false'; git status",
    "GIT_TEST_FSMONITOR='touch PWN; false'; export GIT_TEST_FSMONITOR; git status",
    "export MANOPT='-C /dev/stdin'; man ls <<< 'DEFINE tbl touch PWN'",
    'export GROFF_BIN_PATH=bin; man ./page.1',
    'export PYENV_HOOK_PATH=hooks; python3 -V',
    'export GIT_COMMON_DIR=docs; git status',
    'export GIT_TRACE=/tmp/trace_out; git log -1',
    'export GIT_ALTERNATE_OBJECT_DIRECTORIES=/tmp/other/.git/objects; git cat-file -p 0c05',
    'export RIPGREP_CONFIG_PATH=x; rg foo',
    'typeset -x MANPATH=.; man ls',
    'local -x TERMINFO_DIRS=.; ls',
    'readonly -x GIT_ATTR_SOURCE=x; git diff',
  ];
  it.each(HIDDEN)('%j', (command) => neverAllowed(command));
  it('harmless exports stay allowed', () => {
    stillAllowed('export NODE_ENV=production; ls');
    stillAllowed('export FOO=1');
    stillAllowed('export LC_ALL=C; sort a.txt');
  });
});
