/** `shellward lint [paths…]`: the main job. */
import type { Command } from 'commander';
import { Option } from 'commander';
import { customPackRuleMetas } from '../checks/destructive/destructive-command.js';
import { RULES } from '../checks/index.js';
import type { Profile, Severity } from '../core/types.js';
import { SEVERITY_RANK } from '../core/types.js';
import { formatReport, OUTPUT_FORMATS, type OutputFormat } from '../report/index.js';
import { maskReportInput } from '../report/mask.js';
import { runProject, type ProjectRun } from '../project.js';
import { formatJsonChunks } from '../report/json.js';
import { discover, type Candidate, type DiscoveryError } from '../sources/discover.js';
import { stagedCandidates } from '../sources/staged.js';
import { relative, resolve, sep } from 'node:path';
import { addConfigOptions, loadCliConfig, type ConfigCliOptions } from './config-options.js';
import { EXIT } from './exit-codes.js';
import { emit, emitChunks, readPathList, sarifFileText, useColor } from './io.js';
import { VERSION } from './version.js';
import { readFile, writeFile } from 'node:fs/promises';
import { BaselineError, createBaseline, filterBaseline, formatBaseline, parseBaseline, type Baseline } from '../baseline.js';
import { changedLines, defaultBase, GitChangeError, onChangedLines, repositoryRoot, type ChangedLines } from '../git/changed.js';
import { CODE_SCANNING_LIMITS, formatSarif, sarifOmitted } from '../report/sarif.js';
import type { FileResult } from '../report/index.js';
import { realpath } from 'node:fs/promises';
import { InvalidArgumentError } from 'commander';
import { execa } from 'execa';
import { escapeForTerminal } from '../report/index.js';
import { DEFAULT_SANDBOX_LIMIT, parseSandboxLimit } from '../sandbox/batch.js';
import { DEFAULT_TIMEOUT_MS } from '../sandbox/defaults.js';
import { parseTimeout } from './sandbox-check-command.js';
import { lintProgress, progressWanted } from './progress.js';
import type { Concurrency } from '../lint-pool.js';

/** `--sandbox-limit` for commander. */
function sandboxLimitOption(value: string): number {
  try {
    return parseSandboxLimit(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

interface LintOptions extends ConfigCliOptions {
  format: OutputFormat;
  output?: string;
  failOn: Severity | 'none';
  filesFrom?: string;
  profile?: Profile;
  color?: boolean;
  baseline?: string;
  writeBaseline?: string;
  staged?: boolean;
  changed?: boolean;
  base?: string;
  allLines?: boolean;
  sarifCategory?: string;
  sandbox?: boolean;
  sandboxLimit?: number;
  sandboxTimeout?: number;
  quiet?: boolean;
  stdinFilename?: string;
  progress?: boolean;
  concurrency: Concurrency;
}

/** `--concurrency` for commander: `auto`, `off` or a positive integer. */
function concurrencyOption(value: string): Concurrency {
  if (value === 'auto' || value === 'off') return value;
  if (!/^[1-9][0-9]{0,3}$/.test(value)) throw new InvalidArgumentError('expected a positive whole number, "auto" or "off"');
  return Number(value);
}

/** All of standard input as bytes. */
async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

/** What `--changed` lints: the discovered candidates the branch changed, and its changed lines. */
interface ChangedScope {
  readonly root: string;
  readonly candidates: readonly Candidate[];
  readonly errors: readonly DiscoveryError[];
  /** Changed line ranges per repository-relative path (every changed file has an entry). */
  readonly lines: ChangedLines;
}

/**
 * `lint --changed`: the files of `args` (relative to `cwd`; discovered as usual) that are added,
 * copied, modified or renamed between the merge base of `base` (default: origin/HEAD's branch,
 * else main or master) and HEAD. Prints a one-line error naming the base and returns `undefined`
 * when git cannot tell.
 */
async function changedScope(args: readonly string[], cwd: string, base: string | undefined): Promise<ChangedScope | undefined> {
  const root = await repositoryRoot(cwd);
  if (root === undefined) {
    process.stderr.write('shellward: --changed: not inside a git work tree\n');
    return undefined;
  }
  const ref = base ?? (await defaultBase(root));
  if (ref === undefined) {
    process.stderr.write('shellward: --changed: no base branch found (origin/HEAD, main, master, origin/main, origin/master); name one with --base\n');
    return undefined;
  }
  let lines: ChangedLines;
  try {
    lines = await changedLines({ cwd: root, base: ref });
  } catch (err) {
    if (!(err instanceof GitChangeError)) throw err;
    process.stderr.write(`shellward: --changed: ${err.message}${base === undefined ? ` (default base ${ref}; name another with --base)` : ''}\n`);
    return undefined;
  }
  await describeBase(root, ref);
  const found = await discover(args, await realpath(cwd));
  const candidates = found.candidates.filter((c) => lines.has(relative(root, c.path).split(sep).join('/')));
  return { root, candidates, errors: found.errors, lines };
}

/** The full commit id `ref` names in `root`'s repository, or `undefined`. */
async function commitOf(root: string, ref: string): Promise<string | undefined> {
  const r = await execa('git', ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], { cwd: root, reject: false });
  return r.exitCode === 0 && !r.failed ? String(r.stdout).trim() : undefined;
}

/**
 * Says on stderr which base `--changed` compares with (`comparing with main (1a2b3c4)`, plus
 * the merge base when it is another commit), and when the merge base is HEAD itself (the base
 * is HEAD, or already contains it: origin/HEAD pointing at the current branch) that nothing is
 * changed relative to it, so an empty report is not mistaken for a clean one.
 */
async function describeBase(root: string, ref: string): Promise<void> {
  const [base, head] = await Promise.all([commitOf(root, ref), commitOf(root, 'HEAD')]);
  if (base === undefined || head === undefined) return;
  const mb = await execa('git', ['merge-base', base, head], { cwd: root, reject: false });
  const mergeBase = mb.exitCode === 0 && !mb.failed ? String(mb.stdout).trim() : undefined;
  const short = (sha: string): string => sha.slice(0, 7);
  const via = mergeBase !== undefined && mergeBase !== base ? `, merge base ${short(mergeBase)}` : '';
  process.stderr.write(`shellward: --changed: comparing with ${escapeForTerminal(ref)} (${short(base)}${via})\n`);
  if (mergeBase === head) {
    process.stderr.write(
      `shellward: --changed: HEAD is already in ${escapeForTerminal(ref)} (the merge base is HEAD): nothing has changed relative to it, so nothing is linted ` +
        '(uncommitted changes are not compared; --staged lints the index, --base names another base)\n',
    );
  }
}

/** The findings of `results` on changed lines of changed files, and how many others were dropped. */
function keepChangedLines(results: readonly FileResult[], lines: ChangedLines): { results: FileResult[]; dropped: number } {
  let dropped = 0;
  const kept = results.map((r) => {
    const diagnostics = onChangedLines(r.diagnostics, lines, r.file);
    dropped += r.diagnostics.length - diagnostics.length;
    return diagnostics.length === r.diagnostics.length ? r : { ...r, diagnostics };
  });
  return { results: kept, dropped };
}

/** Reads and parses the baseline file `file`; prints a one-line error and returns `undefined` when it cannot. */
async function loadBaseline(file: string): Promise<Baseline | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    process.stderr.write(`shellward: baseline ${file}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? 'error'})`}\n`);
    return undefined;
  }
  try {
    return parseBaseline(text);
  } catch (err) {
    process.stderr.write(`shellward: baseline ${file}: ${err instanceof BaselineError ? err.message : String(err)}\n`);
    return undefined;
  }
}

/** Runs `lint` and returns the exit code. Errors in single arguments are printed to stderr. */
export async function runLint(paths: string[], opts: LintOptions): Promise<number> {
  let cwd = process.cwd();
  // `-`: the text on standard input, read as the kind --stdin-filename names (default: a shell script).
  const fromStdin = paths.includes('-');
  const args = paths.filter((p) => p !== '-');
  if (fromStdin && (opts.staged || opts.changed || opts.filesFrom === '-')) {
    process.stderr.write(`shellward: - (standard input) cannot be combined with ${opts.staged ? '--staged' : opts.changed ? '--changed' : '--files-from -'}\n`);
    return EXIT.ERROR;
  }
  if (opts.stdinFilename !== undefined && !fromStdin) {
    process.stderr.write('shellward: --stdin-filename needs - among the paths\n');
    return EXIT.ERROR;
  }
  if (opts.filesFrom) args.push(...(await readPathList(opts.filesFrom)));
  if (args.length === 0 && !opts.staged && !fromStdin) args.push('.');
  const stdin: Candidate | undefined = fromStdin ? { path: resolve(cwd, opts.stdinFilename ?? '<stdin>'), explicit: true, content: await readStdin() } : undefined;
  if (opts.staged && opts.changed) {
    process.stderr.write('shellward: --staged and --changed cannot be combined\n');
    return EXIT.ERROR;
  }
  let changed: ChangedScope | undefined;
  const resolved = await loadCliConfig(opts, cwd);
  if (!resolved) return EXIT.ERROR;
  // A bad baseline is reported before any work is done.
  const baseline = opts.baseline !== undefined ? await loadBaseline(opts.baseline) : undefined;
  if (opts.baseline !== undefined && !baseline) return EXIT.ERROR;
  let found: readonly Candidate[];
  let errors: readonly DiscoveryError[];
  if (opts.staged) {
    // The index, not the working tree; paths (if any) narrow the staged files; displayed paths
    // are relative to the repository root.
    const staged = await stagedCandidates(cwd, args);
    if (!staged) {
      process.stderr.write('shellward: --staged: not inside a git work tree\n');
      return EXIT.ERROR;
    }
    ({ candidates: found, errors } = staged);
    cwd = staged.root;
  } else if (opts.changed) {
    // Displayed paths are relative to the repository root, as for --staged.
    changed = await changedScope(args, cwd, opts.base);
    if (!changed) return EXIT.ERROR;
    ({ candidates: found, errors } = changed);
    cwd = changed.root;
  } else {
    ({ candidates: found, errors } = await discover(args, cwd));
  }
  for (const e of errors) process.stderr.write(`shellward: ${e.arg}: ${e.message}\n`);
  if (stdin) found = [...found, stdin];
  // A progress line on stderr while files are linted (a terminal outside CI, or --progress).
  const progress = progressWanted(opts.progress, process.stderr, process.env) ? lintProgress(process.stderr) : undefined;
  let run: ProjectRun;
  try {
    run = await runProject({
      cwd,
      config: resolved,
      candidates: found,
      ...(opts.profile ? { profile: opts.profile } : {}),
      ...(opts.permissionMode ? { permissionMode: opts.permissionMode } : {}),
      verdicts: opts.format === 'json' || opts.sandbox === true,
      concurrency: opts.concurrency,
      ...(progress ? { onProgress: (done: number, total: number, bytes: number) => progress.update(done, total, bytes) } : {}),
    });
  } finally {
    progress?.stop();
  }
  const { linter } = run;
  // --sandbox: the transcript calls the policy allows run in the sandbox (src/sandbox/batch.ts).
  let noSandbox = false;
  if (opts.sandbox) {
    const { sandboxLint } = await import('../sandbox/batch.js');
    const transcriptProfile = resolved.config.profile?.transcript ?? 'agent';
    const s = await sandboxLint(run.results, (id, requested) => linter.severityFor(id, { profile: transcriptProfile }, requested), {
      keepVerdicts: opts.format === 'json',
      ...(opts.sandboxLimit !== undefined ? { limit: opts.sandboxLimit } : {}),
      ...(opts.sandboxTimeout !== undefined ? { timeoutMs: opts.sandboxTimeout } : {}),
    });
    run.results.length = 0;
    for (const r of s.results) run.results.push(r);
    for (const m of s.messages) process.stderr.write(`shellward: --sandbox: ${escapeForTerminal(m)}\n`);
    // No sandbox, or a call it could not run: the check asked for did not happen for every call.
    noSandbox = s.unavailable || s.batch.counts.errors > 0;
  }
  if (opts.writeBaseline !== undefined) {
    const written = createBaseline(run.results, VERSION);
    try {
      await writeFile(opts.writeBaseline, formatBaseline(written));
    } catch (err) {
      process.stderr.write(`shellward: baseline ${opts.writeBaseline}: cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'})\n`);
      return EXIT.ERROR;
    }
    process.stderr.write(`shellward: wrote ${written.entries.length} finding${written.entries.length === 1 ? '' : 's'} to baseline ${opts.writeBaseline}\n`);
  }
  let results = run.results;
  if (baseline) {
    const filtered = filterBaseline(run.results, baseline);
    results = filtered.results;
    if (filtered.matched > 0) process.stderr.write(`shellward: ${filtered.matched} finding${filtered.matched === 1 ? '' : 's'} in baseline ${opts.baseline} not shown\n`);
  }
  if (changed && !opts.allLines) {
    const onLines = keepChangedLines(results, changed.lines);
    results = onLines.results;
    if (onLines.dropped > 0) process.stderr.write(`shellward: ${onLines.dropped} finding${onLines.dropped === 1 ? '' : 's'} on lines the change did not touch not shown (--all-lines shows them)\n`);
  }
  // --quiet: errors only, in every format and for the exit code (as ESLint's --quiet).
  if (opts.quiet) results = results.map((r) => (r.diagnostics.every((d) => d.severity === 'error') ? r : { ...r, diagnostics: r.diagnostics.filter((d) => d.severity === 'error') }));
  const color = opts.output ? false : useColor(process.stdout, process.env, opts.color);
  // No format prints a secret found in a command (rule secret-in-command): masked here, once.
  const input = maskReportInput({ results, rules: [...RULES, ...customPackRuleMetas(resolved.packs)], toolVersion: VERSION, filesAnalysed: run.filesAnalysed });
  // JSON is streamed (a report with a verdict per statement of a large script can exceed V8's
  // largest string); the other formats are rendered whole.
  const report = opts.format === 'json' ? '' : opts.format === 'sarif' ? formatSarif(input, { category: opts.sarifCategory, fileText: sarifFileText(cwd) }) : formatReport(opts.format, input, { color });
  const omitted = opts.format === 'sarif' ? sarifOmitted(input) : 0;
  if (omitted > 0) process.stderr.write(`shellward: ${omitted} finding${omitted === 1 ? '' : 's'} left out of the SARIF report (code scanning accepts ${CODE_SCANNING_LIMITS.resultsPerRun} results per run; the most severe were kept)\n`);
  await (opts.format === 'json' ? emitChunks(formatJsonChunks(input), opts.output) : emit(report, opts.output));
  const all = results.flatMap((r) => r.diagnostics);
  // An internal error fails the run even when a baseline recorded it.
  if (errors.length > 0 || noSandbox || run.results.some((r) => r.diagnostics.some((d) => d.ruleId === 'internal-error'))) return EXIT.ERROR;
  // Writing a baseline accepts the current findings.
  if (opts.failOn === 'none' || opts.writeBaseline !== undefined) return EXIT.OK;
  const threshold = SEVERITY_RANK[opts.failOn];
  return all.some((d) => SEVERITY_RANK[d.severity] <= threshold) ? EXIT.FINDINGS : EXIT.OK;
}

/** Adds the `lint` subcommand to `program`; `setExit` receives the exit code. */
export function registerLintCommand(program: Command, setExit: (code: number) => void): void {
  const lint = program
    .command('lint')
    .description('lint shell scripts, Makefiles, CI workflows, Dockerfiles, package.json scripts and agent transcripts: files, directories (git-tracked files), globs, - for standard input; default: .')
    .argument('[paths...]', 'files, directories or glob patterns; - reads standard input')
    .addOption(new Option('-f, --format <format>', 'output format').choices([...OUTPUT_FORMATS]).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this severity').choices(['error', 'warning', 'note', 'none']).default('error'))
    .option('--files-from <file>', 'read more paths from a file, one per line (- for stdin)')
    .option('--stdin-filename <name>', 'with the path -: the name of the text on standard input, which chooses its kind (.github/workflows/ci.yml, Dockerfile, package.json …; default: a shell script) and is shown in the report')
    .addOption(new Option('--profile <profile>', 'profile for scripts (how loud checks are; default: the config\'s profile.script, else script)').choices(['script', 'agent']))
    .option('--staged', 'lint the staged contents (the git index) of added, copied, modified and renamed files; paths narrow them')
    .option('--changed', 'lint only files changed since the merge base with --base (committed changes, HEAD); paths narrow them')
    .option('--base <ref>', 'base of --changed (default: the branch origin/HEAD points at, else main, else master)')
    .option('--all-lines', 'with --changed: report findings on every line of a changed file, not only on changed lines')
    .option('-q, --quiet', 'report errors only (warnings and notes are neither printed nor counted)')
    .option('--sarif-category <id>', 'code scanning category of --format sarif (run.automationDetails.id)')
    .option('--baseline <file>', 'report only findings that are not in this baseline file (written by --write-baseline)')
    .option('--write-baseline <file>', 'write every current finding to a baseline file (the report is still printed; exit 0 unless an error)')
    .option('--sandbox', 'also run the transcript tool calls the policy allows in a sandbox (bubblewrap / sandbox-exec) and report what they did; never runs asked or denied calls, scripts or Makefiles; exit 2 when no sandbox is available or a call could not be run in it')
    .addOption(new Option('--sandbox-limit <n>', 'with --sandbox: most distinct commands run').argParser(sandboxLimitOption).default(DEFAULT_SANDBOX_LIMIT))
    .addOption(new Option('--sandbox-timeout <ms>', 'with --sandbox: time-out of each command in milliseconds').argParser(parseTimeout).default(DEFAULT_TIMEOUT_MS))
    .option('--progress', 'show a progress line on stderr even in CI or when stderr is not a terminal (then a plain line every 2 s); default: on a terminal outside CI, after half a second')
    .option('--no-progress', 'never show the progress line')
    .addOption(new Option('--concurrency <n>', 'worker threads for the files: a number, auto (one per 50 files or 512 KB, at most one less than the CPUs, none below 2) or off (all in the main thread); the report is the same').argParser(concurrencyOption).default('auto'))
    .option('--color', 'force colour output')
    .option('--no-color', 'disable colour output');
  addConfigOptions(lint).action(async (paths: string[], opts: LintOptions) => {
    setExit(await runLint(paths, opts));
  });
}
