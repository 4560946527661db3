/**
 * The option-effect constraint of the permission decision: what a prefix allow rule or the
 * read-only auto-allow may pass, given the effects of the command's options
 * (src/analyses/option-effects.ts). Claude Code matches `Bash(git diff:*)` as a text prefix, so
 * `git diff --output=$HOME/.bashrc` is allowed by it and writes a shell start-up file; shellward
 * asks instead (a deliberate deviation, in the safe direction only):
 *
 * - under a prefix or wildcard allow rule: an option that runs a program or reaches the network
 *   asks, unless the rule's own words name it (`Bash(go run:*)` names `go run`); an option that
 *   writes or reads a path asks when the path is outside the working directories, protected, or
 *   not known before the command runs. An exact allow rule names the whole command, so it is
 *   never constrained; the allow-everything rule `Bash` is constrained for options that run a
 *   program only while a deny or ask rule exists (the program they run cannot be matched against
 *   those rules), never for the network, and for paths exactly as its redirections are (a write
 *   or read outside the working directories asks, as `> /etc/x` does under `Bash`);
 * - for the read-only auto-allow: any option that runs a program, reaches the network or writes
 *   stops it, as does a read outside the working directories or of a path not known statically.
 *
 * Pure; never throws.
 */
import { environmentEffects, optionEffects, optionsAWordMaySpell, type OptionEffect } from '../analyses/option-effects.js';
import { abstractWord } from '../model/build.js';
import { dashedSubcommand } from './option-match.js';
import { protectedIn, validatePath, type PathContext } from '../analyses/paths.js';
import { sedHazards, sedReadFiles } from '../analyses/sed.js';
import { resolveCommand } from '../parse/command-name.js';
import { classifyAssignment } from '../model/environment.js';
import type { SimpleCommand } from '../parse/nodes.js';
import type { Word } from '../parse/words.js';
import type { PermissionRule } from './parse.js';
import type { Span } from '../core/types.js';
import { gitShellSubcommand } from '../parse/interpreters.js';

/** What would pass the command: an allow rule, or the read-only auto-allow. */
export type EffectGate = { readonly kind: 'allow-rule'; readonly rule: PermissionRule; readonly strictExec: boolean } | { readonly kind: 'read-only' };

const WHAT: Readonly<Record<OptionEffect['kind'], string>> = {
  exec: 'runs a program',
  network: 'reaches the network',
  write: 'writes',
  read: 'reads',
};

/** Programs that never open their operands as files, so `xargs` feeding them reads nothing. */
const NO_FILE_OPERANDS: ReadonlySet<string> = new Set(['echo', 'printf', 'true', 'false', 'basename', 'dirname', 'expr', 'seq', 'test', '[']);

/** The key of a word in a set of proven glob words ({@link commandEffects}): its span and text. */
export function globWordKey(w: Word): string {
  return `${w.span.start}:${w.span.end}:${w.raw}`;
}

/**
 * The effects of one simple command: its program's options, its environment assignments, and —
 * with `stdinArguments` — `xargs` feeding it file names from standard input (a read of paths not
 * known before it runs, unless the program never opens its operands). `proven`: keys
 * ({@link globWordKey}) of glob words a directory listing proved to expand to no option word
 * (src/analyses/paths.ts `globSpellsNoOption`); those are not taken to spell options. `dashNames`:
 * keys of glob words a listing showed to match names starting with `-`; they may spell several.
 */
export function commandEffects(cmd: SimpleCommand, stdinArguments = false, proven?: ReadonlySet<string>, dashNames?: ReadonlySet<string>): { readonly program: string; readonly args: readonly Word[]; readonly effects: readonly OptionEffect[] } | undefined {
  const resolved = resolveCommand(cmd);
  if (!resolved) return undefined;
  // `git-push` (the dashed program in git's exec path, `/usr/lib/git-core/git-push`) is `git push`.
  const dashed = dashedSubcommand(resolved.name);
  const program = dashed ? dashed[0] : resolved.name;
  const values = [...(dashed ? [dashed[1]] : []), ...resolved.args.map((w) => w.value ?? null)];
  const shift = dashed ? 1 : 0;
  const effects = optionEffects(program, values).map((e) => (shift === 0 || e.argIndex < 0 ? e : { ...e, argIndex: Math.max(0, e.argIndex - shift) }));
  // A glob that may expand to option words (`*`, `\\-*`, `[-]*`: a file named
  // `--compress-program=sh` or `-delete` becomes an option of the program) may spell any option
  // valid where it stands: each kind of effect those options have, its target unknown.
  let dashDash = false;
  for (let i = 0; i < resolved.args.length; i++) {
    const w = resolved.args[i]!;
    const aw = abstractWord(w, dashDash);
    if (w.value === '--') dashDash = true;
    if (aw.kind !== 'glob' || !aw.mayBeOption || proven?.has(globWordKey(w))) continue;
    for (const [kind, names] of optionsAWordMaySpell(program, values, i + shift, dashNames?.has(globWordKey(w)) ?? false)) {
      effects.push({ kind, option: w.raw.length > 40 ? `${w.raw.slice(0, 37)}...` : w.raw, argIndex: i, note: `a glob that may expand to file names spelling options such as ${names.map((n) => `\`${n}\``).join(', ')}` });
    }
    break;
  }
  // GNU sed's `e` command and `s///e` flag run shell code; `w`/`W` and `s///w` write a file
  // (https://www.gnu.org/software/sed/manual/sed.html#Extended-Commands). Effects of the script,
  // so that allow rules (`Bash(sed:*)`, `Bash`) do not pass them unseen.
  if (resolved.name === 'sed' || resolved.name === 'gsed') {
    for (const h of sedHazards(resolved.args)) {
      const argIndex = resolved.args.indexOf(h.word);
      if (h.kind === 'execute') effects.push({ kind: 'exec', option: 'e', argIndex: argIndex < 0 ? resolved.args.length : argIndex, note: h.detail === '' ? 'the sed script runs the pattern space as a shell command' : `the sed script runs \`${h.detail.slice(0, 40)}\`` });
      else effects.push({ kind: 'write', option: 'w', argIndex: argIndex < 0 ? resolved.args.length : argIndex, ...(h.detail.includes('$…') ? {} : { value: h.detail }), note: 'the sed script writes the file' });
    }
    // `r FILE` / `R FILE` read a file named in the script: a path fact like an operand's.
    for (const r of sedReadFiles(resolved.args)) {
      const argIndex = resolved.args.indexOf(r.word);
      effects.push({ kind: 'read', option: 'r', argIndex: argIndex < 0 ? resolved.args.length : argIndex, ...(r.file.includes('$…') ? {} : { value: r.file }), note: 'the sed script reads the file' });
    }
  }
  if (stdinArguments && resolved.wrappers.includes('xargs') && !NO_FILE_OPERANDS.has(resolved.name)) {
    effects.push({ kind: 'read', option: 'xargs', argIndex: -1, note: 'the arguments come from standard input, so the files read are not known' });
  }
  // An assignment the harmless table allows with its value (`PAGER=cat`) runs no program.
  const live = cmd.assignments.filter((a) => classifyAssignment(a.name, a.value ? a.value.value : '') !== 'harmless');
  for (const e of environmentEffects(live.map((a) => a.name))) effects.push(e);
  return { program, args: resolved.args, effects };
}

/** How many argument words of the program the rule's prefix names (`Bash(go run:*)` → 1), -1 when the rule names none. */
function namedWords(rule: PermissionRule): number {
  const m = rule.bash;
  const head = m?.kind === 'prefix' ? m.prefix : m?.kind === 'wildcard' ? m.segments[0] : undefined;
  if (head === undefined) return -1;
  return head.trim().split(/\s+/).length - 1;
}

function describe(program: string, e: OptionEffect): string {
  const opt = e.option.includes(' ') || e.option.endsWith('=') ? `\`${e.option}\`` : `\`${program} ${e.option}\``;
  const target = e.value !== undefined ? ` \`${e.value}\`` : e.kind === 'write' || e.kind === 'read' ? ' a path that cannot be checked before it runs' : '';
  return `${opt} ${WHAT[e.kind]}${target}${e.note ? ` (${e.note})` : ''}`;
}

/** Why a path effect does not pass, or `undefined` when it does. */
function pathIssue(e: OptionEffect, program: string, ctx: PathContext | undefined, write: boolean): string | undefined {
  if (e.value === undefined) return 'its target cannot be checked before it runs';
  if (!ctx) return write ? 'the working directory is not known, so the path cannot be checked' : undefined;
  const check = validatePath({ path: e.value, static: true, operation: e.kind === 'write' ? 'write' : 'read', source: 'argument', command: program, span: { start: 0, end: 0 } }, ctx);
  if (!check.allowed) return check.reason === 'outside' ? `outside the working directories${check.resolved && check.resolved !== e.value ? ` (${check.resolved})` : ''}` : 'the path cannot be checked before it runs';
  if (e.kind === 'write' && check.resolved !== null && protectedIn(check.resolved, ctx)) return 'the file configures a tool that runs code';
  return undefined;
}

/**
 * Whether the value of the option of `e` is shell code the command model parsed: one of
 * `codeSpans` (the spans of the embedded commands the command hands its code to, see
 * `ModelCommand.codeSpans`) starts in the option's word (`--exec=CODE`, `-xCODE`) or in the word
 * after it (`--exec CODE`, `find -exec CODE… ;`). Those commands are judged on their own, so the
 * option runs nothing the decision does not see.
 */
function codeVisible(e: OptionEffect, args: readonly Word[], codeSpans: readonly Span[]): boolean {
  const word = e.argIndex >= 0 ? args[e.argIndex] : undefined;
  if (!word) return false;
  const end = (args[e.argIndex + 1] ?? word).span.end;
  return codeSpans.some((s) => s.start >= word.span.start && s.start < end);
}

/**
 * Why `cmd` may not pass `gate` because of an option's effect, as one sentence; `undefined` when
 * nothing stops it. `ctx` gives the working directories for path effects (absent: a write or
 * read with a path is not checkable under an allow rule; reads are left to the other read-only
 * checks). `codeSpans` (the model command's, `ModelCommand.codeSpans`): where the shell code the
 * command hands on was parsed into commands of the model; an option that runs such code passes
 * the allow-all rule beside deny or ask rules, since its commands meet those rules themselves
 * (a denied program in it is denied, a program the model cannot see asks). Prefix rules and the
 * read-only auto-allow are not relaxed by it.
 * `proven`: glob words proved to spell no option (see {@link commandEffects}).
 */
export function optionEffectConstraint(cmd: SimpleCommand, gate: EffectGate, ctx: PathContext | undefined, codeSpans: readonly Span[] = [], proven?: ReadonlySet<string>, dashed?: ReadonlySet<string>): string | undefined {
  if (gate.kind === 'allow-rule' && gate.rule.bash?.kind === 'exact') return undefined;
  // Prefix rules see through a bare `xargs` as Claude Code does; the read-only auto-allow does not.
  const found = commandEffects(cmd, gate.kind === 'read-only', proven, dashed);
  if (!found || found.effects.length === 0) return undefined;
  const { program, args, effects } = found;
  if (gate.kind === 'allow-rule') {
    const any = gate.rule.bash?.kind === 'any';
    const named = namedWords(gate.rule);
    for (const e of effects) {
      if (e.argIndex >= 0 && e.argIndex < named) continue;
      // A subcommand that runs code (`npm run`, `go run`) is what a rule for the program is about;
      // the policy lint names it. Under allow-all beside deny or ask rules only the project's own
      // code passes (`npm run` as `make` does): `git filter-branch`, `git difftool`, `npm exec`
      // run code from their arguments or configuration, which those rules cannot see.
      // A git subcommand whose code is all in its options (`git filter-branch --msg-filter CODE`,
      // rules/commands/interpreters.json) is judged on those options' code.
      const codeInOptions = program === 'git' && gitShellSubcommand(e.option.slice(program.length + 1));
      if (e.option.startsWith(`${program} `) && !(any && gate.strictExec && e.kind === 'exec' && e.projectCode !== true && !codeInOptions)) continue;
      if (e.kind === 'exec') {
        if (any && !gate.strictExec) continue;
        if (any && codeVisible(e, args, codeSpans)) continue;
        return `${describe(program, e)}; allow rule \`${gate.rule.raw}\` does not cover what that program does${any ? ' while deny or ask rules exist' : ''}.`;
      }
      if (e.kind === 'network') {
        if (any) continue;
        return `${describe(program, e)}; allow rule \`${gate.rule.raw}\` does not cover it.`;
      }
      // Paths decide under every allow rule, `Bash` included, as a redirection's target does.
      const issue = pathIssue(e, program, ctx, e.kind === 'write');
      if (issue) return `${describe(program, e)}: ${issue}; allow rule \`${gate.rule.raw}\` does not cover it.`;
    }
    return undefined;
  }
  for (const e of effects) {
    if (e.kind !== 'read') return `${describe(program, e)}, so the command is not read-only.`;
    const issue = pathIssue(e, program, ctx, false);
    if (issue) return `${describe(program, e)}: ${issue}, so the command is not read-only.`;
  }
  return undefined;
}
