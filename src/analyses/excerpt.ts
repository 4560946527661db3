/**
 * The excerpt of a command shown under a finding (the text report's code frame): the line of the
 * command that holds the finding, cut to a window around it, with every secret masked. Pure.
 */
import type { CommandExcerpt, Span, UnitContext } from '../core/types.js';
import { maskWithOffsets } from './secrets.js';

/** Characters of the command line kept around a finding. */
export const EXCERPT_WIDTH = 88;
/** Characters kept before the finding's start when the line must be cut. */
const CONTEXT_BEFORE = 24;

/**
 * The excerpt of `command` for a finding at `span` (UTF-16 offsets into `command`, end exclusive),
 * with the session and call id from `context`. The excerpt is the command's line holding
 * `span.start`, masked (src/analyses/secrets.ts), then cut to at most {@link EXCERPT_WIDTH}
 * characters so that the finding's start is visible; `start`/`end` are the marked part in the
 * excerpt text (0-based, end exclusive, at least one character when the line is not empty).
 */
export function commandExcerpt(command: string, span: Span, context?: UnitContext): CommandExcerpt {
  const at = Math.max(0, Math.min(span.start, command.length));
  const lineStart = command.lastIndexOf('\n', at - 1) + 1;
  const nl = command.indexOf('\n', at);
  const lineEnd = nl < 0 ? command.length : nl;
  let lineNo = 1;
  for (let i = command.indexOf('\n'); i >= 0 && i < lineStart; i = command.indexOf('\n', i + 1)) lineNo++;
  let lines = 1;
  for (let i = command.indexOf('\n'); i >= 0; i = command.indexOf('\n', i + 1)) lines++;
  const line = command.slice(lineStart, lineEnd);
  const masked = maskWithOffsets(line);
  let start = masked.map(at - lineStart, 'start');
  let end = Math.max(start + 1, masked.map(Math.min(span.end, lineEnd) - lineStart, 'end'));
  const text0 = masked.text;
  end = Math.min(end, text0.length);
  let from = 0;
  let to = text0.length;
  if (text0.length > EXCERPT_WIDTH) {
    from = start > CONTEXT_BEFORE ? Math.min(start - CONTEXT_BEFORE, text0.length - EXCERPT_WIDTH) : 0;
    to = from + EXCERPT_WIDTH;
  }
  start -= from;
  end = Math.min(end, to) - from;
  return {
    text: text0.slice(from, to),
    start,
    end: Math.max(end, Math.min(start + 1, to - from)),
    cutBefore: from > 0,
    cutAfter: to < text0.length,
    line: lineNo,
    lines,
    ...(context?.sessionId !== undefined ? { sessionId: context.sessionId } : {}),
    ...(context?.toolUseId !== undefined ? { callId: context.toolUseId } : {}),
  };
}
