/**
 * `Read(…)`/`Edit(…)` rules on the paths a Bash command reads and writes: deny rules deny (also
 * through `~`, `..` and inside the project), ask rules ask, a glob that may reach a denied path
 * asks, allow rules admit a known path outside the working directories.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../../src/lint.js';
import { verdictFor, type Verdict } from '../../src/verdict.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create({ pathHost: { home: '/home/u' } });
});

const CWD = '/work/proj';
const DENY = ['Read(./.env)', 'Read(~/.ssh/**)', 'Edit(//etc/**)', 'Read(secrets/**)', 'Bash(rm:*)'];
const check = (command: string, permissions: { allow?: string[]; ask?: string[]; deny?: string[] } = { deny: DENY }): Verdict =>
  verdictFor(command, { cwd: CWD, permissions: { allow: [], ask: [], deny: [], ...permissions } }, linter);

describe('Read and Edit deny rules on Bash paths', () => {
  it.each([
    ['cat .env', 'Read(./.env)'],
    ['grep KEY .env', 'Read(./.env)'],
    ['cat src/../.env', 'Read(./.env)'],
    ['cat sub/dir/.env', 'Read(./.env)'],
    ['head -n1 ~/.ssh/id_rsa', 'Read(~/.ssh/**)'],
    ['cat /home/u/.ssh/config', 'Read(~/.ssh/**)'],
    ['echo x > /etc/hosts', 'Edit(//etc/**)'],
    ['touch /etc/x', 'Edit(//etc/**)'],
    ['cat secrets/api.key', 'Read(secrets/**)'],
    ['wc -l < .env', 'Read(./.env)'],
  ])('%s is denied by %s', (command, rule) => {
    const v = check(command);
    expect(v.decision).toBe('deny');
    expect(v.reason).toContain(rule);
  });
  it.each(['cat .e*', 'cat *', 'ls secrets/*', 'cat ~/.ssh/*'])('%s, a glob that may reach a denied path, asks', (command) => {
    expect(check(command).decision).toBe('ask');
    expect(check(command, { allow: ['Bash'], deny: DENY }).decision).not.toBe('allow');
  });
  it('the deny rules hold beside allow-all', () => {
    expect(check('cat .env', { allow: ['Bash'], deny: DENY }).decision).toBe('deny');
    expect(check('cat src/a.ts', { allow: ['Bash'], deny: DENY }).decision).toBe('allow');
  });
  it('paths the rules do not name stay allowed', () => {
    for (const c of ['cat README.md', 'wc -l src/*.py', 'cat .envrc.example', 'ls', 'grep -n x src/a.ts']) expect(check(c).decision, c).toBe('allow');
  });
  it('a Read rule does not govern writes, an Edit rule not reads', () => {
    expect(check('cat /etc/hostname').reason).toMatch(/^path-constraint/);
    expect(check('cat .env', { deny: ['Edit(./.env)'] }).decision).toBe('allow');
  });
});

describe('Read and Edit ask and allow rules', () => {
  it('an ask rule asks, with the rule in the reason', () => {
    const v = check('cat key.pem', { ask: ['Read(*.pem)'] });
    expect(v.decision).toBe('ask');
    expect(v.reason).toContain('Read(*.pem)');
    expect(check('wc -l src/*.py', { ask: ['Read(*.pem)'] }).decision).toBe('allow');
  });
  it('an allow rule admits a known read outside the working directories', () => {
    expect(check('cat /usr/share/doc/bash/README', { allow: ['Read(//usr/share/doc/**)'] }).decision).toBe('allow');
    expect(check('cat /usr/share/other', { allow: ['Read(//usr/share/doc/**)'] }).decision).toBe('ask');
    // A Read rule never admits a write.
    expect(check('echo x > /usr/share/doc/x', { allow: ['Read(//usr/share/doc/**)'] }).decision).toBe('ask');
  });
});
