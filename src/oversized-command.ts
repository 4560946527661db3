/**
 * Agent commands longer than the complexity length cap are judged without being parsed: such a
 * command is too complex to prove safe whatever it contains, so the answer is at best `ask`, and a
 * full parse of a megabyte of pathological text can cost seconds and hundreds of megabytes. A deny
 * rule whose program is visible in the text still denies (src/rules/oversized.ts). Pure.
 */
import { describeComplexity, LENGTH_CONSTRUCT, MAX_COMPLEXITY_LENGTH } from './parse/complexity.js';
import { scanOversized } from './rules/oversized.js';
import type { CommandUnit, Finding } from './core/types.js';
import type { PermissionDecision } from './rules/decide.js';
import type { PermissionPolicy } from './rules/policy.js';

/**
 * Whether `unit` is judged by {@link judgeOversized} instead of being parsed: an agent-profile
 * command (a tool call, a `check` request) longer than {@link MAX_COMPLEXITY_LENGTH} UTF-16 code
 * units. Scripts and Makefile recipes in the script profile are parsed whatever their length.
 */
export function isOversizedCommand(unit: Pick<CommandUnit, 'text' | 'granularity' | 'profile'>): boolean {
  return unit.granularity === 'command' && unit.profile === 'agent' && unit.text.length > MAX_COMPLEXITY_LENGTH;
}

/**
 * The findings and decision of an oversized command `text` under `policy`: one
 * `parse-too-complex` finding on the part past the cap (its message names both lengths), and a
 * decision that is `deny` when a deny rule's program occurs in the text (or a deny rule names no
 * program), else `ask` — by the first ask rule whose program occurs, or as not simple. Never
 * `allow`; `readOnly` is false and `paths` empty (nothing was proven).
 */
export function judgeOversized(text: string, policy: PermissionPolicy): { findings: Finding[]; decision: PermissionDecision } {
  const span = { start: MAX_COMPLEXITY_LENGTH, end: text.length };
  const lower = describeComplexity({ status: 'too-complex', construct: LENGTH_CONSTRUCT, span, nodeCount: 0 }) ?? '';
  // Messages (the finding's and the decision's, which becomes the verdict's reason) start as sentences.
  const why = `${lower.charAt(0).toUpperCase()}${lower.slice(1)}`;
  const findings: Finding[] = [
    {
      ruleId: 'parse-too-complex',
      message: `${why} It was not parsed.`,
      span,
      data: { construct: LENGTH_CONSTRUCT, offset: span.start },
    },
  ];
  const scan = scanOversized(text, policy);
  const seen = scan.program !== undefined ? `\`${scan.program}\` occurs in it` : 'the rule names no program';
  // Nothing was parsed: the model holds no command, only the gap that says why.
  const model = { text, commands: [], gaps: [{ span, reason: 'the command is too long to parse' }], environmentReads: [] };
  const facts = { suggestions: [], readOnly: false, paths: [], model } as const;
  if (scan.deny) {
    return {
      findings,
      decision: { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${scan.deny.raw}: the command is too long to parse and ${seen}.`, rule: scan.deny, ...facts },
    };
  }
  if (scan.ask) {
    return {
      findings,
      decision: { behavior: 'ask', reason: 'ask-rule', code: 'policy-ask', message: `Rule ${scan.ask.raw} asks for approval: the command is too long to parse and ${seen}.`, rule: scan.ask, ...facts },
    };
  }
  return { findings, decision: { behavior: 'ask', reason: 'not-simple', code: 'parse-too-complex', message: why, ...facts } };
}
