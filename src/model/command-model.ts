/**
 * The command model of one unit: every simple command anywhere in its parse tree (loops, `if`
 * and `case` arms, functions, subshells, groups, pipelines, background jobs, command and process
 * substitutions, and the code embedded through `sh -c`, `eval`, heredocs fed to a shell and the
 * other entry points of rules/commands/wrappers.json), each with the program it runs through
 * every wrapper, its argv as abstract words, its redirections, the working directories it may run
 * in and where it sits. Built once per unit by {@link buildModel} (src/model/build.ts) from the
 * parse views, without re-reading the text; the permission decision and the path, read-only and
 * destructive analyses read it.
 *
 * All spans are UTF-16 code-unit offsets into the unit's text, 0-based, end exclusive.
 */
import type { Span } from '../core/types.js';
import type { Redirect, SimpleCommand } from '../parse/nodes.js';
import type { Word } from '../parse/words.js';

/**
 * Where the value of a word (or one part of it) comes from:
 * - `literal`: written in the command; `glob`: a literal pattern with an unquoted `*`, `?` or `[`
 *   (expands to existing paths below the directory it names); `brace`: a brace expansion;
 * - `loop`: a `for` variable over known words; `assigned`: a variable assigned a literal earlier
 *   in the same unit (once, unconditionally);
 * - `environment`: any other variable; `positional`: `$1`, `$@` …; `special`: `$?`, `$$`, `$!` …;
 * - `command-substitution`, `process-substitution`, `arithmetic`: the output of `$(…)`, the
 *   `/dev/fd/N` of `<(…)`, the value of `$((…))`.
 */
export type Provenance =
  | 'literal'
  | 'glob'
  | 'brace'
  | 'loop'
  | 'assigned'
  | 'environment'
  | 'positional'
  | 'special'
  | 'command-substitution'
  | 'process-substitution'
  | 'arithmetic';

/** One argv word as far as it is known before the command runs. */
export interface AbstractWord {
  readonly word: Word;
  /** `literal`: one fixed string (`word.value`); `glob`: a fixed pattern; `unknown`: decided at run time. */
  readonly kind: 'literal' | 'glob' | 'unknown';
  /** Where its parts come from, each kind once, in order of first appearance. */
  readonly provenance: readonly Provenance[];
  /**
   * Whether the word may expand to something starting with `-`, so that the program could read it
   * as an option: false for literals not starting with `-`, for words whose first part is such a
   * literal (`"x$y"`, `./*`), and after a literal `--`.
   */
  readonly mayBeOption: boolean;
}

/**
 * What a redirection does: `read` (`<`), `write` (`>`, `>|`, `&>`), `append` (`>>`, `&>>`),
 * `read-write` (`<>`), `dup` (`2>&1`, `>&2`, `<&0`), `close` (`>&-`), `null` (any of those onto
 * `/dev/null`), `heredoc`, `here-string`.
 */
export type RedirectKind = 'read' | 'write' | 'append' | 'read-write' | 'dup' | 'close' | 'null' | 'heredoc' | 'here-string';

/** One redirection of a model command. */
export interface ModelRedirect {
  readonly redirect: Redirect;
  readonly kind: RedirectKind;
  /** The target word (a file, a descriptor, the here-string); absent for heredocs. */
  readonly target?: AbstractWord;
  /**
   * For heredocs: true when the delimiter is quoted, so the body is data (no expansion runs);
   * false when the body's expansions count (its command substitutions are commands of the model).
   */
  readonly data?: boolean;
}

/**
 * Where a command sits. Several apply at once (`condition` and `loop-body` in a loop's `if`).
 * `list-right`: the right operand of `&&`/`||`; `embedded`: code inside another command's string.
 */
export type Place =
  | 'condition'
  | 'loop-body'
  | 'if-branch'
  | 'case-arm'
  | 'function-body'
  | 'subshell'
  | 'group'
  | 'pipeline-stage'
  | 'background'
  | 'command-substitution'
  | 'process-substitution'
  | 'test'
  | 'list-right'
  | 'heredoc-body'
  | 'assignment-value'
  | 'embedded';

/** One simple command of the model. */
export interface ModelCommand {
  /** Index of the command in the parse views' `commands` (embedded ones included). */
  readonly index: number;
  /** The command as parsed. */
  readonly cmd: SimpleCommand;
  /**
   * The command with every known value substituted — one instance per combination of loop values
   * and assigned literals (at most {@link MAX_INSTANCES}), brace expansion of the command word
   * applied, process substitutions as `/dev/fd/63`; `[cmd]` when nothing was substituted.
   */
  readonly instances: readonly SimpleCommand[];
  /** Basename of the program it runs through every wrapper (`rm` for `sudo env /bin/rm`); undefined when not known. */
  readonly program: string | undefined;
  /** Wrappers stripped, outermost first. */
  readonly wrappers: readonly string[];
  /** argv of the first instance as abstract words (command word first). */
  readonly argv: readonly AbstractWord[];
  readonly redirects: readonly ModelRedirect[];
  /**
   * The absolute working directories it may run in (after the `cd`/`pushd`/`popd` before it, in
   * order; several when a `cd` may or may not have happened), or `undefined` when not known.
   */
  readonly cwd: readonly string[] | undefined;
  readonly places: readonly Place[];
  /** Why what this command runs cannot be identified statically; absent when it can. */
  readonly unknown?: string;
  /**
   * Commands that may run in its place and are visible in the text, as argv strings for deny and
   * ask rules: `${RM:-rm} x` → `rm x`, `a=rm; $a x` → `rm x`, `` `echo rm` x`` → `rm x`,
   * `find -delete` → `rm`.
   */
  readonly candidates: readonly string[];
  /**
   * When the program word is a glob (`/bin/[r]m`, `/usr/bin/r?`): its last path component as
   * written (`[r]m`, `r?`), a bash pattern the program's name is matched against when it runs.
   */
  readonly nameGlob?: string;
  /**
   * Where the shell code it hands on sits, when that code was parsed into commands of this model
   * (`find -exec CODE ;`, `git rebase --exec CODE`, `git filter-branch --msg-filter CODE`,
   * `sh -c CODE`): the spans of those embedded commands, which are judged on their own (deny,
   * ask and allow rules, unknown programs). Absent when it hands on no visible code.
   */
  readonly codeSpans?: readonly Span[];
}

/** A reason, for the whole unit or one place in it, why not everything that runs is known. */
export interface ModelGap {
  readonly span: Span;
  readonly reason: string;
}

/** The command model of one unit. */
export interface CommandModel {
  readonly text: string;
  readonly commands: readonly ModelCommand[];
  /** Everything that keeps the model from knowing all that runs (parse errors, caps, hidden code), in document order. */
  readonly gaps: readonly ModelGap[];
  /**
   * Reads of the shell's environment in bulk, in document order: `export -p`, `declare -p`,
   * `typeset -p`, a bare `export`/`declare -x`, `local -p` print every (exported) variable, API
   * keys and tokens included. What runs is known and nothing is written, so these are not gaps
   * and do not make the unit not read-only; the decision asks about them.
   */
  readonly environmentReads: readonly ModelGap[];
}

/** Most instances of one command (combinations of known values); more make the command unknown. */
export const MAX_INSTANCES = 16;

/** Most working-directory candidates tracked; more make the working directory unknown. */
export const MAX_CWD_CANDIDATES = 4;

/** Deepest chain of enclosing constructs walked per command; deeper commands are unknown (a cap). */
export const MAX_ENCLOSING_DEPTH = 256;
