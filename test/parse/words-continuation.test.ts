/**
 * Word values where tree-sitter-bash splits what bash reads as one word: a backslash-newline
 * inside a word (bash removes it before splitting words) and a locale string `$"…"` inside a
 * word (bash drops the `$` in the C locale). Each expected value is what bash 5.2 passed to
 * `printf '[%s]'` for the same text.
 */
import { describe, expect, it } from 'vitest';
import { adjoins } from '../../src/parse/words.js';
import { parse } from '../helpers.js';

async function argv(src: string): Promise<(string | undefined)[]> {
  const p = await parse(src);
  const c = p.commands[0]!;
  return [c.name?.value, ...c.args.map((a) => a.value)];
}

describe('backslash-newline inside a word', () => {
  it('joins the pieces of an argument', async () => {
    expect(await argv('find . -de\\\nlete')).toEqual(['find', '.', '-delete']);
    expect(await argv('git grep -\\\nO"rm v" x')).toEqual(['git', 'grep', '-Orm v', 'x']);
    expect(await argv('git diff --out\\\nput=/x')).toEqual(['git', 'diff', '--output=/x']);
    expect(await argv('find . -ex\\\nec rm {} +')).toEqual(['find', '.', '-exec', 'rm', '{}', '+']);
  });
  it('joins a command name with its tail, and ends the word at a blank after the pair', async () => {
    expect(await argv('r\\\nm\\\n x')).toEqual(['rm', 'x']);
    expect(await argv('echo a \\\nb')).toEqual(['echo', 'a', 'b']);
  });
  it('joins a redirection target and an assignment value', async () => {
    const p = await parse('x=a\\\nb cat >fi\\\nle');
    const c = p.commands[0]!;
    expect(c.assignments[0]!.value?.value).toBe('ab');
    expect(c.redirects[0]!.target?.value).toBe('file');
  });
  it('adjoins: only backslash-newline pairs between two offsets', () => {
    const s = 'a\\\n\\\nb c\\ d';
    expect(adjoins(s, 1, 5)).toBe(true);
    expect(adjoins(s, 1, 1)).toBe(true);
    expect(adjoins(s, 1, 3)).toBe(true);
    expect(adjoins(s, 6, 7)).toBe(false);
    expect(adjoins(s, 8, 10)).toBe(false);
    expect(adjoins(s, 2, 1)).toBe(false);
  });
});

describe('a locale string $"…" inside a word', () => {
  it('is its text without the `$`', async () => {
    expect(await argv('r$""m v')).toEqual(['rm', 'v']);
    expect(await argv('r$"m" v')).toEqual(['rm', 'v']);
    expect(await argv('cu$"r"l x')).toEqual(['curl', 'x']);
    expect(await argv('git p$""ush')).toEqual(['git', 'push']);
    expect(await argv('a$"b"$"c"')).toEqual(['abc']);
  });
  it('in an option word the parser splits at the `$`', async () => {
    expect(await argv('find . -de$""lete')).toEqual(['find', '.', '-delete']);
    expect(await argv('find . -$"delete"')).toEqual(['find', '.', '-delete']);
    expect(await argv('git grep -O$"rm v2" x')).toEqual(['git', 'grep', '-Orm v2', 'x']);
    expect(await argv(`git grep -$""O'rm x' x`)).toEqual(['git', 'grep', '-Orm x', 'x']);
    expect(await argv('find . -ex$""ec rm {} +')).toEqual(['find', '.', '-exec', 'rm', '{}', '+']);
    expect(await argv('echo $"a"$"b"')).toEqual(['echo', 'ab']);
  });
  it('keeps a `$` that starts no string', async () => {
    expect(await argv('echo x$')).toEqual(['echo', 'x$']);
    expect(await argv('echo "$"')).toEqual(['echo', '$']);
  });
});
