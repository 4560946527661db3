/**
 * Property: `verdictFor` returns a well-formed verdict for any string — random text from several
 * alphabets (any UTF-16 code unit, lone surrogates, NUL and control bytes, shell metacharacters)
 * and adversarial shapes (deep `$(` and `(` nesting, 100 000 quotes, long backslash runs, huge
 * heredocs, a 1 MB command). No timing assertions: time is measured by bench/check-bench.ts.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../src/lint.js';
import { FINDING_FIELDS, VERDICT_FIELDS, verdictFor, type Verdict } from '../src/verdict.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create();
});

/** Asserts the verdict invariants for `command`. */
function assertWellFormed(command: string, v: Verdict): void {
  expect(Object.keys(v)).toEqual([...VERDICT_FIELDS]);
  expect(['allow', 'ask', 'deny']).toContain(v.decision);
  // The only allow rule is `Bash(ls)`: an allow must name it or be a read-only command's (no rule,
  // `readOnly`), and a deny must name `Bash(rm:*)`.
  if (v.decision === 'allow' && v.matchedRule === null) expect([v.reason.split(': ')[0], v.readOnly]).toEqual(['read-only', true]);
  else if (v.decision === 'allow') expect(v.matchedRule).toMatchObject({ rule: 'Bash(ls)', behavior: 'allow' });
  if (v.decision === 'deny') expect(v.matchedRule).toMatchObject({ rule: 'Bash(rm:*)', behavior: 'deny' });
  expect(v.reason.length).toBeGreaterThan(0);
  for (const f of v.findings) {
    expect(Object.keys(f)).toEqual([...FINDING_FIELDS]);
    expect(f.start).toBeGreaterThanOrEqual(0);
    expect(f.end).toBeGreaterThanOrEqual(f.start);
    expect(f.end).toBeLessThanOrEqual(command.length);
  }
  // The JSON form exists and reads back to the same verdict (lone surrogates are escaped).
  expect(JSON.parse(JSON.stringify(v))).toEqual(v);
}

function run(command: string): Verdict {
  let v: Verdict | undefined;
  expect(() => {
    v = verdictFor(command, { cwd: '/work', permissions: { allow: ['Bash(ls)'], deny: ['Bash(rm:*)'] } }, linter);
  }).not.toThrow();
  assertWellFormed(command, v!);
  return v!;
}

/** Characters that matter to shell parsers and to the security checks. */
const SHELL_UNITS = [
  '$', '(', ')', '{', '}', '[', ']', '"', "'", '\\', '`', ';', '|', '&', '<', '>', '#', '=', '*', '?', '~', '!',
  '-', ' ', '\t', '\n', '\r', '\0', '\x01', '\x1b', '\x7f', '\u00a0', '\u2028', '\u202e', '\ufeff', '\ud800', '\udc00',
  'a', 'e', 'x', 'ls', 'rm', 'git', 'EOF', '<<', '$(', '${', '$((', '<<<', '\\;', 'IFS=', 'system(', '/proc/self/environ',
].map((s) => fc.constant(s));

describe('verdictFor on random strings', () => {
  it('never throws on any UTF-16 code units, lone surrogates included', () => {
    const anyUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
    fc.assert(fc.property(fc.string({ unit: anyUnit, maxLength: 200 }), (s) => void run(s)), { numRuns: 300 });
  });

  it('never throws on any code points', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => void run(s)), { numRuns: 200 });
  });

  it('never throws on shell-metacharacter soup', () => {
    fc.assert(fc.property(fc.string({ unit: fc.oneof(...SHELL_UNITS), maxLength: 300 }), (s) => void run(s)), { numRuns: 500 });
  });

  it('never throws on repeated adversarial fragments', () => {
    const fragment = fc.string({ unit: fc.oneof(...SHELL_UNITS), minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(fragment, fc.integer({ min: 1, max: 3_000 }), fragment, (f, n, tail) => void run(f.repeat(n) + tail)),
      { numRuns: 60 },
    );
  });
});

/** Adversarial shapes; sizes where the parser is linear go to 100 000+ repetitions. */
const ADVERSARIAL: readonly (readonly [name: string, make: () => string])[] = [
  ['$( nested 100 000 deep, unclosed', () => '$('.repeat(100_000)],
  ['$( nested 20 000 deep, closed', () => 'echo ' + '$('.repeat(20_000) + 'x' + ')'.repeat(20_000)],
  ['( nested 100 000 deep, closed', () => '('.repeat(100_000) + 'ls' + ')'.repeat(100_000)],
  ['( 100 000 unclosed', () => '('.repeat(100_000)],
  ['{ 50 000 unclosed', () => '{ '.repeat(50_000)],
  ['backticks 100 000', () => '`'.repeat(100_000)],
  ['100 000 double quotes', () => '"'.repeat(100_000)],
  ['100 000 single quotes', () => "'".repeat(100_000)],
  ['alternating quotes', () => `'"`.repeat(50_000)],
  ['backslash run', () => 'echo ' + '\\'.repeat(200_000)],
  ['backslash-quote pairs', () => "'\\' ".repeat(50_000)],
  ['lone surrogates', () => '\ud800\udfff\udc00\ud83d'.repeat(25_000)],
  ['control bytes', () => 'ls \x01\x02\x1b[2J\x7f\r'.repeat(20_000)],
  ['NUL bytes (tree-sitter reads NUL as end of input; its recovery is superlinear: kept small)', () => 'ls \0\x01'.repeat(500)],
  ['huge unquoted heredoc', () => 'cat <<EOF\n' + 'line $x `y`\n'.repeat(20_000) + 'EOF'],
  ['huge quoted heredoc (1 MB)', () => "cat <<'EOF' > out\n" + 'x'.repeat(1_048_000) + '\nEOF'],
  ['heredoc in $( ) (git commit)', () => `git commit -m "$(cat <<'EOF'\n${'msg\n'.repeat(50_000)}EOF\n)"`],
  ['unterminated heredoc', () => 'cat <<EOF\n' + 'a\n'.repeat(50_000)],
  ['1 MB of words', () => 'echo ' + 'word '.repeat(209_700)],
  ['long pipeline', () => 'a | '.repeat(25_000) + 'b'],
  ['many statements', () => 'rm -rf x; '.repeat(10_000)],
  ['$(( nesting', () => '$(('.repeat(30_000)],
  ['${ nesting (parser recovery is superlinear: kept small)', () => '${'.repeat(2_000)],
  ['<< repetition (parser recovery is superlinear: kept small)', () => '<<'.repeat(2_000)],
  ['brace expansion', () => 'echo ' + '{a,'.repeat(30_000)],
  ['mid-word hashes', () => 'a#'.repeat(50_000)],
  ['unicode whitespace', () => 'ls\u00a0-la\u2003'.repeat(20_000)],
  ['ANSI-C strings', () => "echo $'\\x41\\u0041'".repeat(10_000)],
  ['IFS and environ', () => 'IFS=x; cat /proc/self/environ; '.repeat(5_000)],
];

describe('verdictFor on adversarial input', () => {
  it.each(ADVERSARIAL.map(([name, make]) => [name, make] as const))('returns a verdict for %s', (_name, make) => {
    const command = make();
    const v = run(command);
    // `rm -rf x; ` × 10 000 hits the deny rule `Bash(rm:*)`: neither the size caps nor the
    // 50-subcommand cap hide a deny. Everything else is an ask.
    expect(v.decision).toBe(_name === 'many statements' ? 'deny' : 'ask');
  });
});
