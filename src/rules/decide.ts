/**
 * The one permission decision for a unit, over its command model (src/model/) and the policy.
 *
 * Order (each step decides when it applies):
 * 1. deny — an exact deny of the whole command; a deny rule on any simple command anywhere in the
 *    tree, in any of its known forms (loop values, assigned literals, brace expansion of the
 *    command word, `${X:-rm}` defaults, `find -delete` as `rm`); and, when the model cannot see
 *    everything that runs, a denied program visible anywhere in the text → `deny`; a denied
 *    program visible in code given to an interpreter (`tclsh <<< 'exec rm x'`), or a link or copy
 *    of a denied program (`ln -s /bin/rm m`) → `deny` (src/rules/hidden-programs.ts);
 * 2. ask — the same for ask rules → `ask`; then, while deny or ask rules exist: code given to an
 *    interpreter, a link or copy that may be of a ruled program, a path command word naming a
 *    file the unit may make (`./m`), and a program the tables do not know given a ruled program's
 *    name as an argument or as a shell token inside its arguments or input → `ask`;
 * 3. what runs is not known (an unknown command word, code read from a pipe or a file, a depth or
 *    size cap, a parse error) or a parser differential (text bash could read differently from
 *    any parser): never better than `ask` while any deny or ask rule exists; otherwise only an
 *    exact allow of the whole command (or `Bash` itself) allows it;
 *    Then the environment printed in bulk (`export -p`, `declare -p` …): `ask` unless an exact
 *    allow of the whole command names it;
 * 4. Claude Code's removal limit (`rm -rf /`, `~`, `/*`): `ask`, no rule lifts it;
 * 5. more than 50 simple commands; `cd` together with `git` (a repository in the target could run
 *    code through its config) → `ask`;
 * 6. each simple command, in each form and in each working directory it may run in: path
 *    constraints (outside the working directories or not checkable → ask; a write inside them
 *    needs acceptEdits mode or an allow rule for the command; protected paths always ask), then
 *    an allow rule (not when an argument whose value is unknown could be an option), the `sed`
 *    constraint, acceptEdits file edits, read-only recognition;
 * 7. all commands proven → `allow`; otherwise `ask` (Claude Code's passthrough) with at most 5
 *    suggested rules.
 *
 * Severity, profile and `rules:` settings never reach this module: they decide what is printed,
 * not the decision. Loops, `if`, `case`, functions, subshells, groups, substitutions, heredocs,
 * comments and several lines are not asked about for their shape: the commands inside them are
 * decided like any other. Pure (symlinks only through the injected host); never throws.
 *
 * Deviation, in the safe direction: the path constraints of step 7a check the paths of
 * shellward's extension extractors too, not only Claude Code's 36.
 *
 * `Read(…)`/`Edit(…)` rules apply to the paths of every extractor (src/rules/file-rules.ts): a
 * deny rule naming a path the command reads or writes denies it, an ask rule asks, an allow rule
 * admits a known path outside the working directories.
 *
 * Not modelled (absent in shellward, said here rather than faked): Claude Code's internal editable paths and auto-edit safety checks, the
 * sandbox auto-allow. Pure (symlinks only through the injected host); never throws for any parse.
 */
import type { Span } from '../core/types.js';
import type { ParsedScript, SimpleCommand } from '../parse/nodes.js';
import type { Word } from '../parse/words.js';
import { commandBasename, resolveCommand } from '../parse/command-name.js';
import picomatch from 'picomatch';
import { permittingFileRule, restrictingFileRule } from './file-rules.js';
import { candidatesFor, firstExactMatch, firstMatch, prefixAllowCovers, renderWord } from './match.js';
import type { CommandModel, ModelCommand } from '../model/command-model.js';
import { abstractWord, buildModel, codeLoadingVariable } from '../model/build.js';
import { classifyAssignment } from '../model/environment.js';
import { dangerousRemovals } from '../analyses/dangerous-removal.js';
import readOnlyTable from '../../rules/read-only.json' with { type: 'json' };
import type { PermissionRule } from './parse.js';
import type { PermissionPolicy } from './policy.js';
import { MAX_SUGGESTED_RULES_FOR_COMPOUND, suggestionForExactCommand } from './suggest.js';
import { optionSetMatches } from './option-match.js';
import { cdStaysPut, gitGuard, simpleCommandReadOnly } from '../analyses/read-only.js';
import { extractPaths, globListingShowsOption, globSpellsNoOption, protectedIn, unlistedPathAccesses, validatePath, type PathAccess, type PathCheck, type PathContext } from '../analyses/paths.js';
import { sedAllowed } from '../analyses/sed.js';
import { commandEffects, globWordKey, optionEffectConstraint } from './effect-constraint.js';
import { gitTreeWriteProblem } from './git-tree-write.js';
import { memberWriteProblem } from './archive-members.js';
import { dynamicRuleAsk, dynamicSubcommandRule } from './dynamic-subcommand.js';
import { deniedToken, hiddenProgramAsk, hiddenProgramDeny, ruleText, rulesFirstWords, visibleRule } from './hidden-programs.js';
import { visibleStdin } from '../parse/stdin-code.js';
import type { DecisionSlice, FunctionNames } from './decision-slice.js';

export { visibleRule };

/** Claude Code's MAX_SUBCOMMANDS_FOR_SECURITY_CHECK. */
export const MAX_SUBCOMMANDS = 50;

/** Claude Code's outcome; `passthrough` means no rule decided (reported as `ask` by the verdict). */
export type PermissionBehavior = 'allow' | 'ask' | 'deny' | 'passthrough';

/**
 * Why the decision came out as it did:
 * - `deny-rule`, `ask-rule`, `allow-rule`: a rule matched (`rule` is set);
 * - `not-simple`: the parse is `too-complex` or `parse-error` (the verdict names the construct);
 * - `misparsing`: the caller's misparsing security ask gated the command;
 * - `too-many-subcommands`, `multiple-cd`, `cd-git`: the structural asks of §2.5–2.6;
 * - `environment-read`: the command prints the environment in bulk (`export -p`, `declare -p`);
 * - `no-matching-rule`: nothing decided.
 */
export type DecisionReason =
  | 'deny-rule'
  | 'ask-rule'
  | 'allow-rule'
  | 'not-simple'
  | 'misparsing'
  | 'too-many-subcommands'
  | 'multiple-cd'
  | 'cd-git'
  | 'path-constraint'
  | 'sed-constraint'
  | 'option-effect'
  | 'read-only'
  | 'accept-edits'
  | 'unknown-program'
  | 'environment-read'
  | 'no-matching-rule';

/** The decision for one command. */
export interface PermissionDecision {
  readonly behavior: PermissionBehavior;
  readonly reason: DecisionReason;
  /**
   * The verdict's reason code: `policy-deny`, `policy-ask`, `allow-rule`, `read-only`,
   * `accept-edits`, `path-constraint`, `path-dangerous-removal`, `sed-constraint`, `parse-error`,
   * `parse-too-complex` (a cap), `unknown-program` (what runs is not known), `environment-read`
   * (the environment printed in bulk: `export -p`, `declare -p`), the id of a gating
   * security rule, or `no-matching-rule`.
   */
  readonly code: string;
  /** The unit's command model the decision was made on. */
  readonly model: CommandModel;
  /** A one-sentence explanation for people. */
  readonly message: string;
  /** The rule that decided, for the `*-rule` reasons. */
  readonly rule?: PermissionRule;
  /** The subcommand the decision is about (UTF-16 offsets into the unit text), when there is one. */
  readonly span?: Span;
  /** Suggested allow rules (rule strings), at most 5; empty for every ask that is not `no-matching-rule`. */
  readonly suggestions: readonly string[];
  /** True when the rule matched the whole command exactly (Claude Code's full-command exact match). */
  readonly wholeCommand?: boolean;
  /**
   * Whether the whole unit is read-only (§3.3.1): no security ask, a simple parse, the git guards,
   * and every simple command read-only. Independent of the rules.
   */
  readonly readOnly: boolean;
  /** Every path the unit touches, validated (empty when {@link DecisionContext.paths} is absent). */
  readonly paths: readonly PathCheck[];
}

/** Claude Code's permission modes that change a Bash decision (`bypassPermissions` is out of scope). */
export type PermissionMode = 'default' | 'acceptEdits';

/** What the caller knows beyond the parse. */
export interface DecisionContext {
  /** The working directory; a subcommand `cd <cwd>` (or `cd .`) is dropped (§2.6 item 6, and `cd` into the cwd before `git`). */
  readonly cwd?: string;
  /** True when a security check raised a misparsing ask on the command (§2.6 item 5). */
  readonly misparsing?: boolean;
  /**
   * True when any Claude Code security check asked (misparsing or not): `bashCommandIsSafe` is not
   * passthrough, so the command is not read-only (§3.3.1 item 2).
   */
  readonly securityAsk?: boolean;
  /**
   * Where paths resolve and which directories are allowed; path constraints (§3.4) are checked
   * only when given. `paths.cwd` should equal {@link cwd}.
   */
  readonly paths?: PathContext;
  /** The permission mode (default `default`). */
  readonly mode?: PermissionMode;
  /**
   * True when git run in the working directory would use a repository it must not trust for
   * read-only commands: a bare repository there or in a parent, or a repository config that
   * names programs git runs (src/analyses/git-repository.ts).
   */
  readonly bareRepository?: boolean;
  /**
   * Findings of the gating security rules ({@link GATING_RULES}) on the unit, whatever their
   * configured severity; each makes the decision at best `ask`.
   */
  readonly gates?: readonly GateFinding[];
  /** The unit's command model, when the caller built it already (else it is built here). */
  readonly model?: CommandModel;
  /**
   * Decide only this top-level statement of the unit, where the unit runs it
   * (src/rules/decision-slice.ts; `model` must be the model the slice was made from, and `gates`
   * should be those inside the statement): its commands, gaps and bulk environment reads instead
   * of the whole model's; whole-command rules match the statement's text.
   */
  readonly slice?: DecisionSlice;
}

/**
 * The command text used for whole-command exact matching: trimmed, with blank and `#` comment
 * lines dropped (claude-code-reference.md §2.3 item 6; the original when every line would be dropped).
 */
export function wholeCommandText(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
  return (lines.length === 0 ? text : lines.join('\n')).trim();
}

/** The first deny rule matching one simple command of `text` (aggressive stripping, §2.3 item 4). */
export function denyFor(text: string, cmd: SimpleCommand, policy: PermissionPolicy): PermissionRule | undefined {
  if (policy.deny.length === 0) return undefined;
  return firstMatch(policy.deny, candidatesFor(text, cmd, 'deny')) ?? policy.deny.find((r) => optionSetMatches(r, cmd));
}

/** The first ask rule matching one simple command of `text` (aggressive stripping, as for deny). */
export function askFor(text: string, cmd: SimpleCommand, policy: PermissionPolicy): PermissionRule | undefined {
  if (policy.ask.length === 0) return undefined;
  return firstMatch(policy.ask, candidatesFor(text, cmd, 'ask')) ?? policy.ask.find((r) => optionSetMatches(r, cmd));
}

/** Allow rule matching one simple command (safe stripping only). */
export function allowFor(text: string, cmd: SimpleCommand, policy: PermissionPolicy): PermissionRule | undefined {
  if (policy.allow.length === 0) return undefined;
  return firstMatch(policy.allow, { ...candidatesFor(text, cmd, 'allow'), prefixAllowed: prefixAllowCovers(cmd) });
}

/** A `cd` into the working directory itself (`cd .`, `cd /abs/cwd/`): it changes nothing, so it is dropped (see {@link cdStaysPut}). */
function isCdTo(cmd: SimpleCommand, cwd: string | undefined): boolean {
  if (cwd === undefined || !cwd.startsWith('/')) return false;
  return cdStaysPut(cmd, cwd);
}

const CD_LIKE: ReadonlySet<string> = new Set(['cd', 'pushd', 'popd']);

/**
 * Programs known not to run their arguments as commands: the read-only table's programs
 * (rules/read-only.json) and common file and text utilities. Any other program given a word that
 * a deny or ask rule names as its program may be a wrapper the tables do not know.
 */
const KNOWN_NON_EXEC: ReadonlySet<string> = new Set([
  ...Object.keys((readOnlyTable as { commands: Record<string, unknown> }).commands).map((k) => k.split(' ')[0]!).filter((k) => k !== 'xargs'),
  'echo', 'printf', 'cat', 'ls', 'cd', 'pushd', 'popd', 'pwd', 'test', '[', 'true', 'false', ':', 'mkdir', 'touch', 'cp', 'mv', 'rm', 'rmdir', 'chmod',
  'chown', 'ln', 'head', 'tail', 'wc', 'uniq', 'cut', 'tr', 'tee', 'diff', 'cmp', 'comm', 'basename', 'dirname', 'realpath', 'readlink', 'stat',
  'which', 'type', 'command', 'man', 'whatis', 'apropos', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'git', 'export', 'unset', 'alias', 'unalias',
  'local', 'declare', 'read', 'wait', 'kill', 'pkill', 'jobs', 'history', 'set', 'shopt',
]);

/** The names `checkPermissionMode` allows in `acceptEdits` mode (§2.8 step 7), by first word. */
const ACCEPT_EDITS_COMMANDS: ReadonlySet<string> = new Set(['mkdir', 'touch', 'rm', 'rmdir', 'mv', 'cp', 'sed']);

function quoteCode(s: string): string {
  const t = s.length > 80 ? `${s.slice(0, 77)}...` : s;
  return `\`${t.replace(/`/g, "'")}\``;
}

const VERB: Readonly<Record<PathCheck['operation'], string>> = { read: 'reads', write: 'writes to', create: 'creates' };

/**
 * Copying and moving programs whose operands the path table lists as writes, though the sources
 * are read (`cp .env /dev/stdout` prints it; `mv .env x` hands it to a later `cat x`): the
 * extractor does not tell sources from the target, so each operand is a read too.
 */
const COPIES_CONTENT: ReadonlySet<string> = new Set(['cp', 'mv', 'install', 'rsync']);

/** `paths` as `Read(…)`/`Edit(…)` rules see them: each write by a copying program is also a read (see {@link COPIES_CONTENT}). */
function filePathViews(paths: readonly PathCheck[]): PathCheck[] {
  const out: PathCheck[] = [];
  for (const p of paths) {
    out.push(p);
    if (p.operation !== 'read' && COPIES_CONTENT.has(commandBasename(p.command.split(' ')[0] ?? ''))) out.push({ ...p, operation: 'read' });
  }
  return out;
}

/** Programs that remove or rename their operands. */
const REMOVERS: ReadonlySet<string> = new Set(['rm', 'rmdir', 'mv', 'unlink']);

/**
 * Whether `p`, an operand of `rm`/`rmdir`/`mv`/`unlink`, resolves to a working directory or one of
 * its ancestors (`rm -rf ../proj` from inside `proj`). A last component `.` or `..` is exempt:
 * GNU rm refuses to remove those, and rename(2) of `.`/`..` fails (`mv x .` moves into it).
 * https://www.gnu.org/software/coreutils/manual/html_node/rm-invocation.html
 */
function removesWorkingDirectory(p: PathCheck, ctx: PathContext): boolean {
  if (p.resolved === null || !REMOVERS.has(commandBasename(p.command.split(' ')[0] ?? ''))) return false;
  const last = p.path.replace(/\/+$/, '').split('/').pop() ?? '';
  if (last === '.' || last === '..' || last === '') return false;
  const dir = p.resolved.replace(/(.)\/+$/, '$1');
  const within = (wd: string): boolean => wd === dir || dir === '/' || wd.startsWith(`${dir}/`);
  return [...(ctx.cwd !== undefined ? [ctx.cwd] : []), ...ctx.workingDirectories].some(within);
}

/**
 * Why an allow rule does not pass `inst` (of `m`) for a word that looks like a path but that no
 * path table covers (`install a /x`, `ln -s /etc/passwd p`; src/analyses/paths.ts
 * unlistedPathAccesses), in any working directory the command may run in; `undefined` when every
 * such word is inside (or a pseudo-device).
 */
function unlistedPathProblem(inst: SimpleCommand, m: ModelCommand, ctx: PathContext): string | undefined {
  const dirs: (string | undefined)[] = m.cwd === undefined ? [undefined] : [...m.cwd];
  for (const a of unlistedPathAccesses(inst)) {
    for (const d of dirs) {
      const c = validatePath(a, { ...ctx, cwd: d });
      if (c.allowed && c.reason === 'inside' && c.resolved !== null && protectedIn(c.resolved, ctx)) {
        return `${quoteCode(c.command)} is given \`${c.path}\`, which configures git, Claude Code, shellward's policy, an editor or a shell, or runs code later; shellward has no path table for what \`${c.command}\` does with it, so it may write it, which needs approval.`;
      }
      if (c.allowed || a.unlisted === 'word') continue;
      const where = c.reason === 'outside' ? `${c.resolved && c.resolved !== c.path ? ` (${c.resolved})` : ''}, outside the allowed working directories` : '';
      return `${quoteCode(c.command)} is given \`${c.path}\`${where}; shellward has no path table for what \`${c.command}\` does with it, so that target cannot be checked before it runs.`;
    }
  }
  return undefined;
}

/** Why `check` stops the command, as one sentence; `undefined` when the path passes (§3.4.3). */
function pathProblem(p: PathCheck, ctx: PathContext, mode: PermissionMode, allowRule = false, permitted: (p: PathCheck) => boolean = () => false): string | undefined {
  // Built only for a path that fails (most pass: a message per path would be wasted work).
  const what = (): string => `${quoteCode(p.command)} ${VERB[p.operation]} ${quoteCode(p.path)}`;
  // A `Read(…)`/`Edit(…)` allow rule admits a known path outside the working directories (src/rules/file-rules.ts).
  if (!p.allowed && p.reason === 'outside' && permitted(p)) return undefined;
  if (!p.allowed) {
    switch (p.reason) {
      case 'outside':
        return `${what()}${p.resolved && p.resolved !== p.path ? ` (${p.resolved})` : ''}, outside the allowed working directories (${ctx.workingDirectories.join(', ') || 'none known: the working directory is not absolute'}).`;
      case 'variable':
        return `${what()}: a path with a variable or \`%\`/\`=\` cannot be checked before it runs.`;
      case 'tilde-user':
        return `${what()}: \`~user\`, \`~+\` and \`~-\` paths are not resolved, so they need approval.`;
      case 'glob-write':
        return `${what()}: a glob in a path that is written to cannot be checked before it runs.`;
      case 'unknown-cwd':
        return `${what()}: the working directory is not known here.`;
      default:
        return `${what()}: the path is not allowed.`;
    }
  }
  if (p.operation === 'read' || p.reason !== 'inside') return undefined;
  if (p.resolved !== null && removesWorkingDirectory(p, ctx)) {
    return `${what()}: that is the working directory itself or a directory holding it, with its \`.git\` and \`.claude\`, so removing or moving it needs approval even in acceptEdits mode.`;
  }
  if (p.resolved !== null && protectedIn(p.resolved, ctx)) {
    return `${what()}: it configures git, Claude Code, shellward's policy, an editor or a shell, or runs code later (hooks, CI, Makefile), so a write there needs approval even in acceptEdits mode.`;
  }
  if (mode !== 'acceptEdits' && !allowRule) {
    return `${what()}: writes need approval unless an allow rule names the command or the session is in acceptEdits mode.`;
  }
  return undefined;
}



/** A finding of a security check that gates the decision (a parser differential or code the model cannot see into). */
export interface GateFinding {
  readonly ruleId: string;
  readonly message: string;
  readonly span: Span;
  /** Claude Code's execution order of the validator (lower runs first). */
  readonly order: number;
}

/**
 * Security rules whose finding means bash may read the text differently from the parse, or runs
 * code the model does not follow (jq `system`, zsh modules), or reads the environment, so nothing
 * inside can be proven. The other Claude Code validators are about shapes the command model
 * decides on instead (newlines, redirections, `$(…)`, variables in pipes, `git commit` messages)
 * or about the tokenizer Claude Code splits with (shell-quote: malformed tokens, its single-quote
 * bug, metacharacters in quoted arguments, obfuscated flags, quoted newlines, incomplete
 * fragments), which the tree-sitter parse does not share.
 */
export const GATING_RULES: ReadonlySet<string> = new Set([
  'control-characters', 'jq-system-function', 'jq-file-arguments', 'comment-quote-desync', 'carriage-return', 'ifs-injection',
  'proc-environ-access', 'backslash-escaped-whitespace', 'backslash-escaped-operators', 'unicode-whitespace', 'mid-word-hash',
  'brace-expansion', 'zsh-dangerous-command',
]);

/** Gating rules that flag a read of secrets, not text bash could read differently: the unit may still be read-only. */
const READ_GATES: ReadonlySet<string> = new Set(['proc-environ-access']);

/** `command-substitution` patterns that tree-sitter-bash does not parse as bash would (zsh forms, `$[`, `<#`). */
const GATING_SUBSTITUTION_PATTERNS: ReadonlySet<string> = new Set([
  'Zsh process substitution =()', 'Zsh equals expansion (=cmd)', '$[] legacy arithmetic expansion', 'Zsh-style parameter expansion',
  'Zsh-style glob qualifiers', 'Zsh glob qualifier with command execution', 'Zsh always block (try/always construct)', 'PowerShell comment syntax',
]);

/** Whether a security finding (`ruleId`, its `data`) gates the decision (see {@link GATING_RULES}). */
export function isGatingFinding(ruleId: string, data: Readonly<Record<string, unknown>> | undefined): boolean {
  if (GATING_RULES.has(ruleId)) return true;
  return ruleId === 'command-substitution' && typeof data?.pattern === 'string' && GATING_SUBSTITUTION_PATTERNS.has(data.pattern);
}

/** Programs none of whose options write, run code or read a file: an unknown argument cannot change what they do. */
const OPTION_SAFE: ReadonlySet<string> = new Set(['echo', 'true', 'false', ':', 'test', '[', 'printf', 'pwd', 'basename', 'dirname', 'expr', 'seq', 'sleep', 'read']);

/** Wrappers a read-only command stays read-only under. */
const READ_ONLY_WRAPPERS: ReadonlySet<string> = new Set(['nice', 'time', 'timeout', 'stdbuf', 'nohup', 'command', 'builtin', 'noglob']);

/**
 * Programs whose glob arguments may be option-looking names without harm: a glob that starts with
 * a wildcard can match a planted name such as `-f.env`, which the program takes as an option
 * (GNU getopt permutes, so also after operands). None of these programs' options writes, runs
 * code or reads a file: `ls`, `cat`, `head`, `tail`, `echo` and `stat` options only change the
 * output. Not here: `file` (`-f NAMEFILE` reads a list of names, which may name any file),
 * `wc` (`--files0-from=F` likewise), `printf` (`-vNAME` assigns a shell variable, e.g. `PATH`).
 * https://www.gnu.org/software/coreutils/manual/html_node/index.html
 */
const GLOB_OPTION_SAFE: ReadonlySet<string> = new Set(['ls', 'cat', 'head', 'tail', 'echo', 'stat']);

/**
 * The first rule of `rules` whose program a glob command word (`/bin/[r]m`, `r?`; the model's
 * `nameGlob`) may expand to: its first word's base name matches the glob as bash would match a
 * file name. `undefined` when none may.
 */
function globRule(cmds: readonly ModelCommand[], rules: readonly PermissionRule[]): PermissionRule | undefined {
  for (const m of cmds) {
    if (m.nameGlob === undefined) continue;
    let test: (s: string) => boolean;
    try {
      test = picomatch(m.nameGlob, { dot: false, nobrace: true, noextglob: true });
    } catch {
      test = () => true;
    }
    for (const r of rules) {
      if (r.bash?.kind === 'any') return r;
      const first = rulesFirstWords([r]);
      for (const w of first) if (test(w)) return r;
    }
  }
  return undefined;
}

/** A stand-in simple command for a candidate argv string (for rule matching only). */
function candidateCommand(s: string, statement: number): SimpleCommand {
  const span = { start: 0, end: s.length };
  const words = s.split(/[ \t]+/).filter((t) => t !== '').map((t) => ({ raw: t, span, value: t, parts: [{ kind: 'literal' as const, value: t, quoted: true }], quoted: true }));
  return { span, name: words[0], args: words.slice(1), assignments: [], redirects: [], statement };
}

function ruleFor(text: string, m: ModelCommand, policy: PermissionPolicy, which: 'deny' | 'ask'): { rule: PermissionRule; span: Span } | undefined {
  const list = which === 'deny' ? policy.deny : policy.ask;
  if (list.length === 0) return undefined;
  const find = which === 'deny' ? denyFor : askFor;
  for (const inst of m.instances) {
    const r = find(text, inst, policy);
    if (r) return { rule: r, span: m.cmd.span };
  }
  for (const c of m.candidates) {
    // The candidate as its own text, so wrappers and directory prefixes in it are peeled too.
    const r = find(c, candidateCommand(c, m.cmd.statement), policy);
    if (r) return { rule: r, span: m.cmd.span };
  }
  return undefined;
}

/**
 * The glob words of the unit (keys of {@link globWordKey}) that a listing of the path host
 * proves cannot spell an option word (src/analyses/paths.ts `globSpellsNoOption`: no name they
 * may match starts with `-`, in every working directory the command may run in), or `undefined`
 * when there are none or the proof cannot be trusted. A listing holds only until a file is
 * created, so the proof is used only when every command of the unit is read-only with it
 * (`readOnlyWith`): then nothing in the unit creates a name before a word is expanded (commands
 * of a pipeline run at the same time). A command run earlier by the agent is over when this one
 * is checked; one still running in the background is not seen.
 */
function provenGlobWords(cmds: readonly ModelCommand[], pathCtx: PathContext, readOnlyWith: (proven: ReadonlySet<string>) => boolean): ReadonlySet<string> | undefined {
  const proven = new Set<string>();
  for (const m of cmds) {
    for (const inst of m.instances) {
      for (const a of inst.args) {
        const aw = abstractWord(a);
        if (aw.kind === 'glob' && aw.mayBeOption && globSpellsNoOption(a, m.cwd, pathCtx)) proven.add(globWordKey(a));
      }
    }
  }
  return proven.size > 0 && readOnlyWith(proven) ? proven : undefined;
}

/** The glob words of the unit (keys of {@link globWordKey}) that this machine's listing shows to match a name starting with `-`; `undefined` when none. */
function dashedGlobWords(cmds: readonly ModelCommand[], pathCtx: PathContext): ReadonlySet<string> | undefined {
  const out = new Set<string>();
  for (const m of cmds) for (const inst of m.instances) for (const a of inst.args) if (abstractWord(a).kind === 'glob' && globListingShowsOption(a, m.cwd, pathCtx)) out.add(globWordKey(a));
  return out.size > 0 ? out : undefined;
}

/** True when model command `m` calls a function from inside that function's own body. */
function callsItself(m: ModelCommand): boolean {
  for (let e = m.cmd.place?.chain; e; e = e.parent) if (e.enclosing.kind === 'function' && e.enclosing.name === m.program) return true;
  return false;
}

/** Whether `inst` (a form of model command `m`) is read-only (Claude Code's check with the model's relaxations). `proven`: glob words a listing proved to spell no option ({@link provenGlobWords}). */
function modelReadOnly(m: ModelCommand, instance: SimpleCommand, text: string, functions: FunctionNames, proven?: ReadonlySet<string>, dashed?: ReadonlySet<string>): boolean {
  let inst = instance;
  // A call of a function defined in the unit runs its body, whose commands are decided themselves;
  // not a call from inside the function's own body: recursion may never end, and in a pipeline or
  // the background each call starts more processes (the fork bomb `:(){ :|:& };:`).
  if (m.program !== undefined && functions.has(m.program) && m.wrappers.length === 0 && inst.assignments.length === 0 && inst.redirects.length === 0) return !callsItself(m);
  if (!inst.name) return inst.assignments.every((a) => !codeLoadingVariable(a.name, a.value ? a.value.value : '') && !a.name.startsWith('GIT_')) && inst.redirects.every((r) => r.heredoc || r.operator === '<<<' || r.operator === '<' || /^(>&|<&)$/.test(r.operator) || r.target?.value === '/dev/null');
  // Before a program, only variables known to load no code, with static values (Claude Code's
  // safe list and rules/commands/environment.json; build flags too: no read-only program reads them).
  if (inst.assignments.some((a) => !['harmless', 'prefix-only'].includes(classifyAssignment(a.name, a.value ? a.value.value : '')))) return false;
  const program = m.program;
  // Wrappers that change nothing a read-only command does (Claude Code's CHANGELOG 2.1.x: nice, time, timeout, stdbuf, nohup).
  // Other wrappers (xargs …) are judged as written, by the read-only table.
  const peeled = m.wrappers.length > 0 && m.wrappers.every((w) => READ_ONLY_WRAPPERS.has(w));
  if (peeled) {
    const r = resolveCommand(inst);
    if (!r) return false;
    inst = { ...inst, name: r.nameWord, args: r.args };
  }
  const name: Word = inst.name!;
  const optionSafe = program !== undefined && (m.wrappers.length === 0 || peeled) && OPTION_SAFE.has(program) && !(program === 'printf' && (inst.args[0]?.value === undefined || inst.args.some((a) => a.value === '-v')));
  let dashDash = false;
  const args = inst.args.map((a) => {
    const aw = abstractWord(a, dashDash);
    if (a.value === '--') dashDash = true;
    if (aw.kind === 'unknown') {
      if (!optionSafe) return undefined;
      return { ...a, value: 'x', parts: [{ kind: 'literal' as const, value: 'x', quoted: true }] };
    }
    // `ls` walks links with `-R` and `-L`, which a glob can spell (`-RL`, `-RLI.py`): where this
    // machine's listing shows a name starting with `-`, the glob is not harmless for it either.
    const globSafe = program !== undefined && GLOB_OPTION_SAFE.has(program) && !(program === 'ls' && dashed?.has(globWordKey(a)));
    if (aw.kind === 'glob' && aw.mayBeOption && !globSafe && !proven?.has(globWordKey(a))) return undefined;
    return a;
  });
  if (args.some((a) => a === undefined)) return false;
  if (program !== undefined && optionSafe && name.value !== undefined && inst.redirects.every((r) => r.heredoc || r.operator === '<<<' || /^(>&|<&)$/.test(r.operator) || r.target?.value === '/dev/null' || (r.operator === '<' && r.target !== undefined))) {
    // `echo`, `printf` (without -v), `test` …: nothing they can be given writes or runs anything.
    return true;
  }
  // Input redirections and here-documents are reads (their paths are checked separately).
  const redirects = inst.redirects.filter((r) => !(r.heredoc || r.operator === '<<<' || r.operator === '<'));
  // With assignments before it, the command is judged on its rendered words (the read-only forms that read the text would see the assignment).
  const same = inst === m.cmd && !peeled && inst.assignments.length === 0 && (args as Word[]).every((a, k) => a === inst.args[k]);
  if (same) return simpleCommandReadOnly({ ...inst, assignments: [], redirects, embedded: false }, text, { embedded: true, globs: true }).readOnly;
  // A form with substituted values: judged on its own rendered text (the read-only fallback forms read the text).
  const words: Word[] = [name, ...(args as Word[])];
  let pos = 0;
  const placed = words.map((w) => {
    const r = w.value !== undefined ? renderWord(w) : w.raw;
    const span = { start: pos, end: pos + r.length };
    pos += r.length + 1;
    return { ...w, raw: r, span } as Word;
  });
  const synthetic = placed.map((w) => w.raw).join(' ');
  const end = { start: synthetic.length, end: synthetic.length };
  const view: SimpleCommand = {
    ...inst,
    span: { start: 0, end: synthetic.length },
    name: placed[0],
    args: placed.slice(1),
    assignments: [],
    redirects: redirects.map((r) => ({ ...r, span: end, target: r.target ? { ...r.target, span: end } : undefined })),
    embedded: false,
  };
  return simpleCommandReadOnly(view, synthetic, { embedded: true, globs: true }).readOnly;
}

/**
 * The paths named by the values of options that read or write a file (`diff --from-file=.env`,
 * `hexdump -f.env`, `sort -o out`; rules/option-effects.json), as accesses: the attached and
 * abbreviated spellings the extractors do not see. For `Read(…)`/`Edit(…)` rules only.
 */
function effectPaths(inst: SimpleCommand): PathAccess[] {
  const found = commandEffects(inst);
  if (!found) return [];
  const resolved = resolveCommand(inst);
  const out: PathAccess[] = [];
  for (const e of found.effects) {
    if ((e.kind !== 'read' && e.kind !== 'write') || e.value === undefined) continue;
    const word = e.argIndex >= 0 ? resolved?.args[e.argIndex] : undefined;
    out.push({ path: e.value, static: true, operation: e.kind, source: 'argument', command: found.program, span: word?.span ?? inst.span });
  }
  return out;
}

/** The read paths of input redirections (`< file`), which Claude Code's extractors do not list. */
function inputPaths(inst: SimpleCommand): PathAccess[] {
  const out: PathAccess[] = [];
  for (const r of inst.redirects) {
    if ((r.operator !== '<' && r.operator !== '<>') || !r.target) continue;
    const t = r.target;
    out.push(t.value !== undefined ? { path: t.value, static: true, operation: r.operator === '<' ? 'read' : 'write', source: 'redirect', command: r.operator, span: t.span } : { path: t.raw, static: false, operation: 'read', source: 'redirect', command: r.operator, span: t.span });
  }
  return out;
}

/**
 * The first shell token naming a program of `names` inside an argument of `inst`, its
 * here-strings and heredocs, or the literal input piped to it (`echo '!rm x' | prog`), with where
 * it is; `undefined` when there is none.
 */
function tokenInInput(inst: SimpleCommand, args: readonly Word[], all: readonly SimpleCommand[], text: string, names: ReadonlySet<string>): { token: string; where: string } | undefined {
  for (const a of args) {
    const t = deniedToken(a.value ?? a.raw, names);
    if (t) return { token: t, where: `its argument ${quoteCode(a.value ?? a.raw)}` };
  }
  for (const s of visibleStdin(inst, text, all)) {
    const t = deniedToken(s.text, names);
    if (t) return { token: t, where: s.via === 'pipe' ? 'the input piped to it' : `its ${s.via}` };
  }
  for (const r of inst.redirects) {
    if (r.operator === '<<<' && r.target && r.target.value === undefined) {
      const t = deniedToken(r.target.raw, names);
      if (t) return { token: t, where: 'its here-string' };
    }
  }
  return undefined;
}

function hasAnyRule(policy: PermissionPolicy): boolean {
  return policy.deny.some((r) => r.bash !== undefined) || policy.ask.some((r) => r.bash !== undefined);
}

/**
 * The permission decision for the unit `text` parsed as `parsed` under `policy` (see the module
 * comment for the steps). `ctx.model` may carry the unit's command model when the caller built it
 * already. Work is linear in the number of simple commands times their forms, working
 * directories and rules. Never throws.
 */
export function decide(text: string, parsed: ParsedScript, policy: PermissionPolicy, ctx: DecisionContext = {}): PermissionDecision {
  const pathCtx = ctx.paths;
  const model = ctx.model ?? buildModel(parsed, { ...(pathCtx?.cwd !== undefined ? { cwd: pathCtx.cwd } : ctx.cwd !== undefined ? { cwd: ctx.cwd } : {}), ...(pathCtx ? { home: pathCtx.host.home } : {}) });
  // A statement judged in its unit (see DecisionContext.slice): its part of the model.
  const slice = ctx.slice;
  const own = slice ? text.slice(slice.span.start, slice.span.end) : text;
  const gaps = slice ? slice.gaps : model.gaps;
  const whole = wholeCommandText(own);
  const mode = ctx.mode ?? 'default';
  const gates: GateFinding[] = [...(ctx.gates ?? [])];
  // A caller's own misparsing flag (the older interface) is a gate too.
  if (ctx.misparsing && gates.length === 0) gates.push({ ruleId: 'misparsing', message: 'A security check found text that shells may parse differently.', span: { start: 0, end: Math.min(1, text.length) }, order: 0 });
  const cmds = slice ? slice.commands : model.commands;

  // Facts first: paths (Claude Code's extractors and shellward's extensions, every form and
  // working directory), read-only — whatever the decision.
  const paths: PathCheck[] = [];
  const pathsOf = new Map<ModelCommand, PathCheck[]>();
  const pathKeys = new Set<string>();
  // Option values that name a file (`diff --from-file=.env`): matched against Read()/Edit() rules too.
  const effectChecks: PathCheck[] = [];
  // Only `Read(…)`/`Edit(…)` deny and ask rules read them: without any rule of another tool than Bash, none is looked for.
  const fileRules = policy.deny.some((r) => r.bash === undefined) || policy.ask.some((r) => r.bash === undefined);
  if (pathCtx) {
    for (const m of cmds) {
      const list: PathCheck[] = [];
      const dirs: (string | undefined)[] = m.cwd === undefined ? [undefined] : [...m.cwd];
      for (const inst of m.instances) {
        const accesses = [...extractPaths(inst), ...inputPaths(inst)];
        for (const d of dirs) {
          const here: PathContext = { ...pathCtx, cwd: d };
          for (const a of accesses) list.push(validatePath(a, here));
        }
      }
      pathsOf.set(m, list);
      for (const p of list) {
        const key = `${p.span.start}\0${p.operation}\0${p.reason}\0${p.path}`;
        if (!pathKeys.has(key)) {
          pathKeys.add(key);
          paths.push(p);
        }
      }
      if (fileRules) for (const inst of m.instances) for (const a of effectPaths(inst)) for (const d of dirs) effectChecks.push(validatePath(a, { ...pathCtx, cwd: d }));
    }
  }
  const functions: FunctionNames = slice ? slice.functions : new Set<string>();
  if (!slice) for (const m of cmds) for (let e = m.cmd.place?.chain; e; e = e.parent) if (e.enclosing.kind === 'function' && e.enclosing.name) (functions as Set<string>).add(e.enclosing.name);
  let gitSafeMemo: boolean | undefined;
  // A `cd` into the working directory itself is no directory change for the git guard either.
  const gitCwd = ctx.cwd ?? pathCtx?.cwd;
  // A statement's git guard sees every command that may have run before it too (a `cd` earlier).
  const gitParsed = (): ParsedScript => (slice ? { ...parsed, commands: parsed.commands.filter((c) => c.span.start < slice.span.end) } : parsed);
  const gitSafe = (): boolean => (gitSafeMemo ??= gitGuard(gitParsed(), { ...(ctx.bareRepository ? { bareRepository: true } : {}), ...(gitCwd?.startsWith('/') ? { cwd: gitCwd } : {}) }).readOnly);
  // A parser differential keeps anything from being proven. `/proc/*/environ` is a gate too, but
  // not a differential: the command reads a process's secrets and writes nothing, so it stays
  // read-only (a fact) while the decision asks (step 3).
  const differential = gates.some((g) => !READ_GATES.has(g.ruleId));
  // Glob words this machine's listing shows to match names starting with `-` (stricter only: safe to use whatever runs first).
  const dashed = pathCtx?.host.list ? dashedGlobWords(cmds, pathCtx) : undefined;
  const readOnlyUnit = (proven?: ReadonlySet<string>): boolean =>
    gaps.length === 0 &&
    !differential &&
    cmds.every((m) => m.instances.every((inst) => modelReadOnly(m, inst, text, functions, proven, dashed)) && (m.program !== 'git' || gitSafe())) &&
    // Option effects (src/rules/effect-constraint.ts): an option that writes, runs a program or reads outside.
    cmds.every((m) => m.instances.every((inst) => optionEffectConstraint(inst, { kind: 'read-only' }, pathCtx, [], proven, dashed) === undefined));
  // Glob words a directory listing proves to spell no option (`grep x *` where no name starts with `-`).
  const proven = pathCtx?.host.list ? provenGlobWords(cmds, pathCtx, readOnlyUnit) : undefined;
  const readOnly = readOnlyUnit(proven);
  const facts = { readOnly, paths, model };
  const base = { suggestions: [] as string[], ...facts };

  // 1. deny.
  const wholeDeny = firstExactMatch(policy.deny, whole);
  if (wholeDeny) return { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${ruleText(wholeDeny)}.`, rule: wholeDeny, wholeCommand: true, ...base };
  for (const m of cmds) {
    const hit = ruleFor(text, m, policy, 'deny');
    if (hit) return { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${ruleText(hit.rule)}.`, rule: hit.rule, span: hit.span, ...base };
  }
  // `Read(…)`/`Edit(…)` deny rules on the paths the command reads and writes (src/rules/file-rules.ts).
  const fileBases = { cwd: pathCtx?.cwd, home: pathCtx?.host.home };
  let fileAsk: { rule: PermissionRule; p: PathCheck; deny: boolean } | undefined;
  for (const p of filePathViews([...paths, ...effectChecks])) {
    const hit = restrictingFileRule(policy.deny, p, fileBases);
    if (hit?.certain) return { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${ruleText(hit.rule)}: ${quoteCode(p.command)} ${VERB[p.operation]} ${quoteCode(p.path)}.`, rule: hit.rule, span: p.span, ...base };
    if (hit) fileAsk ??= { rule: hit.rule, p, deny: true };
  }
  const blind = gaps.length > 0;
  if (blind) {
    const g = globRule(cmds, policy.deny);
    if (g) return { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${ruleText(g)}: a glob command word may name the denied program.`, rule: g, ...base };
    const r = visibleRule(own, policy.deny);
    if (r) return { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${ruleText(r)}: the denied program is visible in a command whose effect is not fully known (${gaps[0]!.reason})`, rule: r, ...base };
  }
  // Code given to an interpreter, a link or copy of a program (src/rules/hidden-programs.ts).
  // A path command word resolved on this machine (symbolic links followed), in each working directory it may run in.
  const resolveWord = pathCtx
    ? (m: ModelCommand, word: string): { resolved: string; outside: boolean }[] => {
        const out: { resolved: string; outside: boolean }[] = [];
        for (const d of m.cwd ?? [pathCtx.cwd]) {
          if (d === undefined) continue;
          const c = validatePath({ path: word, static: true, operation: 'read', source: 'argument', command: word, span: m.cmd.span }, { ...pathCtx, cwd: d });
          if (c.resolved !== null) out.push({ resolved: c.resolved, outside: c.reason === 'outside' });
        }
        return out;
      }
    : undefined;
  const hiddenDeny = hiddenProgramDeny(cmds, parsed.commands, text, policy, resolveWord);
  if (hiddenDeny) return { ...hiddenDeny, ...base };
  // A deny or ask rule of several words that a word not known before the command runs may complete (`git $x`, `git pus?`).
  const dynamicHit = dynamicSubcommandRule(cmds, policy.deny) ?? dynamicSubcommandRule(cmds, policy.ask);
  if (dynamicHit) return { ...dynamicRuleAsk(dynamicHit), ...base };
  // 2. ask rules.
  const wholeAsk = firstExactMatch(policy.ask, whole);
  if (wholeAsk) return { behavior: 'ask', reason: 'ask-rule', code: 'policy-ask', message: `Rule ${ruleText(wholeAsk)} asks for approval.`, rule: wholeAsk, wholeCommand: true, ...base };
  for (const m of cmds) {
    const hit = ruleFor(text, m, policy, 'ask');
    if (hit) return { behavior: 'ask', reason: 'ask-rule', code: 'policy-ask', message: `Rule ${ruleText(hit.rule)} asks for approval.`, rule: hit.rule, span: hit.span, ...base };
  }
  for (const p of filePathViews([...paths, ...effectChecks])) {
    if (fileAsk) break;
    const hit = restrictingFileRule(policy.ask, p, fileBases);
    if (hit) fileAsk = { rule: hit.rule, p, deny: false };
  }
  if (fileAsk) {
    const { rule, p } = fileAsk;
    const message = fileAsk.deny
      ? p.recursive && !/[*?[\]{}]/.test(p.path)
        ? `${quoteCode(p.command)} reads everything below \`${p.path}\`, which may hold a path rule ${ruleText(rule)} denies.`
        : `${quoteCode(p.command)} ${VERB[p.operation]} \`${p.path}\`, a glob that may expand to a path rule ${ruleText(rule)} denies.`
      : `Rule ${ruleText(rule)} asks for approval: ${quoteCode(p.command)} ${VERB[p.operation]} ${quoteCode(p.path)}.`;
    return { behavior: 'ask', reason: 'ask-rule', code: 'policy-ask', message, rule, span: p.span, ...base };
  }
  if (blind) {
    const g = globRule(cmds, policy.ask);
    if (g) return { behavior: 'ask', reason: 'ask-rule', code: 'policy-ask', message: `Rule ${ruleText(g)} asks for approval: a glob command word may name its program.`, rule: g, ...base };
    const r = visibleRule(own, policy.ask);
    if (r) return { behavior: 'ask', reason: 'ask-rule', code: 'policy-ask', message: `Rule ${ruleText(r)} asks for approval: its program is visible in a command whose effect is not fully known.`, rule: r, ...base };
  }
  // Code an interpreter runs, links and copies of programs, a path command word the unit may make.
  if (hasAnyRule(policy)) {
    // An exact allow rule naming the whole command is the user's approval of that very command.
    const exact = policy.allow.filter((r) => r.bash?.kind === 'exact');
    const approved = exact.length > 0 && firstExactMatch(exact, whole) !== undefined;
    const hidden = hiddenProgramAsk(cmds, parsed.commands, text, policy, () => approved, resolveWord);
    if (hidden) return { ...hidden, ...base };
  }
  // A program the tables do not know that is given a denied or asked program — as an argument, or
  // as a shell token inside an argument, a here-string, a heredoc or literal piped input — may run it.
  if (hasAnyRule(policy)) {
    const firsts = rulesFirstWords([...policy.deny, ...policy.ask]);
    for (const m of cmds) {
      if (m.program === undefined || KNOWN_NON_EXEC.has(m.program) || m.wrappers.length > 0) continue;
      const inst = m.instances[0]!;
      const resolved = resolveCommand(inst);
      const arg = resolved?.args.find((a) => a.value !== undefined && firsts.has(commandBasename(a.value)));
      const inside = arg ? undefined : tokenInInput(inst, resolved?.args ?? [], parsed.commands, text, firsts);
      if ((arg || inside) && !simpleCommandReadOnly(inst, text, { embedded: true }).readOnly) {
        return {
          behavior: 'ask',
          reason: 'unknown-program',
          code: 'unknown-program',
          message: arg
            ? `\`${m.program}\` is not a program shellward knows, and it is given \`${arg.value}\`, which a deny or ask rule names: it may run it.`
            : `\`${m.program}\` is not a program shellward knows, and \`${inside!.token}\` appears in ${inside!.where}, as a program a deny or ask rule names: it may run code that runs it. With deny or ask rules configured, it is never allowed without approval.`,
          span: m.cmd.span,
          ...base,
        };
      }
    }
  }
  // 3. what runs is not known, or bash may read the text differently.
  const wholeAllow = firstExactMatch(policy.allow, whole);
  const allowWhole = (): PermissionDecision => ({ behavior: 'allow', reason: 'allow-rule', code: 'allow-rule', message: `Allowed by rule ${ruleText(wholeAllow!)}.`, rule: wholeAllow!, wholeCommand: true, ...base });
  const gate = [...gates].sort((a, b) => a.order - b.order || a.span.start - b.span.start)[0];
  if (blind || gate) {
    if (wholeAllow && !hasAnyRule(policy)) return allowWhole();
    const rulesNote = hasAnyRule(policy) ? ' With deny or ask rules configured, it is never allowed without approval.' : '';
    if (gate) return { behavior: 'ask', reason: 'misparsing', code: gate.ruleId, message: gate.message, span: gate.span, ...base };
    const g = gaps[0]!;
    const code = (slice ? slice.parseError : parsed.problems.length > 0) ? 'parse-error' : g.reason.startsWith('Cap reached') ? 'parse-too-complex' : 'unknown-program';
    return { behavior: 'ask', reason: 'not-simple', code, message: `${g.reason}${rulesNote}`, span: g.span, ...base };
  }
  // 3b. the environment printed in bulk (`export -p`, `declare -p` …): known and read-only, but it
  // shows every secret of the session; only an exact allow of the whole command lifts it.
  const envRead = (slice ? slice.environmentReads : model.environmentReads)[0];
  if (envRead) {
    if (wholeAllow) return allowWhole();
    return { behavior: 'ask', reason: 'environment-read', code: 'environment-read', message: `${envRead.reason} This needs approval: read the specific variable you need instead.`, span: envRead.span, ...base };
  }
  // 4. the removal limit.
  for (const m of cmds) {
    for (const inst of m.instances) {
      const d = dangerousRemovals(inst)[0];
      if (d) {
        return { behavior: 'ask', reason: 'path-constraint', code: 'path-dangerous-removal', message: `\`${d.command}\` of \`${d.path}\` needs approval: it removes ${d.kind === 'home' ? 'the home directory' : d.kind === 'root' ? 'the root directory' : 'a top-level directory'} or everything in it.`, span: d.word.span, ...base };
      }
    }
  }
  // 5. the cap, cd + git.
  const subs = cmds.filter((m) => !isCdTo(m.cmd, ctx.cwd));
  if (subs.length > MAX_SUBCOMMANDS) {
    return { behavior: 'ask', reason: 'too-many-subcommands', code: 'policy-ask', message: `Cap reached: the command has ${subs.length} simple commands, more than ${MAX_SUBCOMMANDS} to check individually.`, ...base };
  }
  // A statement's `git` that runs elsewhere than the working directory (after an earlier `cd`) is the same case.
  const cd = subs.find((m) => m.program !== undefined && CD_LIKE.has(m.program)) ?? (slice ? subs.find((m) => m.program === 'git' && (m.cwd === undefined || m.cwd.some((d) => d !== (pathCtx?.cwd ?? ctx.cwd)))) : undefined);
  if (cd && subs.some((m) => m.program === 'git')) {
    return {
      behavior: 'ask',
      reason: 'cd-git',
      code: 'policy-ask',
      message: 'A `cd` combined with `git` needs approval (a repository in the target directory could run code through its config).',
      span: cd.cmd.span,
      ...base,
    };
  }
  // 6. each command.
  let firstAllow: PermissionRule | undefined;
  let viaReadOnly = false;
  let viaMode = false;
  const suggestions: string[] = [];
  let undecided: ModelCommand | undefined;
  for (const m of subs) {
    let allowed = true;
    let allowRule: PermissionRule | undefined;
    let how: 'rule' | 'mode' | 'read-only' | undefined;
    for (const inst of m.instances) {
      const resolved = resolveCommand(inst);
      const unknownOption = m.argv.some((a) => a.kind === 'unknown' && a.mayBeOption) && !(m.program !== undefined && OPTION_SAFE.has(m.program));
      const rule = wholeAllow ?? (unknownOption ? undefined : allowFor(text, inst, policy));
      if (pathCtx) {
        if (resolved && (resolved.name === 'mv' || resolved.name === 'cp') && resolved.args.some((a) => (a.value ?? a.raw).startsWith('-'))) {
          return { behavior: 'ask', reason: 'path-constraint', code: 'path-constraint', message: `${quoteCode(resolved.name)} with options needs approval: options such as \`--target-directory\` move files where the path checks do not look.`, span: m.cmd.span, ...base };
        }
        for (const p of pathsOf.get(m) ?? []) {
          // Every path fact decides, shellward's extension extractors too (stricter than Claude Code).
          if (p.span.start < inst.span.start && p.source !== 'redirect') continue;
          // Entering a directory outside reads no file in it (a deliberate difference from Claude
          // Code, which checks `cd`'s target as a read); what runs after the cd is judged from the
          // directories the model gives it, so `cd /x && cat f` still asks about `/x/f`.
          if (p.source === 'cd' && p.reason === 'outside' && m.program !== undefined && CD_LIKE.has(m.program)) continue;
          const problem = pathProblem(p, pathCtx, mode, rule !== undefined, (q) => permittingFileRule(policy.allow, q, fileBases) !== undefined);
          if (problem) return { behavior: 'ask', reason: 'path-constraint', code: 'path-constraint', message: problem, span: m.cmd.span, ...base };
        }
      }
      if (rule) {
        // Option effects (src/rules/effect-constraint.ts): a prefix rule does not cover an option that runs code or writes outside.
        const effect = optionEffectConstraint(inst, { kind: 'allow-rule', rule, strictExec: policy.deny.length + policy.ask.length > 0 }, pathCtx, m.codeSpans, proven, dashed);
        if (effect) return { behavior: 'ask', reason: 'option-effect', code: 'option-effect', message: effect, span: m.cmd.span, ...base };
        // A program with no path table (src/analyses/paths.ts unlistedPathAccesses): a word that names a path outside cannot be checked.
        const unlisted = pathCtx && rule.bash?.kind !== 'exact' ? unlistedPathProblem(inst, m, pathCtx) : undefined;
        if (unlisted) return { behavior: 'ask', reason: 'path-constraint', code: 'path-constraint', message: unlisted, span: m.cmd.span, ...base };
        // A git command that rewrites the work tree may rewrite a protected file the repository tracks (src/rules/git-tree-write.ts).
        // Archive members and patched files are written under names the command does not show (src/rules/archive-members.ts).
        const strict = rule.bash?.kind !== 'exact' && policy.deny.length + policy.ask.length > 0;
        const tree = strict ? memberWriteProblem(inst) ?? (pathCtx ? gitTreeWriteProblem(inst, m.cwd, pathCtx) : undefined) : undefined;
        if (tree) return { behavior: 'ask', reason: 'path-constraint', code: 'path-constraint', message: tree, span: m.cmd.span, ...base };
        allowRule ??= rule;
        how ??= 'rule';
        continue;
      }
      const first = inst.name?.value;
      if (m.program === 'sed' && !sedAllowed(resolved?.args ?? inst.args, { allowFileWrites: mode === 'acceptEdits' })) {
        return {
          behavior: 'ask',
          reason: 'sed-constraint',
          code: 'sed-constraint',
          message: 'This `sed` command needs approval: only line printing (`sed -n 1,5p`) and plain substitutions without files are allowed without it.',
          span: m.cmd.span,
          ...base,
        };
      }
      if (mode === 'acceptEdits' && first !== undefined && inst.assignments.length === 0 && ACCEPT_EDITS_COMMANDS.has(first)) {
        // An option value read outside the working directories (`touch --reference=/etc/shadow x`) is not an edit.
        const outside = pathCtx ? effectPaths(inst).map((a) => validatePath(a, { ...pathCtx, cwd: m.cwd?.[0] ?? pathCtx.cwd })).find((c) => c.operation === 'read' && !c.allowed) : undefined;
        if (outside) return { behavior: 'ask', reason: 'path-constraint', code: 'path-constraint', message: `${quoteCode(outside.command)} reads \`${outside.path}\`, outside the allowed working directories.`, span: m.cmd.span, ...base };
        how ??= 'mode';
        continue;
      }
      if (modelReadOnly(m, inst, text, functions, proven, dashed) && (m.program !== 'git' || gitSafe()) && optionEffectConstraint(inst, { kind: 'read-only' }, pathCtx, [], proven, dashed) === undefined) {
        how ??= 'read-only';
        continue;
      }
      allowed = false;
    }
    if (allowed) {
      if (how === 'rule') firstAllow ??= allowRule;
      else if (how === 'mode') viaMode = true;
      else if (how === 'read-only') viaReadOnly = true;
      continue;
    }
    undecided ??= m;
    const s = suggestionForExactCommand(text.slice(m.cmd.span.start, m.cmd.span.end));
    if (!m.cmd.embedded && s !== undefined && !suggestions.includes(s) && suggestions.length < MAX_SUGGESTED_RULES_FOR_COMPOUND) suggestions.push(s);
  }
  if (!undecided && wholeAllow) return allowWhole();
  if (!undecided && firstAllow) {
    return { behavior: 'allow', reason: 'allow-rule', code: 'allow-rule', message: `Allowed by rule ${ruleText(firstAllow)}${subs.length > 1 ? ' and the rules or read-only forms of the other commands' : ''}.`, rule: firstAllow, ...base };
  }
  if (!undecided && viaMode) return { behavior: 'allow', reason: 'accept-edits', code: 'accept-edits', message: 'File edits are allowed in acceptEdits mode.', ...base };
  if (!undecided && (viaReadOnly || subs.length === 0)) return { behavior: 'allow', reason: 'read-only', code: 'read-only', message: 'Read-only command is allowed.', ...base };
  return {
    behavior: 'passthrough',
    reason: 'no-matching-rule',
    code: 'no-matching-rule',
    message: 'No permission rule decided.',
    ...(undecided ? { span: undecided.cmd.span } : {}),
    ...facts,
    suggestions,
  };
}
