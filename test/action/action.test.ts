/**
 * The Action as GitHub runs it: the committed bundle (action/dist/index.mjs), copied to a
 * directory with no node_modules around it, runs as a child process in a temporary git repository
 * with the runner's environment simulated (GITHUB_* variables, an event payload file,
 * GITHUB_STEP_SUMMARY and GITHUB_OUTPUT files, INPUT_* variables). Checks the annotations, the
 * changed-only scope, the outputs, the job summary, the SARIF file and the exit code.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSarif } from '../report/sarif-schema.js';
import { git, runActionBundle, type RunnerResult } from './runner.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TRANSCRIPT = join(ROOT, 'test/fixtures/transcripts/claude-code/legacy-v1.0-inline-sidechain.jsonl');

let tmp: string;
/** The bundle's copy (index.mjs and the .wasm files), away from the repository's node_modules. */
let entry: string;
/** The simulated workspace: a git repository with a base and a head commit. */
let repo: string;
let baseSha: string;
let headSha: string;

/** git in the simulated workspace. */
const gitRepo = (args: string[]): string => git(repo, args);

/** Twelve lines, each with a path-dangerous-removal error and an rm-recursive-force warning. */
const MANY = ['#!/bin/bash', ...Array.from({ length: 12 }, (_, i) => `rm -rf /tmp/$V${i}; git push --force origin b${i}`)].join('\n') + '\n';

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'shellward-action-'));
  const copy = join(tmp, 'action', 'dist');
  await cp(join(ROOT, 'action/dist'), copy, { recursive: true });
  entry = join(copy, 'index.mjs');
  repo = join(tmp, 'work');
  await mkdir(repo);
  gitRepo(['init', '-q']);
  await writeFile(join(repo, 'old.sh'), '#!/bin/bash\necho start\nrm -rf /\n');
  await writeFile(join(repo, 'untouched.sh'), '#!/bin/bash\nrm -rf "$HOME"\n');
  await writeFile(join(repo, 'README.md'), '# demo\n');
  gitRepo(['add', '.']);
  gitRepo(['commit', '-qm', 'base']);
  baseSha = gitRepo(['rev-parse', 'HEAD']);
  gitRepo(['checkout', '-qb', 'feature']);
  await writeFile(join(repo, 'old.sh'), '#!/bin/bash\necho start\nrm -rf /\nrm -rf "$HOME"\n');
  await writeFile(join(repo, 'many.sh'), MANY);
  gitRepo(['add', '.']);
  gitRepo(['commit', '-qm', 'head']);
  headSha = gitRepo(['rev-parse', 'HEAD']);
  // An agent transcript downloaded into the workspace, not part of the change.
  await mkdir(join(repo, 'agent-logs'));
  await cp(TRANSCRIPT, join(repo, 'agent-logs', 'session.jsonl'));
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Runs the bundle in `repo` as GitHub would for `event` with `inputs` (names as in action.yml). */
function runAction(event: { name: string; payload: unknown }, inputs: Record<string, string>): Promise<RunnerResult> {
  return runActionBundle({ entry, workspace: repo, tmp, event, inputs, sha: headSha });
}

interface Annotation {
  readonly level: string;
  readonly props: Record<string, string>;
  readonly message: string;
}

/** The `::error …::`, `::warning …::` and `::notice …::` lines of stdout. */
function annotations(stdout: string): Annotation[] {
  const out: Annotation[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^::(error|warning|notice) ([^:]+)::(.*)$/.exec(line);
    if (!m) continue;
    const props = Object.fromEntries(m[2]!.split(',').map((p) => p.split('=', 2) as [string, string]));
    out.push({ level: m[1]!, props, message: m[3]! });
  }
  return out;
}

const pullRequest = (): { name: string; payload: unknown } => ({
  name: 'pull_request',
  payload: { action: 'synchronize', number: 7, pull_request: { number: 7, base: { sha: baseSha, ref: 'main' }, head: { sha: headSha, ref: 'feature' } } },
});

interface SarifLog {
  runs: {
    automationDetails?: { id: string };
    results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number } } }[] }[];
  }[];
}

/** `uri:line` of each result of the scripts (not the transcript), sorted, without duplicates. */
function scriptLines(log: SarifLog): string[] {
  const out = new Set<string>();
  for (const x of log.runs[0]!.results) {
    const { artifactLocation, region } = x.locations[0]!.physicalLocation;
    if (!artifactLocation.uri.startsWith('agent-logs/')) out.add(`${artifactLocation.uri}:${region.startLine}`);
  }
  return [...out].sort();
}

/** `many.sh:2` … `many.sh:13`. */
const MANY_LINES = Array.from({ length: 12 }, (_, i) => `many.sh:${i + 2}`);

/** Results of `ruleId` in a SARIF log. */
function ruleCount(log: SarifLog, ruleId: string): number {
  return log.runs[0]!.results.filter((x) => x.ruleId === ruleId).length;
}

/** Findings per severity in a SARIF log, and those of files other than the transcript. */
function sarifCounts(log: SarifLog): { all: Record<string, number>; scripts: Record<string, number> } {
  const all: Record<string, number> = { error: 0, warning: 0, note: 0 };
  const scripts: Record<string, number> = { error: 0, warning: 0, note: 0 };
  for (const x of log.runs[0]!.results) {
    all[x.level]!++;
    if (!x.locations[0]!.physicalLocation.artifactLocation.uri.startsWith('agent-logs/')) scripts[x.level]!++;
  }
  return { all, scripts };
}

describe('the bundled Action on a pull_request', () => {
  let r: RunnerResult;
  let log: SarifLog;
  /** Findings per level (the transcript's depend on the agent rules; the scripts' are fixed). */
  let n: Record<string, number>;
  beforeAll(async () => {
    r = await runAction(pullRequest(), {
      paths: '.',
      transcripts: 'agent-logs/session.jsonl',
      'fail-on': 'error',
      'sarif-file': 'reports/shellward.sarif',
      'sarif-category': 'shellward-ci',
      annotations: 'true',
      'changed-only': '',
    });
    log = JSON.parse(await readFile(join(repo, 'reports/shellward.sarif'), 'utf8')) as SarifLog;
    n = sarifCounts(log).all;
    // many.sh: 12 × `rm -rf "/tmp/$V…"; git push --force …`, old.sh line 4: one more rm. One finding per command: the most
    // severe, path-dangerous-removal (an error), with rm-recursive-force in its related data.
    expect(ruleCount(log, 'path-dangerous-removal')).toBe(13);
    expect(ruleCount(log, 'rm-recursive-force')).toBe(0);
    expect(n.error).toBeGreaterThan(10);
    expect(n.warning).toBeGreaterThan(10);
  });

  it('fails the step on errors (fail-on: error)', () => {
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(`::error::shellward found ${n.error} errors, ${n.warning} warnings and ${n.note} notes (fail-on: error).`);
  });

  it('emits annotations with file, line, column and end, title = rule id, at most 10 per level, most severe first', () => {
    const all = annotations(r.stdout).filter((a) => a.props.title !== undefined);
    const errors = all.filter((a) => a.level === 'error');
    const warnings = all.filter((a) => a.level === 'warning');
    expect(errors).toHaveLength(10);
    expect(warnings).toHaveLength(10);
    // Errors first.
    expect(all.findIndex((a) => a.level !== 'error')).toBe(10);
    for (const a of [...errors, ...warnings]) {
      expect(Object.keys(a.props)).toEqual(expect.arrayContaining(['file', 'line', 'endLine', 'title']));
      expect(a.props.line).toMatch(/^\d+$/);
      if (a.props.line === a.props.endLine) expect(Object.keys(a.props)).toEqual(expect.arrayContaining(['col', 'endColumn']));
    }
    expect(errors).toContainEqual({
      level: 'error',
      props: { title: 'path-dangerous-removal', file: 'many.sh', line: '2', endLine: '2', col: '8', endColumn: '16' },
      message: '`/tmp/$V0` becomes `/tmp/` when `$V0` is empty or unset; use `"${V0:?}"` to stop instead.',
    });
    const left = n.error! + n.warning! + Math.max(0, n.note! - 10) - 20;
    expect(r.stdout).toContain(`${left} more findings are not shown as annotations`);
  });

  it('reports only changed files and lines, and the transcript whole', () => {
    // Not untouched.sh; not old.sh line 3 (rm -rf /, in the base); old.sh line 4 and many.sh are new.
    expect(scriptLines(log)).toEqual([...MANY_LINES, 'old.sh:4'].sort());
    expect(log.runs[0]!.results.some((x) => x.locations[0]!.physicalLocation.artifactLocation.uri === 'agent-logs/session.jsonl')).toBe(true);
    const annotated = new Set(annotations(r.stdout).map((a) => a.props.file).filter(Boolean));
    for (const f of annotated) expect(['many.sh', 'old.sh', 'agent-logs/session.jsonl']).toContain(f);
  });

  it('writes the outputs in the multiline file format', () => {
    expect(r.outputs).toEqual({
      errors: String(n.error),
      warnings: String(n.warning),
      notes: String(n.note),
      total: String(n.error! + n.warning! + n.note!),
      'sarif-file': 'reports/shellward.sarif',
    });
  });

  it('writes a job summary: counts per rule with links, the top 20 findings, annotations left out', () => {
    const s = r.summary;
    expect(s).toContain('## shellward');
    expect(s).toContain(`(${n.error} errors, ${n.warning} warnings, ${n.note} note${n.note === 1 ? '' : 's'}) in 3 files; `);
    expect(s).toMatch(/ in 3 files; \d+ files checked\./);
    expect(s).toContain(`changed since <code>${baseSha.slice(0, 12)}</code>`);
    expect(s).toMatch(/only lines they change \(\d+ findings? on other lines not shown\)/);
    expect(s).toContain('### Findings per rule');
    expect(s).toContain(
      '<tr><td><a href="https://github.com/shellward/shellward/blob/main/docs/rules/path-dangerous-removal.md"><code>path-dangerous-removal</code></a></td><td>Removal of the root, home or a top-level directory</td><td>error</td><td>13</td></tr>',
    );
    const top = s.slice(s.indexOf('### Top 20 of'));
    expect(top).not.toBe(s);
    const table = top.slice(0, top.indexOf('</table>'));
    expect(table.match(/<tr>/g)).toHaveLength(21);
    expect(table).toContain(`<a href="https://github.com/example-org/demo/blob/${headSha}/many.sh#L2"><code>many.sh:2</code></a>`);
    // GitHub renders no Markdown inside HTML tables: code spans of messages are <code> elements.
    expect(table).toContain('<td><code>/tmp/$V0</code> becomes <code>/tmp/</code> when <code>$V0</code> is empty or unset; use <code>&quot;${V0:?}&quot;</code> to stop instead.</td>');
    expect(table).not.toContain('`');
    expect(s).toMatch(new RegExp(`\\d+ findings \\(${n.error! - 10} errors, ${n.warning! - 10} warnings[^)]*\\) not shown as annotations`));
    expect(s).toContain('<code>reports/shellward.sarif</code>');
  });

  it('writes SARIF that validates against the schema, with the category and repository-relative URIs', () => {
    expect(validateSarif(log)).toEqual([]);
    expect(log.runs[0]!.automationDetails?.id).toBe('shellward-ci/');
    for (const x of log.runs[0]!.results) expect(x.locations[0]!.physicalLocation.artifactLocation.uriBaseId).toBe('%SRCROOT%');
  });

  it('prints the text report with workflow commands stopped', () => {
    const m = /^::stop-commands::([0-9a-f-]{36})$/m.exec(r.stdout);
    expect(m).not.toBeNull();
    const start = r.stdout.indexOf(m![0]);
    const end = r.stdout.indexOf(`::${m![1]}::`);
    expect(end).toBeGreaterThan(start);
    expect(r.stdout.slice(start, end)).toContain('many.sh:2:8: error:');
  });
});

describe('the bundled Action in other settings', () => {
  it('lints every file on a push (changed-only off by default), without annotations, and passes with fail-on: none', async () => {
    const r = await runAction({ name: 'push', payload: { before: baseSha, after: headSha } }, { paths: '.', 'fail-on': 'none', annotations: 'false' });
    expect(r.code, r.stderr).toBe(0);
    expect(annotations(r.stdout).filter((a) => a.props.title !== undefined)).toEqual([]);
    expect(r.outputs['sarif-file']).toBe('shellward.sarif');
    const log = JSON.parse(await readFile(join(repo, 'shellward.sarif'), 'utf8')) as SarifLog;
    expect(validateSarif(log)).toEqual([]);
    // Every script line with a finding, and the transcript (under `.`).
    expect(scriptLines(log)).toEqual([...MANY_LINES, 'old.sh:3', 'old.sh:4', 'untouched.sh:2'].sort());
    expect(log.runs[0]!.results.some((x) => x.locations[0]!.physicalLocation.artifactLocation.uri === 'agent-logs/session.jsonl')).toBe(true);
    expect(r.outputs.errors).toBe(String(sarifCounts(log).all.error));
    expect(log.runs[0]!.automationDetails).toBeUndefined();
    expect(r.summary).toContain('Annotations are off');
    expect(r.summary).not.toContain('Changed files only');
  });

  it('keeps every line of the changed files with all-lines: true', async () => {
    const r = await runAction(pullRequest(), { paths: '.', 'all-lines': 'true', 'fail-on': 'warning', 'sarif-file': 'all-lines.sarif' });
    expect(r.code).toBe(1);
    const log = JSON.parse(await readFile(join(repo, 'all-lines.sarif'), 'utf8')) as SarifLog;
    // old.sh lines 3 and 4, many.sh; not untouched.sh, nor the transcript (not changed, not named).
    expect(scriptLines(log)).toEqual([...MANY_LINES, 'old.sh:3', 'old.sh:4'].sort());
    const n = sarifCounts(log).all;
    expect(n).toEqual(sarifCounts(log).scripts);
    expect(r.stdout).not.toMatch(/file=untouched\.sh/);
    expect(r.stdout).toContain(`shellward found ${n.error} errors, ${n.warning} warnings and ${n.note} notes (fail-on: warning).`);
    expect(r.summary).toContain('all lines of them');
  });

  it('with changed-only on a push, compares with the payload’s before commit', async () => {
    const r = await runAction({ name: 'push', payload: { before: baseSha, after: headSha } }, { paths: '.', 'changed-only': 'true', 'fail-on': 'none', 'sarif-file': 'push.sarif' });
    expect(r.code).toBe(0);
    const log = JSON.parse(await readFile(join(repo, 'push.sarif'), 'utf8')) as SarifLog;
    expect(scriptLines(log)).toEqual([...MANY_LINES, 'old.sh:4'].sort());
    expect(r.outputs.errors).toBe(String(sarifCounts(log).all.error));
  });

  it('warns and lints every file when the base commit is missing (a shallow checkout)', async () => {
    const payload = { pull_request: { base: { sha: 'f'.repeat(40) }, head: { sha: headSha } } };
    const r = await runAction({ name: 'pull_request', payload }, { paths: '.', 'fail-on': 'none' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^::warning::changed-only: cannot list the files changed since f{40} \(pull_request\.base\.sha\):.*fetch-depth: 0.*Linting every file\.$/m);
    // The advice to fetch the base is given once.
    const warning = r.stdout.split('\n').find((l) => l.startsWith('::warning::changed-only:'))!;
    expect(warning.match(/fetch-depth/g)).toHaveLength(1);
    const log = JSON.parse(await readFile(join(repo, 'shellward.sarif'), 'utf8')) as SarifLog;
    expect(scriptLines(log)).toEqual([...MANY_LINES, 'old.sh:3', 'old.sh:4', 'untouched.sh:2'].sort());
  });

  it('rejects a bad input', async () => {
    const r = await runAction(pullRequest(), { 'fail-on': 'sometimes' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error::Input fail-on: expected one of error, warning, note, none, got "sometimes".');
    const r2 = await runAction(pullRequest(), { annotations: 'yes please' });
    expect(r2.code).toBe(1);
    expect(r2.stdout).toContain('::error::Input annotations: expected true or false');
  });
});
