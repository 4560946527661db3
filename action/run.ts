/**
 * The GitHub Action (action.yml): lints the given paths (on a pull request only the files and
 * lines it changes), writes a SARIF file for code scanning, emits annotations (most severe
 * first, within GitHub's per-step limit), writes a job summary and sets the outputs. The CLI's
 * `lint` pipeline is reused unchanged; only inputs, scope, outputs and annotations are the
 * Action's own. action/main.ts calls {@link run}; the bundle (action/dist/) is built from it.
 */
import * as core from '@actions/core';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { RULES } from '../src/checks/index.js';
import { ConfigError } from '../src/config/config.js';
import { loadConfig } from '../src/config/load.js';
import { sarifFileText } from '../src/cli/io.js';
import { VERSION } from '../src/cli/version.js';
import { SEVERITY_RANK, type Severity } from '../src/core/types.js';
import { changedFiles, changedLines, type ChangedLines } from '../src/git/changed.js';
import { initParser } from '../src/parse/parser.js';
import { buildConfigErrorSarif } from '../src/report/sarif.js';
import { buildSarif, countSeverities, formatReport, sortFileResults, type FileResult, type ReportInput } from '../src/report/index.js';
import { displayPath, type Candidate } from '../src/sources/discover.js';
import { resolveBase } from './base.js';
import { runProject } from '../src/project.js';
import { CHANGED_ONLY_EVENTS, eventBase, scopeResults } from './scope.js';
import { planAnnotations, plural, rankedFindings, renderSummary, type Finding, type SummaryScope } from './summary.js';

const FAIL_ON = ['error', 'warning', 'note', 'none'] as const;
type FailOn = (typeof FAIL_ON)[number];

/** The Action's inputs, parsed. */
export interface Inputs {
  readonly paths: string[];
  readonly transcripts: string[];
  readonly config: string;
  readonly failOn: FailOn;
  /** `undefined`: the default (on for pull_request events). */
  readonly changedOnly: boolean | undefined;
  readonly allLines: boolean;
  readonly sarifFile: string;
  readonly sarifCategory: string;
  readonly annotations: boolean;
}

/** Input errors are reported with the input's name and end the run. */
class InputError extends Error {}

/** Path lists: one or more per line, separated by whitespace. */
function pathList(name: string): string[] {
  return core
    .getInput(name)
    .split(/\s+/)
    .filter((p) => p !== '');
}

/** `true`/`false` in the YAML 1.2 core schema spellings (as core.getBooleanInput); empty → `dflt`. */
function bool<T>(name: string, dflt: T): boolean | T {
  const v = core.getInput(name);
  if (v === '') return dflt;
  if (['true', 'True', 'TRUE'].includes(v)) return true;
  if (['false', 'False', 'FALSE'].includes(v)) return false;
  throw new InputError(`Input ${name}: expected true or false, got ${JSON.stringify(v)}.`);
}

/** Reads and checks the `INPUT_*` variables. Throws {@link InputError}. */
export function readInputs(): Inputs {
  const failOn = (core.getInput('fail-on') || 'error').toLowerCase();
  if (!(FAIL_ON as readonly string[]).includes(failOn)) {
    throw new InputError(`Input fail-on: expected one of ${FAIL_ON.join(', ')}, got ${JSON.stringify(failOn)}.`);
  }
  return {
    paths: pathList('paths'),
    transcripts: pathList('transcripts'),
    config: core.getInput('config'),
    failOn: failOn as FailOn,
    changedOnly: bool('changed-only', undefined),
    allLines: bool('all-lines', false),
    // Outside the workspace by default, so the report is never linted, committed or uploaded as an artefact by accident.
    sarifFile: core.getInput('sarif-file') || (process.env.RUNNER_TEMP ? join(process.env.RUNNER_TEMP, 'shellward.sarif') : 'shellward.sarif'),
    sarifCategory: core.getInput('sarif-category'),
    annotations: bool('annotations', true),
  };
}

/**
 * In the bundle (action/dist/index.mjs) the two `.wasm` files sit next to the script: initialise
 * the parser from there before anything else does (initParser keeps the first initialisation).
 * Compiled to dist/action/ there are none, and the installed packages' files are used.
 */
async function initBundledParser(): Promise<void> {
  const languageWasm = new URL('tree-sitter-bash.wasm', import.meta.url);
  const runtimeWasm = new URL('tree-sitter.wasm', import.meta.url);
  if (languageWasm.protocol !== 'file:' || !existsSync(languageWasm) || !existsSync(runtimeWasm)) return;
  await initParser({ languageWasm: fileURLToPath(languageWasm), runtimeWasm: fileURLToPath(runtimeWasm) });
}

/** The event that triggered the workflow and its payload (`{}` when there is none). */
async function readEvent(): Promise<{ name: string; payload: unknown }> {
  const name = process.env.GITHUB_EVENT_NAME ?? '';
  const path = process.env.GITHUB_EVENT_PATH;
  if (!path) return { name, payload: {} };
  try {
    return { name, payload: JSON.parse(await readFile(path, 'utf8')) as unknown };
  } catch (err) {
    core.warning(`Cannot read the event payload ${path}: ${err instanceof Error ? err.message : String(err)}`);
    return { name, payload: {} };
  }
}

/** The changed files and lines since `base` for `cwd`'s repository, or a reason why not. */
interface ChangeSet {
  readonly base: string;
  /** `cwd` relative to the repository root (POSIX, `''` at the root). */
  readonly prefix: string;
  readonly files: ReadonlySet<string>;
  readonly lines?: ChangedLines;
}

async function changeSet(cwd: string, base: string, allLines: boolean, exact = false): Promise<ChangeSet> {
  const top = await execa('git', ['rev-parse', '--show-toplevel', '--show-prefix'], { cwd, reject: false });
  if (top.exitCode !== 0 || top.failed) throw new Error(`not in a git work tree (${String(top.stderr).trim() || top.shortMessage})`);
  const [root = cwd, prefix = ''] = String(top.stdout).split('\n');
  const files = await changedFiles({ cwd: root, base, exact });
  const lines = allLines ? undefined : await changedLines({ cwd: root, base, exact });
  return { base, prefix: prefix.replace(/\/$/, ''), files: new Set(files), ...(lines ? { lines } : {}) };
}

/**
 * Emits the annotation of one finding. A file outside the workspace (shown absolute: a transcript
 * from elsewhere) cannot carry one, so its annotation names the place in the message instead.
 */
function annotate(f: Finding): void {
  const { d } = f;
  const outside = f.file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(f.file);
  const props: core.AnnotationProperties = outside
    ? { title: d.ruleId }
    : {
        title: d.ruleId,
        file: f.file,
        startLine: d.range.start.line,
        endLine: d.range.end.line,
        // GitHub uses columns only for single-line annotations.
        ...(d.range.start.line === d.range.end.line ? { startColumn: d.range.start.column, endColumn: d.range.end.column } : {}),
      };
  const message = outside ? `${f.file}:${d.range.start.line}:${d.range.start.column}: ${d.message}` : d.message;
  if (d.severity === 'error') core.error(message, props);
  else if (d.severity === 'warning') core.warning(message, props);
  else core.notice(message, props);
}

/** Prints `text` with workflow commands stopped, so file names and messages can never act as one. */
function printInert(text: string): void {
  const token = randomUUID();
  process.stdout.write(`::stop-commands::${token}\n${text}::${token}::\n`);
}

/** `https://github.com/owner/repo/blob/<sha>/`, from the runner's variables, or `undefined`. */
function blobUrl(): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_SHA: sha } = process.env;
  return server && repo && sha ? `${server}/${repo}/blob/${sha}/` : undefined;
}

/** Writes `log` to `file` (relative to `cwd`), creating its directory. */
async function writeSarif(cwd: string, file: string, log: unknown): Promise<void> {
  await mkdir(dirname(resolve(cwd, file)), { recursive: true });
  await writeFile(resolve(cwd, file), JSON.stringify(log, null, 2) + '\n');
}

/** Runs the Action; every failure becomes `core.setFailed`, never an unhandled rejection. */
export async function run(): Promise<void> {
  await initBundledParser();
  let inputs: Inputs;
  try {
    inputs = readInputs();
  } catch (err) {
    if (err instanceof InputError) return core.setFailed(err.message);
    throw err;
  }
  const cwd = process.cwd();
  let resolved: Awaited<ReturnType<typeof loadConfig>>;
  try {
    resolved = await loadConfig({ cwd, ...(inputs.config ? { configFile: inputs.config } : {}) });
  } catch (err) {
    // Still a valid SARIF file, saying what is wrong, so an `if: always()` upload step succeeds.
    const message = err instanceof ConfigError ? err.message : String(err);
    const problem = err instanceof ConfigError ? { message, file: err.file, ...(err.location ? { line: err.location.line, ...(err.location.column !== undefined ? { column: err.location.column } : {}) } : {}) } : { message };
    await writeSarif(cwd, inputs.sarifFile, buildConfigErrorSarif({ rules: RULES, toolVersion: VERSION }, problem, { category: inputs.sarifCategory }));
    core.setOutput('sarif-file', inputs.sarifFile);
    return core.setFailed(message);
  }

  // Scope: on a pull request (or when asked) only the files and lines the change touches.
  const event = await readEvent();
  const changedOnly = inputs.changedOnly ?? CHANGED_ONLY_EVENTS.has(event.name);
  let changes: ChangeSet | undefined;
  /** What changed-only compared, or why it linted every file instead (for the job summary). */
  let compared: string | undefined;
  let unscoped: string | undefined;
  if (changedOnly) {
    const base = eventBase(event.name, event.payload);
    if (!base) {
      unscoped = `the ${event.name || 'unknown'} event names no base commit`;
      core.warning(`changed-only: ${unscoped}; linting every file.`);
    } else {
      try {
        const found = await resolveBase({ cwd, eventBase: base, log: (l) => core.info(l) });
        changes = await changeSet(cwd, found.base, inputs.allLines, true);
        compared = found.description;
        core.info(`changed-only: ${plural(changes.files.size, 'file')} changed; compared ${compared}.`);
      } catch (err) {
        const why = (err instanceof Error ? err.message : String(err)).replace(/\.$/, '');
        // The git errors of a missing base already say to check out with fetch-depth: 0.
        const advice = /fetch-depth/.test(why) ? '' : ' Check out with `fetch-depth: 0` (actions/checkout) so the base commit is present.';
        unscoped = `cannot list the files changed since ${base.base} (${base.source}): ${why}`;
        core.warning(`changed-only: ${unscoped}.${advice} Linting every file.`);
      }
    }
  }

  const isChanged = (c: Candidate): boolean => {
    if (!changes) return true;
    const rel = displayPath(c.path, cwd);
    return changes.files.has(changes.prefix === '' ? rel : `${changes.prefix}/${rel}`);
  };
  // The same run as `shellward lint` (src/project.ts); transcripts are artefacts of agent runs,
  // not part of the change: always linted whole.
  const lint = await runProject({ cwd, config: resolved, paths: inputs.paths.length > 0 ? inputs.paths : ['.'], scope: isChanged, wholeFiles: inputs.transcripts });
  const errors = lint.errors;
  for (const e of errors) core.error(`${e.arg}: ${e.message}`);
  const keep = lint.wholeFileNames;
  const candidates = lint.candidates;
  let results: FileResult[] = sortFileResults(lint.results);
  let scope: SummaryScope | undefined;
  if (changes) {
    const scoped = scopeResults(results, { prefix: changes.prefix, files: changes.files, keep, ...(changes.lines ? { lines: changes.lines } : {}) });
    results = scoped.results;
    scope = { base: changes.base, ...(compared ? { compared } : {}), files: candidates.filter((c) => !keep.has(displayPath(c.path, cwd))).length, droppedLines: scoped.droppedLines, allLines: inputs.allLines };
  }

  const input: ReportInput = { results, rules: RULES, toolVersion: VERSION, filesAnalysed: lint.filesAnalysed };
  await writeSarif(cwd, inputs.sarifFile, buildSarif(input, { category: inputs.sarifCategory, fileText: sarifFileText(cwd) }));

  const ranked = rankedFindings(results);
  const plan = inputs.annotations ? planAnnotations(ranked) : undefined;
  if (plan) {
    for (const f of plan.shown) annotate(f);
    const left = plan.omitted.error + plan.omitted.warning + plan.omitted.note;
    if (left > 0) core.info(`${plural(left, 'more finding')} ${left === 1 ? 'is' : 'are'} not shown as annotations (GitHub shows 10 per level and step); see the job summary and ${inputs.sarifFile}.`);
  }
  printInert(formatReport('text', input, { color: false }));

  if (process.env.GITHUB_STEP_SUMMARY) {
    const url = blobUrl();
    const summary = renderSummary({
      results,
      filesAnalysed: lint.filesAnalysed,
      sarifFile: inputs.sarifFile,
      ...(plan ? { omitted: plan.omitted } : {}),
      ...(scope ? { scope } : {}),
      ...(unscoped ? { unscoped } : {}),
      ...(url ? { blobUrl: url } : {}),
    });
    await core.summary.addRaw(summary).write();
  }

  const counts = countSeverities(results);
  core.setOutput('errors', counts.errors);
  core.setOutput('warnings', counts.warnings);
  core.setOutput('notes', counts.notes);
  core.setOutput('total', counts.total);
  core.setOutput('sarif-file', inputs.sarifFile);

  if (errors.length > 0) core.setFailed(`${plural(errors.length, 'path argument')} matched no file or could not be read.`);
  else if (lint.results.some((r) => r.diagnostics.some((d) => d.ruleId === 'internal-error'))) core.setFailed('shellward hit an internal error (see the internal-error findings).');
  else if (inputs.failOn !== 'none' && ranked.some((f) => SEVERITY_RANK[f.d.severity] <= SEVERITY_RANK[inputs.failOn as Severity])) {
    core.setFailed(`shellward found ${plural(counts.errors, 'error')}, ${plural(counts.warnings, 'warning')} and ${plural(counts.notes, 'note')} (fail-on: ${inputs.failOn}).`);
  }
}
