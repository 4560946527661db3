/**
 * The explicit, sorted registry of checks (architecture.md §9.4 item 2). No directory scanning: a
 * check that is not listed here does not run, and the meta test fails for it.
 */
import type { Check, RuleMeta } from './define.js';
import { securityBattery, type SecurityBattery } from './security/statement.js';
import destructiveCommand from './destructive/destructive-command.js';
import crlfLineEndings from './parse/crlf-line-endings.js';
import { INPUT_RULES } from './input/input-rules.js';
import hiddenCommands from './parse/hidden-commands.js';
import parseError from './parse/parse-error.js';
import parseTooComplex from './parse/parse-too-complex.js';
import pathDangerousRemoval from './paths/path-dangerous-removal.js';
import sedUnsafeExpression from './paths/sed-unsafe-expression.js';
import pathOutsideWorkdir from './paths/path-outside-workdir.js';
import permissionRules from './policy/permission-rules.js';
import { POLICY_FILE_RULES } from './policy/policy-file-rules.js';
import { SANDBOX_RULES } from './sandbox/sandbox-rules.js';
import { WORKFLOW_RULES } from './workflow/workflow-rules.js';
import backslashEscapedOperators from './security/backslash-escaped-operators.js';
import backslashEscapedWhitespace from './security/backslash-escaped-whitespace.js';
import braceExpansion from './security/brace-expansion.js';
import carriageReturn from './security/carriage-return.js';
import commandSubstitution from './security/command-substitution.js';
import commentQuoteDesync from './security/comment-quote-desync.js';
import controlCharacters from './security/control-characters.js';
import dangerousVariables from './security/dangerous-variables.js';
import gitCommitSubstitution from './security/git-commit-substitution.js';
import ifsInjection from './security/ifs-injection.js';
import incompleteCommands from './security/incomplete-commands.js';
import inputRedirection from './security/input-redirection.js';
import jqFileArguments from './security/jq-file-arguments.js';
import jqSystemFunction from './security/jq-system-function.js';
import malformedTokenInjection from './security/malformed-token-injection.js';
import midWordHash from './security/mid-word-hash.js';
import newlines from './security/newlines.js';
import obfuscatedFlags from './security/obfuscated-flags.js';
import outputRedirection from './security/output-redirection.js';
import procEnvironAccess from './security/proc-environ-access.js';
import secretInCommand from './security/secret-in-command.js';
import quoteParserDifferential from './security/quote-parser-differential.js';
import quotedNewline from './security/quoted-newline.js';
import shellMetacharacters from './security/shell-metacharacters.js';
import unicodeWhitespace from './security/unicode-whitespace.js';
import zshDangerousCommand from './security/zsh-dangerous-command.js';

/** Every check, sorted by name. */
export const CHECKS: readonly Check[] = [
  backslashEscapedOperators,
  backslashEscapedWhitespace,
  braceExpansion,
  carriageReturn,
  commandSubstitution,
  commentQuoteDesync,
  controlCharacters,
  crlfLineEndings,
  dangerousVariables,
  destructiveCommand,
  gitCommitSubstitution,
  hiddenCommands,
  ifsInjection,
  incompleteCommands,
  inputRedirection,
  jqFileArguments,
  jqSystemFunction,
  malformedTokenInjection,
  midWordHash,
  newlines,
  obfuscatedFlags,
  outputRedirection,
  parseError,
  parseTooComplex,
  pathDangerousRemoval,
  pathOutsideWorkdir,
  permissionRules,
  procEnvironAccess,
  quoteParserDifferential,
  quotedNewline,
  secretInCommand,
  sedUnsafeExpression,
  shellMetacharacters,
  unicodeWhitespace,
  zshDangerousCommand,
];

/** Every rule shellward can report, sorted by id: the checks', the pipeline's own, the sandbox's and the workflow readers'. */
/**
 * The security battery of {@link CHECKS}: every security check's detector with its position in
 * Claude Code's execution order, sorted by it (src/checks/security/statement.ts).
 */
export const SECURITY_BATTERY: SecurityBattery = securityBattery(CHECKS);

export const RULES: readonly RuleMeta[] = [...CHECKS.flatMap((c) => c.rules), ...INPUT_RULES, ...SANDBOX_RULES, ...POLICY_FILE_RULES, ...WORKFLOW_RULES].sort((a, b) =>
  a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
);

const BY_ID = new Map(RULES.map((r) => [r.id, r]));

/** Metadata of rule `id`, or `undefined` for an unknown id. */
export function ruleMeta(id: string): RuleMeta | undefined {
  return BY_ID.get(id);
}

const BY_CODE = new Map(RULES.map((r) => [r.code.toUpperCase(), r]));

/**
 * The rule a user names by id (`rm-recursive-force`) or by the code `shellward rules` prints
 * (`D301`, any case), or `undefined`.
 */
export function ruleByName(name: string): RuleMeta | undefined {
  return BY_ID.get(name) ?? BY_CODE.get(name.toUpperCase());
}

/**
 * The ids of the rules whose metadata cites ShellCheck check `code` (`SC2115` → the rules with
 * `shellcheck:SC2115` in `sources`), so a `# shellcheck disable=SC2115` silences them too.
 */
export function rulesCitingShellcheck(code: string): readonly string[] {
  const source = `shellcheck:${code.toUpperCase()}`;
  return RULES.filter((r) => r.sources.includes(source)).map((r) => r.id);
}
