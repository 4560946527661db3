/**
 * Agent commands longer than the complexity length cap are judged without being parsed: such a
 * command is too complex to prove safe whatever it contains, so the answer is at best `ask`, and a
 * full parse of a megabyte of pathological text can cost seconds and hundreds of megabytes. A deny
 * rule whose program is visible in the text still denies (src/rules/oversized.ts). Pure.
 */
import { describeComplexity, LENGTH_CONSTRUCT, MAX_COMPLEXITY_LENGTH } from './parse/complexity.js';
import { scanOversized } from './rules/oversized.js';
import type { CommandUnit, Finding, Span } from './core/types.js';
import { MAX_HEREDOCS_PER_LINE, MAX_LEADING_HEREDOCS, type HeredocPressure } from './parse/heredoc-pressure.js';
import { MAX_BRACE_DEPTH, MAX_OPEN_CONDITIONALS, MAX_SUBSTITUTION_DEPTH, type DeepNesting } from './parse/nesting-pressure.js';
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
  return judgeUnparsed(text, policy, span, `${lower.charAt(0).toUpperCase()}${lower.slice(1)}`, LENGTH_CONSTRUCT);
}

/** Construct name of text refused for its crowded here-document operators (`data.construct`). */
export const CROWDED_HEREDOCS_CONSTRUCT = 'crowded-heredocs';

/**
 * The findings and decision of a unit refused for its here-document operators (see
 * src/parse/heredoc-pressure.ts, `heredocPressure`): a line holds more than
 * {@link MAX_HEREDOCS_PER_LINE} of them, or more than {@link MAX_LEADING_HEREDOCS} stand first in
 * a command. Not parsed, one `parse-too-complex` finding on the line `pressure.span` names, and the
 * decision of {@link judgeOversized} (deny when a deny rule's program occurs in the text, else ask;
 * never allow).
 */
export function judgeCrowdedHeredocs(text: string, pressure: HeredocPressure, policy: PermissionPolicy): { findings: Finding[]; decision: PermissionDecision } {
  const why =
    pressure.shape === 'crowded-line'
      ? `A line holds more than ${MAX_HEREDOCS_PER_LINE} here-document operators (\`<<\`), more than the parser can be stopped in; the command is too complex to analyse.`
      : `More than ${MAX_LEADING_HEREDOCS} here-document operators (\`<<\`) stand first in a command, with no command word before them, more than the parser can be stopped in; the command is too complex to analyse.`;
  return judgeUnparsed(text, policy, pressure.span, why, CROWDED_HEREDOCS_CONSTRUCT);
}

/** Construct name of text refused for its nesting (`data.construct`). */
export const DEEP_NESTING_CONSTRUCT = 'deep-nesting';

/**
 * The findings and decision of a unit refused for nesting no script has (see
 * src/parse/nesting-pressure.ts, `deepNesting`): not parsed, one `parse-too-complex` finding from
 * the opener that passed the limit to the end of its line, and the decision of
 * {@link judgeOversized} (deny when a deny rule's program occurs in the text, else ask; never allow).
 */
export function judgeDeepNesting(text: string, nesting: DeepNesting, policy: PermissionPolicy): { findings: Finding[]; decision: PermissionDecision } {
  const why =
    nesting.construct === 'substitution'
      ? `Substitutions (\`$(\`, \`\${\`) are nested more than ${MAX_SUBSTITUTION_DEPTH} deep, more than the analysis is bounded for; the command is too complex to analyse.`
      : nesting.construct === 'conditional'
        ? `More than ${MAX_OPEN_CONDITIONALS} \`[[\` conditionals are open at once, more than the analysis is bounded for; the command is too complex to analyse.`
        : `Braces (\`{\`) are nested more than ${MAX_BRACE_DEPTH} deep, more than the analysis is bounded for; the command is too complex to analyse.`;
  return judgeUnparsed(text, policy, nesting.span, why, DEEP_NESTING_CONSTRUCT);
}

/** {@link judgeOversized} for any text refused unparsed: `why` is the finding's and the decision's message. */
function judgeUnparsed(text: string, policy: PermissionPolicy, span: Span, why: string, construct: string): { findings: Finding[]; decision: PermissionDecision } {
  const findings: Finding[] = [
    {
      ruleId: 'parse-too-complex',
      message: `${why} It was not parsed.`,
      span,
      data: { construct, offset: span.start },
    },
  ];
  const scan = scanOversized(text, policy);
  const seen = scan.program !== undefined ? `\`${scan.program}\` occurs in it` : 'the rule names no program';
  // Nothing was parsed: the model holds no command, only the gap that says why.
  const unparsed = construct === LENGTH_CONSTRUCT ? 'the command is too long to parse' : 'the command is too complex to parse';
  const model = { text, commands: [], gaps: [{ span, reason: unparsed }], environmentReads: [] };
  const facts = { suggestions: [], readOnly: false, paths: [], model } as const;
  if (scan.deny) {
    return {
      findings,
      decision: { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${scan.deny.raw}: ${unparsed} and ${seen}.`, rule: scan.deny, ...facts },
    };
  }
  if (scan.ask) {
    return {
      findings,
      decision: { behavior: 'ask', reason: 'ask-rule', code: 'policy-ask', message: `Rule ${scan.ask.raw} asks for approval: ${unparsed} and ${seen}.`, rule: scan.ask, ...facts },
    };
  }
  return { findings, decision: { behavior: 'ask', reason: 'not-simple', code: 'parse-too-complex', message: why, ...facts } };
}
