/**
 * The sandbox holds: no host Unix socket under /run is reachable, $HOME is an empty directory,
 * and file size, process and memory limits apply. Skipped, with the reason, without a usable bwrap.
 */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectBwrap } from '../../src/sandbox/bwrap.js';
import type { SandboxClearance } from '../../src/sandbox/policy.js';
import { hiddenDirectories, processHost, runInSandbox } from '../../src/sandbox/run.js';

const ALLOW: SandboxClearance = { decision: 'allow', reason: 'test: explicit allow', readOnly: false };
const availability = process.platform === 'linux' ? await detectBwrap(process.env) : undefined;
const skipReason = availability === undefined ? `not Linux (${process.platform})` : availability.available ? undefined : `${availability.reason}: ${availability.message}`;

let dir: string;
let home: string;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'sw-hold-')));
  home = await realpath(await mkdtemp(join(tmpdir(), 'sw-home-')));
  await writeFile(join(home, '.attack-secret'), 'secret\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

describe('hiddenDirectories', () => {
  it('hides /run and $HOME, never the working directory or /', async () => {
    const hidden = await hiddenDirectories(dir, { HOME: home, XDG_RUNTIME_DIR: '/' });
    expect(hidden).toContain(home);
    expect(hidden).not.toContain('/');
    expect(await hiddenDirectories(home, { HOME: home })).not.toContain(home);
  });
});

describe.skipIf(skipReason !== undefined)(`the sandbox holds${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  const run = async (command: string) => {
    const outcome = await runInSandbox({ command, cwd: dir, clearance: ALLOW, timeoutMs: 20_000 }, { ...processHost(), env: { ...process.env, HOME: home } });
    if (outcome.status !== 'ran') throw new Error(JSON.stringify(outcome));
    return outcome.result;
  };
  it('$HOME is an empty directory inside', async () => {
    const r = await run('ls -A "$HOME"; cat "$HOME/.attack-secret"; echo "rc=$?"');
    expect(r.stdout.text).not.toContain('secret');
    expect(r.stdout.text).toContain('rc=1');
  }, 30_000);
  it('/run is empty inside', async () => {
    const r = await run('ls -A /run | wc -l');
    expect(r.stdout.text.trim()).toBe('0');
  }, 30_000);
  it('limits processes, memory and file size', async () => {
    const r = await run('ulimit -u; ulimit -v; ulimit -f; head -c 400000000 /dev/zero > big; echo "rc=$?"');
    const [u, v, f] = r.stdout.text.split('\n');
    expect(Number(u)).toBeLessThanOrEqual(1024);
    expect(Number(v)).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(Number(f)).toBeLessThanOrEqual(256 * 1024);
    expect(r.stdout.text).not.toContain('rc=0');
  }, 30_000);
  it('stops a command that keeps writing into the working directory past the limits', async () => {
    const limits = { maxEntries: 1000, maxBytes: 1024 * 1024 };
    const outcome = await runInSandbox({ command: 'i=0; while :; do head -c 200000 /dev/zero > "f$i"; i=$((i+1)); done', cwd: dir, clearance: ALLOW, timeoutMs: 20_000, limits }, { ...processHost(), env: { ...process.env, HOME: home } });
    if (outcome.status !== 'ran') throw new Error(JSON.stringify(outcome));
    const r = outcome.result;
    expect(r.timedOut).toBe(false);
    expect(r.stopped).toMatch(/more than (2097152 bytes|2000 entries)/);
    expect(r.exitCode).toBeNull();
    expect(r.findings.find((f) => f.ruleId === 'sandbox-exit-error')?.data).toMatchObject({ stopped: r.stopped });
  }, 30_000);
});
