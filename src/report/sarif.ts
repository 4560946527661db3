/**
 * SARIF 2.1.0 output, for GitHub code scanning and other SARIF viewers. `tool.driver.rules[]` is
 * generated from each rule's metadata (STYLE.md §9.2: nobody writes it twice), in the spirit of
 * actionlint's `testdata/format/sarif_template.txt`. Pure: returns a string or an object.
 */
import type * as Sarif from 'sarif';
import type { RuleMeta } from '../checks/define.js';
import type { Diagnostic, Severity, SeverityLevel } from '../core/types.js';
import { SEVERITY_RANK } from '../core/types.js';
import type { ReportInput } from './types.js';

/** The JSON schema a SARIF 2.1.0 log names in `$schema` (OASIS errata 01, the one in schemas/). */
export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** Home page of the tool (`tool.driver.informationUri`). */
export const INFORMATION_URI = 'https://github.com/shellward/shellward';

/** The `uriBaseId` of every repository-relative artifact location. */
export const SRCROOT = '%SRCROOT%';

/** URL of the reference page of rule `id` (SARIF `helpUri`). */
export function ruleHelpUri(id: string): string {
  return `${INFORMATION_URI}/blob/main/docs/rules/${encodeURIComponent(id)}.md`;
}

/** `rm-recursive-force` → `RmRecursiveForce` (SARIF `reportingDescriptor.name`). */
export function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/** Categories whose findings are security findings for code scanning (get `security-severity`). */
const SECURITY_CATEGORIES: ReadonlySet<string> = new Set(['security', 'destructive', 'paths']);

/** GitHub's `security-severity` score (a decimal string, 0.0–10.0) for a default severity. */
const SECURITY_SEVERITY: Readonly<Record<Severity, string>> = { error: '9.0', warning: '6.0', note: '3.0' };

/** The most severe of the per-profile defaults of `rule`, or `undefined` when it is off in every profile. */
function loudestDefault(rule: RuleMeta): Severity | undefined {
  let best: Severity | undefined;
  for (const level of Object.values(rule.severity) as SeverityLevel[]) {
    if (level === 'off') continue;
    if (best === undefined || SEVERITY_RANK[level] < SEVERITY_RANK[best]) best = level;
  }
  return best;
}

/**
 * `defaultConfiguration` for a configured level: severities map 1:1 onto SARIF levels; `off`
 * becomes `{ enabled: false, level: 'none' }`.
 */
function reportingConfiguration(level: SeverityLevel): Sarif.ReportingConfiguration {
  return level === 'off' ? { enabled: false, level: 'none' } : { level };
}

/** Plain-text and Markdown help of a rule: rationale, then how to fix, then exceptions. */
function ruleHelp(rule: RuleMeta): Sarif.MultiformatMessageString {
  const { rationale, fix, exceptions } = rule.docs;
  const text = [rationale, `Fix: ${fix}`, ...(exceptions ? [`Exceptions: ${exceptions}`] : [])].join('\n\n');
  const markdown = [rationale, `### Fix\n\n${fix}`, ...(exceptions ? [`### Exceptions\n\n${exceptions}`] : [])].join('\n\n');
  return { text, markdown };
}

/**
 * One `reportingDescriptor` from a rule's metadata. `defaultConfiguration` mirrors the `script`
 * profile's default (the profile of files in a repository, which is what code scanning sees).
 * `security-severity` is set for the security, destructive and paths categories from the loudest
 * default of any profile (a rule that is quiet for scripts but an error for agent transcripts is
 * still a 9.0 when it does fire).
 */
export function sarifRule(rule: RuleMeta): Sarif.ReportingDescriptor {
  const loudest = loudestDefault(rule);
  const securitySeverity = SECURITY_CATEGORIES.has(rule.category) && loudest ? SECURITY_SEVERITY[loudest] : undefined;
  return {
    id: rule.id,
    name: pascalCase(rule.id),
    shortDescription: { text: rule.title },
    fullDescription: { text: rule.docs.rationale },
    help: ruleHelp(rule),
    helpUri: ruleHelpUri(rule.id),
    defaultConfiguration: reportingConfiguration(rule.severity.script),
    properties: {
      tags: [rule.category, 'shellward'],
      ...(securitySeverity ? { 'security-severity': securitySeverity } : {}),
    },
  };
}

/** Replaces unpaired UTF-16 surrogates with U+FFFD so `encodeURIComponent` cannot throw. */
function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Percent-encodes each `/`-separated segment of a path (UTF-8), keeping the separators. */
function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * The SARIF `artifactLocation` of a file as shown to the user. A relative POSIX path becomes a
 * percent-encoded relative URI reference against `%SRCROOT%` (`dir with space/a#b.sh` →
 * `dir%20with%20space/a%23b.sh`; a `:` in the first segment is encoded, so it never reads as a
 * scheme). An absolute path (a file outside the repository: `/home/x/t.jsonl`, or `C:/x` /
 * `C:\x`) becomes a `file:///` URI without `uriBaseId`.
 */
export function artifactLocation(file: string): Sarif.ArtifactLocation {
  const path = wellFormed(file);
  if (path.startsWith('/')) return { uri: `file://${encodePath(path)}` };
  const drive = /^([A-Za-z]):[\\/]/.exec(path);
  if (drive) return { uri: `file:///${drive[1]}:${encodePath(path.slice(2).replace(/\\/g, '/'))}` };
  return { uri: encodePath(path), uriBaseId: SRCROOT };
}

function sarifResult(file: string, d: Diagnostic, ruleIndex: ReadonlyMap<string, number>): Sarif.Result {
  const index = ruleIndex.get(d.ruleId);
  return {
    ruleId: d.ruleId,
    ...(index !== undefined ? { ruleIndex: index } : {}),
    level: d.severity,
    message: { text: d.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: artifactLocation(file),
          region: {
            startLine: d.range.start.line,
            startColumn: d.range.start.column,
            endLine: d.range.end.line,
            // Range.end is already the exclusive end SARIF wants.
            endColumn: d.range.end.column,
          },
        },
      },
    ],
    partialFingerprints: { primaryLocationLineHash: d.fingerprint },
  };
}

/**
 * Builds the SARIF 2.1.0 log for `input`: one run, `rules[]` in `input.rules` order, results in
 * input order (`ruleIndex` points into `rules[]`; omitted for a rule id not in it), levels equal
 * to severities, regions in 1-based lines and UTF-16 columns (`columnKind: utf16CodeUnits`) with
 * exclusive `endColumn`, and `partialFingerprints.primaryLocationLineHash` = the fingerprint.
 */
export function buildSarif(input: ReportInput): Sarif.Log {
  const ruleIndex = new Map<string, number>();
  input.rules.forEach((r, i) => {
    if (!ruleIndex.has(r.id)) ruleIndex.set(r.id, i);
  });
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'shellward',
            version: input.toolVersion,
            semanticVersion: input.toolVersion,
            informationUri: INFORMATION_URI,
            rules: input.rules.map(sarifRule),
          },
        },
        originalUriBaseIds: {
          [SRCROOT]: { description: { text: 'The root of the repository that was linted.' } },
        },
        columnKind: 'utf16CodeUnits',
        results: input.results.flatMap((r) => r.diagnostics.map((d) => sarifResult(r.file, d, ruleIndex))),
      },
    ],
  };
}

/** Renders {@link buildSarif} as JSON indented by 2 spaces, with a trailing newline. */
export function formatSarif(input: ReportInput): string {
  return JSON.stringify(buildSarif(input), null, 2) + '\n';
}
