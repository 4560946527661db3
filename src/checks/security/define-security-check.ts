/**
 * `defineSecurityCheck`, the declaration every security check uses (architecture.md §9.2): a
 * check that runs one detector over the command strings of a unit (statement.ts) and reports at
 * most one finding per command string. A module of its own so that the detectors, the driver and
 * the registry import each other in one direction only.
 */
import { defineCheck } from '../define.js';
import { securityCommands, type Detector, type SecurityCheck, type SecurityRuleMeta } from './statement.js';

/**
 * Declares a security check: runs `detect` on every command string of the unit that no early
 * allow suppresses for this rule, and reports at most one finding per command string (as Claude
 * Code's validator returns at most one ask). Finding data carries Claude Code's `checkId`, the
 * `subId` when there is one, `misparsing`, and `order` (the hit's own order when it differs
 * from the rule's, as for the git-commit dash case). The returned check exposes `detect` and the
 * order, from which the registry's battery is derived (`securityBattery` in statement.ts).
 */
export function defineSecurityCheck(meta: SecurityRuleMeta, detect: Detector): SecurityCheck {
  const order = meta.claudeCode.order;
  const check = defineCheck(meta, (ctx) => {
    for (const cmd of securityCommands(ctx)) {
      if (cmd.allowOrder !== undefined && order >= cmd.allowOrder) continue;
      const hit = detect(cmd);
      if (!hit) continue;
      ctx.report({
        ruleId: meta.id,
        message: hit.message,
        span: { start: cmd.start + hit.start, end: cmd.start + Math.max(hit.end, hit.start + 1) },
        data: {
          ...(meta.claudeCode.id !== undefined ? { checkId: meta.claudeCode.id } : {}),
          ...(hit.subId !== undefined ? { subId: hit.subId } : {}),
          misparsing: meta.claudeCode.misparsing,
          order: hit.order ?? order,
          ...hit.data,
        },
      });
    }
  });
  return { ...check, security: { order, detect } };
}
