import { describe, expect, it } from 'vitest';
import { completeLongOption, matchLongOption, spellOptions, type OptionSyntax } from '../../src/analyses/option-spelling.js';

const sort: OptionSyntax = {
  options: [
    { names: ['-o', '--output'], arity: 'required' },
    { names: ['--compress-program'], arity: 'required' },
    { names: ['-T', '--temporary-directory'], arity: 'required' },
    { names: ['-k', '--key'], arity: 'required' },
    { names: ['-r', '--reverse'], arity: 'none' },
    { names: ['-c', '--check'], arity: 'optional' },
  ],
};

const opts = (r: ReturnType<typeof spellOptions>) => r.options.map((o) => [o.option, o.value ?? o.values, o.argIndex]);

describe('spellOptions (getopt_long style)', () => {
  it('reads separate, attached and `=` values', () => {
    expect(opts(spellOptions(['-o', 'x', 'f'], sort))).toEqual([['-o', 'x', 0]]);
    expect(opts(spellOptions(['-ox', 'f'], sort))).toEqual([['-o', 'x', 0]]);
    expect(opts(spellOptions(['--output=x', 'f'], sort))).toEqual([['-o', 'x', 0]]);
    expect(opts(spellOptions(['--output', 'x', 'f'], sort))).toEqual([['-o', 'x', 0]]);
  });
  it('splits clusters and gives the value to the value-taking letter', () => {
    const r = spellOptions(['-rfo', 'x', 'f'], sort);
    expect(r.options.map((o) => o.option)).toEqual(['-r', '-f', '-o']);
    expect(r.options[2]!.value).toBe('x');
    expect(r.options[2]!.valueIndex).toBe(1);
    expect(r.options[1]!.known).toBe(false);
    expect(r.operands).toEqual([{ value: 'f', argIndex: 2 }]);
  });
  it('completes unambiguous long prefixes', () => {
    expect(opts(spellOptions(['--out=/x'], sort))).toEqual([['-o', '/x', 0]]);
    expect(opts(spellOptions(['--compress', 'sh', 'f'], sort))).toEqual([['--compress-program', 'sh', 0]]);
    expect(spellOptions(['--out=/x'], sort).options[0]!.spelled).toBe('--out');
  });
  it('reports every reading of an ambiguous prefix', () => {
    expect(spellOptions(['--c=sh'], sort).options.map((o) => o.option).sort()).toEqual(['--compress-program', '-c']);
    expect(matchLongOption('--c', sort.options).kind).toBe('ambiguous');
    expect(completeLongOption('--rev', sort.options)).toEqual(['-r']);
  });
  it('prefixes are exact-only when the parser does not complete them', () => {
    expect(spellOptions(['--out=/x'], { ...sort, longPrefixes: false }).options[0]!.known).toBe(false);
  });
  it('optional values are only attached', () => {
    expect(opts(spellOptions(['-c', 'f'], sort))).toEqual([['-c', undefined, 0]]);
    expect(opts(spellOptions(['--check=quiet'], sort))).toEqual([['-c', 'quiet', 0]]);
  });
  it('`--` ends the options; options after operands still count (permutation)', () => {
    expect(spellOptions(['--', '-o', 'x'], sort).options).toEqual([]);
    expect(opts(spellOptions(['f', '-o', 'x'], sort))).toEqual([['-o', 'x', 1]]);
    expect(spellOptions(['f', '-o', 'x'], { ...sort, stopAtOperand: true }).rest).toBe(0);
  });
  it('marks non-static words', () => {
    const r = spellOptions(['-o', null, null], sort);
    expect(r.options[0]!.value).toBeNull();
    expect(r.dynamicOption).toBe(true);
  });
});

describe('spellOptions (other parsers)', () => {
  const find: OptionSyntax = {
    singleDashLong: true,
    options: [
      { names: ['-fprint'], arity: 'required' },
      { names: ['-exec'], arity: 'required', terminators: [';', '+'] },
      { names: ['-delete'], arity: 'none' },
    ],
  };
  it("find's primaries are whole words; -exec runs to ; or +", () => {
    const r = spellOptions(['.', '-name', 'x', '-exec', 'rm', '{}', ';', '-fprint', '/x'], find);
    expect(r.options.map((o) => o.option)).toEqual(['-name', '-exec', '-fprint']);
    expect(r.options[1]!.values).toEqual(['rm', '{}']);
    expect(r.options[2]!.value).toBe('/x');
    expect(spellOptions(['-fpr', '/x'], find).options[0]!.known).toBe(false);
  });
  it("tar's old-style first word takes values in order", () => {
    const tar: OptionSyntax = { oldStyleFirst: true, options: [{ names: ['-f', '--file'], arity: 'required' }, { names: ['-c', '--create'], arity: 'none' }, { names: ['-I', '--use-compress-program'], arity: 'required' }] };
    const r = spellOptions(['cfI', 'a.tar', 'sh', 'dir'], tar);
    expect(opts(r)).toEqual([['-c', undefined, 0], ['-f', 'a.tar', 0], ['-I', 'sh', 0]]);
    expect(r.operands).toEqual([{ value: 'dir', argIndex: 3 }]);
  });
  it("dd's assignment operands", () => {
    const dd: OptionSyntax = { options: [{ names: ['of='], arity: 'required' }, { names: ['if='], arity: 'required' }] };
    expect(opts(spellOptions(['if=/dev/zero', 'of=/x', 'bs=1'], dd))).toEqual([['if=', '/dev/zero', 0], ['of=', '/x', 1]]);
  });
  it('a whole word naming an option wins over a cluster', () => {
    const s: OptionSyntax = { options: [{ names: ['-cmd'], arity: 'required' }, { names: ['-c'], arity: 'none' }] };
    expect(opts(spellOptions(['-cmd', 'x'], s))).toEqual([['-cmd', 'x', 0]]);
  });
});
