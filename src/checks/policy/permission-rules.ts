/**
 * permission-rules: the permission policy applied to the code (claude-code-reference.md §2).
 * Two rule ids:
 * - `policy-deny`: a deny rule matches a simple command (anywhere in the tree: pipelines,
 *   subshells, `$(…)`, loops; through wrappers, assignments and directory prefixes), or the whole
 *   command exactly. One finding per denied simple command, naming the rule and its file.
 * - `policy-ask`: in a command unit (a transcript call, a `check` request, a recipe line), the
 *   decision is an ask from an ask rule or from a structural ask (`cd` twice, `cd` + `git`, more
 *   than 50 subcommands), or — when any rule is configured — no rule allows the command (then the
 *   message carries the suggested rules). Asks that another check already reports (security,
 *   parse complexity) are not repeated. In a script, each simple command an ask rule matches.
 * Allow is silent.
 */
import type { Span } from '../../core/types.js';
import { askFor, denyFor, wholeCommandText } from '../../rules/decide.js';
import { firstExactMatch } from '../../rules/match.js';
import type { PermissionRule } from '../../rules/parse.js';
import { ruleCount } from '../../rules/policy.js';
import type { Check, RuleMeta } from '../define.js';

const SOURCES = ['claude-code:bashToolHasPermission', 'claude-code:shellRuleMatching'];

/** `policy-deny` metadata. */
export const POLICY_DENY: RuleMeta = {
  id: 'policy-deny',
  code: 'R501',
  title: 'Command matches a deny rule of the permission policy',
  category: 'policy',
  severity: { agent: 'error', script: 'error' },
  docs: {
    rationale:
      'A `permissions.deny` rule (in `.claude/settings.json`, `.claude/settings.local.json` or the shellward ' +
      'config) forbids this command. Claude Code refuses it without asking; a script or Makefile that runs it ' +
      'does what the policy says an agent must never do.\n\n' +
      'shellward matches every simple command of the parse tree, including those inside pipelines, subshells, ' +
      'command substitutions and loops, and deny rules see through any leading `NAME=value`, every wrapper ' +
      '(`sudo`, `env`, `xargs`, `timeout`, `nice`, `nohup`, `stdbuf`, `watch`, `setsid`, `flock`, `command`, ' +
      '`builtin` …), a directory prefix (`/usr/bin/curl`) and zsh\'s `=curl`. Rule syntax and matching are ' +
      'Claude Code\'s: `Bash(cmd)` exact, `Bash(prefix:*)` prefix at a word boundary, `Bash(git * main)` wildcard.',
    fix: 'Do not run the command, or remove or narrow the deny rule if the policy is wrong.',
    exceptions:
      'Stricter than Claude Code 2.1.88, which checks only an exact deny before its 50-subcommand cap and misparsing ' +
      'gate: shellward checks every deny rule first, so neither can hide a deny. Also beyond Claude Code: the ' +
      'string of `sh -c \'…\'` / `bash -c "…"` and the arguments of `eval` are split on `;`, `&&`, `||`, `|`, `&` ' +
      'and newlines and matched too (deny and ask rules only). Programs that run code from a file or another ' +
      'language (`python -c`, `node -e`, a wrapper script of your own) are not seen through.',
  },
  sources: SOURCES,
  examples: {
    invalid: ['curl -fsSL https://example.com/install.sh', 'sudo /usr/bin/curl https://example.com', 'echo start && FOO=1 timeout 5 curl https://example.com'],
    valid: ['echo curl', 'wget https://example.com'],
  },
  examplePolicy: { deny: ['Bash(curl:*)'] },
};

/** `policy-ask` metadata. */
export const POLICY_ASK: RuleMeta = {
  id: 'policy-ask',
  code: 'R502',
  title: 'Command needs approval under the permission policy',
  category: 'policy',
  severity: { agent: 'warning', script: 'off' },
  docs: {
    rationale:
      'Claude Code would stop and ask before running this command: an `ask` rule matches it, it writes a file ' +
      'or touches a path outside the working directories, it runs a `sed` expression outside the safe subset, it changes ' +
      'directory more than once, it combines `cd` with `git` (a repository in the target directory can run ' +
      'code through its config), it has more than 50 subcommands to check, or no `allow` rule covers every ' +
      'subcommand. In an agent transcript that means a person approved it (or the run was in a permissive mode).',
    fix:
      'Split the command, or add the allow rule the message suggests if it is safe to run without asking ' +
      '(suggestions are Claude Code\'s: a 2-word prefix such as `Bash(npm run:*)`, never for bare shells and wrappers).',
    exceptions:
      'Asks that other rules report (security checks, parse complexity, dangerous removals) are not repeated here. ' +
      'With no permission rule configured, a command that nothing allows is not reported. Read-only commands ' +
      '(Claude Code\'s flag-level allowlist) are allowed without a rule; path constraints (a write, or a path outside ' +
      'the working directories, in a command with a recorded working directory) and `sed` constraints ask even when ' +
      'an allow rule matches, as in Claude Code. `Read(…)`/`Edit(…)` deny and ask rules apply to the paths the command reads and writes; their allow rules admit paths outside.',
  },
  sources: SOURCES,
  examples: {
    invalid: ['git push origin main', 'cd ../other && ls', 'cd sub && git status', 'npm run build'],
    valid: ['git status', 'echo git push'],
  },
  examplePolicy: { allow: ['Bash(git status)', 'Bash(cd:*)', 'Bash(echo:*)'], ask: ['Bash(git push:*)'] },
};

function ruleLabel(r: PermissionRule): string {
  return `\`${r.raw}\` (${r.origin.file}${r.origin.path ? ` ${r.origin.path}` : ''})`;
}

const check: Check = {
  name: 'permission-rules',
  rules: [POLICY_DENY, POLICY_ASK],
  run(ctx) {
    const { policy, parsed, unit } = ctx;
    if (ruleCount(policy) === 0) return;
    const text = unit.text;
    const data = (r: PermissionRule, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
      rule: r.raw,
      behavior: r.behavior,
      file: r.origin.file,
      ...(r.origin.path ? { path: r.origin.path } : {}),
      ...extra,
    });
    let denied = false;
    for (const c of parsed.commands) {
      const r = denyFor(text, c, policy);
      if (!r) continue;
      denied = true;
      ctx.report({ ruleId: POLICY_DENY.id, message: `Denied by rule ${ruleLabel(r)}.`, span: c.span, data: data(r) });
    }
    if (unit.granularity === 'script') {
      for (const c of parsed.commands) {
        if (denyFor(text, c, policy)) continue;
        const r = askFor(text, c, policy);
        if (r) ctx.report({ ruleId: POLICY_ASK.id, message: `Rule ${ruleLabel(r)} asks for approval.`, span: c.span, data: data(r, { reason: 'ask-rule' }) });
      }
      return;
    }
    const whole: Span = { start: 0, end: text.length };
    if (denied) return;
    const wholeDeny = firstExactMatch(policy.deny, wholeCommandText(text));
    if (wholeDeny) {
      ctx.report({ ruleId: POLICY_DENY.id, message: `Denied by rule ${ruleLabel(wholeDeny)}.`, span: whole, data: data(wholeDeny) });
      return;
    }
    const d = ctx.decision();
    const span = d.span ?? whole;
    switch (d.reason) {
      case 'ask-rule':
        ctx.report({ ruleId: POLICY_ASK.id, message: `Rule ${ruleLabel(d.rule!)} asks for approval.`, span, data: data(d.rule!, { reason: d.reason }) });
        return;
      case 'multiple-cd':
      case 'cd-git':
      case 'too-many-subcommands':
        ctx.report({ ruleId: POLICY_ASK.id, message: d.message, span, data: { reason: d.reason } });
        return;
      case 'path-constraint':
      case 'sed-constraint':
      case 'option-effect':
      case 'environment-read':
        // Asks no allow rule can lift (claude-code-reference.md §2.8 steps 3 and 6); reported like a missing allow rule.
        if (!policy.allow.some((r) => r.bash !== undefined)) return;
        ctx.report({ ruleId: POLICY_ASK.id, message: d.message, span, data: { reason: d.reason } });
        return;
      case 'no-matching-rule': {
        if (!policy.allow.some((r) => r.bash !== undefined)) return;
        const hint = d.suggestions.length > 0 ? ` Suggested rule${d.suggestions.length > 1 ? 's' : ''}: ${d.suggestions.map((s) => `\`${s}\``).join(', ')}.` : '';
        ctx.report({ ruleId: POLICY_ASK.id, message: `No allow rule covers this command.${hint}`, span, data: { reason: d.reason, suggestions: d.suggestions } });
        return;
      }
      default:
        return;
    }
  },
};

export default check;
