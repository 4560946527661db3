import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeScanningViolations } from '../report/code-scanning.js';
import { validateSarif } from '../report/sarif-schema.js';
import { execa } from 'execa';
import { BIN, REPO, shellward } from './cli.js';

describe('shellward lint (CLI)', () => {
  it('reports the bundled examples and exits 1', async () => {
    const r = await shellward(['lint', 'examples/*.sh']);
    expect(r.exitCode).toBe(1);
    const out = String(r.stdout);
    expect(out).toContain('examples/deploy.sh:8:8: error: ');
    expect(out).toContain('[path-dangerous-removal]');
    expect(out).toContain('examples/deploy.sh:11:1: warning: `git reset --hard` may discard uncommitted changes. [git-reset-hard]');
    expect(out).not.toContain('examples/safe.sh');
    // Three files analysed; the summary counts the two with findings (safe.sh has none).
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^\d+ problems \(2 errors, \d+ warnings, 1 note\) in 2 files; \d+ files checked$/);
  });

  it('exits 0 when nothing reaches --fail-on', async () => {
    expect((await shellward(['lint', 'examples/safe.sh'])).exitCode).toBe(0);
    expect((await shellward(['lint', '--fail-on', 'none', 'examples/*.sh'])).exitCode).toBe(0);
    const warnOnly = await shellward(['lint', '--fail-on', 'warning', 'no-such-file.sh']);
    expect(warnOnly.exitCode).toBe(2);
  });

  it('reads standard input with -, as the kind --stdin-filename names', async () => {
    const sh = await shellward(['lint', '--no-color', '-'], { input: 'echo hi\nrm -rf /\n' });
    expect(sh.exitCode).toBe(1);
    expect(String(sh.stdout)).toContain('<stdin>:2:8: error: `rm -rf /` removes the root directory. [path-dangerous-removal]');
    const wf = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: |\n          echo ${{ github.event.issue.body }}\n';
    const y = await shellward(['lint', '--no-color', '-', '--stdin-filename', '.github/workflows/ci.yml'], { input: wf });
    expect(y.exitCode).toBe(1);
    expect(String(y.stdout)).toContain('.github/workflows/ci.yml:7:16: error:');
    expect(String(y.stdout)).toContain('[untrusted-input-in-run]');
    const docker = await shellward(['lint', '--no-color', '-', '--stdin-filename', 'Dockerfile'], { input: 'FROM x\nRUN git reset --hard\n' });
    expect(String(docker.stdout)).toContain('Dockerfile:2:5: warning: `git reset --hard`');
    expect((await shellward(['lint', '--stdin-filename', 'x.sh', 'examples/safe.sh'])).exitCode).toBe(2);
    expect((await shellward(['lint', '--staged', '-'], { input: '' })).exitCode).toBe(2);
  });

  it('skips a named file of no kind it reads instead of linting it as shell', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-cli-'));
    await writeFile(join(dir, 'x.py'), 'import os\nos.system("rm -rf /")\n');
    await writeFile(join(dir, 'tool'), 'rm -rf /\n');
    const r = await shellward(['lint', '--no-color', 'x.py', 'tool'], { cwd: dir });
    expect(r.exitCode).toBe(1);
    const out = String(r.stdout);
    expect(out).toContain('x.py:1:1: note: File skipped: not a kind of file shellward reads (a `.py` file without a shell shebang;');
    expect(out).not.toContain('x.py:2');
    expect(out).toContain('tool:1:8: error:');
  });

  it('writes SARIF that validates, to --output', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-cli-'));
    const out = join(dir, 'r.sarif');
    const r = await shellward(['lint', '--format', 'sarif', '--output', out, 'examples/*.sh']);
    expect(r.exitCode).toBe(1);
    expect(String(r.stdout)).toBe('');
    const log = JSON.parse(await readFile(out, 'utf8'));
    expect(validateSarif(log)).toEqual([]);
    expect(codeScanningViolations(log, await readFile(out, 'utf8'), { requireLineHash: true })).toEqual([]);
    const results = log.runs[0].results as { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
    expect(results.length).toBeGreaterThan(5);
    expect(results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toMatch(/^examples\//);
  });

  it('prints JSON with every file analysed', async () => {
    const r = await shellward(['lint', '--format', 'json', 'examples/*.sh']);
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
    const r = await shellward(['lint', 'examples/*.sh', '-o', '/nonexistent-dir/out.txt']);
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
    expect(String((await shellward(['lint', '.'], { cwd: dir })).stdout)).toContain('No problems found; 0 files checked');
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
    await writeFile(join(dir, 'data.json'), '{"name": "x"}\n');
    const r = await shellward(['lint', 'data.json'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toContain('data.json:1:1: note: File skipped: not a transcript format shellward reads');
  });

  it('applies the config profile.makefile to Makefiles', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-cli-'));
    await writeFile(join(dir, 'Makefile'), 'x:\n\techo $$(date) > out.txt\n');
    expect(String((await shellward(['lint', '.'], { cwd: dir })).stdout)).toContain('No problems found; 1 file checked');
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

describe('lint --quiet and rules <rule>', () => {
  it('--quiet reports errors only, like ESLint', async () => {
    const all = await shellward(['lint', '--no-color', '--format', 'json', 'examples/*.sh']);
    const quiet = await shellward(['lint', '--no-color', '--format', 'json', '--quiet', 'examples/*.sh']);
    const sev = (out: unknown): string[] => (JSON.parse(String(out)) as { results: { diagnostics: { severity: string }[] }[] }).results.flatMap((f) => f.diagnostics.map((d) => d.severity));
    expect(sev(all.stdout).some((s) => s !== 'error')).toBe(true);
    expect(sev(quiet.stdout).length).toBeGreaterThan(0);
    expect(sev(quiet.stdout).every((s) => s === 'error')).toBe(true);
    expect(sev(quiet.stdout)).toHaveLength(sev(all.stdout).filter((s) => s === 'error').length);
  });

  it('rules <id or code> prints the rule page', async () => {
    const page = await readFile(new URL('../../docs/rules/rm-recursive-force.md', import.meta.url), 'utf8');
    for (const name of ['rm-recursive-force', 'd311', 'D311']) {
      const r = await shellward(['rules', name]);
      expect(r.exitCode, name).toBe(0);
      expect(String(r.stdout)).toBe(`${page.replace(/^<!--.*-->\n\n/, '')}\nOnline: https://github.com/shellward/shellward/blob/main/docs/rules/rm-recursive-force.md`);
    }
    const bad = await shellward(['rules', 'no-such-rule']);
    expect(bad.exitCode).toBe(2);
    expect(String(bad.stderr)).toBe('shellward rules: unknown rule "no-such-rule" (shellward rules lists the ids and codes)');
  });
});
