/**
 * Rules reported about the policy files themselves (`.claude/settings*.json`, the shellward
 * config), not about shell code: they are produced where the configuration is loaded
 * (src/config/), so they have no command examples; test/config/policy-lint.test.ts shows each.
 */
import type { RuleMeta } from '../define.js';

/** `policy-overbroad-allow` metadata. */
export const POLICY_OVERBROAD_ALLOW: RuleMeta = {
  id: 'policy-overbroad-allow',
  code: 'R503',
  title: 'Allow rule admits arbitrary code',
  category: 'policy',
  severity: { agent: 'warning', script: 'warning' },
  docs: {
    rationale:
      'An allow rule such as `Bash`, `Bash(*)`, `Bash(bash:*)`, `Bash(sh -c:*)`, `Bash(python:*)`, `Bash(node *)`, ' +
      '`Bash(npx:*)`, `Bash(npm run:*)`, `Bash(env:*)`, `Bash(xargs:*)` or `Bash(sudo:*)` lets the agent run any ' +
      'code without asking: the allowed program takes the code to run as an argument. Claude Code itself strips ' +
      'such rules when auto mode starts (its dangerousPatterns list, claude-code-reference.md §2.9). shellward reports ' +
      'them where they are written: the rule string in `.claude/settings.json`, `.claude/settings.local.json` ' +
      'or the shellward config.',
    fix:
      'Allow the specific commands instead (`Bash(npm run test:*)`, `Bash(python -m pytest:*)`), or move the rule ' +
      'to `ask`.',
    exceptions:
      'Rules are compared by their first words: a prefix or the text before the first `*` that is an interpreter, ' +
      'runner, shell or wrapper (alone or followed by a single option such as `-c`) is reported. Positions are exact ' +
      'for JSON files; for YAML and JavaScript configs the finding is at the top of the file.',
  },
  sources: ['claude-code:dangerousPatterns'],
  examples: { valid: [], invalid: [] },
};

/** Every rule reported about policy files, sorted by id. */
export const POLICY_FILE_RULES: readonly RuleMeta[] = [POLICY_OVERBROAD_ALLOW];
