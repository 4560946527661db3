/**
 * `shellward init`: writes a starter `shellward.config.json` and, on request, a husky pre-commit
 * hook, a GitHub Actions workflow and a `.pre-commit-config.yaml`. An existing file is never
 * overwritten without `--force`: it is named on stderr, the other files are still written, and
 * the exit code is 2.
 */
import type { Command } from 'commander';
import { access, chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SEARCH_PLACES } from '../config/load.js';
import { EXIT } from './exit-codes.js';

/** Where the action is published; the README's Action section uses the same reference. */
export const ACTION_REF = 'shellward/shellward@v0';

/** The repository of the pre-commit hooks (`.pre-commit-hooks.yaml`). */
export const HOOKS_REPO = 'https://github.com/shellward/shellward';

/** The config file `init` writes. */
export const CONFIG_FILE = 'shellward.config.json';

/**
 * The starter config: the schema (from the installed package, so editors complete and check
 * keys), the profiles, severity overrides as examples, ignores and an empty policy.
 */
export const STARTER_CONFIG = {
  $schema: './node_modules/shellward/schemas/shellward-config.schema.json',
  profile: { script: 'script', makefile: 'script', transcript: 'agent' },
  rules: { 'rm-recursive-force': 'warning', 'git-push-force': 'error', 'policy-ask': 'off' },
  ignore: ['node_modules/**', 'vendor/**'],
  permissions: { deny: ['Bash(git push --force:*)'], ask: [], allow: [] },
} as const;

/** `.husky/pre-commit`: lint the staged content (husky v9 runs the file with `sh`). */
export const HUSKY_HOOK = '# shellward: lint the staged shell scripts and Makefiles (the index, not the working tree).\nnpx --no-install shellward lint --staged\n';

/** `.github/workflows/shellward.yml`: lint the PR's changes, annotate, upload SARIF to code scanning. */
export const WORKFLOW = `# shellward: lint the shell in scripts, Makefiles, these workflows, Dockerfiles and package.json; PR annotations and code scanning alerts.
name: shellward
on:
  push:
    branches: [main]
  pull_request:
permissions:
  contents: read
  security-events: write # upload-sarif
  actions: read # upload-sarif in private repositories
jobs:
  shellward:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0 # the PR's base commit, to lint only what the PR changes
      - uses: ${ACTION_REF}
        with:
          paths: . # the whole repository, .github/workflows included
          sarif-file: shellward.sarif
      - uses: github/codeql-action/upload-sarif@v3
        if: always()
        with:
          sarif_file: shellward.sarif
          category: shellward
`;

/** `.pre-commit-config.yaml` for the pre-commit framework. */
export const PRE_COMMIT_CONFIG = `repos:
  - repo: ${HOOKS_REPO}
    rev: main # pin a release tag or commit
    hooks:
      - id: shellward
      # - id: shellward-makefiles  # also makefile, GNUmakefile and *.make
`;

/** Options of {@link initProject}. */
export interface InitOptions {
  readonly force?: boolean;
  readonly husky?: boolean;
  readonly workflow?: boolean;
  readonly preCommitConfig?: boolean;
}

/** What {@link initProject} did. Paths are relative to the directory, with `/`. */
export interface InitResult {
  readonly written: readonly string[];
  /** Files left alone, each with the reason. */
  readonly skipped: ReadonlyArray<{ readonly file: string; readonly reason: string }>;
  readonly warnings: readonly string[];
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** The first other shellward config in `dir` (in search order), e.g. `.shellwardrc.yaml` or `package.json` with a `shellward` key. */
async function otherConfig(dir: string): Promise<string | undefined> {
  for (const place of SEARCH_PLACES) {
    if (place === CONFIG_FILE) continue;
    const path = join(dir, place);
    if (!(await exists(path))) continue;
    if (place !== 'package.json') return place;
    try {
      const pkg = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
      if (pkg && typeof pkg === 'object' && 'shellward' in pkg) return 'package.json (key "shellward")';
    } catch {
      // A package.json that does not parse configures nothing.
    }
  }
  return undefined;
}

/** The files `options` asks for, with their content, `shellward.config.json` first. */
export function initFiles(options: InitOptions): Array<{ file: string; content: string; mode?: number }> {
  const files: Array<{ file: string; content: string; mode?: number }> = [{ file: CONFIG_FILE, content: JSON.stringify(STARTER_CONFIG, null, 2) + '\n' }];
  if (options.husky) files.push({ file: '.husky/pre-commit', content: HUSKY_HOOK, mode: 0o755 });
  if (options.workflow) files.push({ file: '.github/workflows/shellward.yml', content: WORKFLOW });
  if (options.preCommitConfig) files.push({ file: '.pre-commit-config.yaml', content: PRE_COMMIT_CONFIG });
  return files;
}

/**
 * Writes the starter files into `dir`. An existing file (or, for the config, another shellward
 * config in `dir`) is skipped unless `force`; the others are still written.
 */
export async function initProject(dir: string, options: InitOptions): Promise<InitResult> {
  const written: string[] = [];
  const skipped: Array<{ file: string; reason: string }> = [];
  const warnings: string[] = [];
  for (const { file, content, mode } of initFiles(options)) {
    const path = join(dir, ...file.split('/'));
    if (!options.force && (await exists(path))) {
      skipped.push({ file, reason: 'already exists; not overwritten (--force overwrites it)' });
      continue;
    }
    if (file === CONFIG_FILE) {
      const other = await otherConfig(dir);
      if (other !== undefined && !options.force) {
        skipped.push({ file, reason: `not written: ${other} already configures shellward (--force writes it anyway)` });
        continue;
      }
      if (other !== undefined && SEARCH_PLACES.findIndex((p) => other.startsWith(p)) < SEARCH_PLACES.indexOf(CONFIG_FILE)) {
        warnings.push(`${other} is found before ${CONFIG_FILE} and stays in effect`);
      }
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
    if (mode !== undefined) await chmod(path, mode);
    written.push(file);
  }
  return { written, skipped, warnings };
}

/** Adds the `init` subcommand to `program`; `setExit` receives the exit code. */
export function registerInitCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('init')
    .description(`write a starter ${CONFIG_FILE} (and, on request, a pre-commit hook and a workflow) in the current directory; never overwrites without --force`)
    .option('--force', 'overwrite existing files')
    .option('--husky', 'also write .husky/pre-commit (runs `shellward lint --staged`)')
    .option('--workflow', 'also write .github/workflows/shellward.yml (the Action, with SARIF upload to code scanning)')
    .option('--pre-commit-config', 'also write .pre-commit-config.yaml (the pre-commit framework hook)')
    .action(async (opts: InitOptions) => {
      const result = await initProject(process.cwd(), opts);
      for (const file of result.written) process.stdout.write(`wrote ${file}\n`);
      for (const { file, reason } of result.skipped) process.stderr.write(`shellward: init: ${file} ${reason}\n`);
      for (const w of result.warnings) process.stderr.write(`shellward: init: warning: ${w}\n`);
      setExit(result.skipped.length > 0 ? EXIT.ERROR : EXIT.OK);
    });
}
