import { describe, expect, it } from 'vitest';
import { parse } from '../helpers.js';

const changes = async (src: string) => {
  const v = (await parse(src)).variableChanges!;
  return { assigns: Object.fromEntries(v.assigns), other: [...v.other].sort(), defaults: v.defaults.map((d) => d.text), descriptors: v.descriptors.map((d) => d.text), arithmetic: v.arithmetic.map((a) => a.text) };
};

describe('variable changes recorded by the parse walk', () => {
  it('counts every assignment node, element assignments under the array name', async () => {
    expect((await changes('x=1; a[2]=3 cmd; export y=2; x+=4')).assigns).toEqual({ x: 2, a: 1, y: 1 });
  });
  it('records loops, coprocesses, unset operands and arithmetic', async () => {
    const c = await changes('for f in a; do :; done; select s in a; do :; done; coproc CP { cat; }; unset -v u; command unset w; (( PATH=1, i++ )); for ((j=0;j<3;j++)); do :; done');
    expect(c.other).toEqual(expect.arrayContaining(['f', 's', 'CP', 'u', 'w', 'PATH', 'i', 'j']));
    expect(c.arithmetic).toEqual(['PATH=', 'i++', 'j=', 'j++']);
  });
  it('records ${x:=…} and {x}> from the tree and from quoted text bash may run later', async () => {
    const c = await changes("echo ${x:=1} \"${y=2}\"; eval ': ${z:=3}'; exec {fd}>f");
    expect(c.defaults).toEqual(['${x:=', '${y=', '${z:=']);
    expect(c.descriptors).toEqual(['{fd}']);
    expect(c.other).toEqual(['fd', 'x', 'y', 'z']);
  });
  it('scans strings (eval, trap), [[ ]] operands and subscripts, never comments', async () => {
    const c = await changes("eval 'q=1; for k in 1; do :; done'; trap 'r=2' DEBUG; [[ IFS=1 -eq 1 ]]; echo ${a[GLOBIGNORE=1]} # n=1 for m in x");
    expect(c.assigns).toMatchObject({ q: 1, r: 1 });
    expect(c.other).toEqual(expect.arrayContaining(['k', 'IFS', 'GLOBIGNORE']));
    expect(c.arithmetic).toEqual(['IFS=', 'GLOBIGNORE=']);
    expect(c.assigns.n).toBeUndefined();
    expect(c.other).not.toContain('m');
  });
  it('falls back to the whole text when the tree has a syntax error', async () => {
    expect((await changes('echo ${s:j=1:2}')).assigns).toEqual({ j: 1 });
  });
});
