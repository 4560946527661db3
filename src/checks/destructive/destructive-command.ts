/**
 * destructive-command: one check, many rule ids — one per row of rules/destructive.json
 * (`git-reset-hard`, `rm-recursive-force`, `sql-delete-all` …). Mirrors Claude Code's
 * destructiveCommandWarning.ts (SPEC-bashtool.md §3.5) on parsed argv instead of raw text, so
 * `echo "rm -rf /"`, comments and quoted heredoc bodies are not removals, and wrappers
 * (`sudo`, `command`, `xargs` …) and paths (`/bin/rm`) do not hide one.
 */
import { DESTRUCTIVE_RULES, matchDestructive } from '../../analyses/destructive.js';
import type { Check, RuleMeta } from '../define.js';

const RULES: readonly RuleMeta[] = DESTRUCTIVE_RULES.map((r) => ({
  id: r.id,
  code: r.code,
  title: r.title,
  category: 'destructive',
  severity: { agent: 'warning', script: 'warning' },
  docs: {
    rationale:
      r.rationale +
      '\n\nshellward matches the parsed command after wrappers (`sudo`, `env`, `command`, `xargs`, ' +
      '`timeout` …) and directory prefixes (`/bin/rm`) are stripped; text inside quotes, comments and ' +
      'quoted heredoc bodies is not a command. Arguments that are not static (`$FLAGS`) are not guessed.',
    fix: r.fix,
    ...(r.exceptions ? { exceptions: r.exceptions } : {}),
  },
  sources: ['claude-code:destructiveCommandWarning'],
  examples: r.examples,
}));

const check: Check = {
  name: 'destructive-command',
  rules: RULES,
  run(ctx) {
    for (const cmd of ctx.parsed.commands) {
      const rule = matchDestructive(cmd);
      if (!rule) continue;
      ctx.report({ ruleId: rule.id, message: rule.message, span: cmd.span });
    }
  },
};

export default check;
