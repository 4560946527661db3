/**
 * A simulated GitHub Actions runner for the Action's bundle, shared by the tests that run it as a
 * child process: the runner's variables (GITHUB_*, an event payload file, GITHUB_STEP_SUMMARY and
 * GITHUB_OUTPUT files, INPUT_* variables, optionally RUNNER_TEMP), nothing of the environment the
 * test itself runs in (a real runner, a git hook), and git with a fixed identity.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';

/** git's environment in these tests: a fixed identity, no user or system configuration. */
export const GIT_ENV: Readonly<Record<string, string>> = {
  PATH: process.env.PATH ?? '',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

/** Runs `git args…` in `cwd` with {@link GIT_ENV} (no signing, branch `main` for `init`); returns its stdout, trimmed. Throws when git fails. */
export function git(cwd: string, args: readonly string[]): string {
  return execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8', env: GIT_ENV }).trim();
}

/** Parses GITHUB_OUTPUT (`name<<delimiter`, value lines, `delimiter`) into name → value. */
export function parseOutputs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const end = lines.indexOf(m[2]!, i + 1);
    expect(end, `unterminated output ${m[1]}`).toBeGreaterThan(i);
    out[m[1]!] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return out;
}

/** One run of the bundle as GitHub would start it. */
export interface RunnerOptions {
  /** The bundle's entry point (`…/index.mjs`), away from the repository's node_modules. */
  readonly entry: string;
  /** GITHUB_WORKSPACE, and the working directory of the run. */
  readonly workspace: string;
  /** A directory the runner's files are made in (one new directory per run). */
  readonly tmp: string;
  /** GITHUB_EVENT_NAME and the payload written to GITHUB_EVENT_PATH. */
  readonly event: { readonly name: string; readonly payload: unknown };
  /** The inputs by their names in action.yml (`fail-on`); passed as INPUT_<NAME>. */
  readonly inputs: Readonly<Record<string, string>>;
  /** GITHUB_SHA. */
  readonly sha: string;
  /** Set RUNNER_TEMP to a new directory (the default place of the SARIF file). */
  readonly runnerTemp?: boolean;
  /** Further variables (GITHUB_REF, git's identity …). */
  readonly env?: Readonly<Record<string, string>>;
}

/** What a run did. */
export interface RunnerResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** GITHUB_OUTPUT, parsed. */
  readonly outputs: Record<string, string>;
  /** GITHUB_STEP_SUMMARY's text. */
  readonly summary: string;
  /** The run's own directory (event file, summary, outputs). */
  readonly dir: string;
  /** RUNNER_TEMP, when {@link RunnerOptions.runnerTemp} asked for it. */
  readonly runnerTemp?: string;
}

/** Runs the bundle once (see {@link RunnerOptions}) and waits for it to exit. */
export async function runActionBundle(o: RunnerOptions): Promise<RunnerResult> {
  const dir = await mkdtemp(join(o.tmp, 'run-'));
  const files = { event: join(dir, 'event.json'), summary: join(dir, 'summary.md'), output: join(dir, 'output.txt') };
  await writeFile(files.event, JSON.stringify(o.event.payload));
  await writeFile(files.summary, '');
  await writeFile(files.output, '');
  const runnerTemp = o.runnerTemp ? join(dir, 'temp') : undefined;
  if (runnerTemp) await mkdir(runnerTemp);
  // Nothing of the environment the test itself may run in (a GitHub runner, a git hook) leaks in.
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(GITHUB_|INPUT_|RUNNER_|ACTIONS_|GIT_)/.test(k)));
  Object.assign(env, o.env, {
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_WORKSPACE: o.workspace,
    GITHUB_EVENT_NAME: o.event.name,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_OUTPUT: files.output,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'example-org/demo',
    GITHUB_SHA: o.sha,
    ...(runnerTemp ? { RUNNER_TEMP: runnerTemp } : {}),
  });
  // @actions/core reads INPUT_<name uppercased, spaces as _>; dashes stay.
  for (const [name, value] of Object.entries(o.inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  const child = spawn(process.execPath, [o.entry], { cwd: o.workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputs(await readFile(files.output, 'utf8')),
    summary: await readFile(files.summary, 'utf8'),
    dir,
    ...(runnerTemp ? { runnerTemp } : {}),
  };
}
