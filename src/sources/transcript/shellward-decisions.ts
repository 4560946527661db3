/**
 * The shellward decision log (`shellward hook --log FILE`, src/hook/decision-log.ts) read as a
 * transcript, so `shellward audit` reports on the commands an agent was about to run whatever
 * the agent: one JSON object per line with `type: "shellward-decision"`, `version: 1`,
 * `command`, `cwd`, `agent`, `sessionId`, `toolUseId`, `timestamp`, `permissionMode` and
 * shellward's `answered` decision. The log is written before the command runs, so the outcome
 * is `denied` when shellward answered deny and `unknown` otherwise. Records without a command
 * (a malformed event), of a newer version or of another type are skipped. Re-logged calls (the
 * same agent and tool call id) are read once per run. Pure.
 */
import { makeCall, nothing, startLine, str, unmapped, type ReaderOutput, type SeenIds, type TranscriptReader } from './types.js';
import { stringAt } from './json-text.js';

/** `type` of every record of the log. */
export const DECISION_LOG_TYPE = 'shellward-decision';

/** Whether a decoded record is a decision-log record (any version). */
export function isDecisionRecord(obj: Record<string, unknown>): boolean {
  return obj.type === DECISION_LOG_TYPE && typeof obj.version === 'number';
}

/** Reads one decision log; `file` is the path shown to the user. */
export class ShellwardDecisionReader implements TranscriptReader {
  constructor(
    private readonly file: string,
    private readonly seen: SeenIds = new Set(),
  ) {}

  line(text: string, lineNo: number): ReaderOutput {
    const { out, record: e } = startLine(text, lineNo);
    if (!e || !isDecisionRecord(e) || e.version !== 1) return out;
    const command = str(e.command);
    if (command === undefined) return out;
    const agent = str(e.agent);
    const id = str(e.toolUseId);
    if (id !== undefined) {
      const key = `${agent ?? 'unknown'}:${id}`;
      if (this.seen.has(key)) return out;
      this.seen.add(key);
    }
    const mapped = stringAt(text, ['command']);
    const cwd = str(e.cwd);
    const session = str(e.sessionId);
    const timestamp = str(e.timestamp);
    const mode = str(e.permissionMode);
    out.calls.push(
      makeCall({
        command: mapped && mapped.text === command ? mapped : unmapped(command, 0),
        hostText: text,
        line: lineNo,
        lineShift: lineNo - 1,
        dialect: 'bash',
        file: this.file,
        context: {
          ...(agent !== undefined ? { agent } : {}),
          ...(id !== undefined ? { toolUseId: id } : {}),
          ...(session !== undefined ? { sessionId: session } : {}),
          ...(timestamp !== undefined ? { timestamp } : {}),
          ...(cwd !== undefined ? { cwd } : {}),
          ...(mode !== undefined ? { permissionMode: mode } : {}),
          outcome: e.answered === 'deny' ? 'denied' : 'unknown',
        },
      }),
    );
    return out;
  }

  finish(): ReaderOutput {
    return nothing();
  }
}
