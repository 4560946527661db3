import { describe, expect, it } from 'vitest';
import { decodeAnsiC, hasUnquotedGlob } from '../../src/parse/words.js';
import { parse } from '../helpers.js';

async function argv(src: string): Promise<(string | undefined)[]> {
  const p = await parse(src);
  const c = p.commands[0]!;
  return [c.name?.value, ...c.args.map((a) => a.value)];
}

describe('word resolution', () => {
  it('removes quotes and escapes where the value is static', async () => {
    expect(await argv(`echo 'a b' "c d" e\\ f $'g\\th' "x\\"y" 'it'"'"'s'`)).toEqual(['echo', 'a b', 'c d', 'e f', 'g\th', 'x"y', "it's"]);
  });
  it('leaves expansions dynamic', async () => {
    expect(await argv('echo $HOME "$x" $(date) `id` ${y:-z}')).toEqual(['echo', undefined, undefined, undefined, undefined, undefined]);
  });
  it('describes parameter parts and their guards', async () => {
    const p = await parse('rm -rf "$d/" "${d:?}/" ${#x}');
    const [, a, b, c] = p.commands[0]!.args;
    expect(a!.parts[0]).toMatchObject({ kind: 'parameter', name: 'd', guarded: false, quoted: true });
    expect(b!.parts[0]).toMatchObject({ kind: 'parameter', name: 'd', guarded: true });
    expect(c!.parts[0]).toMatchObject({ kind: 'parameter', guarded: true });
  });
  it('tells quoted from unquoted globs', async () => {
    const p = await parse(`ls *.txt '*.md' "a?" b\\*`);
    expect(p.commands[0]!.args.map(hasUnquotedGlob)).toEqual([true, false, false, false]);
  });
  it('keeps a wildcard beside an escaped character a wildcard (`\\-*` is every name starting with `-`)', async () => {
    const p = await parse(`sort \\-* a\\ b* \\-\\* x\\?y \\rm`);
    const [dash, spaced, inert, inert2] = p.commands[0]!.args;
    expect(p.commands[0]!.args.map(hasUnquotedGlob)).toEqual([true, true, false, false, false]);
    expect(dash!.value).toBe('-*');
    expect(dash!.parts).toEqual([{ kind: 'literal', value: '-', quoted: true }, { kind: 'literal', value: '*', quoted: false }]);
    expect(spaced!.value).toBe('a b*');
    expect(inert!.value).toBe('-*');
    expect(inert2!.value).toBe('x?y');
  });
  it('decodes ANSI-C escapes', () => {
    expect(decodeAnsiC('a\\x41\\101\\u00e9\\cA\\q')).toBe('aAAé\x01\\q');
  });
});
