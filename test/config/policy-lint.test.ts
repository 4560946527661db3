/** Linting the policy itself: 'policy-overbroad-allow' at the rule string in the JSON file. */
import { describe, expect, it } from 'vitest';
import { locateJsonValue } from '../../src/config/json-locate.js';
import { overbroadAllowFindings, overbroadReason } from '../../src/config/policy-lint.js';
import { parseRule } from '../../src/rules/parse.js';
import { policyFrom } from '../../src/rules/policy.js';

const O = { file: 's.json', path: 'permissions.allow[0]' };

describe('overbroadReason', () => {
  it.each([
    'Bash', 'Bash()', 'Bash(*)', 'Bash(bash:*)', 'Bash(sh -c:*)', 'Bash(python:*)', 'Bash(python3 *)', 'Bash(node -e:*)', 'Bash(ruby*)',
    'Bash(perl:*)', 'Bash(npx:*)', 'Bash(npm run:*)', 'Bash(yarn run *)', 'Bash(bun run:*)', 'Bash(env:*)', 'Bash(xargs:*)', 'Bash(sudo:*)',
    'Bash(eval:*)', 'Bash(exec:*)', 'Bash(ssh:*)', 'Bash(timeout:*)', 'Bash(nohup *)', 'Bash(* run *)', 'Bash(deno:*)', 'Bash(watch:*)',
  ])('%s admits arbitrary code', (rule) => {
    expect(overbroadReason(parseRule(rule, 'allow', O))).toBeDefined();
  });

  it.each(['Bash(git status)', 'Bash(git status:*)', 'Bash(python -m pytest tests:*)', 'Bash(ls:*)', 'Bash(grep:*)', 'Bash(python)', 'Read(**)', 'Bash(cat *)'])(
    '%s is not reported',
    (rule) => {
      expect(overbroadReason(parseRule(rule, 'allow', O))).toBeUndefined();
    },
  );

  it.each([
    ['Bash(git diff:*)', '--ext-diff'],
    ['Bash(git log:*)', '--textconv'],
    ['Bash(git grep:*)', '--open-files-in-pager'],
    ['Bash(git:*)', '-c'],
    ['Bash(git * main)', '-c'],
    ['Bash(sort:*)', '--compress-program'],
    ['Bash(find:*)', '-exec'],
    ['Bash(rg:*)', '--pre'],
    ['Bash(man:*)', '--pager'],
    ['Bash(tar:*)', '--to-command'],
    ['Bash(zip:*)', '--unzip-command'],
    ['Bash(vim:*)', '--cmd'],
    ['Bash(make:*)', '--eval'],
    ['Bash(npm run test:*)', '--script-shell'],
    ['Bash(go test:*)', '-exec'],
    ['Bash(go:*)', 'go run'],
    ['Bash(awk:*)', 'operands like'],
  ])('%s names its code-running option %s', (rule, option) => {
    expect(overbroadReason(parseRule(rule, 'allow', O))).toContain(option);
  });

  it('only reports allow rules', () => {
    expect(overbroadReason(parseRule('Bash(bash:*)', 'deny', O))).toBeUndefined();
  });
});

describe('locateJsonValue', () => {
  const text = '{\n  "permissions": {\n    "allow": [\n      "Bash(ls)",\n      "Bash(python:*)"\n    ],\n    "deny": []\n  },\n  "x": "\\"q"\n}\n';
  it('finds the span of a value by key path, quotes included', () => {
    const s = locateJsonValue(text, ['permissions', 'allow', 1])!;
    expect(text.slice(s.start, s.end)).toBe('"Bash(python:*)"');
    expect(locateJsonValue(text, ['permissions', 'ask'])).toBeUndefined();
    expect(text.slice(...Object.values(locateJsonValue(text, ['x'])!) as [number, number])).toBe('"\\"q"');
  });
  it('returns undefined for invalid JSON and never throws', () => {
    for (const bad of ['', '{', '{"a":', '[1,', '{"a" 1}', 'nul', '"x']) expect(locateJsonValue(bad, ['a'])).toBeUndefined();
    expect(locateJsonValue('['.repeat(10_000), [0])).toBeUndefined();
  });
});

describe('policy-overbroad-allow findings', () => {
  it('are placed at the rule string in its file, 1-based line and column', () => {
    const text = '{\n  "permissions": {\n    "allow": ["Bash(git status)", "Bash(python:*)"]\n  }\n}\n';
    const policy = policyFrom(JSON.parse(text).permissions, '.claude/settings.json');
    const found = overbroadAllowFindings(policy, new Map([['.claude/settings.json', text]]));
    const ds = found.get('.claude/settings.json')!;
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({
      ruleId: 'policy-overbroad-allow',
      severity: 'warning',
      file: '.claude/settings.json',
      range: { start: { line: 3, column: 35 }, end: { line: 3, column: 51 } },
      data: { rule: 'Bash(python:*)', path: 'permissions.allow[1]' },
    });
    expect(ds[0]!.message).toContain('`python` runs whatever code it is given');
  });

  it('follow a JSON root (package.json#shellward) and fall back to 1:1 for non-JSON files', () => {
    const pkg = '{"name":"x","shellward":{"permissions":{"allow":["Bash(node:*)"]}}}';
    const p1 = policyFrom({ allow: ['Bash(node:*)'] }, 'package.json');
    const d1 = overbroadAllowFindings(p1, new Map([['package.json', pkg]]), new Map([['package.json', ['shellward']]])).get('package.json')!;
    expect(d1[0]!.range.start).toEqual({ line: 1, column: 50 });
    const p2 = policyFrom({ allow: ['Bash'] }, 'shellward.config.yaml');
    const d2 = overbroadAllowFindings(p2, new Map([['shellward.config.yaml', '']])).get('shellward.config.yaml')!;
    expect(d2[0]!.range.start).toEqual({ line: 1, column: 1 });
  });
});
