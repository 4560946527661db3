/**
 * What GitHub code scanning accepts, as a checker for every SARIF log shellward writes (the report
 * tests, the CLI, the Action). Two public sources:
 * - "SARIF support for code scanning" (docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning):
 *   the properties code scanning requires (`version` 2.1.0, `runs`, `tool.driver.name`, a rule's
 *   `id`, `shortDescription.text`, `fullDescription.text` and `help.text`, a result's
 *   `message.text`, `locations` with an `artifactLocation.uri` and a `region.startLine`,
 *   `partialFingerprints`) and recommends (`$schema`, `semanticVersion`, `helpUri`,
 *   `help.markdown`, `properties.precision` and `properties.problem.severity` of a rule,
 *   `security-severity` as a number from 0.0 to 10.0 in a string, at most 10 locations per
 *   result — only one unless every location must change);
 * - "SARIF results exceed limit" (docs.github.com/en/code-security/code-scanning/troubleshooting-sarif-uploads/results-exceed-limit)
 *   and "SARIF file is too large": the hard limits, over which an upload is rejected
 *   ({@link CODE_SCANNING_LIMITS}: 20 runs per file, 25,000 results and 25,000 rules per run,
 *   100 tool extensions per run, 1,000 locations per result, 20 tags per rule, 10 MB of gzip).
 */
import { gzipSync } from 'node:zlib';
import type * as Sarif from 'sarif';
import { CODE_SCANNING_LIMITS } from '../../src/report/sarif.js';

/** Locations per result the support page allows ("up to a maximum of 10"). */
export const LOCATIONS_PER_RESULT = 10;

const PRECISIONS = new Set(['very-high', 'high', 'medium', 'low']);
const PROBLEM_SEVERITIES = new Set(['error', 'warning', 'recommendation']);

function nonEmpty(s: unknown): boolean {
  return typeof s === 'string' && s.trim() !== '';
}

/**
 * Every way `log` (parsed from `text`, the bytes that would be uploaded) breaks a requirement,
 * recommendation or hard limit above, one readable line each; `[]` when it has none.
 * `requireLineHash`: results must also carry `partialFingerprints.primaryLocationLineHash` in
 * code scanning's `hex:n` shape (true when the writer could read the files).
 */
export function codeScanningViolations(log: Sarif.Log, text: string, options: { requireLineHash?: boolean } = {}): string[] {
  const out: string[] = [];
  if (log.version !== '2.1.0') out.push(`version: ${String(log.version)}`);
  if (!nonEmpty(log.$schema)) out.push('$schema missing');
  if (!Array.isArray(log.runs)) return [...out, 'runs missing'];
  if (log.runs.length > CODE_SCANNING_LIMITS.runsPerFile) out.push(`runs: ${log.runs.length}`);
  log.runs.forEach((run, ri) => {
    const at = `runs[${ri}]`;
    const driver = run.tool?.driver;
    if (!nonEmpty(driver?.name)) out.push(`${at}.tool.driver.name missing`);
    if (!nonEmpty(driver?.semanticVersion)) out.push(`${at}.tool.driver.semanticVersion missing`);
    if ((run.tool?.extensions ?? []).length > 100) out.push(`${at}: more than 100 tool extensions`);
    if (!Array.isArray(run.results)) out.push(`${at}.results missing`);
    const rules = driver?.rules ?? [];
    if (rules.length > CODE_SCANNING_LIMITS.rulesPerRun) out.push(`${at}: ${rules.length} rules`);
    const ids = new Set<string>();
    for (const r of rules) {
      const rat = `${at} rule ${r.id}`;
      if (!nonEmpty(r.id)) out.push(`${at}: a rule without id`);
      if (ids.has(r.id)) out.push(`${rat}: duplicate id`);
      ids.add(r.id);
      if (!nonEmpty(r.shortDescription?.text)) out.push(`${rat}: shortDescription.text missing`);
      if (!nonEmpty(r.fullDescription?.text)) out.push(`${rat}: fullDescription.text missing`);
      if (!nonEmpty(r.help?.text)) out.push(`${rat}: help.text missing`);
      if (!nonEmpty(r.help?.markdown)) out.push(`${rat}: help.markdown missing`);
      if (!nonEmpty(r.helpUri)) out.push(`${rat}: helpUri missing`);
      const p = (r.properties ?? {}) as Record<string, unknown>;
      const tags = (p.tags ?? []) as unknown[];
      if (tags.length > CODE_SCANNING_LIMITS.tagsPerRule) out.push(`${rat}: ${tags.length} tags`);
      if (!PRECISIONS.has(p.precision as string)) out.push(`${rat}: precision ${String(p.precision)}`);
      if (!PROBLEM_SEVERITIES.has(p['problem.severity'] as string)) out.push(`${rat}: problem.severity ${String(p['problem.severity'])}`);
      const score = p['security-severity'];
      if (score !== undefined) {
        if (typeof score !== 'string' || !/^\d+(\.\d+)?$/.test(score) || Number(score) < 0 || Number(score) > 10) out.push(`${rat}: security-severity ${String(score)}`);
        if (!tags.includes('security')) out.push(`${rat}: security-severity without the security tag`);
      }
    }
    const results = run.results ?? [];
    if (results.length > CODE_SCANNING_LIMITS.resultsPerRun) out.push(`${at}: ${results.length} results`);
    results.forEach((res, i) => {
      const rat = `${at}.results[${i}] (${res.ruleId})`;
      if (!nonEmpty(res.ruleId)) out.push(`${rat}: ruleId missing`);
      else if (rules.length > 0 && !ids.has(res.ruleId!)) out.push(`${rat}: rule not in tool.driver.rules`);
      if (!nonEmpty(res.message?.text)) out.push(`${rat}: message.text missing`);
      const locations = res.locations ?? [];
      if (locations.length === 0) out.push(`${rat}: no location`);
      if (locations.length > LOCATIONS_PER_RESULT) out.push(`${rat}: ${locations.length} locations`);
      for (const loc of locations) {
        if (!nonEmpty(loc.physicalLocation?.artifactLocation?.uri)) out.push(`${rat}: artifactLocation.uri missing`);
        const line = loc.physicalLocation?.region?.startLine;
        if (typeof line !== 'number' || line < 1) out.push(`${rat}: region.startLine missing`);
      }
      const fp = res.partialFingerprints ?? {};
      if (Object.keys(fp).length === 0) out.push(`${rat}: partialFingerprints missing`);
      const lineHash = fp.primaryLocationLineHash;
      if (lineHash !== undefined && !/^[0-9a-f]{1,16}:[1-9]\d*$/.test(lineHash)) out.push(`${rat}: primaryLocationLineHash ${lineHash}`);
      if (options.requireLineHash && lineHash === undefined) out.push(`${rat}: primaryLocationLineHash missing`);
    });
  });
  const gz = gzipSync(Buffer.from(text, 'utf8')).length;
  if (gz > CODE_SCANNING_LIMITS.gzipUploadBytes) out.push(`gzip size ${gz}`);
  return out;
}
