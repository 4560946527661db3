/**
 * A suggested Claude Code permission rule (`Bash(npm run build:*)`, `Bash(git status)`) written in
 * the syntax of the agent whose calls it would have allowed. Pure.
 *
 * - Claude Code: the rule itself (https://code.claude.com/docs/en/iam#tool-specific-permission-rules).
 * - Codex CLI execpolicy: `prefix_rule(pattern=["npm", "run", "build"], decision="allow")`, a list
 *   of argv tokens matched from the start (https://github.com/openai/codex/blob/main/codex-rs/execpolicy/README.md).
 *   An exact rule has no exact counterpart there (every rule is a prefix), so it is left in Claude
 *   Code syntax with a note: a prefix rule would allow more than the exact command.
 * - Gemini CLI policy engine (TOML): `[[rule]] toolName = "run_shell_command" commandPrefix = "npm
 *   run build" decision = "allow"` for a prefix rule, `commandRegex = "^git status$"` for an exact
 *   one (https://geminicli.com/docs/reference/policy-engine/), shown on one line.
 */

/** The words of a rule's command, split on spaces (`npm run build`), or undefined when not plain. */
function words(command: string): string[] | undefined {
  const ws = command.trim().split(/\s+/).filter((w) => w !== '');
  return ws.length > 0 && ws.every((w) => !/["'\\*]/.test(w)) ? ws : undefined;
}

function quote(s: string): string {
  return JSON.stringify(s);
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One `Bash(…)` rule in `agent`'s syntax (the rule unchanged for Claude Code or an unknown agent). */
export function nativeRule(agent: string, rule: string): string {
  const m = /^Bash\((.*)\)$/s.exec(rule);
  if (!m || agent === 'claude-code') return rule;
  const body = m[1]!;
  const prefix = body.endsWith(':*');
  const command = prefix ? body.slice(0, -2) : body;
  const ws = words(command);
  if (agent === 'codex') {
    if (!prefix || !ws) return `${rule} (no execpolicy equivalent: execpolicy rules match prefixes)`;
    return `prefix_rule(pattern=[${ws.map(quote).join(', ')}], decision="allow")`;
  }
  if (agent === 'gemini') {
    return prefix
      ? `[[rule]] toolName = "run_shell_command", commandPrefix = ${quote(command.trim())}, decision = "allow"`
      : `[[rule]] toolName = "run_shell_command", commandRegex = ${quote(`^${escapeRegex(command.trim())}$`)}, decision = "allow"`;
  }
  return rule;
}

/** Every rule of a suggestion in `agent`'s syntax, in order. */
export function nativeRules(agent: string, rules: readonly string[]): string[] {
  return rules.map((r) => nativeRule(agent, r));
}
