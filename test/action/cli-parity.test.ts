/**
 * The CLI and the Action run the same lint (src/project.ts): on one repository — the real-project
 * and ci-configs fixture trees (workflows, Dockerfiles, package.json, GitLab CI, pre-commit, dev
 * container, Claude Code settings with hooks, permission rules and `permissions.defaultMode`) —
 * `shellward lint --format sarif` and the Action (compiled to dist/action/main.js, run with the
 * runner's INPUT_* variables) report exactly the same results. Run `npm run build` first.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let repo: string;

beforeAll(async () => {
  repo = await mkdtemp(join(tmpdir(), 'shellward-parity-'));
  await cp(join(ROOT, 'test/fixtures/kinds/real-project'), repo, { recursive: true });
  await cp(join(ROOT, 'test/fixtures/kinds/ci-configs'), join(repo, 'ci'), { recursive: true });
  // Settings at the root: hooks to lint, an over-broad allow rule, and a permission mode.
  await cp(join(ROOT, 'test/fixtures/kinds/ci-configs/.claude'), join(repo, '.claude'), { recursive: true });
  const settings = JSON.parse(await readFile(join(repo, '.claude/settings.json'), 'utf8')) as Record<string, unknown>;
  settings.permissions = { defaultMode: 'acceptEdits', allow: ['Bash(bash:*)'], deny: ['Bash(git push:*)'] };
  await writeFile(join(repo, '.claude/settings.json'), JSON.stringify(settings, null, 2) + '\n');
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  execFileSync('git', ['init', '-q'], { cwd: repo, env });
  execFileSync('git', ['add', '.'], { cwd: repo, env });
});

afterAll(async () => {
  await rm(repo, { recursive: true, force: true });
});

interface SarifLog {
  runs: { results: { ruleId: string; level: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }[] }[] }[];
}

/** The results of a SARIF log as sorted one-line strings. */
function results(log: SarifLog): string[] {
  return log.runs[0]!.results
    .map((r) => {
      const p = r.locations[0]!.physicalLocation;
      return `${p.artifactLocation.uri}:${p.region.startLine}:${p.region.startColumn}-${p.region.endLine}:${p.region.endColumn} ${r.level} [${r.ruleId}] ${r.message.text}`;
    })
    .sort();
}

it('gives the same findings from the CLI and the Action', async () => {
  const cli = await execa(process.execPath, [join(ROOT, 'dist/src/cli/bin.js'), 'lint', '--format', 'sarif', '.'], { cwd: repo, reject: false });
  expect(cli.exitCode).toBe(1);
  const fromCli = results(JSON.parse(String(cli.stdout)) as SarifLog);

  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', 'INPUT_SARIF-FILE': 'out.sarif', INPUT_ANNOTATIONS: 'false', 'INPUT_FAIL-ON': 'none', INPUT_PATHS: '.' };
  const action = await execa(process.execPath, [join(ROOT, 'dist/action/main.js')], { cwd: repo, env, extendEnv: false, reject: false });
  expect(action.exitCode, String(action.stdout)).toBe(0);
  const fromAction = results(JSON.parse(await readFile(join(repo, 'out.sarif'), 'utf8')) as SarifLog);

  expect(fromAction).toEqual(fromCli);
  // Every kind of file of the repository is reported, and the injection is found in both.
  const files = new Set(fromCli.map((l) => l.slice(0, l.indexOf(':'))));
  for (const f of ['.claude/settings.json', '.github/workflows/pr-title.yml', 'Dockerfile', 'ci/.gitlab-ci.yml', 'ci/.pre-commit-config.yaml', 'ci/.devcontainer/devcontainer.json', 'ci/Containerfile', 'ci/.github/actions/setup/action.yml']) {
    expect(files, f).toContain(f);
  }
  expect(fromCli.some((l) => l.startsWith('.github/workflows/pr-title.yml:10:18') && l.includes('[untrusted-input-in-run]'))).toBe(true);
  expect(fromCli.filter((l) => l.includes('[untrusted-input-in-run]') && l.includes('pr-title.yml'))).toHaveLength(1);
  expect(fromCli.some((l) => l.includes('[policy-overbroad-allow]'))).toBe(true);
  expect(fromCli.some((l) => l.startsWith('.claude/settings.json') && l.includes('[policy-deny]'))).toBe(true);
}, 120_000);
