import { describe, expect, it } from 'vitest';
import { deepNesting, MAX_BRACE_DEPTH, MAX_OPEN_CONDITIONALS, MAX_SUBSTITUTION_DEPTH } from '../../src/parse/nesting-pressure.js';

describe('deepNesting', () => {
  it('lets ordinary nesting through', () => {
    expect(deepNesting('echo "$(basename "${x:-$(pwd)}")"; [[ -n $a ]] && [[ $b == c ]]')).toBeUndefined();
    // Closed substitutions and conditionals, however many, never add up.
    expect(deepNesting('echo ${a}$(b)\n'.repeat(10_000))).toBeUndefined();
    expect(deepNesting('[[ -f x ]] && echo\n'.repeat(10_000))).toBeUndefined();
    // Character classes and array subscripts are not conditionals.
    expect(deepNesting("tr -d '[[:space:]]' <f; x=${a[b[1]]}\n".repeat(1_000))).toBeUndefined();
    expect(deepNesting(`${'$('.repeat(MAX_SUBSTITUTION_DEPTH)}${')'.repeat(MAX_SUBSTITUTION_DEPTH)}`)).toBeUndefined();
  });

  it('finds substitutions nested past the limit, from the opener that passed it to the end of its line', () => {
    const text = `echo ok\n${'${'.repeat(MAX_SUBSTITUTION_DEPTH + 5)}\nmore`;
    const at = 'echo ok\n'.length + 2 * MAX_SUBSTITUTION_DEPTH;
    expect(deepNesting(text)).toEqual({ construct: 'substitution', span: { start: at, end: text.indexOf('\nmore') } });
    expect(deepNesting('$('.repeat(MAX_SUBSTITUTION_DEPTH + 1))?.construct).toBe('substitution');
  });

  it('finds more open [[ than the limit', () => {
    const text = '[[ '.repeat(MAX_OPEN_CONDITIONALS + 1);
    expect(deepNesting(text)).toEqual({ construct: 'conditional', span: { start: 3 * MAX_OPEN_CONDITIONALS, end: text.length } });
    expect(deepNesting('[[ '.repeat(MAX_OPEN_CONDITIONALS))).toBeUndefined();
  });

  it('finds braces nested past the limit (brace lists, groups, `${`), and lets closed ones through', () => {
    const text = `cat ${'{a,'.repeat(MAX_BRACE_DEPTH + 1)}${'}'.repeat(MAX_BRACE_DEPTH + 1)}\n`;
    expect(deepNesting(text)).toEqual({ construct: 'brace', span: { start: 4 + 3 * MAX_BRACE_DEPTH, end: text.length - 1 } });
    expect(deepNesting(`cat ${'{a,'.repeat(MAX_BRACE_DEPTH)}${'}'.repeat(MAX_BRACE_DEPTH)}`)).toBeUndefined();
    // A `${` opens a brace too: half brace lists, half parameter expansions.
    const mixed = `echo ${'{a,${b:-'.repeat(MAX_BRACE_DEPTH / 2)}{`;
    expect(deepNesting(mixed)?.construct).toBe('brace');
    expect(deepNesting('f() { { echo {a,b}; }; }\n'.repeat(10_000))).toBeUndefined();
  });
});
