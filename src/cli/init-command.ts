/**
 * `shellward init`: writes a starter `shellward.config.json` and, on request, a husky pre-commit
 * hook, a GitHub Actions workflow and a `.pre-commit-config.yaml`. An existing file is never
 * overwritten without `--force`: it is named on stderr, the other files are still written, and
 * the exit code is 2.
 */
import type { Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SEARCH_PLACES } from '../config/load.js';
import { readBuildInfo, type BuildInfo } from './build-info.js';
import { EXIT } from './exit-codes.js';
import { initAgentHooks } from './agent-hook-init.js';
import { exists, readJsonFile, writeProjectFile } from './project-files.js';
import { VERSION } from './version.js';

/** The repository of the action and the pre-commit hooks (`.pre-commit-hooks.yaml`). */
export const HOOKS_REPO = 'https://github.com/shellward/shellward';

/** The command that prints the newest commit of the repository's main branch. */
export const LS_REMOTE = `git ls-remote ${HOOKS_REPO} refs/heads/main`;

/**
 * The git reference `init` pins the action and the hooks to. No release tag exists yet, so it
 * is the full commit SHA this shellward was built from (recorded at build time: see
 * src/cli/build-info.ts); when that is unknown, `main` with a comment saying how to pin.
 */
export interface Pin {
  /** A full commit SHA, or `main`. */
  readonly ref: string;
  /** Whether `ref` is a commit SHA. */
  readonly pinned: boolean;
  /** The YAML comment written after the reference. */
  readonly comment: string;
}

/** The {@link Pin} for a build. */
export function pinFor(build: BuildInfo): Pin {
  if (build.commit) {
    return { ref: build.commit, pinned: true, comment: `shellward ${build.version}; no release tag yet: a full commit SHA (\`${LS_REMOTE}\` gives the newest)` };
  }
  return { ref: 'main', pinned: false, comment: `moving reference: pin a full commit SHA, from \`${LS_REMOTE}\`` };
}

/** The pin of this installation. */
export const PIN: Pin = pinFor(readBuildInfo(VERSION));

/** `uses:` of the action in the workflow `init` writes. */
export function actionRef(pin: Pin = PIN): string {
  return `shellward/shellward@${pin.ref}`;
}

/** Where the action is published, pinned as {@link PIN}. */
export const ACTION_REF = actionRef();

/**
 * The config schema's URL in the repository at the pinned commit (a raw file, which editors
 * fetch): it works in projects without node_modules (pre-commit framework or Action only).
 */
export function schemaUrl(pin: Pin = PIN): string {
  return `https://raw.githubusercontent.com/shellward/shellward/${pin.ref}/schemas/shellward-config.schema.json`;
}

/** The config file `init` writes. */
export const CONFIG_FILE = 'shellward.config.json';

/**
 * The starter config: the schema (its URL at the pinned commit, {@link schemaUrl}, so editors
 * complete and check keys and rule ids), the profiles, severity overrides as examples, ignores
 * and an empty policy.
 */
export function starterConfig(pin: Pin = PIN) {
  return {
    $schema: schemaUrl(pin),
    profile: { script: 'script', makefile: 'script', transcript: 'agent' },
    rules: { 'rm-recursive-force': 'warning', 'git-push-force': 'error', 'policy-ask': 'off' },
    ignore: ['node_modules/**', 'vendor/**'],
    permissions: { deny: ['Bash(git push --force:*)'], ask: [], allow: [] },
  } as const;
}

/** {@link starterConfig} of this installation. */
export const STARTER_CONFIG = starterConfig();

/** The command the husky hook runs. */
export const HUSKY_COMMAND = 'npx --no-install shellward lint --staged';

/** Where husky (v9) keeps the pre-commit hook. */
export const HUSKY_FILE = '.husky/pre-commit';

/** `.husky/pre-commit`: lint the staged content (husky v9 runs the file with `sh`). */
export const HUSKY_HOOK = `# shellward: lint the staged shell scripts and Makefiles (the index, not the working tree).\n${HUSKY_COMMAND}\n`;

/**
 * An existing husky hook with {@link HUSKY_HOOK} added: after its last line (so `npm test` and
 * the rest still run first, and a failing shellward fails the commit as husky's `sh -e` does),
 * with a newline between them when the file lacks a final one.
 */
export function mergeHuskyHook(existing: string): string {
  if (existing.trim() === '') return HUSKY_HOOK;
  return `${existing}${existing.endsWith('\n') ? '' : '\n'}${HUSKY_HOOK}`;
}

/** `.github/workflows/shellward.yml`: lint the PR's changes, annotate, upload SARIF to code scanning. */
export function workflow(pin: Pin = PIN): string {
  return `# shellward: lint the shell in scripts, Makefiles, these workflows, Dockerfiles and package.json; PR annotations and code scanning alerts.
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
      - uses: ${actionRef(pin)} # ${pin.comment}
        id: shellward
        with:
          paths: . # the whole repository, .github/workflows included
      - uses: github/codeql-action/upload-sarif@v3
        if: always()
        with:
          sarif_file: \${{ steps.shellward.outputs.sarif-file }}
          category: shellward
`;
}

/** {@link workflow} of this installation. */
export const WORKFLOW = workflow();

/** `.pre-commit-config.yaml` for the pre-commit framework. */
export function preCommitConfig(pin: Pin = PIN): string {
  return `repos:
  - repo: ${HOOKS_REPO}
    rev: ${pin.ref} # ${pin.comment}
    hooks:
      - id: shellward
      # - id: shellward-makefiles  # also makefile, GNUmakefile and *.make
`;
}

/** {@link preCommitConfig} of this installation. */
export const PRE_COMMIT_CONFIG = preCommitConfig();

/** Options of {@link initProject}. */
export interface InitOptions {
  readonly force?: boolean;
  readonly husky?: boolean;
  readonly workflow?: boolean;
  readonly preCommitConfig?: boolean;
  /** What the workflow, the hook config and the `$schema` URL pin (default {@link PIN}). */
  readonly pin?: Pin;
}

/** What {@link initProject} did. Paths are relative to the directory, with `/`. */
export interface InitResult {
  readonly written: readonly string[];
  /** Files left alone, each with the reason. */
  readonly skipped: ReadonlyArray<{ readonly file: string; readonly reason: string }>;
  readonly warnings: readonly string[];
}

/** The first other shellward config in `dir` (in search order), e.g. `.shellwardrc.yaml` or `package.json` with a `shellward` key. */
async function otherConfig(dir: string): Promise<string | undefined> {
  for (const place of SEARCH_PLACES) {
    if (place === CONFIG_FILE) continue;
    const path = join(dir, place);
    if (place !== 'package.json') {
      if (await exists(path)) return place;
      continue;
    }
    // A package.json that does not parse configures nothing.
    const pkg = await readJsonFile(path);
    if (pkg && 'value' in pkg && typeof pkg.value === 'object' && pkg.value !== null && 'shellward' in pkg.value) return 'package.json (key "shellward")';
  }
  return undefined;
}

/** The files `options` asks for, with their content, `shellward.config.json` first. */
export function initFiles(options: InitOptions): Array<{ file: string; content: string; mode?: number }> {
  const pin = options.pin ?? PIN;
  const files: Array<{ file: string; content: string; mode?: number }> = [{ file: CONFIG_FILE, content: JSON.stringify(starterConfig(pin), null, 2) + '\n' }];
  if (options.husky) files.push({ file: HUSKY_FILE, content: HUSKY_HOOK, mode: 0o755 });
  if (options.workflow) files.push({ file: '.github/workflows/shellward.yml', content: workflow(pin) });
  if (options.preCommitConfig) files.push({ file: '.pre-commit-config.yaml', content: preCommitConfig(pin) });
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
    const present = await exists(path);
    if (file === HUSKY_FILE && present) {
      // husky's hook usually already runs something (`npm test`): add shellward to it, never replace it.
      const current = await readFile(path, 'utf8');
      if (current.includes(HUSKY_COMMAND)) {
        skipped.push({ file, reason: 'already runs shellward; left as it is' });
        continue;
      }
      if (!options.force) {
        skipped.push({ file, reason: 'already exists; not changed (--force adds the shellward line to it, keeping what it runs)' });
        continue;
      }
      await writeProjectFile(path, mergeHuskyHook(current), mode);
      written.push(file);
      continue;
    }
    if (!options.force && present) {
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
    await writeProjectFile(path, content, mode);
    written.push(file);
  }
  const pin = options.pin ?? PIN;
  if (!pin.pinned && (written.includes('.github/workflows/shellward.yml') || written.includes('.pre-commit-config.yaml'))) {
    warnings.push(`this shellward does not know the commit it was built from, so the workflow and hook config refer to main (a moving reference); pin a full commit SHA from \`${LS_REMOTE}\``);
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
    .option('--claude-hook', 'only add `shellward hook` as the PreToolUse hook to .claude/settings.json (merged, idempotent)')
    .option('--gemini-hook', 'only add `shellward hook` as the BeforeTool hook to .gemini/settings.json (merged, idempotent)')
    .option('--codex-hook', 'only add `shellward hook` as the PreToolUse hook to .codex/hooks.json (merged, idempotent)')
    .action(async (opts: InitOptions & { claudeHook?: boolean; geminiHook?: boolean; codexHook?: boolean }) => {
      if (opts.claudeHook || opts.geminiHook || opts.codexHook) {
        const agents = [...(opts.claudeHook ? (['claude-code'] as const) : []), ...(opts.geminiHook ? (['gemini'] as const) : []), ...(opts.codexHook ? (['codex'] as const) : [])];
        setExit(await initAgentHooks(process.cwd(), agents));
        return;
      }
      const result = await initProject(process.cwd(), opts);
      for (const file of result.written) process.stdout.write(`wrote ${file}\n`);
      for (const { file, reason } of result.skipped) process.stderr.write(`shellward: init: ${file} ${reason}\n`);
      for (const w of result.warnings) process.stderr.write(`shellward: init: warning: ${w}\n`);
      setExit(result.skipped.length > 0 ? EXIT.ERROR : EXIT.OK);
    });
}
