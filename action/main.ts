/**
 * GitHub Action entry: lints the given paths, writes a SARIF file for code scanning, and
 * emits annotations on the pull request (most severe first). The CLI's `lint` pipeline is
 * reused unchanged; only inputs, outputs and annotations are Action-specific.
 */
import * as core from '@actions/core';
import { writeFile } from 'node:fs/promises';
import { RULES } from '../src/checks/index.js';
import { SEVERITY_RANK, type Diagnostic, type Severity } from '../src/core/types.js';
import { Linter } from '../src/lint.js';
import { formatReport } from '../src/report/index.js';
import { lintFiles } from '../src/runner.js';
import { discover } from '../src/sources/discover.js';
import { VERSION } from '../src/cli/version.js';
import { ConfigError, globMatcher } from '../src/config/config.js';
import { loadConfig } from '../src/config/load.js';
import { policyFileResults } from '../src/config/policy-lint.js';
import { relative, sep } from 'node:path';

/** GitHub shows at most this many annotations of one level per step. */
const ANNOTATION_LIMIT = 10;

function annotate(d: Diagnostic): void {
  const props: core.AnnotationProperties = {
    title: d.ruleId,
    file: d.file,
    startLine: d.range.start.line,
    endLine: d.range.end.line,
    ...(d.range.start.line === d.range.end.line ? { startColumn: d.range.start.column, endColumn: d.range.end.column } : {}),
  };
  if (d.severity === 'error') core.error(d.message, props);
  else if (d.severity === 'warning') core.warning(d.message, props);
  else core.notice(d.message, props);
}

/** Runs the Action; every failure becomes `core.setFailed`, never an unhandled rejection. */
export async function run(): Promise<void> {
  const paths = core.getMultilineInput('paths').flatMap((l) => l.split(/\s+/)).filter(Boolean);
  const failOn = (core.getInput('fail-on') || 'error') as Severity | 'none';
  const sarifFile = core.getInput('sarif-file') || 'shellward.sarif';
  const wantAnnotations = core.getBooleanInput('annotations');
  const cwd = process.cwd();
  const configFile = core.getInput('config');
  let resolved;
  try {
    resolved = await loadConfig({ cwd, ...(configFile ? { configFile } : {}) });
  } catch (err) {
    core.setFailed(err instanceof ConfigError ? err.message : String(err));
    return;
  }
  const { candidates: found, errors } = await discover(paths.length > 0 ? paths : ['.'], cwd);
  for (const e of errors) core.warning(`${e.arg}: ${e.message}`);
  const ignore = resolved.config.ignore ?? [];
  const ignored = globMatcher(ignore);
  const candidates = ignore.length === 0 ? found : found.filter((c) => !ignored(relative(resolved.root, c.path).split(sep).join('/')));
  const linter = await Linter.create({ severity: resolved.severity, policy: resolved.policy });
  const profile = resolved.config.profile?.script ?? 'script';
  const result = await lintFiles(linter, candidates, { cwd, profile, makefileNames: resolved.config.makefiles ?? [] });
  const overbroad = linter.severityFor('policy-overbroad-allow', { profile });
  if (overbroad) result.results.push(...policyFileResults(resolved, overbroad));
  const input = { results: result.results, rules: RULES, toolVersion: VERSION, filesAnalysed: result.filesAnalysed };
  await writeFile(sarifFile, formatReport('sarif', input, { color: false }));
  const all = result.results.flatMap((r) => r.diagnostics);
  const counts = { error: 0, warning: 0, note: 0 };
  for (const d of all) counts[d.severity]++;
  if (wantAnnotations) {
    const sorted = [...all].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
    const shown = { error: 0, warning: 0, note: 0 };
    for (const d of sorted) {
      if (shown[d.severity] >= ANNOTATION_LIMIT) continue;
      shown[d.severity]++;
      annotate(d);
    }
    const hidden = all.length - shown.error - shown.warning - shown.note;
    if (hidden > 0) core.info(`${hidden} more findings are not shown as annotations (GitHub shows ${ANNOTATION_LIMIT} per level); see ${sarifFile}.`);
  }
  process.stdout.write(formatReport('text', input, { color: false }));
  core.setOutput('errors', counts.error);
  core.setOutput('warnings', counts.warning);
  core.setOutput('notes', counts.note);
  core.setOutput('sarif-file', sarifFile);
  if (failOn !== 'none' && all.some((d) => SEVERITY_RANK[d.severity] <= SEVERITY_RANK[failOn])) {
    core.setFailed(`shellward found ${counts.error} errors, ${counts.warning} warnings and ${counts.note} notes (fail-on: ${failOn}).`);
  }
  if (errors.length > 0) core.setFailed(`${errors.length} path arguments matched no file.`);
}

run().catch((err: unknown) => core.setFailed(err instanceof Error ? (err.stack ?? err.message) : String(err)));
