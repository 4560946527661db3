/**
 * Env assignments before a command: those that load no code (rules/commands/environment.json and
 * Claude Code's safe list) do not stop allow rules or the read-only auto-allow; the known
 * code-loading ones and every unknown name do.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import table from '../../rules/commands/environment.json' with { type: 'json' };
import permissions from '../../rules/permissions.json' with { type: 'json' };
import { Linter } from '../../src/lint.js';
import { classifyAssignment, codeLoadingVariable } from '../../src/model/environment.js';
import { verdictFor, type PermissionRules } from '../../src/verdict.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create();
});
const decision = (command: string, permissionRules: PermissionRules = {}): string => verdictFor(command, { cwd: '/work/proj', permissions: permissionRules }, linter).decision;

describe('classifyAssignment', () => {
  it('classifies by name and, where the table says so, by value', () => {
    expect(classifyAssignment('AWS_PROFILE', 'dev')).toBe('harmless');
    expect(classifyAssignment('NODE_ENV', 'production')).toBe('harmless');
    expect(classifyAssignment('TZ', 'UTC')).toBe('harmless');
    expect(classifyAssignment('CFLAGS', '-O2 -g')).toBe('prefix-only');
    expect(classifyAssignment('PAGER', 'cat')).toBe('harmless');
    expect(classifyAssignment('PAGER', 'less')).toBe('code');
    expect(classifyAssignment('AWS_PROFILE', undefined)).toBe('unknown');
    expect(classifyAssignment('RIPGREP_CONFIG_PATH', '/tmp/x')).toBe('unknown');
    for (const n of ['LD_PRELOAD', 'LD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'GIT_SSH_COMMAND', 'GIT_EXEC_PATH', 'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_KEY_0', 'GIT_EDITOR', 'EDITOR', 'NODE_OPTIONS', 'PYTHONPATH', 'PYTHONSTARTUP', 'PERL5OPT', 'RUBYOPT', 'PATH']) {
      expect(classifyAssignment(n, 'x'), n).toBe('code');
      expect(codeLoadingVariable(n), n).toBe(true);
    }
  });
  it('lists no name that the code-loading list also covers, except with restricted values', () => {
    const code = (permissions as { codeLoadingEnvVars: string[] }).codeLoadingEnvVars;
    for (const g of (table as { harmless: { names: string[]; values?: string[] }[] }).harmless) {
      if (g.values !== undefined) continue;
      for (const n of g.names) expect(code.some((p) => (p.endsWith('*') ? n.startsWith(p.slice(0, -1)) : p === n)), n).toBe(false);
    }
  });
});

describe('decisions', () => {
  it('harmless assignments keep read-only commands allowed', () => {
    for (const c of ['AWS_PROFILE=dev ls', 'CFLAGS="-O2 -g" wc -l x', 'NODE_ENV=production cat package.json', 'TZ=UTC ls -la', 'PAGER=cat git log -1', 'GIT_PAGER= git log']) expect(decision(c), c).toBe('allow');
  });
  it('code-loading and unknown assignments stop them', () => {
    for (const c of ['LD_PRELOAD=x.so ls', 'GIT_SSH_COMMAND=x git status', 'GIT_EXEC_PATH=/tmp git status', 'PAGER=less git log', 'BASH_ENV=x ls', 'NODE_OPTIONS=--require=x cat f', 'FOO=bar ls', 'RIPGREP_CONFIG_PATH=/tmp/x rg foo', 'AWS_PROFILE=$X ls']) {
      expect(decision(c), c).toBe('ask');
    }
  });
  it('allow rules see past harmless assignments; build flags only for prefix rules', () => {
    expect(decision('AWS_PROFILE=dev aws s3 ls', { allow: ['Bash(aws s3 ls:*)'] })).toBe('allow');
    expect(decision('CFLAGS=-O2 make', { allow: ['Bash(make:*)'] })).toBe('allow');
    expect(decision('CFLAGS=-fplugin=/tmp/x.so make', { allow: ['Bash(make)'] })).toBe('ask');
    expect(decision('LD_PRELOAD=/tmp/x.so make', { allow: ['Bash(make:*)'] })).toBe('ask');
    expect(decision('GIT_CONFIG_GLOBAL=/tmp/c git fetch', { allow: ['Bash(git fetch:*)'] })).toBe('ask');
    expect(decision('FOO=1 make', { allow: ['Bash(make:*)'] })).toBe('ask');
  });
});
