/**
 * Secrets out of every report (rule `secret-in-command`, src/analyses/secrets.ts): a token, key or
 * URL password found in a command must not reach the output, whatever the format. Pure.
 */
import { maskDeep, maskSecrets, maskWithOffsets, mayHoldSecret } from '../analyses/secrets.js';
import type { Diagnostic } from '../core/types.js';
import type { Verdict } from '../verdict.js';
import type { FileResult, ReportInput, UnitVerdict } from './types.js';

/** `d` with its message and data masked (its excerpt is masked when it is made). */
function maskDiagnostic(d: Diagnostic): Diagnostic {
  const message = maskSecrets(d.message);
  const data = d.data !== undefined ? maskDeep(d.data) : undefined;
  if (message === d.message && data === d.data) return d;
  return { ...d, message, ...(data !== undefined ? { data } : {}) };
}

/**
 * `u` with its command masked and every offset into it moved to match (a finding inside a
 * secret covers the whole mask), and every string of its verdict masked.
 */
export function maskUnitVerdict(u: UnitVerdict): UnitVerdict {
  return { ...u, ...maskVerdict(u.verdict, u.command) };
}

/**
 * The verdict of `command` with every string masked and its finding offsets moved into the masked
 * command (a finding inside a secret covers the whole mask); `command` masked.
 */
export function maskVerdict(v: Verdict, command: string): { verdict: Verdict; command: string } {
  if (!mayHoldSecret(command) && !mayHoldSecret(JSON.stringify(v))) return { verdict: v, command };
  const masked = maskWithOffsets(command);
  const verdict = maskDeep(v);
  const findings = verdict.findings.map((f) => ({ ...f, start: masked.map(f.start, 'start'), end: masked.map(f.end, 'end') }));
  return { command: masked.text, verdict: { ...verdict, findings } };
}

/**
 * `input` with every secret masked: diagnostic messages and data, and each unit verdict's command,
 * reason, findings, suggestions and paths (offsets adjusted). Paths of files are kept.
 */
export function maskReportInput(input: ReportInput): ReportInput {
  const results = input.results.map((r): FileResult => ({
    ...r,
    diagnostics: r.diagnostics.map(maskDiagnostic),
    ...(r.verdicts !== undefined ? { verdicts: r.verdicts.map(maskUnitVerdict) } : {}),
  }));
  return { ...input, results };
}
