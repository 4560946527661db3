/**
 * The hook's standard input and output without Node's streams (src/cli/std-io.ts), run in child
 * processes of the built module (dist/): the text read from a pipe and from a file, the bound on
 * what is kept, and a reader that went away.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const STD_IO = fileURLToPath(new URL('../../dist/src/cli/std-io.js', import.meta.url));

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'shellward-std-io-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Runs `code` as an ES module with `readStdinText`, `writeOutput` and `flushOutput` in scope. */
function child(code: string, opts: { input?: string; stdinFile?: string } = {}): { stdout: string; stderr: string; status: number | null } {
  const script = `import { readStdinText, writeOutput, flushOutput } from ${JSON.stringify(STD_IO)};\n${code}`;
  const stdio = opts.stdinFile !== undefined ? undefined : 'pipe';
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    ...(opts.input !== undefined ? { input: opts.input } : {}),
    ...(stdio === undefined ? { stdio: [openIn(opts.stdinFile!), 'pipe', 'pipe'] } : {}),
  });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

let fds: number[] = [];
function openIn(path: string): number {
  const fd = openSync(path, 'r');
  fds.push(fd);
  return fd;
}

describe('readStdinText', () => {
  it('reads all of a pipe as UTF-8, characters beyond ASCII and beyond 64 KiB included', () => {
    const text = `{"command": "echo €😀"}\n${'x'.repeat(200_000)}é`;
    const r = child('const t = await readStdinText(1e6); writeOutput(1, JSON.stringify([t.length, t.slice(0, 24), t.slice(-2)]));', { input: text });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([text.length, text.slice(0, 24), text.slice(-2)]);
  });

  it('reads a file given as stdin, and an empty input as ""', async () => {
    const file = join(tmp, 'event.json');
    await writeFile(file, '{"a": "ü"}');
    expect(child('writeOutput(1, JSON.stringify(await readStdinText(100)));', { stdinFile: file }).stdout).toBe(JSON.stringify('{"a": "ü"}'));
    expect(child('writeOutput(1, JSON.stringify(await readStdinText(100)));', { input: '' }).stdout).toBe('""');
    for (const fd of fds) closeSync(fd);
    fds = [];
  });

  it('keeps an input of at most `limit` code units whole, and a longer one longer than `limit`', () => {
    const read = (input: string): number => Number(child('writeOutput(1, String((await readStdinText(10)).length));', { input }).stdout);
    // Ten 3-byte characters (30 bytes) are ten code units: all kept.
    expect(read('€'.repeat(10))).toBe(10);
    expect(read('€'.repeat(11))).toBeGreaterThan(10);
    // Far more than 3 × 10 bytes: the rest is dropped, but what is kept is still over the limit.
    const long = read('a'.repeat(100_000));
    expect(long).toBeGreaterThan(10);
    expect(long).toBeLessThan(100_000);
  });
});

describe('writeOutput', () => {
  it('writes to a pipe, and to stderr', () => {
    const r = child("writeOutput(1, 'out ✓\\n'); writeOutput(2, 'err\\n'); await flushOutput();");
    expect([r.status, r.stdout, r.stderr]).toEqual([0, 'out ✓\n', 'err\n']);
  });

  it('drops the output quietly when the reader went away, and the run ends with its own exit code', () => {
    const script = `import { writeOutput } from ${JSON.stringify(STD_IO)}; setTimeout(() => { writeOutput(1, 'x'.repeat(200000)); process.exit(3); }, 300);`;
    const out = execFileSync('bash', ['-c', 'node --input-type=module -e "$1" | true; echo "${PIPESTATUS[0]}"', 'bash', script], { encoding: 'utf8' });
    expect(out.trim()).toBe('3');
  });
});
