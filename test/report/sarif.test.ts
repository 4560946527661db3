import fc from 'fast-check';
import type * as Sarif from 'sarif';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/checks/index.js';
import {
  artifactLocation,
  buildSarif,
  formatSarif,
  pascalCase,
  SARIF_SCHEMA_URI,
  type ReportInput,
} from '../../src/report/index.js';
import { diag, EMPTY_INPUT, INPUT_FIXTURE, OUTSIDE, RULES_FIXTURE, SPACED, UNICODE_PATH } from './fixtures.js';
import { validateSarif } from './sarif-schema.js';
import { githubLineHashes } from '../../src/report/line-hash.js';

function parse(out: string): Sarif.Log {
  return JSON.parse(out) as Sarif.Log;
}

function run(input: ReportInput = INPUT_FIXTURE): Sarif.Run {
  return parse(formatSarif(input)).runs[0]!;
}

function ruleById(id: string): Sarif.ReportingDescriptor {
  const r = run().tool.driver.rules?.find((x) => x.id === id);
  if (!r) throw new Error(`no rule ${id}`);
  return r;
}

describe('SARIF schema validation', () => {
  it('accepts the fixture, an empty run and the real rule set', () => {
    expect(validateSarif(parse(formatSarif(INPUT_FIXTURE)))).toEqual([]);
    expect(validateSarif(parse(formatSarif(EMPTY_INPUT)))).toEqual([]);
    expect(validateSarif(parse(formatSarif({ ...INPUT_FIXTURE, rules: RULES })))).toEqual([]);
  });

  it('rejects invalid logs (the validator is not vacuous)', () => {
    const log = parse(formatSarif(INPUT_FIXTURE)) as unknown as { runs: { results: { level: string }[] }[] };
    log.runs[0]!.results[0]!.level = 'fatal';
    expect(validateSarif(log).join('\n')).toContain('/runs/0/results/0/level');
    expect(validateSarif({ version: '2.1.0' })).not.toEqual([]);
    expect(validateSarif({ version: '2.1.0', runs: [], extra: 1 })).not.toEqual([]);
  });

  it('checks string formats (uri, uri-reference)', () => {
    const log = parse(formatSarif(INPUT_FIXTURE)) as unknown as Record<string, unknown>;
    expect(validateSarif({ ...log, $schema: 'not a uri' }).join('\n')).toContain('format');
    const bad = parse(formatSarif(INPUT_FIXTURE));
    bad.runs[0]!.results![1]!.locations![0]!.physicalLocation!.artifactLocation!.uri = 'a dir/deploy #1.sh';
    expect(validateSarif(bad).join('\n')).toContain('uri-reference');
  });

  it('stays valid for any file path and message', () => {
    const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 30 });
    const anyPath = fc.oneof(anyText, anyText.map((s) => `/${s}`), anyText.map((s) => `C:\\${s}`));
    fc.assert(
      fc.property(anyPath, anyText, (file, message) => {
        const input: ReportInput = {
          results: [{ file, diagnostics: [diag(file, 'parse-error', 'warning', message, 1, 1, 2)] }],
          rules: RULES_FIXTURE,
          toolVersion: '0.0.0',
          filesAnalysed: 1,
        };
        expect(validateSarif(parse(formatSarif(input)))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('log and run', () => {
  it('names the schema and version, one run, UTF-16 columns', () => {
    const log = parse(formatSarif(INPUT_FIXTURE));
    expect(log.$schema).toBe(SARIF_SCHEMA_URI);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    expect(log.runs[0]!.columnKind).toBe('utf16CodeUnits');
    expect(log.runs[0]!.originalUriBaseIds?.['%SRCROOT%']?.description?.text).toBeTruthy();
  });

  it('describes the driver', () => {
    const { driver } = run().tool;
    expect(driver.name).toBe('shellward');
    expect(driver.version).toBe('1.2.3');
    expect(driver.semanticVersion).toBe('1.2.3');
    expect(driver.informationUri).toBe('https://github.com/shellward/shellward');
  });

  it('is pretty-printed with a trailing newline and deterministic', () => {
    const out = formatSarif(INPUT_FIXTURE);
    expect(out.startsWith('{\n  "$schema": ')).toBe(true);
    expect(out.endsWith('}\n')).toBe(true);
    expect(formatSarif(INPUT_FIXTURE)).toBe(out);
  });

  it('matches the golden file', async () => {
    await expect(formatSarif(INPUT_FIXTURE)).toMatchFileSnapshot('golden/report.sarif');
  });
});

describe('rules[]', () => {
  it('lists every rule in input order', () => {
    expect(run().tool.driver.rules?.map((r) => r.id)).toEqual(RULES_FIXTURE.map((r) => r.id));
    expect(run({ ...INPUT_FIXTURE, rules: RULES }).tool.driver.rules?.map((r) => r.id)).toEqual(RULES.map((r) => r.id));
  });

  it('generates names, descriptions, help and helpUri from the metadata', () => {
    const r = ruleById('rm-recursive-force');
    expect(r.name).toBe('RmRecursiveForce');
    expect(r.shortDescription).toEqual({ text: 'Recursive forced removal' });
    expect(r.fullDescription).toEqual({ text: 'Why `rm-recursive-force` matters.' });
    expect(r.help).toEqual({
      text: 'Why `rm-recursive-force` matters.\n\nFix: How to fix `rm-recursive-force`.\n\nExceptions: Temporary directories made with `mktemp -d`.',
      markdown:
        'Why `rm-recursive-force` matters.\n\n### Fix\n\nHow to fix `rm-recursive-force`.\n\n### Exceptions\n\nTemporary directories made with `mktemp -d`.',
    });
    expect(r.helpUri).toBe('https://github.com/shellward/shellward/blob/main/docs/rules/rm-recursive-force.md');
    expect(ruleById('parse-error').help?.text).toBe('Why `parse-error` matters.\n\nFix: How to fix `parse-error`.');
  });

  it('maps the script-profile default onto defaultConfiguration', () => {
    expect(ruleById('path-dangerous-removal').defaultConfiguration).toEqual({ level: 'error' });
    expect(ruleById('parse-error').defaultConfiguration).toEqual({ level: 'warning' });
    expect(ruleById('file-skipped').defaultConfiguration).toEqual({ level: 'note' });
    expect(ruleById('unicode-whitespace').defaultConfiguration).toEqual({ enabled: false, level: 'none' });
  });

  it('tags rules and scores security-relevant categories', () => {
    // Rules with a security-severity carry the `security` tag code scanning needs to treat them as security alerts.
    expect(ruleById('path-dangerous-removal').properties).toEqual({
      tags: ['security', 'paths', 'shellward'],
      precision: 'high',
      'problem.severity': 'error',
      'security-severity': '9.0',
    });
    expect(ruleById('rm-recursive-force').properties).toEqual({
      tags: ['security', 'destructive', 'shellward'],
      precision: 'high',
      'problem.severity': 'warning',
      'security-severity': '6.0',
    });
    // Off for scripts but an error for agents: scored by its loudest default; the tag is not repeated.
    expect(ruleById('unicode-whitespace').properties).toEqual({ tags: ['security', 'shellward'], precision: 'high', 'problem.severity': 'error', 'security-severity': '9.0' });
    expect(ruleById('parse-error').properties).toEqual({ tags: ['parse', 'shellward'], precision: 'very-high', 'problem.severity': 'warning' });
    expect(ruleById('file-skipped').properties).toEqual({ tags: ['input', 'shellward'], precision: 'very-high', 'problem.severity': 'recommendation' });
  });

  it('PascalCases ids', () => {
    expect(pascalCase('rm-recursive-force')).toBe('RmRecursiveForce');
    expect(pascalCase('sql-delete-all')).toBe('SqlDeleteAll');
    expect(pascalCase('parse-error')).toBe('ParseError');
    expect(pascalCase('x')).toBe('X');
  });
});

describe('results', () => {
  it('has one result per diagnostic, in input order, pointing at its rule', () => {
    const r = run();
    const rules = r.tool.driver.rules!;
    expect(r.results?.map((x) => x.ruleId)).toEqual(INPUT_FIXTURE.results.flatMap((f) => f.diagnostics.map((d) => d.ruleId)));
    for (const res of r.results!) expect(rules[res.ruleIndex!]!.id).toBe(res.ruleId);
  });

  it('carries level, message, region and fingerprint', () => {
    const res = run().results![1]!;
    expect(res).toEqual({
      ruleId: 'path-dangerous-removal',
      ruleIndex: 2,
      level: 'error',
      message: { text: 'Removes `/`: the whole file system.' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'a%20dir/deploy%20%231.sh', uriBaseId: '%SRCROOT%' },
            region: { startLine: 3, startColumn: 1, endLine: 3, endColumn: 9 },
          },
        },
      ],
      // Without the file's text, code scanning's key is left to the uploader.
      partialFingerprints: { 'shellward/v1': 'fedcba9876543210:1' },
    });
    expect(run().results!.map((x) => x.level)).toEqual(['error', 'error', 'warning', 'warning', 'note']);
  });

  it("adds code scanning's primaryLocationLineHash of the start line when the file's text is given", () => {
    const texts: Record<string, string> = { 'a dir/deploy #1.sh': '#!/bin/sh\necho hi\nrm -rf /\n' };
    const asked: string[] = [];
    const log = buildSarif(INPUT_FIXTURE, {
      fileText: (f) => {
        asked.push(f);
        return texts[f];
      },
    });
    const res = log.runs[0]!.results![1]!;
    // Line 3 of that text, as upload-sarif computes it (src/report/line-hash.ts; checked against codeql-action's own values).
    expect(res.partialFingerprints).toEqual({ 'shellward/v1': 'fedcba9876543210:1', primaryLocationLineHash: githubLineHashes(texts['a dir/deploy #1.sh']!)[2] });
    expect(res.partialFingerprints!.primaryLocationLineHash).toMatch(/^[0-9a-f]{1,16}:1$/);
    // A file the callback cannot give keeps only shellward's key; each file is read once.
    expect(log.runs[0]!.results![0]!.partialFingerprints).toEqual({ 'shellward/v1': expect.any(String) });
    expect(asked).toEqual([...new Set(asked)]);
  });

  it('keeps a multi-line region with its exclusive end', () => {
    expect(run().results![3]!.locations![0]!.physicalLocation!.region).toEqual({ startLine: 7, startColumn: 5, endLine: 8, endColumn: 1 });
  });

  it('uses file:/// URIs without uriBaseId for files outside the repository', () => {
    const loc = run().results![0]!.locations![0]!.physicalLocation!.artifactLocation!;
    expect(loc).toEqual({ uri: 'file:///home/user/.claude/projects/demo/session.jsonl' });
    expect(decodeURIComponent(new URL(loc.uri!).pathname)).toBe(OUTSIDE);
  });

  it('percent-encodes non-ASCII paths as UTF-8', () => {
    const loc = run().results![4]!.locations![0]!.physicalLocation!.artifactLocation!;
    expect(loc).toEqual({ uri: 'src/%C3%BCn%C3%AFcode.sh', uriBaseId: '%SRCROOT%' });
    expect(decodeURIComponent(loc.uri!)).toBe(UNICODE_PATH);
    expect(run().results![4]!.message.text).toBe('Datei „ünïcode.sh“ übersprungen: 日本語 😀 → nicht UTF-8');
  });

  it('omits ruleIndex for a rule id missing from rules[] and stays valid', () => {
    const input: ReportInput = { ...INPUT_FIXTURE, results: [{ file: 'a.sh', diagnostics: [diag('a.sh', 'no-such-rule', 'warning', 'm', 1, 1, 2)] }] };
    const res = run(input).results![0]!;
    expect(res.ruleId).toBe('no-such-rule');
    expect('ruleIndex' in res).toBe(false);
    expect(validateSarif(parse(formatSarif(input)))).toEqual([]);
  });

  it('has no results for a clean run', () => {
    expect(run(EMPTY_INPUT).results).toEqual([]);
  });

  it('returns the same object from buildSarif as formatSarif prints', () => {
    expect(JSON.parse(formatSarif(INPUT_FIXTURE))).toEqual(buildSarif(INPUT_FIXTURE));
  });
});

describe('artifactLocation', () => {
  it('encodes each relative segment as a URI reference', () => {
    expect(artifactLocation(SPACED)).toEqual({ uri: 'a%20dir/deploy%20%231.sh', uriBaseId: '%SRCROOT%' });
    expect(artifactLocation('scripts/run.sh')).toEqual({ uri: 'scripts/run.sh', uriBaseId: '%SRCROOT%' });
    expect(artifactLocation('100%?.sh').uri).toBe('100%25%3F.sh');
    // A colon in the first segment would otherwise read as a URI scheme.
    expect(artifactLocation('c:d/e.sh').uri).toBe('c%3Ad/e.sh');
  });

  it('turns absolute paths into file URIs', () => {
    expect(artifactLocation('/tmp/a b.sh')).toEqual({ uri: 'file:///tmp/a%20b.sh' });
    expect(artifactLocation('C:/Users/me/x.sh')).toEqual({ uri: 'file:///C:/Users/me/x.sh' });
    expect(artifactLocation('C:\\Users\\me\\x.sh')).toEqual({ uri: 'file:///C:/Users/me/x.sh' });
  });

  it('does not throw on unpaired surrogates', () => {
    expect(artifactLocation('a\uD800b.sh').uri).toBe('a%EF%BF%BDb.sh');
    expect(artifactLocation('\uDC00').uri).toBe('%EF%BF%BD');
  });
});
