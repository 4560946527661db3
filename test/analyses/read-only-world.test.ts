/**
 * The read-only world agents live in, end to end through `verdictFor` with no permission rules:
 * listing modes, git plumbing, syntax checks, system and package queries are allowed; the
 * options beside them that read files the path check cannot see, run programs or write are not;
 * a file operand is never read as sed flags.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../../src/lint.js';
import { verdictFor } from '../../src/verdict.js';

let cwd: string;
let linter: Linter;
beforeAll(async () => {
  cwd = realpathSync(mkdtempSync(join(tmpdir(), 'sw-ro-world-')));
  linter = await Linter.create({ pathHost: { home: '/home/nobody' } });
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

const decision = (command: string): string => verdictFor(command, { cwd }, linter).decision;

describe('read-only without rules', () => {
  it.each([
    'sed -n p a-web/x.md',
    "sed -n '1,40p' src/re-ewrite.ts",
    'rg --files',
    "rg --files -g '*.ts' src",
    "rg -n --smart-case --count-matches 'TODO' src",
    'git status --porcelain=v1',
    'git ls-tree -r --name-only HEAD',
    'git check-ignore -v dist',
    'git show-ref --tags',
    'git --version',
    'git cat-file -p HEAD',
    'git rev-parse --show-toplevel',
    'bash -n scripts/build.sh',
    'sh -n install.sh',
    'python -V',
    'python3 --version',
    'node --version',
    'uname -a',
    'dpkg -l',
    'dpkg-query -W bash',
    'wc -l README.md',
    'du -sh src',
  ])('allows %s', (command) => {
    expect(decision(command)).toBe('allow');
  });

  it.each([
    ['wc --files0-from=list0.bin', 'reads the files a list names'],
    ['wc -l --files0-from list0.bin', 'reads the files a list names'],
    ['du --files0-from=list', 'reads the files a list names'],
    ['rg --pre ./run foo', 'runs a preprocessor'],
    ['rg --hostname-bin ./run foo', 'runs a program'],
    ['bash scripts/build.sh', 'runs the script'],
    ['bash -n -i build.sh', 'interactive bash ignores -n'],
    ['sort -o out.txt in.txt', 'writes'],
    ['find . -fprint out.txt', 'writes'],
    ['npm ls', 'npm writes log files'],
    ['sed -n p -we', 'an option word with -w and e'],
  ])('does not allow %s (%s)', (command) => {
    expect(decision(command)).not.toBe('allow');
  });
});
