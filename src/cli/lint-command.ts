/** `shellward lint [paths…]`: the main job. */
import type { Command } from 'commander';
import { Option } from 'commander';
import { RULES } from '../checks/index.js';
import type { Profile, Severity } from '../core/types.js';
import { SEVERITY_RANK } from '../core/types.js';
import { Linter } from '../lint.js';
import { formatReport, OUTPUT_FORMATS, type OutputFormat } from '../report/index.js';
import { lintFiles } from '../runner.js';
import { discover } from '../sources/discover.js';
import { globMatcher } from '../config/config.js';
import { policyFileResults } from '../config/policy-lint.js';
import { relative, sep } from 'node:path';
import { addConfigOptions, loadCliConfig, type ConfigCliOptions } from './config-options.js';
import { EXIT } from './exit-codes.js';
import { emit, readPathList, useColor } from './io.js';
import { VERSION } from './version.js';

interface LintOptions extends ConfigCliOptions {
  format: OutputFormat;
  output?: string;
  failOn: Severity | 'none';
  filesFrom?: string;
  profile?: Profile;
  color?: boolean;
}

/** Runs `lint` and returns the exit code. Errors in single arguments are printed to stderr. */
export async function runLint(paths: string[], opts: LintOptions): Promise<number> {
  const cwd = process.cwd();
  const args = [...paths];
  if (opts.filesFrom) args.push(...(await readPathList(opts.filesFrom)));
  if (args.length === 0) args.push('.');
  const resolved = await loadCliConfig(opts, cwd);
  if (!resolved) return EXIT.ERROR;
  const { candidates: found, errors } = await discover(args, cwd);
  for (const e of errors) process.stderr.write(`shellward: ${e.arg}: ${e.message}\n`);
  const ignore = resolved.config.ignore ?? [];
  const ignored = globMatcher(ignore);
  const candidates = ignore.length === 0 ? found : found.filter((c) => !ignored(relative(resolved.root, c.path).split(sep).join('/')));
  const linter = await Linter.create({ severity: resolved.severity, policy: resolved.policy });
  // The runner has one profile for scripts and Makefiles: the flag, else the config's `profile.script`.
  const profile = opts.profile ?? resolved.config.profile?.script ?? 'script';
  const run = await lintFiles(linter, candidates, { cwd, profile, verdicts: opts.format === 'json', makefileNames: resolved.config.makefiles ?? [] });
  // The policy's own findings (policy-overbroad-allow), at the rule strings in the policy files.
  const level = linter.severityFor('policy-overbroad-allow', { profile });
  if (level) run.results.push(...policyFileResults(resolved, level));
  const color = opts.output ? false : useColor(process.stdout, process.env, opts.color);
  const report = formatReport(opts.format, { results: run.results, rules: RULES, toolVersion: VERSION, filesAnalysed: run.filesAnalysed }, { color });
  await emit(report, opts.output);
  const all = run.results.flatMap((r) => r.diagnostics);
  if (errors.length > 0 || all.some((d) => d.ruleId === 'internal-error')) return EXIT.ERROR;
  if (opts.failOn === 'none') return EXIT.OK;
  const threshold = SEVERITY_RANK[opts.failOn];
  return all.some((d) => SEVERITY_RANK[d.severity] <= threshold) ? EXIT.FINDINGS : EXIT.OK;
}

/** Adds the `lint` subcommand to `program`; `setExit` receives the exit code. */
export function registerLintCommand(program: Command, setExit: (code: number) => void): void {
  const lint = program
    .command('lint')
    .description('lint shell scripts, Makefiles and agent transcripts: files, directories (git-tracked files) and globs; default: .')
    .argument('[paths...]', 'files, directories or glob patterns')
    .addOption(new Option('-f, --format <format>', 'output format').choices([...OUTPUT_FORMATS]).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this severity').choices(['error', 'warning', 'note', 'none']).default('error'))
    .option('--files-from <file>', 'read more paths from a file, one per line (- for stdin)')
    .addOption(new Option('--profile <profile>', 'profile for scripts (how loud checks are; default: the config\'s profile.script, else script)').choices(['script', 'agent']))
    .option('--color', 'force colour output')
    .option('--no-color', 'disable colour output');
  addConfigOptions(lint).action(async (paths: string[], opts: LintOptions) => {
    setExit(await runLint(paths, opts));
  });
}
