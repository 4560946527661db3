/**
 * SARIF 2.1.0 output, for GitHub code scanning and other SARIF viewers. `tool.driver.rules[]` is
 * generated from each rule's metadata (architecture.md §9.2: nobody writes it twice), in the spirit of
 * actionlint's `testdata/format/sarif_template.txt`. Pure: returns a string or an object.
 */
import type * as Sarif from 'sarif';
import type { RuleMeta } from '../checks/define.js';
import type { Diagnostic, Severity, SeverityLevel } from '../core/types.js';
import { SEVERITY_RANK } from '../core/types.js';
import { INFORMATION_URI, ruleHelpUri } from './help-uri.js';
import { githubLineHashes } from './line-hash.js';

export { INFORMATION_URI, ruleHelpUri } from './help-uri.js';
import type { ReportInput } from './types.js';

/** The JSON schema a SARIF 2.1.0 log names in `$schema` (OASIS errata 01, the one in schemas/). */
export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';


/** The `uriBaseId` of every repository-relative artifact location. */
export const SRCROOT = '%SRCROOT%';

/**
 * GitHub code scanning's documented limits on an uploaded SARIF file ("SARIF results exceed
 * limit", docs.github.com/en/code-security/code-scanning/troubleshooting-sarif-uploads/results-exceed-limit,
 * and "SARIF file is too large"): a file over a hard limit is rejected. shellward writes one run
 * with one location per result and two tags per rule, so only the result count can be exceeded;
 * {@link buildSarif} truncates to {@link CODE_SCANNING_LIMITS.resultsPerRun} and says so.
 */
export const CODE_SCANNING_LIMITS = {
  /** Runs per file. */
  runsPerFile: 20,
  /** Results per run (only the top 5,000, by severity, are displayed). */
  resultsPerRun: 25_000,
  /** Results per run that code scanning displays. */
  displayedResultsPerRun: 5_000,
  /** Rules per run. */
  rulesPerRun: 25_000,
  /** Locations per result (only 100 are displayed). */
  locationsPerResult: 1_000,
  /** Tags per rule (only 10 are displayed). */
  tagsPerRule: 20,
  /** Size of the gzip-compressed SARIF upload, in bytes (10 MB). */
  gzipUploadBytes: 10 * 1024 * 1024,
} as const;

/** Options of {@link buildSarif}. */
export interface SarifOptions {
  /**
   * Code scanning category (`run.automationDetails.id`, "runAutomationDetails" in GitHub's docs):
   * distinguishes several shellward analyses of one commit. A trailing `/` is added when missing,
   * as github/codeql-action/upload-sarif does with its `category` input (the part before the last
   * `/` is the category; nothing after it is a run id).
   */
  readonly category?: string;
  /** Most results kept (default {@link CODE_SCANNING_LIMITS.resultsPerRun}). */
  readonly maxResults?: number;
  /**
   * The whole text of a file, by the path results show it under (`FileResult.file`), decoded
   * from UTF-8 with a byte-order mark kept; `undefined` when it cannot be read. With it, results
   * carry code scanning's `primaryLocationLineHash` ({@link githubLineHashes}); without it (or
   * for a file it cannot give) that key is left to the uploader, which computes it from the
   * checkout. Called at most once per file with results.
   */
  readonly fileText?: (file: string) => string | undefined;
}

/**
 * The `partialFingerprints` key of shellward's own fingerprint: rule id plus the line's
 * whitespace-normalised text plus occurrence (src/core/fingerprint.ts), the value baselines
 * match on. `primaryLocationLineHash` is code scanning's own key and gets code scanning's value.
 */
export const FINGERPRINT_KEY = 'shellward/v1';

/** `id` of the notification that says results were left out. */
export const TRUNCATED_NOTIFICATION_ID = 'sarif-results-truncated';


/** `rm-recursive-force` → `RmRecursiveForce` (SARIF `reportingDescriptor.name`). */
export function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/** Categories whose findings are security findings for code scanning (get `security-severity`). */
const SECURITY_CATEGORIES: ReadonlySet<string> = new Set(['security', 'destructive', 'paths', 'workflow']);

/**
 * `precision` (how often a finding is a true positive, in the vocabulary code scanning and CodeQL
 * use: very-high, high, medium, low) per category, for rules that do not set their own:
 * parse, input and policy findings state facts (the parser failed, the file is not UTF-8, the
 * policy says so); destructive, paths, security and sandbox findings are right about the command
 * but the command may be intended; a workflow finding (untrusted input expanded into a `run:`)
 * is right about the expansion, but the value may be checked elsewhere.
 */
const CATEGORY_PRECISION: Readonly<Record<RuleMeta['category'], Precision>> = {
  parse: 'very-high',
  input: 'very-high',
  policy: 'very-high',
  destructive: 'high',
  paths: 'high',
  security: 'high',
  sandbox: 'high',
  workflow: 'high',
};

/** SARIF rule property `precision` as code scanning reads it. */
export type Precision = 'very-high' | 'high' | 'medium' | 'low';

/** SARIF rule property `problem.severity` (code scanning's severity of a non-security alert) per severity. */
const PROBLEM_SEVERITY: Readonly<Record<Severity, 'error' | 'warning' | 'recommendation'>> = { error: 'error', warning: 'warning', note: 'recommendation' };

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
 * `security-severity` is set for the security, destructive, paths and workflow categories from the loudest
 * default of any profile (a rule that is quiet for scripts but an error for agent transcripts is
 * still a 9.0 when it does fire), and those rules carry the `security` tag, which code scanning
 * needs to treat them as security alerts. `properties.precision` is the rule's own or its
 * category's ({@link CATEGORY_PRECISION}); `properties.problem.severity` follows the `script`
 * default, or the loudest when that is off (note → `recommendation`). `helpUri` is the rule's page ({@link ruleHelpUri}).
 */
export function sarifRule(rule: RuleMeta): Sarif.ReportingDescriptor {
  const loudest = loudestDefault(rule);
  const securitySeverity = SECURITY_CATEGORIES.has(rule.category) && loudest ? SECURITY_SEVERITY[loudest] : undefined;
  const tags = [...new Set([...(securitySeverity ? ['security'] : []), rule.category, ...(rule.customPack !== undefined ? ['custom-pack'] : []), 'shellward'])];
  return {
    id: rule.id,
    name: pascalCase(rule.id),
    shortDescription: { text: rule.title },
    fullDescription: { text: rule.docs.rationale },
    help: ruleHelp(rule),
    // A custom pack's rule has no page in shellward's docs; its help text is the pack's own.
    ...(rule.customPack === undefined ? { helpUri: ruleHelpUri(rule.id) } : {}),
    defaultConfiguration: reportingConfiguration(rule.severity.script),
    properties: {
      tags: tags.slice(0, CODE_SCANNING_LIMITS.tagsPerRule),
      precision: rule.precision ?? CATEGORY_PRECISION[rule.category],
      'problem.severity': PROBLEM_SEVERITY[rule.severity.script === 'off' ? (loudest ?? 'note') : rule.severity.script],
      ...(securitySeverity ? { 'security-severity': securitySeverity } : {}),
      ...(rule.customPack !== undefined ? { pack: rule.customPack } : {}),
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

function sarifResult(file: string, d: Diagnostic, ruleIndex: ReadonlyMap<string, number>, lineHashes: readonly string[] | undefined): Sarif.Result {
  const index = ruleIndex.get(d.ruleId);
  const lineHash = lineHashes?.[d.range.start.line - 1];
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
    partialFingerprints: { [FINGERPRINT_KEY]: d.fingerprint, ...(lineHash !== undefined ? { primaryLocationLineHash: lineHash } : {}) },
  };
}

/** One diagnostic with the file it is shown under and its position in the input. */
interface Entry {
  readonly file: string;
  readonly d: Diagnostic;
  readonly index: number;
}

function compareEntries(a: Entry, b: Entry): number {
  return (
    SEVERITY_RANK[a.d.severity] - SEVERITY_RANK[b.d.severity] ||
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.d.range.start.line - b.d.range.start.line ||
    a.d.range.start.column - b.d.range.start.column ||
    a.index - b.index
  );
}

/**
 * The entries kept under a limit of `max`: all of them when within it; else the `max` first by
 * severity (most severe first), then file (UTF-16 order), line, column and input position —
 * deterministic — returned in input order.
 */
function keepMostSevere(entries: readonly Entry[], max: number): readonly Entry[] {
  if (entries.length <= max) return entries;
  const kept = new Set([...entries].sort(compareEntries).slice(0, Math.max(0, max)).map((e) => e.index));
  return entries.filter((e) => kept.has(e.index));
}

/** `shellward` → `shellward/`; `''` and whitespace only → undefined. */
export function automationId(category: string | undefined): string | undefined {
  if (category === undefined || category.trim() === '') return undefined;
  return category.endsWith('/') ? category : `${category}/`;
}

/**
 * Builds the SARIF 2.1.0 log for `input`: one run, `rules[]` in `input.rules` order, results in
 * input order (`ruleIndex` points into `rules[]`; omitted for a rule id not in it), levels equal
 * to severities, regions in 1-based lines and UTF-16 columns (`columnKind: utf16CodeUnits`) with
 * exclusive `endColumn`, and `partialFingerprints` = shellward's fingerprint under
 * {@link FINGERPRINT_KEY} plus, when `options.fileText` gives the file, code scanning's
 * `primaryLocationLineHash` of the start line.
 * `options.category` becomes `automationDetails.id`. Over `options.maxResults` (default: code
 * scanning's 25,000 per run) the most severe results are kept (see {@link keepMostSevere}) and
 * `invocations[0].toolExecutionNotifications` says how many were left out.
 */
export function buildSarif(input: ReportInput, options: SarifOptions = {}): Sarif.Log {
  const ruleIndex = new Map<string, number>();
  input.rules.forEach((r, i) => {
    if (!ruleIndex.has(r.id)) ruleIndex.set(r.id, i);
  });
  const entries: Entry[] = [];
  for (const r of input.results) for (const d of r.diagnostics) entries.push({ file: r.file, d, index: entries.length });
  const max = options.maxResults ?? CODE_SCANNING_LIMITS.resultsPerRun;
  const kept = keepMostSevere(entries, max);
  const omitted = entries.length - kept.length;
  const id = automationId(options.category);
  const hashes = new Map<string, readonly string[] | undefined>();
  const hashesOf = (file: string): readonly string[] | undefined => {
    if (!options.fileText) return undefined;
    if (!hashes.has(file)) {
      const text = options.fileText(file);
      hashes.set(file, text === undefined ? undefined : githubLineHashes(text));
    }
    return hashes.get(file);
  };
  const run: Sarif.Run = {
    tool: {
      driver: {
        name: 'shellward',
        version: input.toolVersion,
        semanticVersion: input.toolVersion,
        informationUri: INFORMATION_URI,
        rules: input.rules.map(sarifRule),
      },
    },
    ...(omitted > 0
      ? {
          invocations: [
            {
              executionSuccessful: true,
              toolExecutionNotifications: [
                {
                  level: 'warning',
                  descriptor: { id: TRUNCATED_NOTIFICATION_ID },
                  message: {
                    text: `${omitted} of ${entries.length} results were left out to stay within ${max} results per run (code scanning's limit); the most severe were kept.`,
                  },
                },
              ],
            },
          ],
        }
      : {}),
    ...(id !== undefined ? { automationDetails: { id } } : {}),
    originalUriBaseIds: {
      [SRCROOT]: { description: { text: 'The root of the repository that was linted.' } },
    },
    columnKind: 'utf16CodeUnits',
    results: kept.map((e) => sarifResult(e.file, e.d, ruleIndex, hashesOf(e.file))),
  };
  return { $schema: SARIF_SCHEMA_URI, version: '2.1.0', runs: [run] };
}

/** Number of results {@link buildSarif} leaves out of `input` under `maxResults` (default 25,000). */
export function sarifOmitted(input: ReportInput, maxResults: number = CODE_SCANNING_LIMITS.resultsPerRun): number {
  const total = input.results.reduce((n, r) => n + r.diagnostics.length, 0);
  return Math.max(0, total - Math.max(0, maxResults));
}

/** Renders {@link buildSarif} as JSON indented by 2 spaces, with a trailing newline. */
export function formatSarif(input: ReportInput, options: SarifOptions = {}): string {
  return JSON.stringify(buildSarif(input, options), null, 2) + '\n';
}

/** `descriptor.id` of the notification {@link buildConfigErrorSarif} writes. */
export const CONFIG_ERROR_NOTIFICATION_ID = 'configuration-error';

/** A configuration problem for {@link buildConfigErrorSarif}. */
export interface ConfigurationProblem {
  /** What is wrong, as printed to the user. */
  readonly message: string;
  /** The file at fault, as shown to the user (relative to the repository root, or absolute). */
  readonly file?: string;
  /** 1-based line and column in `file`, when known. */
  readonly line?: number;
  readonly column?: number;
}

/**
 * A SARIF 2.1.0 log for a run that could not start because its configuration is wrong: the
 * driver and its rules as {@link buildSarif} writes them, no results, and
 * `invocations[0]` with `executionSuccessful: false` and the problem as a
 * `toolConfigurationNotifications` entry (level `error`, located in the file when known). A
 * step that uploads the SARIF after a failed run (`if: always()`) then uploads a valid file
 * that says what went wrong, instead of failing on a missing one.
 */
export function buildConfigErrorSarif(input: Pick<ReportInput, 'rules' | 'toolVersion'>, problem: ConfigurationProblem, options: SarifOptions = {}): Sarif.Log {
  const log = buildSarif({ results: [], rules: input.rules, toolVersion: input.toolVersion, filesAnalysed: 0 }, options);
  const run = log.runs[0]!;
  const location: Sarif.Location | undefined =
    problem.file === undefined
      ? undefined
      : {
          physicalLocation: {
            artifactLocation: artifactLocation(problem.file),
            ...(problem.line !== undefined ? { region: { startLine: problem.line, ...(problem.column !== undefined ? { startColumn: problem.column } : {}) } } : {}),
          },
        };
  run.invocations = [
    {
      executionSuccessful: false,
      toolConfigurationNotifications: [
        {
          level: 'error',
          descriptor: { id: CONFIG_ERROR_NOTIFICATION_ID },
          message: { text: problem.message },
          ...(location ? { locations: [location] } : {}),
        },
      ],
    },
  ];
  return log;
}
