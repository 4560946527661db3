/**
 * The policy gate of sandboxed runs: only a command the policy **allows** is ever run. A
 * {@link SandboxClearance} is what the runner accepts; production code builds it from a verdict
 * with {@link clearanceFromVerdict}, so it carries whatever the permission engine decided
 * (src/verdict.ts). Tests that exercise the runner pass an explicit clearance instead of faking a
 * verdict.
 */
import type { Decision, Verdict } from '../verdict.js';

/** What the policy said about a command, as far as running it is concerned. */
export interface SandboxClearance {
  /** The permission decision; the runner refuses anything but `allow`. */
  readonly decision: Decision;
  /** The verdict's reason (`<code>` or `<code>: <explanation>`), shown when refusing. */
  readonly reason: string;
  /** Whether the analysis classified the command read-only; a read-only command that writes is a `sandbox-wrote-files` error. */
  readonly readOnly: boolean;
}

/** The clearance a verdict gives: its decision, reason and read-only classification. Pure. */
export function clearanceFromVerdict(verdict: Pick<Verdict, 'decision' | 'reason' | 'readOnly'>): SandboxClearance {
  return { decision: verdict.decision, reason: verdict.reason, readOnly: verdict.readOnly };
}

/**
 * Why the command must not run, or `undefined` when the clearance allows it (decision exactly
 * `allow`). Anything else — `ask`, `deny`, or a value outside the type from untyped callers —
 * is a refusal. Pure.
 */
export function refusalOf(clearance: SandboxClearance): string | undefined {
  if (clearance.decision === 'allow') return undefined;
  const decision = clearance.decision === 'deny' || clearance.decision === 'ask' ? clearance.decision : `not allow (${String(clearance.decision)})`;
  return `the policy decision is ${decision}: ${clearance.reason}`;
}
