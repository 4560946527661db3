import { describe, expect, it } from 'vitest';
import { interpretExitCode, splitSubcommands } from '../../src/analyses/exit-code.js';

describe('exit-code semantics (claude-code-reference.md §3.6)', () => {
  it.each(['grep x f', 'rg x', 'find . -name y', 'diff a b', 'test -f x', '[ -f x ]'])('%s: exit 1 is not an error, exit 2 is', (cmd) => {
    expect(interpretExitCode(cmd, 1).isError).toBe(false);
    expect(interpretExitCode(cmd, 2).isError).toBe(true);
    expect(interpretExitCode(cmd, 0)).toEqual({ isError: false, command: cmd.split(' ')[0] });
  });
  it('any other command fails on any non-zero exit', () => {
    expect(interpretExitCode('npm test', 1)).toEqual({ isError: true, message: 'Command failed with exit code 1', command: 'npm' });
  });
  it('the last subcommand of a list or pipeline decides', () => {
    expect(interpretExitCode('npm test | grep FAIL', 1).isError).toBe(false);
    expect(interpretExitCode('grep x f && npm test', 1).isError).toBe(true);
    expect(interpretExitCode("echo 'a; b' ; diff a b", 1).message).toBe('Files differ');
    expect(interpretExitCode('/usr/bin/grep x', 1).isError).toBe(true);
  });
  it('splits at unquoted operators only', () => {
    expect(splitSubcommands('a && b || c; d | e & f\ng')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(splitSubcommands(`echo "x | y" 'p; q' z\\;w`)).toEqual([`echo "x | y" 'p; q' z\\;w`]);
  });
});
