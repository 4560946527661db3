/**
 * A simulated GitHub run of the Action, built from the current sources into a temporary
 * directory (`scripts/bundle-action.mjs --outdir`, the same build as action/dist) and run as a
 * child process without node_modules around it:
 *
 * - a remote (a bare repository served over file://, which like GitHub serves commits by id)
 *   where the base branch moved after the pull request branched, so the event's
 *   `pull_request.base.sha` is stale, and GitHub's merge commit `refs/pull/7/merge` sits on the
 *   moved branch;
 * - the workspace checked out as actions/checkout does by default: `git init`, `git fetch
 *   --depth=1 origin +<merge sha>:refs/remotes/pull/7/merge`, a detached checkout — a shallow
 *   clone without the base commit; and a checkout of the head commit instead (`ref:
 *   head.sha`), whose merge base needs the history deepened;
 * - the runner's variables (GITHUB_*, RUNNER_TEMP, the event file, GITHUB_STEP_SUMMARY …).
 *
 * The run must report exactly the lines the pull request changes, say what it compared, write
 * its SARIF to RUNNER_TEMP, and that SARIF must pass the 2.1.0 schema and code scanning's
 * requirements with fingerprints (code scanning's own line hash included).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Sarif from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { githubLineHashes } from '../../src/report/line-hash.js';
import { codeScanningViolations } from '../report/code-scanning.js';
import { validateSarif } from '../report/sarif-schema.js';
import { git, GIT_ENV, runActionBundle, type RunnerResult } from './runner.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let tmp: string;
let entry: string;
let origin: string;
/** Commits: the base the PR branched from (the event's stale base.sha), the PR head, the moved base branch, GitHub's merge commit. */
const sha = { base: '', head: '', moved: '', merge: '' };

async function commit(repo: string, files: Record<string, string>, message: string): Promise<string> {
  for (const [f, text] of Object.entries(files)) await writeFile(join(repo, f), text);
  git(repo, ['add', '.']);
  git(repo, ['commit', '-qm', message]);
  return git(repo, ['rev-parse', 'HEAD']);
}

const DEPLOY_BASE = ['#!/bin/bash', 'set -e', 'rm -rf /tmp/$OLD', 'echo deployed', ''].join('\n');
/** The PR adds line 4 to deploy.sh (a finding) and adds new.sh (findings on lines 2 and 3). */
const DEPLOY_PR = ['#!/bin/bash', 'set -e', 'rm -rf /tmp/$OLD', 'rm -rf /tmp/$PR_ADDED', 'echo deployed', ''].join('\n');
const NEW_SH = ['#!/bin/bash', 'rm -rf /tmp/$NEW1', 'git push --force origin main', ''].join('\n');
/** What the base branch gained after the PR branched: findings the PR must not be blamed for. */
const MAIN_ONLY = ['#!/bin/bash', 'rm -rf /tmp/$MAIN_MOVED', ''].join('\n');

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'shellward-ghrun-'));
  const out = join(tmp, 'action-dist');
  execFileSync(process.execPath, [join(ROOT, 'scripts/bundle-action.mjs'), '--outdir', out], { cwd: ROOT, stdio: 'ignore' });
  entry = join(out, 'index.mjs');

  const src = join(tmp, 'upstream');
  await mkdir(src);
  git(src, ['init', '-q']);
  await commit(src, { 'deploy.sh': DEPLOY_BASE, 'README.md': '# demo\n' }, 'c1');
  for (let i = 2; i <= 6; i++) await commit(src, { 'README.md': `# demo\n${'.\n'.repeat(i)}` }, `c${i}`);
  sha.base = git(src, ['rev-parse', 'HEAD']);
  git(src, ['checkout', '-qb', 'feature']);
  await commit(src, { 'deploy.sh': DEPLOY_PR }, 'pr 1');
  sha.head = await commit(src, { 'new.sh': NEW_SH }, 'pr 2');
  git(src, ['checkout', '-q', 'main']);
  await commit(src, { 'main-only.sh': MAIN_ONLY }, 'main moves 1');
  sha.moved = await commit(src, { 'README.md': '# demo, moved\n' }, 'main moves 2');
  // GitHub's test merge: the moved base branch first, the PR head second.
  git(src, ['checkout', '-q', '--detach', sha.moved]);
  git(src, ['merge', '-q', '--no-ff', '-m', `Merge ${sha.head} into ${sha.moved}`, sha.head]);
  sha.merge = git(src, ['rev-parse', 'HEAD']);
  git(src, ['update-ref', 'refs/pull/7/merge', sha.merge]);
  git(src, ['update-ref', 'refs/pull/7/head', sha.head]);
  git(src, ['checkout', '-q', 'main']);
  origin = join(tmp, 'origin.git');
  git(tmp, ['clone', '-q', '--bare', src, origin]);
  // GitHub serves any reachable commit by id; a local remote must be told to.
  git(origin, ['config', 'uploadpack.allowAnySHA1InWant', 'true']);
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A workspace checked out as actions/checkout does with its default fetch-depth 1. */
async function checkout(name: string, commitId: string, ref: string, remote = true): Promise<string> {
  const ws = join(tmp, name);
  await mkdir(ws);
  git(ws, ['init', '-q']);
  git(ws, ['remote', 'add', 'origin', `file://${origin}`]);
  git(ws, ['fetch', '-q', '--no-tags', '--depth=1', 'origin', `+${commitId}:${ref}`]);
  git(ws, ['checkout', '-q', '--detach', ref]);
  if (!remote) git(ws, ['remote', 'remove', 'origin']);
  return ws;
}

function pullRequestEvent(): { name: string; payload: unknown } {
  return {
    name: 'pull_request',
    payload: {
      action: 'synchronize',
      number: 7,
      pull_request: { number: 7, base: { ref: 'main', sha: sha.base }, head: { ref: 'feature', sha: sha.head } },
      repository: { full_name: 'example-org/demo' },
    },
  };
}

type Run = RunnerResult & { readonly runnerTemp: string };

/** Runs the bundle in workspace `ws` for the pull request event, checked out at `githubSha`, with RUNNER_TEMP. */
async function runAction(ws: string, inputs: Record<string, string>, githubSha: string): Promise<Run> {
  const r = await runActionBundle({
    entry,
    workspace: ws,
    tmp,
    event: pullRequestEvent(),
    inputs,
    sha: githubSha,
    runnerTemp: true,
    env: { ...GIT_ENV, GITHUB_REF: 'refs/pull/7/merge' },
  });
  return { ...r, runnerTemp: r.runnerTemp! };
}

/** `uri:line ruleId` of each result, sorted. */
function places(log: Sarif.Log): string[] {
  return log.runs[0]!.results!.map((r) => {
    const p = r.locations![0]!.physicalLocation!;
    return `${p.artifactLocation!.uri}:${p.region!.startLine}`;
  }).filter((x, i, a) => a.indexOf(x) === i).sort();
}

/** The PR's changed lines with findings: deploy.sh line 4, new.sh lines 2 and 3. */
const PR_LINES = ['deploy.sh:4', 'new.sh:2', 'new.sh:3'];

async function readSarif(r: Run): Promise<{ log: Sarif.Log; text: string }> {
  const file = join(r.runnerTemp, 'shellward.sarif');
  const text = await readFile(file, 'utf8');
  return { log: JSON.parse(text) as Sarif.Log, text };
}

/** Every check of a SARIF log the Action wrote in workspace `ws`, line hashes against the files' text. */
async function expectUploadable(log: Sarif.Log, text: string, ws: string): Promise<void> {
  expect(validateSarif(log)).toEqual([]);
  expect(codeScanningViolations(log, text, { requireLineHash: true })).toEqual([]);
  for (const r of log.runs[0]!.results!) {
    const p = r.locations![0]!.physicalLocation!;
    const hashes = githubLineHashes(await readFile(join(ws, decodeURIComponent(p.artifactLocation!.uri!)), 'utf8'));
    expect(r.partialFingerprints!.primaryLocationLineHash).toBe(hashes[p.region!.startLine! - 1]);
    expect(r.partialFingerprints!['shellward/v1']).toMatch(/^[0-9a-f]{16}:\d+$/);
  }
}

describe('a pull_request run on GitHub’s shallow merge checkout with a stale base.sha', () => {
  let ws: string;
  let r: Run;
  beforeAll(async () => {
    ws = await checkout('merge-checkout', sha.merge, 'refs/remotes/pull/7/merge');
    expect(git(ws, ['rev-parse', '--is-shallow-repository'])).toBe('true');
    r = await runAction(ws, { 'fail-on': 'none' }, sha.merge);
  }, 60_000);

  it('reports exactly the lines the pull request changes, not the base branch’s newer commits', async () => {
    expect(r.code, r.stdout).toBe(0);
    const { log } = await readSarif(r);
    expect(places(log)).toEqual(PR_LINES);
  });

  it('says what it compared: HEAD^1, the base branch as merged, and that base.sha is older', () => {
    const line = `HEAD^1 ${sha.moved.slice(0, 7)} (the base branch the pull request was merged into; pull_request.base.sha ${sha.base.slice(0, 7)} is older: the base branch moved) with HEAD ${sha.merge.slice(0, 7)} (the merge commit)`;
    expect(r.summary).toContain(`Compared ${line}.`);
    expect(r.stdout).toContain(`changed-only: 2 files changed; compared ${line}.`);
    // The shallow clone lacked the first parent: it was fetched by id.
    expect(r.stdout).toMatch(/changed-only: fetching the merge commit's first parent [0-9a-f]{7} from origin/);
  });

  it('writes its SARIF to RUNNER_TEMP, not the workspace, and says where', async () => {
    expect(existsSync(join(ws, 'shellward.sarif'))).toBe(false);
    expect(r.outputs['sarif-file']).toBe(join(r.runnerTemp, 'shellward.sarif'));
    expect(git(ws, ['status', '--porcelain'])).toBe('');
  });

  it('writes SARIF that passes the schema and code scanning’s requirements, fingerprints included', async () => {
    const { log, text } = await readSarif(r);
    await expectUploadable(log, text, ws);
  });
});

describe('a pull_request run on a shallow checkout of the head commit', () => {
  it('deepens the history until it finds the merge base, then reports the same lines', async () => {
    const ws = await checkout('head-checkout', sha.head, 'refs/remotes/pull/7/head');
    const r = await runAction(ws, { 'fail-on': 'none' }, sha.head);
    expect(r.code, r.stdout).toBe(0);
    const { log, text } = await readSarif(r);
    expect(places(log)).toEqual(PR_LINES);
    expect(r.stdout).toMatch(/changed-only: deepening the shallow clone by 50 commits/);
    // base.sha is the fork point, so it is its own merge base with HEAD.
    expect(r.summary).toContain(`Compared pull_request.base.sha ${sha.base.slice(0, 7)} with HEAD ${sha.head.slice(0, 7)}.`);
    await expectUploadable(log, text, ws);
  }, 60_000);

  it('lints every file, and says why in the summary, when the base cannot be fetched', async () => {
    const ws = await checkout('no-remote', sha.head, 'refs/remotes/pull/7/head', false);
    const r = await runAction(ws, { 'fail-on': 'none' }, sha.head);
    expect(r.code, r.stdout).toBe(0);
    const { log } = await readSarif(r);
    expect(places(log)).toEqual(['deploy.sh:3', ...PR_LINES].sort());
    expect(r.summary).toContain(`Every file was linted: changed-only could not tell what changed (cannot list the files changed since ${sha.base} (pull_request.base.sha): base ref`);
  }, 60_000);
});

describe('a run with a bad config', () => {
  it('fails the step but writes a valid SARIF with the configuration error as a notification', async () => {
    const ws = await checkout('bad-config', sha.merge, 'refs/remotes/pull/7/merge');
    await writeFile(join(ws, 'shellward.config.json'), '{\n  "rules": {\n    "rm-recursive-force": "loud"\n  }\n}\n');
    const r = await runAction(ws, {}, sha.merge);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^::error::shellward\.config\.json: /m);
    const { log, text } = await readSarif(r);
    expect(validateSarif(log)).toEqual([]);
    expect(codeScanningViolations(log, text)).toEqual([]);
    const inv = log.runs[0]!.invocations!;
    expect(inv).toHaveLength(1);
    expect(inv[0]!.executionSuccessful).toBe(false);
    const n = inv[0]!.toolConfigurationNotifications![0]!;
    expect(n).toMatchObject({ level: 'error', descriptor: { id: 'configuration-error' } });
    expect(n.message.text).toContain('rm-recursive-force');
    expect(n.locations![0]!.physicalLocation!.artifactLocation).toEqual({ uri: 'shellward.config.json', uriBaseId: '%SRCROOT%' });
    expect(log.runs[0]!.results).toEqual([]);
    expect(r.outputs['sarif-file']).toBe(join(r.runnerTemp, 'shellward.sarif'));
  }, 60_000);
});
