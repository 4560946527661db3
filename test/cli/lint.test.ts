import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSarif } from '../report/sarif-schema.js';
import { execa } from 'execa';
import { BIN, REPO, shellward } from './cli.js';

describe('shellward lint (CLI)', () => {
  it('reports the bundled examples and exits 1', async () => {
    const r = await shellward(['lint', 'examples']);
    expect(r.exitCode).toBe(1);
    const out = String(r.stdout);
    expect(out).toContain('examples/deploy.sh:8:8: error: ');
    expect(out).toContain('[path-dangerous-removal]');
    expect(out).toContain('examples/deploy.sh:11:1: warning: `git reset --hard` may discard uncommitted changes. [git-reset-hard]');
    expect(out).not.toContain('examples/safe.sh');
    // Three files analysed; the summary counts the two with findings (safe.sh has none).
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^\d+ problems \(2 errors, \d+ warnings, 1 note\) in 2 files$/);
  });

  it('exits 0 when nothing reaches --fail-on', async () => {
    expect((await shellward(['lint', 'examples/safe.sh'])).exitCode).toBe(0);
    expect((await shellward(['lint', '--fail-on', 'none', 'examples'])).exitCode).toBe(0);
    const warnOnly = await shellward(['lint', '--fail-on', 'warning', '-']);
    expect(warnOnly.exitCode).toBe(2);
  });

  it('writes SARIF that validates, to --output', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-cli-'));
    const out = join(dir, 'r.sarif');
    const r = await shellward(['lint', '--format', 'sarif', '--output', out, 'examples']);
    expect(r.exitCode).toBe(1);
    expect(String(r.stdout)).toBe('');
    const log = JSON.parse(await readFile(out, 'utf8'));
    expect(validateSarif(log)).toEqual([]);
    const results = log.runs[0].results as { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
    expect(results.length).toBeGreaterThan(5);
    expect(results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toMatch(/^examples\//);
  });

  it('prints JSON with every file analysed', async () => {
    const r = await shellward(['lint', '--format', 'json', 'examples']);
    const doc = JSON.parse(String(r.stdout));
    expect(doc.results.map((x: { file: string }) => x.file)).toEqual(['examples/cleanup.sh', 'examples/deploy.sh', 'examples/safe.sh']);
    expect(doc.summary.errors).toBe(2);
  });

  it('reads paths from --files-from (stdin) and reports bad paths with exit 2 while linting the rest', async () => {
    const r = await shellward(['lint', '--files-from', '-', 'does-not-exist.sh'], { input: 'examples/deploy.sh\n# comment\n\n' });
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr)).toContain('does-not-exist.sh: no such file or directory');
    expect(String(r.stdout)).toContain('examples/deploy.sh:');
  });

  it('skips binary files and checks non-UTF-8 ones, with a note naming the line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-cli-'));
    await writeFile(join(dir, 'bin.sh'), Buffer.from([0x23, 0x21, 0x2f, 0x62, 0x00, 0x01]));
    await writeFile(join(dir, 'latin1.sh'), Buffer.from('echo ok\necho caf\xe9\nrm -rf /\n', 'latin1'));
    const r = await shellward(['lint', 'bin.sh', 'latin1.sh'], { cwd: dir });
    expect(r.exitCode).toBe(1);
    expect(String(r.stdout)).toContain('bin.sh:1:5: note: File skipped: binary file (contains NUL bytes) at byte 4. [file-skipped]');
    expect(String(r.stdout)).toContain('latin1.sh:2:9: note: Not valid UTF-8 at byte 16: invalid bytes were read as U+FFFD and the file was checked. [invalid-utf8]');
    expect(String(r.stdout)).toContain('latin1.sh:3:8: error: `rm -rf /` removes the root directory. [path-dangerous-removal]');
  });

  it('skips a script over the size cap with a note instead of exhausting memory', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-cli-'));
    await writeFile(join(dir, 'huge.sh'), 'echo hi\n'.repeat(2_200_000));
    const r = await shellward(['lint', 'huge.sh'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toContain('huge.sh:1:1: note: File skipped: larger than 16 MiB (17600000 bytes). [file-skipped]');
  });

  it('names unwritable outputs and unreadable path lists in one line, exit 2', async () => {
    const r = await shellward(['lint', 'examples', '-o', '/nonexistent-dir/out.txt']);
    expect(r.exitCode).toBe(2);
    expect(String(r.stderr).trim()).toBe('shellward: /nonexistent-dir/out.txt: no such file or directory (ENOENT)');
    const l = await shellward(['lint', '--files-from', '/nonexistent-list']);
    expect(l.exitCode).toBe(2);
    expect(String(l.stderr).trim()).toBe('shellward: /nonexistent-list: no such file or directory (ENOENT)');
  });

  it('reads more Makefile names from the config (`makefiles`)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-cli-'));
    await writeFile(join(dir, 'build.rules'), 'clean:\n\t@rm -rf $(OUT)/\n');
    // Without the config the file is not a shell script and a directory walk leaves it out.
    expect(String((await shellward(['lint', '.'], { cwd: dir })).stdout)).toContain('No problems found in 0 files');
    await writeFile(join(dir, 'shellward.config.json'), '{"makefiles": ["*.rules"]}\n');
    const r = await shellward(['lint', '.'], { cwd: dir });
    expect(String(r.stdout)).toContain('build.rules:2:10: error: `$(OUT)/` becomes `/` when the make variable `OUT` is empty or unset');
  });

  it('keeps its exit code when the reader closes the pipe early', async () => {
    const r = await execa('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" lint examples | head -1`], { cwd: REPO, reject: false });
    expect(r.exitCode).toBe(1);
    expect(String(r.stdout).split('\n')).toHaveLength(1);
    expect(String(r.stderr)).toBe('');
  });

  it('skips a named JSON file that is not a transcript with a note, instead of linting JSON as shell', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-cli-'));
    await writeFile(join(dir, 'package.json'), '{"name": "x"}\n');
    const r = await shellward(['lint', 'package.json'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toContain('package.json:1:1: note: File skipped: not a transcript format shellward reads');
  });

  it('applies the config profile.makefile to Makefiles', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-cli-'));
    await writeFile(join(dir, 'Makefile'), 'x:\n\techo $$(date) > out.txt\n');
    expect(String((await shellward(['lint', '.'], { cwd: dir })).stdout)).toContain('No problems found in 1 file');
    await writeFile(join(dir, 'shellward.config.json'), '{"profile": {"makefile": "agent"}}\n');
    expect(String((await shellward(['lint', '.'], { cwd: dir })).stdout)).toContain('[command-substitution]');
  });

  it('applies the config profile.transcript to agent transcripts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-cli-'));
    await cp(join(REPO, 'test/fixtures/transcripts/claude-code'), dir, { recursive: true });
    const agent = JSON.parse(String((await shellward(['lint', '--format', 'json', '.'], { cwd: dir })).stdout));
    await writeFile(join(dir, 'shellward.config.json'), '{"profile": {"transcript": "script"}}\n');
    const script = JSON.parse(String((await shellward(['lint', '--format', 'json', '.'], { cwd: dir })).stdout));
    // The script profile keeps the destructive findings and drops the agent-only security asks.
    expect(script.summary.warnings).toBeGreaterThan(0);
    expect(script.summary.warnings).toBeLessThan(agent.summary.warnings);
  });

  it('colours only when asked or on a TTY, and never with NO_COLOR', async () => {
    const plain = await shellward(['lint', 'examples/deploy.sh']);
    expect(String(plain.stdout)).not.toContain('\x1b[');
    const forced = await shellward(['lint', '--color', 'examples/deploy.sh']);
    expect(String(forced.stdout)).toContain('\x1b[');
    const noColor = await shellward(['lint', '--color', 'examples/deploy.sh'], { env: { NO_COLOR: '1' } });
    expect(String(noColor.stdout)).not.toContain('\x1b[');
  });

  it('exits 2 on usage errors and 0 for --help and --version', async () => {
    expect((await shellward(['lint', '--format', 'xml', 'examples'])).exitCode).toBe(2);
    expect((await shellward(['lint', '--bogus'])).exitCode).toBe(2);
    const v = await shellward(['--version']);
    expect(v.exitCode).toBe(0);
    expect(String(v.stdout).trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const h = await shellward(['lint', '--help']);
    expect(h.exitCode).toBe(0);
    expect(String(h.stdout)).toContain('--fail-on');
  });

  it('runs as an executable (the package bin: shebang and mode), as npx and installs run it', async () => {
    const r = await execa(BIN, ['--version'], { reject: false });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout).trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('lists rules', async () => {
    const r = await shellward(['rules']);
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/^git-reset-hard\s+D301\s+destructive/m);
  });
});
