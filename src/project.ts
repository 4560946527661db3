/**
 * One lint run over a project (I/O edge): the `lint` command, the GitHub Action and the library
 * API all call {@link runProject}, so they find the same files, read them as the same kinds, apply
 * the same configuration (ignores, profiles, severities, permission policy and the permission mode
 * of `.claude/settings*.json`) and report the policy files' own findings the same way. What stays
 * theirs: where candidates come from when not from paths (`--staged`, `--changed`, the Action's
 * changed-only scope), and what they do with the results (baselines, annotations, SARIF upload).
 */
import { relative, sep } from 'node:path';
import { globMatcher, type ResolvedConfig } from './config/config.js';
import { policyFileResults } from './config/policy-lint.js';
import type { Profile } from './core/types.js';
import { compareDiagnostics, Linter, type LinterOptions } from './lint.js';
import type { FileResult } from './report/index.js';
import type { PermissionMode } from './rules/decide.js';
import { linterOptionsFor } from './linter-options.js';
import type { Concurrency } from './lint-pool.js';
import { lintFiles, type RunResult } from './runner.js';
import { discover, displayPath, type Candidate, type DiscoveryError } from './sources/discover.js';

/** What {@link runProject} lints and how. */
export { linterOptionsFor };

export interface ProjectOptions {
  /** Directory paths are resolved from and displayed relative to (absolute). */
  readonly cwd: string;
  /** The loaded configuration (src/config/load.ts). */
  readonly config: ResolvedConfig;
  /** Files, directories and globs to discover (default `.`); ignored when `candidates` is given. */
  readonly paths?: readonly string[];
  /** Candidates found by the caller instead (staged content, changed files, standard input). */
  readonly candidates?: readonly Candidate[];
  /** Errors of the caller's own discovery, passed through to {@link ProjectRun.errors}. */
  readonly discoveryErrors?: readonly DiscoveryError[];
  /** Keeps only the candidates it returns true for (after the config's `ignore`): a change scope. */
  readonly scope?: (c: Candidate) => boolean;
  /**
   * More paths read whole and outside `scope` and `ignore`, each as if named explicitly (the
   * Action's `transcripts`).
   */
  readonly wholeFiles?: readonly string[];
  /** Profile of scripts and Makefiles (the CLI's `--profile`); default: the config's. */
  readonly profile?: Profile;
  /** Permission mode of the decisions; default: `permissions.defaultMode` of the settings files. */
  readonly permissionMode?: PermissionMode;
  /** Further linter options (the path host of local commands). */
  readonly linter?: Pick<LinterOptions, 'pathHost'>;
  /** Also compute per-unit verdicts (`lint --format json`). */
  readonly verdicts?: boolean;
  /** Progress of the lint itself (src/runner.ts `RunOptions.onProgress`): candidates done of total, bytes read. */
  readonly onProgress?: (done: number, total: number, bytes: number) => void;
  /** Worker threads for the files (src/lint-pool.ts); default `off`. The results do not depend on it. */
  readonly concurrency?: Concurrency;
}

/** The outcome of {@link runProject}. */
export interface ProjectRun extends RunResult {
  /** Path arguments that matched nothing or could not be read. */
  readonly errors: readonly DiscoveryError[];
  /** The candidates linted, sorted by path. */
  readonly candidates: readonly Candidate[];
  /** Displayed paths of the {@link ProjectOptions.wholeFiles} candidates. */
  readonly wholeFileNames: ReadonlySet<string>;
  /** The linter the run used (for severities of follow-up steps such as `--sandbox`). */
  readonly linter: Linter;
}

/**
 * Discovers (or takes) the candidates, drops those the configuration ignores or `scope` rejects,
 * lints them kind by kind and adds the policy files' `policy-overbroad-allow` findings (merged
 * into a file's result when the file was linted too, as a `.claude/settings.json` with hooks is).
 * Results are sorted by file. Never throws for a bad path: it is reported in `errors`.
 */
export async function runProject(options: ProjectOptions): Promise<ProjectRun> {
  const { cwd, config } = options;
  const errors: DiscoveryError[] = [...(options.discoveryErrors ?? [])];
  let found: readonly Candidate[];
  if (options.candidates) found = options.candidates;
  else {
    const d = await discover(options.paths && options.paths.length > 0 ? options.paths : ['.'], cwd);
    found = d.candidates;
    errors.push(...d.errors);
  }
  const ignore = config.config.ignore ?? [];
  const ignored = globMatcher(ignore);
  const byPath = new Map<string, Candidate>();
  for (const c of found) {
    if (ignore.length > 0 && ignored(relative(config.root, c.path).split(sep).join('/'))) continue;
    if (options.scope && !options.scope(c)) continue;
    byPath.set(c.path, c);
  }
  const wholeFileNames = new Set<string>();
  if (options.wholeFiles && options.wholeFiles.length > 0) {
    const d = await discover(options.wholeFiles, cwd);
    errors.push(...d.errors);
    for (const c of d.candidates) {
      byPath.set(c.path, { path: c.path, explicit: true });
      wholeFileNames.add(displayPath(c.path, cwd));
    }
  }
  const candidates = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const linter = await Linter.create({ ...linterOptionsFor(config, options.permissionMode), ...options.linter });
  const profiles = config.config.profile;
  const profile = options.profile ?? profiles?.script ?? 'script';
  const run = await lintFiles(linter, candidates, {
    cwd,
    profile,
    verdicts: options.verdicts === true,
    makefileNames: config.config.makefiles ?? [],
    makefileProfile: options.profile ?? profiles?.makefile ?? profile,
    transcriptProfile: profiles?.transcript ?? 'agent',
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
  });
  const results: FileResult[] = [...run.results];
  // A policy file reported here but not linted as a file of its own counts as analysed too, so
  // the summaries never say "in 2 files; 1 file checked".
  let filesAnalysed = run.filesAnalysed;
  const level = linter.severityFor('policy-overbroad-allow', { profile });
  if (level) {
    for (const p of policyFileResults(config, level)) {
      const i = results.findIndex((r) => r.file === p.file);
      if (i === -1) {
        results.push(p);
        filesAnalysed++;
      } else results[i] = { ...results[i]!, diagnostics: [...results[i]!.diagnostics, ...p.diagnostics].sort(compareDiagnostics) };
    }
  }
  results.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { results, filesAnalysed, bytes: run.bytes, errors, candidates, wholeFileNames, linter };
}
