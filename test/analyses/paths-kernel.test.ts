/**
 * Paths as the kernel resolves them, with real symlinks in a temporary directory: a symlink is
 * followed before the `..` after it, a dangling link is judged by its target, and a path whose
 * resolution is not certain is not inside.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatePath, type PathAccess, type PathContext } from '../../src/analyses/paths.js';
import { LOCAL_PATH_HOST } from '../../src/cli/config-options.js';
import { Linter } from '../../src/lint.js';
import { verdictFor } from '../../src/verdict.js';

let root: string;
let proj: string;
let outside: string;
let ctx: PathContext;
let linter: Linter;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'shellward-kernel-')));
  proj = join(root, 'proj');
  outside = join(root, 'outside');
  mkdirSync(join(proj, 'a/b'), { recursive: true });
  mkdirSync(join(outside, 'share/doc'), { recursive: true });
  mkdirSync(join(outside, 'victimdir'));
  mkdirSync(join(proj, 'victimdir'));
  writeFileSync(join(outside, 'secret'), 'x');
  // a/b/l -> <outside>/share/doc: a/b/l/../../secret is <outside>/secret to the kernel.
  symlinkSync(join(outside, 'share/doc'), join(proj, 'a/b/l'));
  symlinkSync(join(outside, 'share/doc'), join(proj, 'l'));
  symlinkSync(join(outside, 'created-by-touch'), join(proj, 'dangling-link'));
  symlinkSync('dangling-inside-target', join(proj, 'dangling-inside'));
  symlinkSync('loop2', join(proj, 'loop1'));
  symlinkSync('loop1', join(proj, 'loop2'));
  ctx = { cwd: proj, workingDirectories: [proj], host: LOCAL_PATH_HOST };
  linter = await Linter.create({ pathHost: LOCAL_PATH_HOST });
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const access = (path: string, operation: PathAccess['operation'] = 'read'): PathAccess => ({ path, static: true, operation, source: 'argument', command: 'cat', span: { start: 0, end: 0 } });

describe('validatePath resolves as the kernel does', () => {
  it('follows a symlink before the `..` after it', () => {
    const c = validatePath(access('a/b/l/../../secret'), ctx);
    expect(c.allowed).toBe(false);
    expect(c.resolved).toBe(join(outside, 'secret'));
    expect(validatePath(access('l/../victimdir', 'write'), ctx).resolved).toBe(join(outside, 'share/victimdir'));
  });
  it('keeps plain `..` inside the project inside', () => {
    expect(validatePath(access('a/b/../../victimdir'), ctx)).toMatchObject({ allowed: true, resolved: join(proj, 'victimdir') });
  });
  it('judges a dangling link by its target', () => {
    expect(validatePath(access('dangling-link', 'write'), ctx)).toMatchObject({ allowed: false, resolved: join(outside, 'created-by-touch') });
    expect(validatePath(access('dangling-inside', 'write'), ctx)).toMatchObject({ allowed: true, resolved: join(proj, 'dangling-inside-target') });
  });
  it('a resolution that is not certain is not inside', () => {
    expect(validatePath(access('not-yet/../victimdir'), ctx)).toMatchObject({ allowed: false, reason: 'unresolved' });
    expect(validatePath(access('loop1/x', 'write'), ctx)).toMatchObject({ allowed: false });
  });
});

describe('the decision with real symlinks', () => {
  const check = (command: string, mode?: 'acceptEdits', deny: string[] = [], allow: string[] = []) =>
    verdictFor(command, { cwd: proj, ...(mode ? { mode } : {}), permissions: { allow, deny, ask: [] } }, linter);
  it('`cat a/b/l/../../secret` is not allowed with no rules', () => {
    expect(check('cat a/b/l/../../secret').decision).toBe('ask');
    expect(check('cat a/b/l/../../secret', undefined, ['Read(/nothing)']).decision).toBe('ask');
  });
  it('acceptEdits does not allow `rm -rf l/../victimdir` or `touch dangling-link`', () => {
    expect(check('rm -rf l/../victimdir', 'acceptEdits').decision).toBe('ask');
    expect(check('touch dangling-link', 'acceptEdits').decision).toBe('ask');
    expect(check('touch dangling-link', 'acceptEdits', ['Bash(curl:*)'], ['Bash']).decision).toBe('ask');
    expect(check('touch fresh-file', 'acceptEdits').decision).toBe('allow');
  });
});
