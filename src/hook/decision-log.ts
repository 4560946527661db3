/**
 * The shellward decision log: one JSON object per line, appended by `shellward hook --log FILE`
 * (and `--mode log`) for every shell call it judged, and read back by `shellward audit` like a
 * transcript (src/sources/transcript/shellward-decisions.ts). Pure: the record is built here,
 * written by the CLI.
 */
import type { Decision } from '../verdict.js';
import type { HookOutcome } from './index.js';
import type { HookMode } from './types.js';

/** `type` of every record: how the log is recognised. */
export const DECISION_RECORD_TYPE = 'shellward-decision';

/** One judged hook event. Keys with no value are left out. */
export interface DecisionRecord {
  readonly type: typeof DECISION_RECORD_TYPE;
  /** Version of this shape; readers skip records of a newer major version. */
  readonly version: 1;
  /** ISO-8601 time shellward answered. */
  readonly timestamp: string;
  readonly agent: string;
  readonly sessionId?: string;
  readonly toolUseId?: string;
  readonly transcriptPath?: string;
  /** The directory the command was judged for (absolute). */
  readonly cwd?: string;
  /** The agent's permission mode as the event sent it. */
  readonly permissionMode?: string;
  /** The command; absent when the event was malformed (then `error` says why). */
  readonly command?: string;
  readonly error?: string;
  /** The verdict's decision (`ask` for a malformed event or an internal error). */
  readonly decision: Decision;
  /** What shellward answered after `--deny-on` (before the mode and the agent's protocol shaped it). */
  readonly answered: Decision;
  readonly reason: string;
  readonly mode: HookMode;
  readonly destructive?: readonly string[];
  /** Rule id and severity of every finding. */
  readonly findings?: readonly { readonly ruleId: string; readonly severity: string }[];
}

/**
 * The record of an outcome, or `undefined` for a pass (another tool or event). `cwd` is the
 * resolved working directory the command was judged for; `now` the time of the answer.
 */
export function decisionRecord(outcome: HookOutcome, mode: HookMode, cwd: string | undefined, now: Date): DecisionRecord | undefined {
  const answer = outcome.answer;
  if (!answer) return undefined;
  const call = outcome.call;
  const v = outcome.verdict;
  return {
    type: DECISION_RECORD_TYPE,
    version: 1,
    timestamp: now.toISOString(),
    agent: outcome.agent,
    ...(call?.sessionId !== undefined ? { sessionId: call.sessionId } : {}),
    ...(call?.toolUseId !== undefined ? { toolUseId: call.toolUseId } : {}),
    ...(call?.transcriptPath !== undefined ? { transcriptPath: call.transcriptPath } : {}),
    ...(cwd !== undefined && call ? { cwd } : {}),
    ...(call?.permissionMode !== undefined ? { permissionMode: call.permissionMode } : {}),
    ...(call ? { command: call.command } : { error: answer.reason }),
    decision: v?.decision ?? 'ask',
    answered: answer.decision,
    reason: answer.reason,
    mode,
    ...(v ? { destructive: v.destructive, findings: v.findings.map((f) => ({ ruleId: f.ruleId, severity: f.severity })) } : {}),
  };
}
