/** permission-rules: policy-deny and policy-ask findings in scripts and agent commands. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../../src/core/types.js';
import { finishFile, Linter } from '../../../src/lint.js';
import { policyFrom, type PermissionLists } from '../../../src/rules/policy.js';
import { IdentityMap } from '../../../src/core/source-map.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create();
});

function lint(text: string, lists: PermissionLists, granularity: 'script' | 'command', profile: Profile = 'agent') {
  const unit = { text, hostText: text, dialect: 'bash' as const, granularity, profile, origin: { file: 'x.sh', kind: granularity === 'script' ? ('script' as const) : ('command' as const) }, sourceMap: new IdentityMap() };
  return finishFile(text, linter.lintUnit(unit, policyFrom(lists, '.claude/settings.json'))).filter((d) => d.ruleId.startsWith('policy-'));
}

describe('policy-deny', () => {
  it('reports every denied simple command of a script at its position, naming rule and file', () => {
    const ds = lint('#!/bin/sh\necho ok\ncurl -o x https://a\nfor u in a b; do /usr/bin/curl "$u"; done\n', { deny: ['Bash(curl:*)'] }, 'script', 'script');
    expect(ds.map((d) => [d.ruleId, d.severity, d.range.start.line, d.range.start.column])).toEqual([
      ['policy-deny', 'error', 3, 1],
      ['policy-deny', 'error', 4, 18],
    ]);
    expect(ds[0]!.message).toBe('Denied by rule `Bash(curl:*)` (.claude/settings.json permissions.deny[0]).');
    expect(ds[0]!.data).toEqual({ rule: 'Bash(curl:*)', behavior: 'deny', file: '.claude/settings.json', path: 'permissions.deny[0]' });
  });

  it('reports an exact deny of a whole agent command', () => {
    expect(lint('make && make install', { deny: ['Bash(make && make install)'] }, 'command').map((d) => d.ruleId)).toEqual(['policy-deny']);
  });

  it('is silent without rules and for allowed commands', () => {
    expect(lint('curl x', {}, 'command')).toEqual([]);
    expect(lint('git status', { allow: ['Bash(git status)'], deny: ['Bash(curl:*)'] }, 'command')).toEqual([]);
  });
});

describe('policy-ask', () => {
  it('reports ask rules, structural asks and unallowed commands (with suggestions) of an agent command', () => {
    const lists = { allow: ['Bash(cd:*)', 'Bash(git status)'], ask: ['Bash(git push:*)'] };
    expect(lint('git push', lists, 'command')[0]!.message).toBe('Rule `Bash(git push:*)` (.claude/settings.json permissions.ask[0]) asks for approval.');
    expect(lint('cd a && git status', lists, 'command')[0]!.data).toEqual({ reason: 'cd-git' });
    // Two cds are followed in order now: allowed by Bash(cd:*), nothing reported.
    expect(lint('cd a && cd b', lists, 'command')).toEqual([]);
    const none = lint('npm run build && git status', lists, 'command');
    expect(none[0]!.message).toBe('No allow rule covers this command. Suggested rule: `Bash(npm run:*)`.');
    expect(none[0]!.range.start).toEqual({ line: 1, column: 1 });
  });

  it('does not repeat asks that other checks report (parse complexity), and is off in the script profile', () => {
    expect(lint('echo $(date)', { allow: ['Bash(echo:*)'] }, 'command')).toEqual([]);
    expect(lint('git push\n', { ask: ['Bash(git push:*)'] }, 'script', 'script')).toEqual([]);
    expect(lint('git push\n', { ask: ['Bash(git push:*)'] }, 'script', 'agent').map((d) => d.ruleId)).toEqual(['policy-ask']);
  });
});
