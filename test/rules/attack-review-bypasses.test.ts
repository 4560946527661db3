/**
 * Commands an attack review found auto-allowed although they write, run code or read outside the
 * working directories. Each is checked with no rules, with a deny rule `Bash(rm:*)`, and (where
 * the effect is not covered by an allow-all rule) with allow-all `Bash` beside the deny rule.
 */
import { describe, expect, it } from 'vitest';
import { bypassHarness } from './bypass-harness.js';

const { check, neverAllowed } = bypassHarness();

/** `command` asks with no rules and with a deny rule (a write inside the project: allow-all covers it). */
function asksWithoutAllowRule(command: string): void {
  expect(check(command).decision, command).toBe('ask');
  expect(check(command, [], ['Bash(rm:*)']).decision, command).toBe('ask');
}

describe('what follows a heredoc delimiter on its line is checked', () => {
  // Writes outside the project, into protected files, to the network; reads outside.
  const OUTSIDE = [
    "cat <<'X' >> /tmp/sw_out\necho pwned-rc\nX",
    "cat <<'X' > ~/.bashrc\nhi\nX",
    "cat <<'X' > .git/hooks/pre-commit\nid\nX",
    "cat <<'X' >> .git/config\n[core]\n\tfsmonitor = \"touch PWNED; false\"\nX",
    "cat <<'X' /etc/passwd\nhi\nX",
    "cat <<'X' ../outside.txt\nhi\nX",
    "grep x <<'X' /etc/passwd\nhi\nX",
    "cat <<'X' > /dev/tcp/127.0.0.1/9\nX",
    "ls <<'X' /\nX",
    "wc -l <<'X' ../outside.txt\nX",
    "grep -r <<'X' x /etc\nX",
    "cat << 'X' > /tmp/o\nhi\nX",
    'cat <<"X" > /tmp/o\nhi\nX',
    'cat <<X > /tmp/o\nhi\nX',
    "cat <<-'X' > /tmp/o\n\thi\nX",
    "cat <<'X' 2> /tmp/o\nhi\nX",
    "cat <<'X' >| /tmp/o\nhi\nX",
    'cat 3<<X > /tmp/o\nX',
    'cat <<X <<<hi > /tmp/o\nX',
    'cat <<X >out /etc/passwd\nX',
    "echo $(cat <<'X' > /tmp/o\nhi\nX\n)",
    "case x in x) cat <<'X' > /tmp/o\nX\n;; esac",
    "git status <<'X' > /tmp/o\nX",
    '{ cat; } <<X > /tmp/o\nhi\nX',
    'while read l; do echo $l; done <<X > /tmp/o\nhi\nX',
    'cat <<X > out && ls /etc\nhi\nX',
    'cat <<X |& cat > /tmp/o\nhi\nX',
    "sh -c \"cat <<'X' > /tmp/o\nhi\nX\"",
  ];
  it.each(OUTSIDE)('%j', (command) => neverAllowed(command));

  // Writes inside the project: they need approval unless an allow rule names the command.
  const INSIDE = [
    "cat <<'X' > out\nhi\nX",
    "echo <<'X' > out\nhi\nX",
    "git status <<'X' > out\nX",
    "git diff <<'X' > out\nX",
    "echo $(cat <<'X' > out2\nhi\nX\n)",
    "case x in x) cat <<'X' > out\nX\n;; esac",
    'cat <<X >out a.txt\nhi\nX',
  ];
  it.each(INSIDE)('%j', (command) => asksWithoutAllowRule(command));

  it('a heredoc does not change the verdict of the redirections and words after it', () => {
    const pairs: [string, string][] = [
      ["cat <<'X' > out\nhi\nX", 'cat > out'],
      ["cat <<'X' /etc/passwd\nX", 'cat /etc/passwd'],
      ["cat <<'X' > x\nX", 'cat > x'],
      ["git diff <<'X' > out\nX", 'git diff > out'],
    ];
    const policies: [string[], string[]][] = [[[], []], [[], ['Bash(rm:*)']], [['Bash'], ['Bash(rm:*)']], [['Bash(cat:*)', 'Bash(git diff:*)'], ['Bash(rm:*)']]];
    for (const [withHeredoc, plain] of pairs) {
      for (const [allow, deny] of policies) {
        expect(check(withHeredoc, allow, deny).decision, `${withHeredoc} ${allow}`).toBe(check(plain, allow, deny).decision);
      }
    }
  });

  it('the statements of a pipeline or list after the delimiter are seen by deny rules', () => {
    for (const c of ['cat <<X | sh\nrm x\nX', 'cat <<X && rm y\nhi\nX', 'cat <<X > o || rm y\nhi\nX']) {
      expect(check(c, [], ['Bash(rm:*)']).decision, c).toBe('deny');
      expect(check(c, ['Bash'], ['Bash(rm:*)']).decision, c).toBe('deny');
    }
  });

  it('words after the heredoc of a compound command are a gap', () => {
    const v = check('{ cat; } <<X a\nX', ['Bash'], ['Bash(rm:*)']);
    expect(v.decision).toBe('ask');
  });

  it('a plain heredoc with nothing after the delimiter stays read-only', () => {
    expect(check("cat <<'X'\nhi\nX").decision).toBe('allow');
    expect(check("cat <<'X' | wc -l\nhi\nX").decision).toBe('allow');
  });
});

describe('quoted array subscripts that bash evaluates run code', () => {
  // Each was verified with bash 5.2 to run the substitution.
  const RUNS = [
    "[[ 1 -eq 'a[$(touch p)]' ]]",
    "[[ 'a[$(touch p)]' -eq 1 ]]",
    "[[ 1 -eq 'a[`touch p`]' ]]",
    "[[ x -lt 'a[$(touch p)]' ]]",
    "[[ 'a[`touch p`]' -ge 0 ]]",
    "[[ 1 -ne 'a[$(touch p)]' ]]",
    "[[ 1 -le 'a[$(touch p)]' ]]",
    "[[ 1 -gt 'a[$(touch p)]' ]]",
    "[[ 1 -eq '1+a[$(touch p)]' ]]",
    "[[ 1 -eq 'a[${x:-$(touch p)}]' ]]",
    "[[ -v 'a[$(touch p)]' ]]",
    "[ -v 'a[$(touch p)]' ]",
    "test -v 'a[$(touch p)]'",
    "declare -i x='a[$(touch p)]'",
    "typeset -i x='a[$(touch p)]'",
    "local -i x='a[$(touch p)]'",
    "f() { local -i x='a[$(touch p)]'; }; f",
    "declare 'a[$(touch p)]=1'",
    "declare -a a; unset 'a[$(touch p)]'",
    "declare -A A; unset 'A[$(touch p)]'",
    "declare -n r='a[$(touch p)]'; echo $r",
    "declare -a a='([$(touch p)]=1)'",
    "declare -ai a=('a[$(touch p)]')",
    "declare -i x; read x <<< 'a[$(touch p)]'",
    "(( 'a[$(touch p)]' ))",
    "let 'a[$(touch p)]'",
    "echo ${a['$(touch p)']}",
    'echo "${a[\'$(touch p)\']}"',
    "a=(1); b=${a['$(touch p)']}",
    "[[ 1 -eq $'a[\\x24(touch p)]' ]]",
    "[[ 1 -eq 'a['\"\\$(touch p)]\" ]]",
  ];
  it.each(RUNS)('%s', (command) => neverAllowed(command));

  it('a denied program inside the subscript is denied', () => {
    for (const c of ["[[ 1 -eq 'a[$(rm -rf x)]' ]]", "declare -i x='a[$(rm -rf x)]'", "[[ -v 'a[$(rm x)]' ]]"]) {
      expect(check(c, [], ['Bash(rm:*)']).decision, c).not.toBe('allow');
      expect(check(c, ['Bash'], ['Bash(rm:*)']).decision, c).not.toBe('allow');
    }
  });

  it('the test builtin does not evaluate -eq operands as arithmetic, and plain forms stay read-only', () => {
    // bash's `test`/`[` compare -eq operands as integers without arithmetic evaluation (verified:
    // `[ 1 -eq 'a[$(touch p)]' ]` only prints "integer expression expected"); the quoted text is
    // still reported, as any quoted subscript with a substitution is.
    for (const c of ['[ 1 -eq 2 ]', '[[ 1 -eq 2 ]]', 'declare -i x=5', '[[ $# -gt 1 ]]', '[[ -v HOME ]]', "declare -a a; unset 'a[1]'", "echo 'a[1]'", "grep -e 'a[0-9]' f"]) {
      expect(check(c).decision, c).toBe('allow');
    }
  });
});

describe('file operands and option values that read outside the project', () => {
  const READS = [
    // bash -n / sh -n read the script (and print the lines they cannot parse).
    'bash -n /etc/shadow', 'sh -n /etc/passwd', 'sh -n -- /etc/shadow', 'bash -n ~/.bashrc', 'bash -n ../outside.txt',
    // git blame reads the ignore-revs file and prints a line it cannot parse; every spelling.
    'git blame --ignore-revs-file=/etc/passwd a.txt', 'git blame --ignore-revs-file /etc/passwd a.txt', 'git blame --ignore-revs=/etc/passwd a.txt',
    // git ls-files reads exclude patterns from the file.
    'git ls-files --exclude-from=/etc/passwd -o -i', 'git ls-files -X /etc/passwd -o -i', 'git ls-files -X/etc/passwd -o -i',
    'git ls-files --exclude-per-directory=../../etc/passwd -o -i',
    // find's leading options come before the starting points.
    'find -O3 /etc -maxdepth 1', 'find -O3 / -maxdepth 1', 'find -D tree /etc -maxdepth 0', 'find -D stat / -maxdepth 0', 'find -O1 -L -D help /etc',
    // git ls-remote reads a repository at a local path.
    'git ls-remote ../other', 'git ls-remote /tmp/other',
  ];
  it.each(READS)('%s', (command) => neverAllowed(command));

  it('the same forms inside the project stay allowed', () => {
    for (const c of ['bash -n a.sh', 'sh -n -- a.sh', 'git blame --ignore-revs-file=.git-blame-ignore-revs a.txt', 'git ls-files -X .gitignore -o -i',
      'git ls-files --exclude-per-directory=.gitignore -o', 'find -O3 . -name x', 'find -D tree . -name x', 'git ls-remote origin', 'git ls-remote']) {
      expect(check(c).decision, c).toBe('allow');
    }
  });
});

describe('dot-globs that can match .. read the parent directory', () => {
  // dash (Debian's sh), bash before 5.2 and bash 5.2 with `shopt -u globskipdots` match `..` here.
  const DOT_GLOBS = ['cat .?/outside.txt', 'cat .*/outside.txt', 'cat .[!a]/outside.txt', 'ls .?', 'ls -d .?', 'ls -d .*', 'cat .*/.*/x', 'grep -r x .*'];
  it.each(DOT_GLOBS)('%s', (command) => neverAllowed(command));

  it('globs that cannot match .. stay inside', () => {
    for (const c of ['ls ..?', 'ls .g*', 'cat .[ab]/x', 'cat .[!.]*/x', 'ls *', 'cat */x', 'cat sub/.*/x']) expect(check(c).decision, c).toBe('allow');
  });
});

describe('files read through pid files and check lists', () => {
  const READS = ['pgrep -F /tmp/outside.txt', 'pgrep --pidfile=/etc/shadow', 'pgrep -L -F ../outside.txt', 'echo d41d8cd98f00b204e9800998ecf8427e  /etc/shadow | md5sum -c', 'md5sum -c -', 'sha256sum -c a.txt'];
  it.each(READS)('%s', (command) => neverAllowed(command));
  it('plain forms stay allowed', () => {
    for (const c of ['pgrep -F x.pid', 'pgrep -c node', 'sha256sum a.txt']) expect(check(c).decision, c).toBe('allow');
  });
});

describe('redirections no simple command owns are checked (second review)', () => {
  // `$(<f)` reads f, `$(>f)` truncates it; a function definition's redirections apply at every call.
  const OUTSIDE = ['echo "$(</etc/shadow)"', 'echo $(<~/.ssh/id_rsa)', 'echo $(>~/.bashrc)', 'f() { cat; } < /etc/shadow; f', 'f() { echo hi; } > /tmp/x; f', 'f() ( echo hi ) > ~/.profile; f'];
  it.each(OUTSIDE)('%s', (command) => neverAllowed(command));
  const WRITES = ['echo $(>victim.txt)', 'x=$(>>out)', 'f() { echo x; } >> .git/config; f'];
  it.each(WRITES)('%s', (command) => asksWithoutAllowRule(command));
  it('a Read deny rule sees $(<f)', () => {
    expect(check('echo $(<.env)', [], ['Read(./.env)']).decision).toBe('deny');
  });
  it('reads inside and plain functions stay allowed', () => {
    for (const c of ['echo "$(<README.md)"', 'f() { echo hi; }; f']) expect(check(c).decision, c).toBe('allow');
  });
});

describe('substitutions the parser reads as text are not data (second review)', () => {
  // tree-sitter-bash leaves a backquote inside `${x:-…}` or a `=~` regex, a `$(…)` in single quotes
  // inside a double-quoted `${…}`, and `$'\x24(…)'` inside `${…}` as text; bash runs them.
  const HIDDEN = ['echo ${x:-`touch p`}', 'x=1; echo ${x%`touch p`}', `echo "\${x:-'$(touch p)'}"`, '[[ x =~ (`touch p`) ]]', `echo "\${x:-$'\\x24(\\x74ouch p)'}"`];
  it.each(HIDDEN)('%s', (command) => neverAllowed(command));
  it('a denied program inside is denied', () => {
    expect(check('echo ${x:-`rm -rf v2`}', [], ['Bash(rm:*)']).decision).toBe('deny');
  });
  it('expansions the parser does see stay allowed', () => {
    for (const c of ['echo ${x:-$(date)}', 'echo "${HOME:-/tmp}"', '[[ $x =~ ^[a-z]+$ ]]', 'echo $(date) ${x:-y}']) expect(check(c).decision, c).toBe('allow');
  });
});

describe('a here-document bash ends earlier than the parser is not data (second review)', () => {
  // bash ends the body at the first line equal to the delimiter after quote removal.
  const EARLY = ["cat <<X''\nX\ntouch p\nX''", 'cat <<X""\nX\ntouch p\nX""', "cat << X''\nX\ntouch p\nX''", "cat <<X'Y'\nXY\ntouch p\nX'Y'", 'cat <<X\n${x:-\nX\ntouch p\n}\nX'];
  it.each(EARLY)('%s', (command) => neverAllowed(command));
  it('a denied program after the early end is denied', () => {
    expect(check("cat <<X''\nX\nrm -rf victim\nX''", [], ['Bash(rm:*)']).decision).toBe('deny');
  });
  it('ordinary here-documents stay allowed', () => {
    for (const c of ["cat <<'EOF'\nhello\nEOF", 'cat <<EOF\na $x\nEOF', "cat <<-'EOF'\n\thello\n\tEOF"]) expect(check(c).decision, c).toBe('allow');
  });
});

describe('variables that load code, set without an assignment (second review)', () => {
  const SETS = [
    "read -r GIT_CONFIG_PARAMETERS <<< \"'core.fsmonitor=touch p'\"; export GIT_CONFIG_PARAMETERS; git status",
    'read GIT_DIR <<< /other/.git; export GIT_DIR; git log -p',
    'read PATH <<< .; ls',
    'mapfile -t PATH < a.txt; ls',
    'printf -v GIT_DIR %s /other/.git; export GIT_DIR; git log',
    'for GIT_DIR in /other/.git; do git log; done',
    ': ${GIT_DIR:=/other/.git}; export GIT_DIR; git log',
    'declare -n r=GIT_DIR; r=/x; export GIT_DIR; git log',
  ];
  it.each(SETS)('%s', (command) => neverAllowed(command));
  it('ordinary variables stay allowed', () => {
    for (const c of ['read -r line < a.txt; echo "$line"', 'for f in *.txt; do head -n 5 "$f"; done', 'echo ${x:=1}']) expect(check(c).decision, c).toBe('allow');
  });
});

describe('files named inside other files, and option values read as files (second review)', () => {
  // binutils read arguments from an `@file` response file; man-db reads a page file's roff `.so`
  // requests; find takes its starting points from `-files0-from`; hexdump reads `-fFILE`.
  const READS = [
    'strings @/etc/shadow', 'strings @args.rsp', 'strings a.txt @../outside.txt', 'nm @args.rsp',
    "printf '.so /etc/shadow\\n' | man -l /dev/stdin", "echo .so /etc/shadow | man /dev/stdin", 'man -l x.1', 'man ./y.1',
    "printf '/etc\\0' | find -files0-from - -maxdepth 1 -name passwd", 'find -files0-from list', 'find -files0-from /dev/stdin <<< x',
    'wc --files0-from=list', 'du --files0-from=list',
    'hexdump -f/etc/shadow a.txt', 'hexdump --format-file=/etc/passwd a.txt', 'hexdump --format-f=/etc/passwd a.txt', 'hexdump -Cf/etc/passwd a.txt',
    'info ../outside.txt', 'info /tmp/outside.txt',
  ];
  it.each(READS)('%s', (command) => neverAllowed(command));
  it('a Read deny rule sees attached option values', () => {
    for (const c of ['hexdump -f.env a.txt', 'hexdump --format-file=.env a.txt', 'diff --from-file=.env a.txt', 'diff --to-file=.env a.txt']) {
      expect(check(c, [], ['Read(./.env)']).decision, c).toBe('deny');
    }
    for (const c of ['strings @.env']) expect(check(c, [], ['Read(./.env)']).decision, c).not.toBe('allow');
  });
  it('the plain forms stay allowed', () => {
    for (const c of ['strings a.txt', 'strings -n 8 a.txt', 'hexdump -C a.txt', 'man ls', 'man 5 crontab', 'info coreutils', 'find . -name x', 'diff a b']) {
      expect(check(c).decision, c).toBe('allow');
    }
  });
});

describe('programs that run code under an allow-all rule (second review)', () => {
  // GNU sed's `e` command and `s///e` flag, a makefile from standard input, tmux and expect commands.
  const RUNS = ["sed 'e rm x' a.txt", "sed '1e rm x' a.txt", "sed -n '$e rm -rf x' a.txt", "sed 's/.*/rm x/e' a.txt", "make -f /dev/stdin <<< $'all:\\n\\trm x'",
    'make -f - <<< x', "tmux new -d 'rm x'", "tmux -c 'rm x'", "expect -c 'spawn rm x'", 'expect script.exp'];
  it.each(RUNS)('%s', (command) => {
    expect(check(command, ['Bash'], ['Bash(rm:*)']).decision, command).not.toBe('allow');
    expect(check(command, [], ['Bash(rm:*)']).decision, command).not.toBe('allow');
  });
  it('a sed write is a path under allow rules', () => {
    expect(check("sed 's/a/b/w /tmp/x' a.txt", ['Bash'], []).decision).toBe('ask');
    expect(check("sed 's/a/b/w /tmp/x' a.txt", ['Bash(sed:*)'], []).decision).toBe('ask');
  });
  it('without deny or ask rules an allow-all rule still covers them, and plain sed and make stay allowed', () => {
    expect(check("sed 'e rm x' a.txt", ['Bash'], []).decision).toBe('allow');
    for (const c of ["sed 's/a/b/' a.txt", 'make', 'make -f Makefile test']) expect(check(c, ['Bash'], ['Bash(rm:*)']).decision, c).toBe('allow');
  });
});

describe('acceptEdits: the sed backup copy is a write (second review)', () => {
  const edit = (command: string) => check(command, [], [], 'acceptEdits').decision;
  // GNU sed names the backup by the suffix, each `*` replaced by the file name as given.
  it.each(["sed --in-place=/tmp/* s/a/b/ a.txt", "sed --in-place=../* s/a/b/ a.txt", "sed --in-place=../x* s/a/b/ a.txt", "sed --in-pl=/tmp/* s/a/b/ a.txt",
    "sed --in-place=.git/* s/x/x/ config", "sed -i'/root/.ssh/*' s/a/b/ a.txt", "sed -i'.git/hooks/*' s/a/b/ pre-commit", 'sed -i"$S" s/a/b/ a.txt'])('%s', (command) => {
    expect(edit(command)).not.toBe('allow');
  });
  it('backups inside the project stay allowed', () => {
    for (const c of ['sed -i s/a/b/ a.txt', 'sed --in-place s/a/b/ a.txt', 'sed -i.* s/a/b/ a.txt', 'sed --in-place=bak_* s/a/b/ a.txt']) expect(edit(c), c).toBe('allow');
  });
});

describe('globs and empty substitutions in the command word (second review)', () => {
  // bash expands a glob command word to a path before looking the program up, and runs an empty
  // backquote pair the parser keeps as text; `r`true`m` is one word to bash.
  const DENIED = ['r``m -rf x', '/bin/[r]m v3', '/usr/bin/r? x', '/???/r? x', 'r* x'];
  it.each(DENIED)('%s', (command) => {
    neverAllowed(command);
    expect(check(command, ['Bash'], ['Bash(rm:*)']).decision, command).toBe('deny');
  });
  it.each(['r`true`m x', 'r$(true)m x', 'l``s', './scripts/*.sh'])('%s', (command) => neverAllowed(command));
  it('a command word the parser splits before a substitution is one dynamic word, not its first part', () => {
    // tree-sitter-bash gives `r` and `` `true`m `` as two words; bash runs `rm`.
    for (const c of ['r`true`m x', 'r`true`m -rf x']) expect(check(c, ['Bash'], ['Bash(rm:*)']).decision, c).not.toBe('allow');
    expect(check('r`true`m x', ['Bash(r:*)']).decision).not.toBe('allow');
    expect(check('x=a`true`b rm -rf y', ['Bash'], ['Bash(rm:*)']).decision).toBe('deny');
  });
  it('a glob that cannot name the denied program asks, and globs in arguments stay allowed', () => {
    expect(check('/usr/bin/l? x', ['Bash'], ['Bash(rm:*)']).decision).toBe('ask');
    for (const c of ['ls *.txt', 'cat src/*.ts', "echo 'a``b'", 'echo a\\`\\`b', 'echo a"b"c']) expect(check(c, ['Bash'], ['Bash(rm:*)']).decision, c).toBe('allow');
  });
});

describe('arithmetic on run-time data (second review)', () => {
  // bash evaluates the value of a variable, and the output of a substitution, in an arithmetic
  // context as an expression; `a[$(cmd)]` built at run time runs cmd. Each was verified to run.
  const RUNS = [
    "x=a[; x+='$(touch p)]'; [[ x -eq 1 ]]",
    "d='$'; x=\"a[${d}(touch p)]\"; [[ x -eq 1 ]]",
    "x=$(printf 'a[%s(touch p)]' '$'); [[ x -eq 1 ]]",
    "[[ $(printf 'a[%s(touch p)]' '$') -eq 1 ]]",
    "echo $(( $(printf 'a[%s(touch p)]' '$') ))",
    "(( $(printf 'a[%s(touch p)]' '$') ))",
    '[[ $(cat a.txt) -eq 1 ]]', 'read x < a.txt; [[ x -eq 1 ]]', 'read -r x < a.txt; [[ $x -gt 0 ]]', 'x=$(head -1 a.txt); [[ $x -eq 0 ]]',
    '[[ $(<a.txt) -eq 0 ]]', 'while read n; do [[ $n -gt 3 ]] && echo big; done < a.txt', 'for n in $(cat a.txt); do [[ $n -gt 3 ]]; done',
    'x=$(cat a.txt); echo ${y:x}', 'x=$(cat a.txt); echo ${y[x]}', 'let x=$(cat a.txt)', '[[ $(wc -l a.txt) -gt 3 ]]', '[[ $HOME -eq 1 ]]',
    "sh -c '[[ $(cat a.txt) -eq 1 ]]'", 'echo $(( $(date +%Ys) ))',
    // A compound assignment reads the old value (`i += 1` evaluates i); a plain one does not, but
    // its right side is still read.
    '(( i += 1 ))', '(( j = i ))', "i='a[$(touch p)]'; (( j = i ))",
  ];
  it.each(RUNS)('%s', (command) => neverAllowed(command));
  it('a denied program visible in the text is denied', () => {
    for (const c of ["[[ $(printf 'a[%s(rm -rf victim)]' '$') -eq 1 ]]", "(( $(printf 'a[%s(rm -rf victim)]' '$') ))"]) {
      expect(check(c, [], ['Bash(rm:*)']).decision, c).toBe('deny');
      expect(check(c, ['Bash'], ['Bash(rm:*)']).decision, c).toBe('deny');
    }
  });
  it('numbers the analysis can prove stay allowed', () => {
    for (const c of ['echo $(( $(date +%s) - 1700000000 ))', 'start=$(date +%s); sleep 1; echo $(( $(date +%s) - start ))', '[[ $(wc -l < a.txt) -gt 3 ]]',
      'n=$(ls | wc -l); [[ $n -gt 3 ]]', 'for i in 1 2 3; do echo $((i*2)); done', 'for ((i=0;i<3;i++)); do echo $i; done', 'i=0; while (( i < 3 )); do (( i++ )); done',
      '[[ $# -gt 1 ]]', 'x=5; [[ $x -gt 1 ]]', 'echo ${#x}', 'echo $(( $(nproc) * 2 ))', 'x=$(git rev-list --count HEAD); echo $((x+1))', 'for i in $(seq 1 3); do echo $((i+1)); done',
      '(( i = 1 + 2 )); echo $i', 'echo $(( n = 4 ))']) {
      expect(check(c).decision, c).toBe('allow');
    }
  });
});

describe('recursive reads and Read() deny rules (second review)', () => {
  // The files below a directory cannot be listed in the pure analysis: a recursive read of a
  // directory a denied pattern may match below asks, naming the rule.
  const env = (command: string) => check(command, [], ['Read(./.env)']);
  it.each(['grep -r KEY .', 'grep -r KEY', 'grep -rh . .', 'git grep --no-index KEY', 'git grep --untracked KEY', 'git grep KEY', 'diff -rN . empty', 'git diff --no-index . empty', 'rg KEY', 'rg --hidden KEY'])(
    '%s',
    (command) => {
      const v = env(command);
      expect(v.decision).toBe('ask');
      expect(v.reason).toContain('Read(./.env)');
    },
  );
  it('`.env` matches at any depth, so a recursive read of any directory of the project may reach one', () => {
    expect(env('grep -r x src/').decision).toBe('ask');
  });
  it('an anchored rule leaves disjoint directories alone', () => {
    const secrets = (c: string) => check(c, [], ['Read(./secrets/**)']).decision;
    expect(secrets('grep -r x src/')).toBe('allow');
    // A recursive diff follows symbolic links to directories, so it may read outside: it asks.
    expect(secrets('diff -r src lib')).toBe('ask');
    expect(secrets('grep -r x .')).toBe('ask');
    expect(secrets('grep -r x secrets')).toBe('deny');
  });
  it('non-recursive reads and recursive reads without Read() rules are unchanged', () => {
    for (const c of ['grep x a.txt', 'diff a b', 'cat a.txt']) expect(env(c).decision, c).toBe('allow');
    for (const c of ['grep -r KEY .', 'git grep KEY', 'rg KEY']) expect(check(c).decision, c).toBe('allow');
  });
});

describe('questionable items of the second review', () => {
  const edit = (command: string) => check(command, [], [], 'acceptEdits').decision;
  it('acceptEdits: touch --reference reads the outside file', () => {
    for (const c of ['touch --reference=/etc/shadow x', 'touch --ref=/etc/shadow x', 'touch -r /etc/shadow x']) expect(edit(c), c).toBe('ask');
    for (const c of ['touch x', 'touch -r a.txt x']) expect(edit(c), c).toBe('allow');
  });
  it('jq $ENV split across a line is not read-only', () => {
    expect(check("jq -n '$\nENV'").decision).not.toBe('allow');
  });
});
