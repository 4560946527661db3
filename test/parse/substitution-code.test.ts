import { describe, expect, it } from 'vitest';
import { backquoteCode, hiddenSubstitutions } from '../../src/parse/substitution-code.js';
import { parse } from '../helpers.js';

describe('backquote bodies as bash parses them', () => {
  it('removes the backslash before $, ` and \\ (and " inside double quotes)', () => {
    expect(backquoteCode('`echo \\`rm x\\``', false)).toBe('echo `rm x`');
    expect(backquoteCode('`echo \\$(rm x)`', false)).toBe('echo $(rm x)');
    expect(backquoteCode('`echo \\\\$HOME`', false)).toBe('echo \\$HOME');
    expect(backquoteCode('`echo \\"q\\"`', true)).toBe('echo "q"');
    expect(backquoteCode('`echo \\"q\\"`', false)).toBeUndefined();
    expect(backquoteCode('`ls -l`', false)).toBeUndefined();
  });
});

describe('substitutions hidden from the parser', () => {
  it('joins backslash-newline and finds $(…) and backquotes', () => {
    const found = hiddenSubstitutions('a $\\\n(rm x) `echo \\`b\\`` \\$(no) $((1+$(c)))', false, () => false);
    expect(found.map((f) => f.text)).toEqual(['rm x', 'echo `b`', 'c']);
  });
  it('the views record them: nested backquotes, heredoc bodies, continued lines', async () => {
    const p = await parse('echo `echo \\`rm v\\``; echo "$\\\n(rm w)"');
    expect(p.substitutionCode?.map((s) => [s.text, s.via])).toEqual([['echo `rm v`', 'backquote'], ['rm w', 'continued line']]);
    const h = await parse('cat <<$x\n$(rm a) `rm b`\n$x');
    expect(h.commands[0]!.redirects[0]!.heredoc!.hidden?.map((s) => s.text)).toEqual(['rm a', 'rm b']);
    const plain = await parse('cat <<E\n$(ls)\nE');
    expect(plain.commands[0]!.redirects[0]!.heredoc!.hidden).toBeUndefined();
  });
  it('a double-quoted word with a continued `$` is not a fixed value', async () => {
    const p = await parse('rm "$\\\nHOME" "a\\\nb"');
    expect(p.commands[0]!.args.map((a) => a.value)).toEqual([undefined, 'ab']);
  });
});
