import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeForTerminal, formatText, ruleLinkLines, summaryLine, type ReportInput } from '../../src/report/index.js';
import { diag, EMPTY_INPUT, INPUT_FIXTURE, RULES_FIXTURE, stripAnsi } from './fixtures.js';

const PLAIN = { color: false };
const COLOR = { color: true };

function input(results: ReportInput['results'], filesAnalysed = results.length): ReportInput {
  return { results, rules: RULES_FIXTURE, toolVersion: '1.2.3', filesAnalysed };
}

describe('formatText', () => {
  it('prints one gcc-style line per finding, a link to the page of each rule found, and the summary', () => {
    expect(formatText(INPUT_FIXTURE, PLAIN)).toBe(
      [
        '/home/user/.claude/projects/demo/session.jsonl:12:30: error: Non-breaking space (U+00A0) between words of a command. [unicode-whitespace]',
        'a dir/deploy #1.sh:3:1: error: Removes `/`: the whole file system. [path-dangerous-removal]',
        'a dir/deploy #1.sh:3:1: warning: `rm -rf` removes files without asking. [rm-recursive-force]',
        'a dir/deploy #1.sh:7:5: warning: The parser could not read this code. [parse-error]',
        'src/ünïcode.sh:1:1: note: Datei „ünïcode.sh“ übersprungen: 日本語 😀 → nicht UTF-8 [file-skipped]',
        '',
        'For more information:',
        '  https://github.com/shellward/shellward/blob/main/docs/rules/unicode-whitespace.md -- Unicode whitespace in a command',
        '  https://github.com/shellward/shellward/blob/main/docs/rules/path-dangerous-removal.md -- Removal of the root, the home directory or a top-level directory',
        '  https://github.com/shellward/shellward/blob/main/docs/rules/rm-recursive-force.md -- Recursive forced removal',
        '  https://github.com/shellward/shellward/blob/main/docs/rules/parse-error.md -- Code that does not parse',
        '  https://github.com/shellward/shellward/blob/main/docs/rules/file-skipped.md -- File could not be analysed',
        '',
        '5 problems (2 errors, 2 warnings, 1 note) in 3 files; 4 files checked',
        '',
      ].join('\n'),
    );
  });

  it('matches the golden file', async () => {
    await expect(formatText(INPUT_FIXTURE, PLAIN)).toMatchFileSnapshot('golden/report.txt');
  });

  it('prints only the summary when nothing was found', () => {
    expect(formatText(EMPTY_INPUT, PLAIN)).toBe('No problems found; 2 files checked\n');
    expect(formatText(input([{ file: 'a.sh', diagnostics: [] }]), PLAIN)).toBe('No problems found; 1 file checked\n');
    expect(formatText(input([], 0), PLAIN)).toBe('No problems found; 0 files checked\n');
  });

  it('uses singular and plural forms in the summary', () => {
    const one = input([{ file: 'a.sh', diagnostics: [diag('a.sh', 'parse-error', 'warning', 'm', 1, 1, 2)] }]);
    expect(summaryLine(one)).toBe('1 problem (0 errors, 1 warning, 0 notes) in 1 file; 1 file checked');
    const many = input(
      [
        {
          file: 'a.sh',
          diagnostics: [
            diag('a.sh', 'path-dangerous-removal', 'error', 'm', 1, 1, 2),
            diag('a.sh', 'file-skipped', 'note', 'm', 2, 1, 2),
            diag('a.sh', 'file-skipped', 'note', 'm', 3, 1, 2),
          ],
        },
      ],
      7,
    );
    expect(summaryLine(many)).toBe('3 problems (1 error, 0 warnings, 2 notes) in 1 file; 7 files checked');
  });

  it('counts the distinct files with findings and, separately, the files checked', () => {
    // A policy file's findings (.claude/settings.json) are added to the results of one script analysed.
    const two = input(
      [
        { file: '.claude/settings.json', diagnostics: [diag('.claude/settings.json', 'policy-overbroad-allow', 'warning', 'm', 1, 1, 2)] },
        { file: 'a.sh', diagnostics: [diag('a.sh', 'parse-error', 'warning', 'm', 1, 1, 2), diag('a.sh', 'parse-error', 'warning', 'm', 2, 1, 2)] },
        { file: 'clean.sh', diagnostics: [] },
      ],
      1,
    );
    expect(summaryLine(two)).toBe('3 problems (0 errors, 3 warnings, 0 notes) in 2 files; 1 file checked');
    expect(formatText(two, PLAIN).trimEnd().split('\n').at(-1)).toBe('3 problems (0 errors, 3 warnings, 0 notes) in 2 files; 1 file checked');
    expect(summaryLine(input([{ file: 'a.sh', diagnostics: [] }, { file: 'b.sh', diagnostics: [] }]))).toBe('No problems found; 2 files checked');
  });

  it('links each rule once, in order of first appearance, and leaves out rules it has no page for', () => {
    const r = input([
      { file: 'a.sh', diagnostics: [diag('a.sh', 'parse-error', 'warning', 'm', 1, 1, 2), diag('a.sh', 'no-such-rule', 'warning', 'm', 2, 1, 2)] },
      { file: 'b.sh', diagnostics: [diag('b.sh', 'file-skipped', 'note', 'm', 1, 1, 2), diag('b.sh', 'parse-error', 'warning', 'm', 3, 1, 2)] },
    ]);
    expect(ruleLinkLines(r)).toEqual([
      'For more information:',
      '  https://github.com/shellward/shellward/blob/main/docs/rules/parse-error.md -- Code that does not parse',
      '  https://github.com/shellward/shellward/blob/main/docs/rules/file-skipped.md -- File could not be analysed',
    ]);
    expect(ruleLinkLines(input([{ file: 'a.sh', diagnostics: [] }]))).toEqual([]);
  });

  it('prints the file as given in the result, not Diagnostic.file', () => {
    const r = input([{ file: 'shown.sh', diagnostics: [diag('other/internal.sh', 'parse-error', 'warning', 'm', 2, 3, 4)] }]);
    expect(formatText(r, PLAIN).split('\n')[0]).toBe('shown.sh:2:3: warning: m [parse-error]');
  });
});

describe('colour', () => {
  it('contains ANSI escapes with color: true and none with color: false', () => {
    expect(formatText(INPUT_FIXTURE, COLOR)).toContain('\u001b[');
    expect(formatText(INPUT_FIXTURE, PLAIN)).not.toContain('\u001b');
    expect(formatText(EMPTY_INPUT, COLOR)).toContain('\u001b[');
    expect(formatText(EMPTY_INPUT, PLAIN)).not.toContain('\u001b');
  });

  it('is the plain output once the escapes are removed', () => {
    expect(stripAnsi(formatText(INPUT_FIXTURE, COLOR))).toBe(formatText(INPUT_FIXTURE, PLAIN));
    expect(stripAnsi(formatText(EMPTY_INPUT, COLOR))).toBe(formatText(EMPTY_INPUT, PLAIN));
  });

  it('colours severities: error red, warning yellow, note blue', () => {
    const lines = formatText(INPUT_FIXTURE, COLOR).split('\n');
    expect(lines[0]).toContain('\u001b[31m\u001b[1merror\u001b[22m\u001b[39m');
    expect(lines[2]).toContain('\u001b[33m\u001b[1mwarning\u001b[22m\u001b[39m');
    expect(lines[4]).toContain('\u001b[34m\u001b[1mnote\u001b[22m\u001b[39m');
    // Rule id dim, path bold.
    expect(lines[0]).toContain('\u001b[2m[unicode-whitespace]\u001b[22m');
    expect(lines[0]?.startsWith('\u001b[1m/home/user/')).toBe(true);
  });
});

describe('terminal safety', () => {
  it('escapes control, line-breaking and bidi characters in messages and paths', () => {
    const evil = input([
      {
        file: 'x\u001b[31m.sh',
        diagnostics: [diag('x.sh', 'parse-error', 'warning', 'a\nb\rc\td\u0000e\u009bf\u202eg\u2028h\u007fi', 1, 1, 2)],
      },
    ]);
    const out = formatText(evil, PLAIN);
    expect(out.split('\n')[0]).toBe('x\\x1b[31m.sh:1:1: warning: a\\nb\\rc\\td\\x00e\\x9bf\\u202eg\\u2028h\\x7fi [parse-error]');
  });

  it('keeps ordinary Unicode as is', () => {
    expect(escapeForTerminal('日本語 😀 „ü“ → ‘x’ é')).toBe('日本語 😀 „ü“ → ‘x’ é');
  });

  it('prints exactly one line per finding for any message and path, and no escape without colour', () => {
    const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 });
    fc.assert(
      fc.property(anyText, anyText, (file, message) => {
        const out = formatText(input([{ file, diagnostics: [diag(file, 'parse-error', 'warning', message, 1, 1, 2)] }]), PLAIN);
        const lines = out.split('\n');
        // The finding, a blank line, the rule link block (heading + one rule), a blank line, the summary.
        expect(lines).toHaveLength(7);
        expect(lines[1]).toBe('');
        expect(lines[2]).toBe('For more information:');
        expect(lines[4]).toBe('');
        expect(lines[6]).toBe('');
        expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
      }),
      { numRuns: 300 },
    );
  });
});
