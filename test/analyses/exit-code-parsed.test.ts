/**
 * The parse-based side of src/analyses/exit-code.ts (used by sandboxed runs): the table by kind,
 * and which command decides, from the parse (src/parse/last-command.ts). The text-based side
 * (`interpretExitCode`) is tested in exit-code.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { EXIT_ONE_NOT_ERROR, exitCommandName, exitMeaning, interpretExitCode } from '../../src/analyses/exit-code.js';
import { lastCommandOf, type LastCommand } from '../../src/parse/last-command.js';
import { initParser, parseBash } from '../../src/parse/parser.js';

async function last(text: string): Promise<LastCommand> {
  const tree = parseBash(await initParser(), text);
  if (!tree) throw new Error('parse timed out');
  try {
    return lastCommandOf(tree);
  } finally {
    tree.delete();
  }
}

describe('exit-code table by kind (claude-code-reference.md §3.6)', () => {
  it.each([
    ['grep', 'no-match', 'No matches found'],
    ['rg', 'no-match', 'No matches found'],
    ['find', 'some-inaccessible', 'Some directories were inaccessible'],
    ['diff', 'files-differ', 'Files differ'],
    ['test', 'condition-false', 'Condition is false'],
    ['[', 'condition-false', 'Condition is false'],
  ])('%s: 0 success, 1 %s (not an error), 2 error', (cmd, kind, message) => {
    expect(exitMeaning(cmd, 0)).toEqual({ exitCode: 0, kind: 'success', isError: false, message: '', command: cmd });
    expect(exitMeaning(cmd, 1)).toEqual({ exitCode: 1, kind, isError: false, message, command: cmd });
    expect(exitMeaning(cmd, 2)).toMatchObject({ kind: 'error', isError: true, message: 'Command failed with exit code 2' });
    expect(exitMeaning(cmd, 137)).toMatchObject({ kind: 'error', isError: true });
  });

  it('has exactly the six commands of the table, each with a benign kind', () => {
    expect(Object.keys(EXIT_ONE_NOT_ERROR).sort()).toEqual(['[', 'diff', 'find', 'grep', 'rg', 'test']);
    for (const v of Object.values(EXIT_ONE_NOT_ERROR)) expect(v.kind).not.toBe('error');
  });

  it.each([['ls'], ['[['], ['cat'], [undefined], ['constructor'], ['__proto__'], ['toString']])('%s: any non-zero status is an error', (cmd) => {
    expect(exitMeaning(cmd, 1)).toEqual({ exitCode: 1, kind: 'error', isError: true, message: 'Command failed with exit code 1', command: cmd });
    expect(exitMeaning(cmd, 0).kind).toBe('success');
  });

  it('the text-based interpretation does not look names up on Object.prototype either', () => {
    for (const t of ['constructor', '__proto__', 'toString']) expect(interpretExitCode(`${t} x`, 1).isError).toBe(true);
  });
});

describe('which command decides, from the parse (the last of the last pipeline or list)', () => {
  it.each([
    ['grep x f', 'grep'],
    ['cat f | grep x', 'grep'],
    ['grep x f | wc -l', 'wc'],
    ['cd d && grep -r x .', 'grep'],
    ['grep x f && echo found', 'echo'],
    ['grep x f || true', 'true'],
    ['ls; diff a b', 'diff'],
    ['cat f | grep x > out 2>&1', 'grep'],
    ['/usr/bin/grep x f', 'grep'],
    ['LC_ALL=C grep x f', 'grep'],
    ['sudo grep x f', 'sudo'],
    ['test -f x', 'test'],
    ['[ -f x ]', '['],
    ['ls && [ -d x ]', '['],
    ['[[ -f x ]]', '[['],
    ['grep x $(find . -name y)', 'grep'],
    ["echo 'a; b' ; diff a b", 'diff'],
    ['grep x f # comment', 'grep'],
    ['grep x f\n# trailing comment\n', 'grep'],
  ])('%j → %s', async (text, name) => {
    expect(exitCommandName(await last(text))).toBe(name);
  });

  it.each([
    ['! grep x f', 'negated_command'],
    ['(grep x f)', 'subshell'],
    ['if true; then grep x; fi', 'if_statement'],
    ['{ grep x f; }', 'compound_statement'],
    ['f() { grep x; }', 'function_definition'],
  ])('%j uses the default table (%s)', async (text, type) => {
    const l = await last(text);
    expect(l).toEqual({ kind: 'other', type });
    expect(exitCommandName(l)).toBeUndefined();
  });

  it('has no command for an empty unit, a dynamic name, or redirections only', async () => {
    expect(await last('')).toEqual({ kind: 'empty' });
    expect(await last('# only a comment')).toEqual({ kind: 'empty' });
    expect(exitCommandName(await last('$CMD x'))).toBeUndefined();
    expect(exitCommandName(await last('> out'))).toBeUndefined();
  });

  it('handles a long list', async () => {
    const text = Array.from({ length: 5000 }, () => 'true').join(' && ') + ' && grep x f';
    expect(exitCommandName(await last(text))).toBe('grep');
  });
});
