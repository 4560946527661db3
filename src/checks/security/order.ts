/**
 * Execution order of the security rules (claude-code-reference.md §1.4), in a module of its own
 * with no imports, so that the checks' metadata and the driver (`statement.ts`, for the early
 * allows) read the same table. The battery is sorted by the metadata's `claudeCode.order`, which
 * every security check takes from here (test/checks/security/driver.test.ts holds them equal).
 */

/**
 * Position of every security rule in Claude Code's execution order (claude-code-reference.md §1.4), 1-based. Rules
 * reported by one validator (jq, redirections) get consecutive positions in the order the
 * validator tests them.
 */
export const ORDER = {
  'control-characters': 1,
  'quote-parser-differential': 2,
  'incomplete-commands': 3,
  'git-commit-substitution': 4,
  'jq-system-function': 5,
  'jq-file-arguments': 6,
  'obfuscated-flags': 7,
  'shell-metacharacters': 8,
  'dangerous-variables': 9,
  'comment-quote-desync': 10,
  'quoted-newline': 11,
  'carriage-return': 12,
  newlines: 13,
  'ifs-injection': 14,
  'proc-environ-access': 15,
  'command-substitution': 16,
  'input-redirection': 17,
  'output-redirection': 18,
  'backslash-escaped-whitespace': 19,
  'backslash-escaped-operators': 20,
  'unicode-whitespace': 21,
  'mid-word-hash': 22,
  'brace-expansion': 23,
  'zsh-dangerous-command': 24,
  'malformed-token-injection': 25,
} as const;
