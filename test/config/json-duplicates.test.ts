import { describe, expect, it } from 'vitest';
import { findDuplicateKey } from '../../src/config/json-locate.js';

describe('findDuplicateKey', () => {
  it('finds a duplicate key with its path and line', () => {
    expect(findDuplicateKey('{\n  "permissions": {\n    "deny": ["Bash(rm:*)"],\n    "deny": []\n  }\n}')).toEqual({ path: ['permissions', 'deny'], line: 4, column: 5 });
    expect(findDuplicateKey('{"a":1,"a":2}')).toMatchObject({ path: ['a'], line: 1 });
    expect(findDuplicateKey('[{"x":[1,{"k":1,"k":2}]}]')).toMatchObject({ path: [0, 'x', 1, 'k'] });
  });
  it('keys in different objects are not duplicates', () => {
    expect(findDuplicateKey('{"a":{"b":1},"c":{"b":2},"d":[{"b":1},{"b":2}]}')).toBeUndefined();
    expect(findDuplicateKey('{"a":"{\\"a\\":1}","b":"a"}')).toBeUndefined();
    expect(findDuplicateKey('{}')).toBeUndefined();
  });
  it('never throws on bad input and handles deep nesting', () => {
    for (const bad of ['', '{', '{"a":', '[1,', '{"a" 1}', 'nul', '"x']) expect(() => findDuplicateKey(bad)).not.toThrow();
    expect(findDuplicateKey('['.repeat(100_000) + ']'.repeat(100_000))).toBeUndefined();
  });
});
