/** The pure parts of the launchers: bwrap argv and status parsing, the Seatbelt profile generator. */
import { execa } from 'execa';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BWRAP_FILESYSTEM, LIMITS_SCRIPT, TMPFS_BYTES, BWRAP_ISOLATION, bwrapArgv, classifyBwrapFailure, detectBwrap, findExecutable, parseBwrapStatus, type BwrapPlan } from '../../src/sandbox/bwrap.js';
import { sandboxExecArgv, sbplString, SEATBELT_WRITABLE_DEVICES, seatbeltProfile, runSandboxExec } from '../../src/sandbox/sandbox-exec.js';

const plan: BwrapPlan = {
  cwd: '/work/repo',
  copy: '/tmp/shellward-sandbox-1/cwd',
  bash: '/usr/bin/bash',
  command: 'echo "$HOME" > out; rm -rf x',
  env: { HOME: '/root', PATH: '/usr/bin:/bin', TMPDIR: '/tmp' },
};

describe('bwrapArgv', () => {
  const argv = bwrapArgv(plan);

  it('isolates: every namespace, no capabilities, new session, dies with its parent', () => {
    for (const f of ['--unshare-net', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-user-try', '--unshare-cgroup-try', '--new-session', '--die-with-parent']) {
      expect(argv).toContain(f);
    }
    expect(argv.slice(argv.indexOf('--cap-drop'), argv.indexOf('--cap-drop') + 2)).toEqual(['--cap-drop', 'ALL']);
    expect(argv).not.toContain('--share-net');
  });

  it('mounts / read-only, then /dev, /proc, a private /tmp, then the copy writable at the cwd', () => {
    const i = (a: string, b: string, c?: string): number => argv.findIndex((x, k) => x === a && argv[k + 1] === b && (c === undefined || argv[k + 2] === c));
    const ro = i('--ro-bind', '/', '/');
    const tmp = i('--tmpfs', '/tmp');
    const bind = i('--bind', plan.copy, plan.cwd);
    expect(ro).toBeGreaterThanOrEqual(0);
    expect(tmp).toBeGreaterThan(ro);
    expect(bind).toBeGreaterThan(tmp);
    expect(argv.filter((x) => x === '--bind')).toHaveLength(1);
    expect(argv).not.toContain('--bind-try');
  });

  it('clears the environment, sets each variable, changes into the cwd and reports status on fd 3', () => {
    const clear = argv.indexOf('--clearenv');
    expect(argv.slice(clear + 1, clear + 10)).toEqual(['--setenv', 'HOME', '/root', '--setenv', 'PATH', '/usr/bin:/bin', '--setenv', 'TMPDIR', '/tmp']);
    expect(argv.slice(argv.indexOf('--chdir'), argv.indexOf('--chdir') + 2)).toEqual(['--chdir', plan.cwd]);
    expect(argv.slice(argv.indexOf('--json-status-fd'), argv.indexOf('--json-status-fd') + 2)).toEqual(['--json-status-fd', '3']);
  });

  it('ends with -- bash -c LIMITS bash COMMAND, the command as one argument, never split or quoted', () => {
    expect(argv.slice(-6)).toEqual(['--', '/usr/bin/bash', '-c', LIMITS_SCRIPT, '/usr/bin/bash', plan.command]);
    expect(argv.indexOf('--')).toBe(argv.length - 6);
  });

  it('hides /run and $HOME under empty size-limited tmpfs mounts before binding the copy', () => {
    const a = bwrapArgv({ ...plan, hide: ['/run', '/home/u'] });
    const bind = a.indexOf('--bind');
    for (const d of ['/run', '/home/u']) {
      const i = a.indexOf(d);
      expect(a.slice(i - 3, i + 1)).toEqual(['--size', String(TMPFS_BYTES), '--tmpfs', d]);
      expect(i).toBeLessThan(bind);
    }
    expect(a).not.toContain('/var/run');
    expect(LIMITS_SCRIPT).toContain('l -u 1024');
    expect(LIMITS_SCRIPT).toContain('l -f ');
    expect(LIMITS_SCRIPT).toContain('l -v ');
  });

  it('shares its isolation and file-system flags with the availability probe', () => {
    expect(argv.slice(0, BWRAP_ISOLATION.length)).toEqual(BWRAP_ISOLATION);
    expect(argv.slice(BWRAP_ISOLATION.length, BWRAP_ISOLATION.length + BWRAP_FILESYSTEM.length)).toEqual(BWRAP_FILESYSTEM);
  });

  it('rejects relative paths, cwd /, NUL in the command or environment', () => {
    expect(() => bwrapArgv({ ...plan, cwd: 'repo' })).toThrow(/absolute/);
    expect(() => bwrapArgv({ ...plan, copy: 'x' })).toThrow(/absolute/);
    expect(() => bwrapArgv({ ...plan, cwd: '/' })).toThrow(/must not be \//);
    expect(() => bwrapArgv({ ...plan, command: 'a\0b' })).toThrow(/NUL/);
    expect(() => bwrapArgv({ ...plan, env: { 'A=B': 'x' } })).toThrow(/invalid environment/);
    expect(() => bwrapArgv({ ...plan, env: { A: 'x\0' } })).toThrow(/invalid environment/);
  });
});

describe('parseBwrapStatus', () => {
  it('reads the child pid and the exit code lines', () => {
    expect(parseBwrapStatus('{ "child-pid": 12, "net-namespace": 4 }\n{ "exit-code": 3 }\n')).toEqual({ started: true, exitCode: 3 });
  });
  it('says not started when bwrap failed before the command', () => {
    expect(parseBwrapStatus('')).toEqual({ started: false, exitCode: undefined });
    expect(parseBwrapStatus('garbage\n{"exit-code": "x"}')).toEqual({ started: false, exitCode: undefined });
  });
});

describe('findExecutable and detectBwrap', () => {
  it('finds executables on absolute PATH entries only', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'sw-path-')));
    try {
      await writeFile(join(dir, 'tool'), '#!/bin/sh\n', { mode: 0o755 });
      await writeFile(join(dir, 'plain'), 'x', { mode: 0o644 });
      expect(await findExecutable('tool', `relative:${dir}`)).toBe(join(dir, 'tool'));
      expect(await findExecutable('plain', dir)).toBeUndefined();
      expect(await findExecutable('tool', 'relative')).toBeUndefined();
      expect(await findExecutable('tool', undefined)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it.each([
    "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.",
    'bwrap: setting up uid map: Permission denied',
    'bwrap: Creating new namespace failed: Operation not permitted',
  ])('classifies a namespace failure as no-user-namespaces: %s', (said) => {
    const r = classifyBwrapFailure(said);
    expect(r.reason).toBe('no-user-namespaces');
    expect(r.message).toContain(said);
  });

  it('classifies any other probe failure as bwrap-failed, quoting bwrap', () => {
    expect(classifyBwrapFailure('bwrap: Unknown option --foo')).toEqual({ available: false, reason: 'bwrap-failed', message: 'bwrap does not work here: bwrap: Unknown option --foo' });
  });

  it('reports no-bwrap clearly when bwrap is not on PATH', async () => {
    const r = await detectBwrap({ PATH: '/nonexistent-dir' });
    expect(r).toEqual({ available: false, reason: 'no-bwrap', message: expect.stringContaining('bubblewrap') });
  });
});

describe('seatbeltProfile (macOS sandbox-exec)', () => {
  const profile = seatbeltProfile({ writableDirs: ['/private/var/folders/x/shellward-sandbox-1/cwd/', '/private/tmp/sw "q" \\ tmp'] });

  it('allows by default, then denies network and writes, then allows writes below the scratch directories', () => {
    const lines = profile.split('\n');
    expect(lines.slice(0, 5)).toEqual(['(version 1)', '(allow default)', '(deny network*)', '(deny file-write*)', '(allow file-write*']);
    expect(lines).toContain('  (subpath "/private/var/folders/x/shellward-sandbox-1/cwd")');
    for (const d of SEATBELT_WRITABLE_DEVICES) expect(lines).toContain(`  (literal "${d}")`);
    // The carve-out comes after the deny: in SBPL the later rule wins.
    expect(profile.indexOf('(allow file-write*')).toBeGreaterThan(profile.indexOf('(deny file-write*)'));
    expect(profile).not.toMatch(/\(allow network/);
  });

  it('escapes quotes and backslashes in paths', () => {
    expect(profile).toContain('(subpath "/private/tmp/sw \\"q\\" \\\\ tmp")');
    expect(sbplString('/a"b')).toBe('"/a\\"b"');
  });

  it('refuses relative paths, control characters, / and an empty list', () => {
    expect(() => seatbeltProfile({ writableDirs: [] })).toThrow(/at least one/);
    expect(() => seatbeltProfile({ writableDirs: ['/'] })).toThrow(/root/);
    expect(() => seatbeltProfile({ writableDirs: ['///'] })).toThrow(/root/);
    expect(() => seatbeltProfile({ writableDirs: ['tmp'] })).toThrow(/absolute/);
    expect(() => seatbeltProfile({ writableDirs: ['/tmp/a\nb'] })).toThrow(/control/);
    expect(() => seatbeltProfile({ writableDirs: ['/tmp/a\u007fb'] })).toThrow(/control/);
  });

  it('builds argv: -p PROFILE bash -c COMMAND', () => {
    expect(sandboxExecArgv('(version 1)', '/bin/bash', 'ls; rm x')).toEqual(['-p', '(version 1)', '/bin/bash', '-c', 'ls; rm x']);
    expect(() => sandboxExecArgv('p', '/bin/bash', 'a\0')).toThrow(/NUL/);
  });
});

describe.skipIf(process.platform !== 'darwin')('runSandboxExec (macOS only)', () => {
  it('denies writes outside the scratch directories, allows writes inside', async () => {
    const scratch = await realpath(await mkdtemp(join(tmpdir(), 'sw-sbx-')));
    try {
      const { mkdir } = await import('node:fs/promises');
      await mkdir(join(scratch, 'cwd'));
      await mkdir(join(scratch, 'tmp'));
      const outside = join(tmpdir(), `sw-outside-${process.pid}`);
      const r = await runSandboxExec(
        { copy: join(scratch, 'cwd'), tmp: join(scratch, 'tmp'), bash: '/bin/bash', command: `touch inside && touch ${outside}; echo $?`, env: { PATH: '/usr/bin:/bin' } },
        { timeoutMs: 20_000, maxOutputBytes: 4096 },
      );
      expect(r.stdout.text.trim()).not.toBe('0');
      await expect(execa('test', ['-e', outside], { reject: false })).resolves.toMatchObject({ exitCode: 1 });
      await expect(execa('test', ['-e', join(scratch, 'cwd', 'inside')], { reject: false })).resolves.toMatchObject({ exitCode: 0 });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
