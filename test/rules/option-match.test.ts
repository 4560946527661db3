import { beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../../src/lint.js';
import type { PermissionLists } from '../../src/rules/policy.js';
import { verdictFor } from '../../src/verdict.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create();
});

const decision = (command: string, permissions: PermissionLists) => verdictFor(command, { cwd: '/repo', permissions }, linter).decision;

describe('deny and ask rules match options however they are written', () => {
  const policy = { allow: ['Bash(rm:*)', 'Bash(git push:*)'], deny: ['Bash(rm -rf:*)', 'Bash(git push --force:*)'] };

  it.each([
    'rm -rf x',
    'rm -fr x',
    'rm -r -f x',
    'rm -Rf x',
    'rm --recursive --force x',
    'rm -v -R --force x',
    'sudo rm -fr x',
    '/bin/rm -f -r x',
    'git push -f origin main',
    'git push origin main --force',
    'git push -fu origin main',
  ])('%s is denied', (cmd) => {
    expect(decision(cmd, policy)).toBe('deny');
  });

  it.each(['rm -r x', 'rm -f x', 'rm x', 'rm -- -rf', 'git push origin main', 'git push --force-with-lease'])('%s is not denied by it', (cmd) => {
    // Not denied; writes still ask in default mode (path constraints, claude-code-reference.md §3.4.3), so not `allow`.
    expect(decision(cmd, policy)).not.toBe('deny');
  });

  it('applies to ask rules and subcommand words, never to allow rules', () => {
    expect(decision('git branch -D x', { ask: ['Bash(git branch -D:*)'] })).toBe('ask');
    expect(decision('git clean -xfd', { allow: ['Bash(git:*)'], ask: ['Bash(git clean -f:*)'] })).toBe('ask');
    // An allow rule still matches only as text.
    expect(decision('rm -fr x', { allow: ['Bash(rm -rf:*)'] })).toBe('ask');
  });
});

describe('deny rules see subcommands behind global options', () => {
  const policy = { allow: ['Bash(git:*)', 'Bash(kubectl:*)'], deny: ['Bash(kubectl delete:*)', 'Bash(git push:*)'] };
  it.each(['kubectl -n staging delete deployment api', 'git -C repo push origin main', 'git --no-pager push', 'git -c a=b push -f'])('%s is denied', (cmd) => {
    expect(decision(cmd, policy)).toBe('deny');
  });
  it.each(['git log --grep push', 'kubectl get pods', 'git commit -m push'])('%s is not', (cmd) => {
    expect(decision(cmd, policy)).toBe('allow');
  });
});

