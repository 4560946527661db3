/**
 * Golden-file tests of `shellward lint` (architecture.md §9.3 layer 3): each input under
 * test/fixtures/golden is linted by the built CLI, run from the fixture's directory so paths are
 * bare file names, and its text output (no colour) is compared with `<name>.out`. Inputs whose
 * bytes must be exact (binary, not UTF-8, BOM) are written to a temporary directory at test time
 * and compared with their committed `.out`. A 5 MB script is generated and its findings counted.
 *
 * `UPDATE_GOLDEN=1 npx vitest run test/golden` rewrites differing `.out` files; review them by
 * eye — a golden file that records a wrong result is worse than none. The CLI is
 * dist/src/cli/bin.js: run `npm run build` first (`npm test` does).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGolden, compareGolden, NO_DIAGNOSTICS_HEADER, outputLines, UPDATE_GOLDEN } from './golden.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = join(ROOT, 'test/fixtures/golden');
const BIN = join(ROOT, 'dist/src/cli/bin.js');

/**
 * Inputs created at test time, so that no editor or git setting can change their bytes. Their
 * expected output is committed as `<name>.out` like any other fixture's.
 */
const GENERATED: Readonly<Record<string, Uint8Array>> = {
  // A NUL byte at offset 18 (line 3, column 1): skipped as binary.
  'binary.sh': Buffer.from('#!/bin/sh\necho hi\n\0\x01\x02rm -rf /\n', 'latin1'),
  // Latin-1 `é` (0xE9) at offset 15 (line 2, column 6): skipped as not UTF-8, before `rm -rf /`.
  'latin1.sh': Buffer.from('#!/bin/sh\n# caf\xe9\nrm -rf /\n', 'latin1'),
  // UTF-16LE with a BOM: NUL bytes, so binary.
  'utf16.sh': Buffer.from('\ufeffrm -rf /\n', 'utf16le'),
  // A UTF-8 BOM is dropped; columns count from the first character after it.
  'bom.sh': Buffer.from('\ufeffrm -rf /\n', 'utf8'),
};

/**
 * Fixtures whose `.out` (or header) records the *correct* result that shellward does not give
 * yet. Their test asserts that the output still differs, so it turns red as soon as the bug is
 * fixed — then delete the entry. Each names the bug.
 */
const KNOWN_BUGS: Readonly<Record<string, string>> = {};

interface Fixture {
  readonly name: string;
  /** Directory the CLI runs in (the fixture directory, or the temp directory for generated inputs). */
  readonly dir: string;
  readonly bytes: Uint8Array;
}

let tmp: string;

function committedInputs(): string[] {
  return readdirSync(FIXTURES)
    .filter((f) => !f.endsWith('.out') && statSync(join(FIXTURES, f)).isFile())
    .sort();
}

/** Runs `shellward lint` on one file from `cwd`, without colour, in the default `script` profile. */
async function lint(cwd: string, args: readonly string[]): Promise<{ stdout: string; stderr: string; exitCode: number | undefined }> {
  ensureBuilt();
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  const r = await execa(process.execPath, [BIN, 'lint', '--no-color', '--profile', 'script', ...args], {
    cwd,
    env,
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    maxBuffer: 512 * 1024 * 1024,
  });
  return { stdout: String(r.stdout), stderr: String(r.stderr), exitCode: r.exitCode };
}

/** The finding lines (`name:line:col: …`) of an output. */
function findingLines(stdout: string, name: string): string[] {
  const prefix = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `);
  return outputLines(stdout).filter((l) => prefix.test(l));
}

/** Whether a finding line reports an error (the severity field, not `error:` inside a message). */
function isError(line: string): boolean {
  return /^.*?:\d+:\d+: error: /.test(line);
}

function newestMtime(dir: string, ext: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p, ext));
    else if (e.name.endsWith(ext)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** Throws unless dist/ holds a CLI built after the last change to src/ or rules/. */
function ensureBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` before the golden tests`);
  const built = statSync(BIN).mtimeMs;
  const source = Math.max(newestMtime(join(ROOT, 'src'), '.ts'), newestMtime(join(ROOT, 'rules'), '.json'));
  if (source > built) throw new Error('dist/ is older than src/ or rules/: run `npm run build` before the golden tests');
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'shellward-golden-'));
  for (const [name, bytes] of Object.entries(GENERATED)) writeFileSync(join(tmp, name), bytes);
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the golden comparison', () => {
  it('matches literal and /regex/ lines and reports the first difference', () => {
    expect(compareGolden('a.sh:1:1: x\n\n1 problem\n', 'a.sh:1:1: x\n\n1 problem\n')).toBeUndefined();
    expect(compareGolden('/^a\\.sh:\\d+:1: x$/\n', 'a.sh:12:1: x\n')).toBeUndefined();
    expect(compareGolden('/^a\\.sh:\\d+:1: x$/\n', 'a.sh:12:2: x\n')).toMatch(/line 1 differs/);
    expect(compareGolden('a\nb\n', 'a\n')).toMatch(/line 2: expected line missing/);
    expect(compareGolden('a\n', 'a\nb\n')).toMatch(/line 2: unexpected extra/);
  });

  it('reports a missing golden file', () => {
    expect(checkGolden(join(FIXTURES, 'no-such-fixture.sh.out'), 'x\n', false)).toMatch(/missing/);
  });
});

describe('fixture set', () => {
  const inputs = committedInputs();
  const outs = readdirSync(FIXTURES).filter((f) => f.endsWith('.out'));

  it('has an input for every .out file', () => {
    const known = new Set([...inputs, ...Object.keys(GENERATED)]);
    expect(outs.filter((o) => !known.has(o.slice(0, -'.out'.length)))).toEqual([]);
  });

  it('gives every input either a .out file or the no-diagnostics header, not both', () => {
    for (const name of inputs) {
      const header = readFileSync(join(FIXTURES, name), 'utf8').split('\n')[0] === NO_DIAGNOSTICS_HEADER;
      const hasOut = outs.includes(`${name}.out`);
      if (header) expect(hasOut, `${name} has the no-diagnostics header and a .out file`).toBe(false);
      // UPDATE_GOLDEN writes the missing .out files further down.
      else if (!UPDATE_GOLDEN) expect(hasOut, `${name} has neither a .out file nor the no-diagnostics header`).toBe(true);
    }
    if (!UPDATE_GOLDEN) for (const name of Object.keys(GENERATED)) expect(outs, name).toContain(`${name}.out`);
  });

  it('shows every destructive id and every kind of dangerous removal in some .out', () => {
    const text = outs
      .filter((o) => !(o.slice(0, -'.out'.length) in KNOWN_BUGS))
      .map((o) => readFileSync(join(FIXTURES, o), 'utf8'))
      .join('');
    // Claude Code's destructive-warning set, as reported in scripts (`rm-force` is reported for
    // agent commands only: a script's `rm -f` is ordinary clean-up).
    const scriptIds = ['git-reset-hard', 'git-push-force', 'git-push-delete', 'git-clean-force', 'git-checkout-discard', 'git-restore-discard', 'git-stash-drop', 'git-branch-force-delete', 'git-no-verify', 'git-commit-amend', 'rm-recursive-force', 'rm-recursive', 'find-delete', 'sql-drop-truncate', 'sql-delete-all', 'kubectl-delete', 'terraform-destroy'];
    for (const id of scriptIds) expect(text, id).toContain(`[${id}]`);
    // One message shape per DangerKind (root, home, root-child, glob-all, empty-variable).
    for (const shape of ['removes the root directory', 'removes the home directory', 'a top-level system directory', 'removes everything in', 'is empty or unset']) {
      expect(text, shape).toMatch(new RegExp(`${shape}.*\\[path-dangerous-removal\\]`));
    }
  });

  it('names only existing fixtures as known bugs', () => {
    for (const name of Object.keys(KNOWN_BUGS)) expect(inputs, name).toContain(name);
  });
});

const fixtures: Fixture[] = [
  ...committedInputs().map((name) => ({ name, dir: FIXTURES, bytes: readFileSync(join(FIXTURES, name)) })),
  ...Object.entries(GENERATED).map(([name, bytes]) => ({ name, dir: '', bytes })),
];

describe.each(fixtures.map((f) => [f.name, f] as const))('%s', (name, f) => {
  const header = Buffer.from(f.bytes).toString('utf8').split('\n')[0] === NO_DIAGNOSTICS_HEADER;
  const bug = KNOWN_BUGS[name];
  const title = header ? 'yields no diagnostics (header)' : 'prints exactly its .out';

  it(bug ? `still shows the known bug (${bug}); when fixed, remove it from KNOWN_BUGS` : title, async () => {
    const r = await lint(f.dir || tmp, [name]);
    expect(r.stderr).toBe('');
    const findings = findingLines(r.stdout, name);
    if (header) {
      if (bug) expect(findings.length, 'the known bug is fixed').toBeGreaterThan(0);
      else expect(findings).toEqual([]);
      expect(r.exitCode).toBe(findings.some(isError) ? 1 : 0);
      return;
    }
    const diff = checkGolden(join(FIXTURES, `${name}.out`), r.stdout, UPDATE_GOLDEN && !bug);
    if (bug) expect(diff, `${name} now prints its .out: the known bug is fixed`).toBeDefined();
    else expect(diff, `${name}.out:\n${diff}`).toBeUndefined();
    // Default --fail-on error: exit 1 exactly when an error is reported.
    expect(r.exitCode).toBe(findings.some(isError) ? 1 : 0);
  });
});

describe('a 5 MB script', () => {
  /** One block: 3 findings (rm-recursive-force, path-dangerous-removal, git-push-force) and text that must stay quiet. */
  const block = (i: number): string =>
    `# block ${i}\n` +
    'if [ -d "$dir" ]; then\n' +
    '  rm -rf "$dir/"\n' +
    'fi\n' +
    'git push --force origin main\n' +
    `echo "rm -rf / is only text ${i}"\n` +
    "cat <<'EOF'\n" +
    'rm -rf /\n' +
    'EOF\n' +
    'for f in *.log; do gzip "$f"; done\n';

  it('is linted to the end with every finding counted', async () => {
    const parts = ['#!/bin/bash\n'];
    let size = parts[0]!.length;
    let blocks = 0;
    while (size < 1024 * 1024) {
      const b = block(blocks++);
      parts.push(b);
      size += b.length;
    }
    writeFileSync(join(tmp, 'big.sh'), parts.join(''));

    const r = await lint(tmp, ['big.sh']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(1);
    const findings = findingLines(r.stdout, 'big.sh');
    const count = (id: string): number => findings.filter((l) => l.endsWith(`[${id}]`)).length;
    // One finding per command: the removal is path-dangerous-removal alone (rm-recursive-force in its related data).
    expect(count('rm-recursive-force')).toBe(0);
    expect(count('path-dangerous-removal')).toBe(blocks);
    expect(count('git-push-force')).toBe(blocks);
    expect(findings.length).toBe(2 * blocks);
    // The last block's removal is found at its line: the whole file was analysed.
    expect(findings).toContain(`big.sh:${1 + (blocks - 1) * 10 + 3}:10: error: \`"$dir/"\` becomes \`/\` when \`$dir\` is empty or unset; use \`"\${dir:?}"\` to stop instead. [path-dangerous-removal]`);
    expect(outputLines(r.stdout).at(-1)).toBe(`${2 * blocks} problems (${blocks} errors, ${blocks} warnings, 0 notes) in 1 file; 1 file checked`);
  }, 180_000);
});
