/**
 * Stable fingerprints for diagnostics (SARIF `partialFingerprints["shellward/v1"]`; code scanning's own `primaryLocationLineHash` is src/report/line-hash.ts).
 * A fingerprint depends on the rule id and the whitespace-normalised text of the line where the
 * finding starts, plus the occurrence number of that pair in the file, so it survives lines
 * being inserted or removed elsewhere in the file.
 */
import { createHash } from 'node:crypto';

/** Hash of `ruleId` and `lineText` (whitespace runs collapsed, ends trimmed): 16 hex digits. */
export function lineHash(ruleId: string, lineText: string): string {
  const norm = lineText.replace(/\s+/g, ' ').trim();
  return createHash('sha256').update(ruleId).update('\0').update(norm).digest('hex').slice(0, 16);
}

/**
 * Assigns `hash:n` fingerprints to items in order: the n-th item (1-based) with the same hash
 * gets `:n`. Returns one fingerprint per item.
 */
export function numberFingerprints(hashes: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return hashes.map((h) => {
    const n = (seen.get(h) ?? 0) + 1;
    seen.set(h, n);
    return `${h}:${n}`;
  });
}
