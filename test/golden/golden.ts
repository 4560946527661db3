/**
 * Golden-file helpers (architecture.md §9.3 layer 3, §9.4 item 9): a fixture `<name>` has a sibling
 * `<name>.out` holding the exact text the CLI prints for it, one finding per line, then a blank
 * line and the summary. A line of the form `/regex/` in a `.out` file matches an output line by
 * regular expression instead of literally (as in actionlint's testdata/err/*.out). A fixture
 * whose first line is {@link NO_DIAGNOSTICS_HEADER} has no `.out`: the runner enforces that it
 * yields no finding at all.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** First line of a fixture that must produce no diagnostic (Biome's valid-file comment). */
export const NO_DIAGNOSTICS_HEADER = '# should not generate diagnostics';

/** Whether `UPDATE_GOLDEN=1` asks the runner to rewrite `.out` files from the actual output. */
export const UPDATE_GOLDEN = process.env.UPDATE_GOLDEN === '1';

/** Whether an expected line is a `/regex/` line. */
function isRegexLine(line: string): boolean {
  return line.length >= 2 && line.startsWith('/') && line.endsWith('/');
}

/** Splits output into lines, dropping the empty string after a final newline. */
export function outputLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Compares `actual` output with the expected `.out` text. Returns `undefined` when they match,
 * or a readable description of the first difference. Line counts must be equal; each expected
 * line matches literally, or by regular expression when it is a `/regex/` line.
 */
export function compareGolden(expected: string, actual: string): string | undefined {
  const exp = outputLines(expected);
  const act = outputLines(actual);
  const n = Math.max(exp.length, act.length);
  for (let i = 0; i < n; i++) {
    const e = exp[i];
    const a = act[i];
    if (e === undefined) return `line ${i + 1}: unexpected extra output line\n  actual:   ${a}`;
    if (a === undefined) return `line ${i + 1}: expected line missing from the output\n  expected: ${e}`;
    const ok = isRegexLine(e) ? new RegExp(e.slice(1, -1)).test(a) : e === a;
    if (!ok) return `line ${i + 1} differs\n  expected: ${e}\n  actual:   ${a}`;
  }
  return undefined;
}

/**
 * Checks `actual` against the golden file `outPath`. With {@link UPDATE_GOLDEN}, a missing or
 * differing golden file is rewritten from `actual` (a file that still matches, `/regex/` lines
 * included, is left alone) and `undefined` is returned; review every rewritten file by eye.
 * Otherwise returns the difference, or `undefined` when they match.
 */
export function checkGolden(outPath: string, actual: string, allowUpdate = UPDATE_GOLDEN): string | undefined {
  const expected = existsSync(outPath) ? readFileSync(outPath, 'utf8') : undefined;
  const diff = expected === undefined ? `golden file ${outPath} is missing (run with UPDATE_GOLDEN=1 and review it)` : compareGolden(expected, actual);
  if (diff !== undefined && allowUpdate) {
    writeFileSync(outPath, actual);
    return undefined;
  }
  return diff;
}
