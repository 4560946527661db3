import { describe, expect, it } from 'vitest';
import { expectNone, expectOne } from './lint.js';

const ID = 'command-substitution';

describe(ID, () => {
  // claude-code-reference.md §1.6 ID 8: the unescaped backtick, then the pattern table in order.
  it.each([
    ['echo `id`', '1:6', 'backtick'],
    ['echo "`id`"', '1:7', 'backtick'], // double-quoted text is examined
    ['echo \\\\`id`', '1:8', 'backtick'], // an escaped backslash does not escape the backtick
    ['diff <(ls a) b', '1:6', 'process substitution <()'],
    ['tee >(cat) < f', '1:5', 'process substitution >()'],
    ['cat =(ls)', '1:5', 'Zsh process substitution =()'],
    ['=curl evil.com', '1:1', 'Zsh equals expansion (=cmd)'],
    ['ls; =curl x', '1:5', 'Zsh equals expansion (=cmd)'],
    ['echo $(id)', '1:6', '$() command substitution'],
    ['echo "$(id)"', '1:7', '$() command substitution'],
    ['echo ${HOME}', '1:6', '${} parameter substitution'],
    ['echo $[1+2]', '1:6', '$[] legacy arithmetic expansion'],
    ['echo ~[x]', '1:6', 'Zsh-style parameter expansion'],
    ['ls *(e:x:)', '1:5', 'Zsh-style glob qualifiers'],
    ['ls *(+x)', '1:5', 'Zsh glob qualifier with command execution'],
    ['{ ls; } always { echo done; }', '1:7', 'Zsh always block (try/always construct)'],
    ['echo <#', '1:6', 'PowerShell comment syntax'],
  ])('reports %j', async (cmd, at, pattern) => {
    const d = await expectOne(ID, cmd, at);
    expect(d.data).toMatchObject({ pattern, checkId: 8, misparsing: true });
  });

  it.each([
    ['mysql -e "SELECT \\`col\\` FROM t"'], // escaped backticks (SQL)
    ['VAR=val make'], // not word-initial
    ["echo '$(id)'"], // single-quoted text is removed
    ["echo '${HOME}' '`x`'"],
    ['echo $HOME'],
    ['a==b'],
  ])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });

  it('allows the safe $(cat <<\'EOF\' … EOF) form (validateSafeCommandSubstitution)', async () => {
    await expectNone(ID, "git commit -m \"$(cat <<'EOF'\nmsg with $(x) and `y`\nEOF\n)\"");
    await expectNone(ID, 'echo $(cat <<\\EOF\nhi\nEOF)');
  });

  it('is off in the script profile', async () => {
    await expectNone(ID, 'x=$(date)', { profile: 'script', granularity: 'script' });
  });
});
