/**
 * Steps of the permission decision (src/rules/decide.ts) for programs a deny or ask rule cannot
 * see by name:
 *
 * - code given to an interpreter of another language (rules/commands/interpreters.json: `tclsh
 *   <<< 'exec rm x'`, `ed <<< '!rm x'`, `lua -e`, `php -r`, `echo … | python3`): a denied
 *   program visible in the code denies; any such code asks while deny or ask rules exist, since
 *   what it runs is not known;
 * - a link or copy of a program (`ln -s /bin/rm m`, `cp /bin/rm m`, `install`, `mv`; see
 *   src/analyses/program-links.ts): denied when its source visibly is a denied program, asked
 *   when it may be one (a source not known before the command runs, or a relative path with a
 *   denied program's name);
 * - a command word that is a path (`./m`) naming a file a command of the same unit may create or
 *   write (a link, a copy, a redirection, `tee`, an archive extraction): asked, since what it runs
 *   is not known.
 *
 * Also the text scans shared with decide.ts: {@link visibleRule} (a denied program visible in text
 * the model does not read) and {@link deniedToken} (a rule's program among the shell tokens of a
 * text). Pure; linear in the text and the words; never throws.
 */
import type { Span } from '../core/types.js';
import type { ModelCommand } from '../model/command-model.js';
import { linkMayMake, normalizeRelative, programLink, type ProgramLink } from '../analyses/program-links.js';
import { commandBasename, resolveCommand, wrapperLevels, wrapperSpec } from '../parse/command-name.js';
import { gitSubcommand, interpreterCode, interpreterKnown, type InterpreterCode } from '../parse/interpreters.js';
import type { SimpleCommand } from '../parse/nodes.js';
import { visibleStdin } from '../parse/stdin-code.js';
import { firstMatch, joinContinuations } from './match.js';
import type { PermissionRule } from './parse.js';
import type { PermissionPolicy } from './policy.js';

/** A rule as messages cite it: its text and where it was configured. */
export function ruleText(r: PermissionRule): string {
  return `${r.raw} (${r.origin.file}${r.origin.path ? ` ${r.origin.path}` : ''})`;
}

/** The base names of the programs `rules` name first (`rm` for `Bash(rm:*)`, `git` for `Bash(git push:*)`). */
export function rulesFirstWords(rules: readonly PermissionRule[]): Set<string> {
  const out = new Set<string>();
  for (const r of rules) {
    const m = r.bash;
    if (!m) continue;
    const text = m.kind === 'exact' ? m.command : m.kind === 'prefix' ? m.prefix : m.kind === 'wildcard' ? (m.segments[0] ?? '') : '';
    const w = text.trim().split(/\s+/)[0];
    if (w) out.add(commandBasename(w));
  }
  return out;
}

/** Where text is cut into pieces in which a program name may start: shell operators, quotes, brackets, ed's and dc's `!`. */
const PIECES = /[;&|\n\r()`'"{},<>$\\![\]]+/;

/**
 * The first rule of `rules` matching a command visible anywhere in `text`: the text is cut at
 * shell operators, quotes, parentheses, brackets, backticks and `!`, and every piece from a word
 * whose basename is a rule's program is tried. Used only where the model cannot see what runs (a
 * parse error, a cap, code from a pipe, code given to an interpreter), so that a denied program in
 * plain sight still denies. `launchers` are further words a program name may follow (Expect's
 * `spawn`). Linear in the text.
 */
export function visibleRule(text: string, rules: readonly PermissionRule[], launchers: readonly string[] = []): PermissionRule | undefined {
  if (rules.length === 0) return undefined;
  if (rules.some((r) => r.bash?.kind === 'any')) return rules.find((r) => r.bash?.kind === 'any');
  const firsts = rulesFirstWords(rules);
  const clean = joinContinuations(text);
  for (const piece of clean.split(PIECES)) {
    const tokens = piece.trim().split(/[ \t]+/).filter((t) => t !== '');
    for (let i = 0; i < tokens.length; i++) {
      const base = commandBasename(tokens[i]!);
      // Only where a program name can stand: first in the piece, or after wrappers, options and assignments.
      if (i > 0 && !(wrapperSpec(commandBasename(tokens[i - 1]!)) !== undefined || launchers.includes(tokens[i - 1]!) || tokens[i - 1]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[i - 1]!))) continue;
      if (!firsts.has(base)) continue;
      const cand = [base, ...tokens.slice(i + 1, i + 12)].join(' ');
      const r = firstMatch(rules, { exact: [cand, base], prefix: [cand, base] });
      if (r) return r;
    }
  }
  return undefined;
}

/** Where text is cut into shell tokens for {@link deniedToken}. */
const TOKENS = /[\s;&|()`'"{},<>$\\![\]=]+/;

/**
 * The first shell token of `text` whose base name is in `names` (`rm` in `'!rm x'`,
 * `exec /bin/rm x`, `--cmd=rm`), or `undefined`. Linear in the text.
 */
export function deniedToken(text: string, names: ReadonlySet<string>): string | undefined {
  if (names.size === 0) return undefined;
  for (const t of text.split(TOKENS)) {
    if (t === '') continue;
    const base = commandBasename(t);
    if (names.has(base)) return t;
  }
  return undefined;
}

/**
 * Where a path command word of `m` leads on this machine: for each working directory it may run
 * in, the absolute path after symbolic links (`undefined` entries dropped), and whether that is
 * outside the working directories. Supplied by decide.ts from its path context.
 */
export type CommandWordResolver = (m: ModelCommand, word: string) => readonly { readonly resolved: string; readonly outside: boolean }[];

/** The path command word of `m` (`./m`, `tools/x`, `/tmp/x`) and its resolutions whose base name differs from the word's (a link to another program). */
function linkedWord(m: ModelCommand, resolve: CommandWordResolver | undefined): { word: string; span: Span; targets: { resolved: string; outside: boolean }[] } | undefined {
  if (!resolve) return undefined;
  const w = resolveCommand(m.cmd)?.nameWord;
  const v = w?.value;
  if (v === undefined || !v.includes('/')) return undefined;
  const base = commandBasename(v);
  // An absolute word is the program its author chose (`/usr/bin/python3` -> python3.11 is no escape); only a relative one may lead out.
  const absolute = v.startsWith('/') || v.startsWith('~');
  const targets = resolve(m, v)
    .filter((r) => commandBasename(r.resolved) !== base)
    .map((r) => ({ resolved: r.resolved, outside: r.outside && !absolute }));
  return targets.length > 0 ? { word: v, span: w!.span, targets } : undefined;
}

/** Git commands that push as `git push` does (https://git-scm.com/docs/git-send-pack, git-http-push, contrib git-subtree). */
const GIT_PUSHERS: ReadonlySet<string> = new Set(['send-pack', 'http-push']);

/**
 * What `m` does under another spelling, as the argv string a deny or ask rule is matched with:
 * the dashed binary of a git subcommand (`/usr/lib/git-core/git-push x` → `git push x`), and the
 * commands that push like `git push` (`git send-pack`, `git http-push`, `git subtree push`);
 * `undefined` for any other command.
 */
export function impliedCommand(m: ModelCommand): { readonly as: string; readonly how: string } | undefined {
  const r = resolveCommand(m.cmd);
  if (!r) return undefined;
  const text = (ws: readonly { value: string | undefined; raw: string }[]): string => ws.map((w) => w.value ?? w.raw).join(' ');
  const dashed = /^git-[a-z][a-z0-9-]*$/.test(r.name) ? r.name.slice(4) : undefined;
  if (dashed === undefined && r.name !== 'git') return undefined;
  const sub = dashed !== undefined ? { name: dashed, index: -1 } : gitSubcommand(r.args);
  if (!sub) return undefined;
  const rest = r.args.slice(sub.index + 1);
  const spelled = dashed !== undefined ? `\`${r.nameWord.value ?? r.name}\` (git's own binary for \`git ${dashed}\`)` : `\`git ${sub.name}\``;
  if (GIT_PUSHERS.has(sub.name)) return { as: `git push ${text(rest)}`.trimEnd(), how: `${spelled} pushes as \`git push\` does` };
  if (sub.name === 'subtree' && rest.some((w) => w.value === 'push')) return { as: `git push ${text(rest.filter((w) => w.value !== 'push'))}`.trimEnd(), how: `${spelled} with \`push\` runs \`git push\`` };
  if (dashed !== undefined) return { as: `git ${dashed} ${text(rest)}`.trimEnd(), how: `${spelled} is \`git ${dashed}\`` };
  return undefined;
}

/** A step's outcome; decide.ts adds the facts. */
export interface HiddenProgramOutcome {
  readonly behavior: 'deny' | 'ask';
  readonly reason: 'deny-rule' | 'ask-rule' | 'unknown-program';
  readonly code: string;
  readonly message: string;
  readonly rule?: PermissionRule;
  readonly span: Span;
}

/** The interpreter code of each command of the model (first form that has some). */
function interpreted(cmds: readonly ModelCommand[], all: readonly SimpleCommand[], text: string): { m: ModelCommand; ic: InterpreterCode }[] {
  const out: { m: ModelCommand; ic: InterpreterCode }[] = [];
  for (const m of cmds) {
    for (const inst of m.instances) {
      const ic = interpreterCode(inst, text, all);
      if (ic) {
        out.push({ m, ic });
        break;
      }
    }
  }
  return out;
}

/** The links and copies each command of the model makes (every form). */
function links(cmds: readonly ModelCommand[]): { m: ModelCommand; link: ProgramLink }[] {
  const out: { m: ModelCommand; link: ProgramLink }[] = [];
  for (const m of cmds) for (const inst of m.instances) {
    const link = programLink(inst);
    if (link) out.push({ m, link });
  }
  return out;
}

/** How the file a program of `programLink` makes relates to its source, for messages. */
function madeAs(command: string): string {
  return command === 'ln' || command === 'link' ? 'a link to' : command === 'mv' ? 'the new name of' : 'a copy of';
}

function vias(ic: InterpreterCode): string {
  const v = [...new Set(ic.code.map((c) => c.via))];
  return v.length === 0 ? '' : ` (${v.map((x) => (x.startsWith('-') ? `\`${x}\`` : x)).join(', ')})`;
}

/** The rule naming program `base` alone (`Bash(rm:*)`, `Bash(rm)`), if any. */
function ruleForProgram(rules: readonly PermissionRule[], base: string): PermissionRule | undefined {
  return firstMatch(rules, { exact: [base], prefix: [base] });
}

/**
 * Step 1 (deny): code given to an interpreter in which a denied program is visible, or a link or
 * copy whose source visibly is a program a deny rule names (an absolute or `~` path whose base
 * name is that program). `all` is the parse views' command list (pipeline indexes). `undefined`
 * when nothing denies.
 */
export function hiddenProgramDeny(cmds: readonly ModelCommand[], all: readonly SimpleCommand[], text: string, policy: PermissionPolicy, resolve?: CommandWordResolver): HiddenProgramOutcome | undefined {
  if (!policy.deny.some((r) => r.bash !== undefined)) return undefined;
  // Another spelling of a denied command (`git send-pack`, `/usr/lib/git-core/git-push`).
  for (const m of cmds) {
    const implied = impliedCommand(m);
    if (!implied) continue;
    const r = firstMatch(policy.deny, { exact: [implied.as], prefix: [implied.as] });
    if (r) return { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${ruleText(r)}: ${implied.how}.`, rule: r, span: m.cmd.span };
  }
  // A command word that is a link on this machine to a denied program (`./tools/format` -> /usr/bin/rm).
  for (const m of cmds) {
    const linked = linkedWord(m, resolve);
    if (!linked) continue;
    for (const t of linked.targets) {
      const r = ruleForProgram(policy.deny, commandBasename(t.resolved));
      if (r) return { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${ruleText(r)}: \`${linked.word}\` is a link to \`${t.resolved}\`, the program the rule denies.`, rule: r, span: linked.span };
    }
  }
  for (const { m, ic } of interpreted(cmds, all, text)) {
    if (ic.spec.shell) continue;
    const r = visibleRule(ic.code.map((c) => c.text).join('\n'), policy.deny, ic.spec.launchers);
    if (r) {
      return { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${ruleText(r)}: \`${m.program}\` runs ${ic.spec.language} code${vias(ic)} in which the denied program is visible (${ic.spec.runs}).`, rule: r, span: ic.span };
    }
  }
  for (const { link } of links(cmds)) {
    for (const s of link.sources) {
      if (s.value === undefined || !(s.value.startsWith('/') || s.value.startsWith('~'))) continue;
      const base = commandBasename(normalizeRelative(s.value));
      const r = ruleForProgram(policy.deny, base);
      if (r) {
        const made = link.target?.value !== undefined ? `\`${link.target.value}\`` : 'a new name';
        return { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${ruleText(r)}: \`${link.command}\` makes ${made} ${madeAs(link.command)} \`${s.value}\`, the program the rule denies; run under that name, no rule would see it.`, rule: r, span: s.span };
      }
    }
  }
  return undefined;
}

/** Shells that run a `-c` string (as src/parse/embedded.ts knows them). */
const SHELL_NAMES: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash']);

/**
 * Why the program or code `xargs` (or `parallel`) runs in `m` comes from its input, or
 * `undefined`: the command after `xargs` is a wrapper that is given no program (`xargs env`,
 * `xargs nice`, `xargs timeout 9`), or `-I`/`-i`/`--replace`'s string stands inside a shell's or
 * an interpreter's code word (`xargs -I{} sh -c '{}'`).
 */
function xargsHides(m: ModelCommand): string | undefined {
  const words = m.cmd.name ? [m.cmd.name, ...m.cmd.args] : [];
  const levels = wrapperLevels(words);
  const k = levels.levels.findIndex((l) => l.name === 'xargs' || l.name === 'parallel');
  if (k < 0) return undefined;
  const x = levels.levels[k]!;
  const rest = levels.levels.slice(k + 1);
  if (levels.inner === undefined && rest.length > 0) {
    const last = rest[rest.length - 1]!;
    if (!last.scan.stopped && last.scan.code.length === 0 && last.spec.command !== 'none') return `\`${x.name}\` runs \`${last.name}\` with the program taken from its input`;
  }
  if (levels.inner === undefined && rest.length === 0 && x.scan.start === undefined) return undefined;
  // The replace string of `-I R` / `-iR` / `--replace=R` (default `{}`).
  const xs = x.words.slice(1);
  let replace: string | undefined;
  for (let i = 0; i < xs.length; i++) {
    const v = xs[i]!.value;
    if (v === undefined) continue;
    if (v === '-I' || (x.name === 'parallel' && v === '--replace')) replace = xs[i + 1]?.value;
    else if (v.startsWith('-I') && v.length > 2) replace = v.slice(2);
    else if (v === '-i' || v === '--replace') replace = '{}';
    else if (v.startsWith('-i') && v.length > 2) replace = v.slice(2);
    else if (v.startsWith('--replace=')) replace = v.slice('--replace='.length);
  }
  if (x.name === 'parallel') replace ??= '{}';
  if (replace === undefined || replace === '') return undefined;
  const inner = levels.inner ?? [];
  const program = inner[0]?.value !== undefined ? commandBasename(inner[0].value) : undefined;
  const runsCode = program !== undefined && (SHELL_NAMES.has(program) || interpreterKnown(program));
  const inCode = rest.some((l) => l.scan.code.some((w) => (w.value ?? w.raw).includes(replace!)));
  if (inCode || (runsCode && inner.slice(1).some((w) => (w.value ?? w.raw).includes(replace!)))) return `\`${x.name}\` puts its input in place of \`${replace}\` inside code that \`${program ?? rest[rest.length - 1]?.name ?? x.name}\` runs`;
  return undefined;
}

/** Most links followed back from a command word to the file they copy. */
const MAX_LINK_CHAIN = 3;

/** Programs that may create files of any name below the working directory (archives, repositories). */
const EXTRACTORS: ReadonlySet<string> = new Set(['tar', 'unzip', 'cpio', 'bsdtar', '7z', 'rsync', 'patch']);

/** Git subcommands that write files of the work tree (a committed symlink included). */
const GIT_WORK_TREE_WRITERS: ReadonlySet<string> = new Set(['clone', 'checkout', 'switch', 'pull', 'merge', 'reset', 'restore', 'stash', 'apply', 'am', 'rebase', 'cherry-pick', 'revert', 'worktree', 'read-tree', 'checkout-index', 'submodule']);

/**
 * The step before "what runs is not known" (ask), while deny or ask rules exist: interpreter code
 * (a visible ask-rule program → `ask-rule`, otherwise `unknown-program`), a link or copy whose
 * source may be a ruled program, and a path command word naming a file the unit may make.
 * `exactlyAllowed(m)` tells a command an exact allow rule names as a whole (the user approved that
 * very command). `undefined` when nothing asks.
 */
export function hiddenProgramAsk(cmds: readonly ModelCommand[], all: readonly SimpleCommand[], text: string, policy: PermissionPolicy, exactlyAllowed: (m: ModelCommand) => boolean, resolve?: CommandWordResolver): HiddenProgramOutcome | undefined {
  const ruled = [...policy.deny, ...policy.ask].filter((r) => r.bash !== undefined);
  if (ruled.length === 0) return undefined;
  const note = 'With deny or ask rules configured, it is never allowed without approval.';
  const names = rulesFirstWords(ruled);
  for (const m of cmds) {
    const implied = impliedCommand(m);
    if (!implied || exactlyAllowed(m)) continue;
    const r = firstMatch(policy.ask, { exact: [implied.as], prefix: [implied.as] });
    if (r) return { behavior: 'ask', reason: 'ask-rule', code: 'policy-ask', message: `Rule ${ruleText(r)} asks for approval: ${implied.how}.`, rule: r, span: m.cmd.span };
  }
  // A command word that is a link on this machine: to a program a rule names, or out of the project.
  for (const m of cmds) {
    if (exactlyAllowed(m)) continue;
    const linked = linkedWord(m, resolve);
    if (!linked) continue;
    for (const t of linked.targets) {
      const base = commandBasename(t.resolved);
      const r = ruleForProgram(policy.ask, base);
      if (r) return { behavior: 'ask', reason: 'ask-rule', code: 'policy-ask', message: `Rule ${ruleText(r)} asks for approval: \`${linked.word}\` is a link to \`${t.resolved}\`.`, rule: r, span: linked.span };
      if (names.has(base) || t.outside) {
        return { behavior: 'ask', reason: 'unknown-program', code: 'unknown-program', message: `\`${linked.word}\` is a link to \`${t.resolved}\`${t.outside ? ', outside the working directories' : ', which has the name of a program a deny or ask rule names'}: the rules match the name it is run by, not the program it runs. ${note}`, span: linked.span };
      }
    }
  }
  // `xargs` whose command takes its program from the input (`echo rm x | xargs env`), or whose `-I` string stands in code (`xargs -I{} sh -c '{}'`).
  for (const m of cmds) {
    if (exactlyAllowed(m)) continue;
    const why = xargsHides(m);
    if (why) {
      const piped = visibleStdin(m.cmd, text, all).map((s) => s.text).join('\n');
      const r = piped === '' ? undefined : visibleRule(piped, policy.deny);
      if (r) return { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${ruleText(r)}: ${why}, and the denied program is visible in its input.`, rule: r, span: m.cmd.span };
      return { behavior: 'ask', reason: 'unknown-program', code: 'unknown-program', message: `${why}, so what runs is not known. ${note}`, span: m.cmd.span };
    }
  }
  for (const { m, ic } of interpreted(cmds, all, text)) {
    if (exactlyAllowed(m)) continue;
    if (ic.spec.shell && ic.hidden === undefined) continue;
    const r = ic.spec.shell ? undefined : visibleRule(ic.code.map((c) => c.text).join('\n'), policy.ask, ic.spec.launchers);
    if (r) return { behavior: 'ask', reason: 'ask-rule', code: 'policy-ask', message: `Rule ${ruleText(r)} asks for approval: \`${m.program}\` runs ${ic.spec.language} code${vias(ic)} in which its program is visible (${ic.spec.runs}).`, rule: r, span: ic.span };
    const what = ic.spec.shell ? `shell code${vias(ic)}` : `${ic.spec.language} code${vias(ic)}, which shellward does not analyse (${ic.spec.runs})`;
    const program = ic.key.startsWith('git ') ? ic.key : (m.program ?? ic.key);
    return { behavior: 'ask', reason: 'unknown-program', code: 'unknown-program', message: `\`${program}\` runs ${what}${ic.hidden ? `; ${ic.hidden}` : ''}. ${note}`, span: ic.span };
  }
  const firsts = names;
  const made = links(cmds);
  for (const { m, link } of made) {
    if (exactlyAllowed(m)) continue;
    for (const s of link.sources) {
      if (s.value === undefined) {
        return { behavior: 'ask', reason: 'unknown-program', code: 'unknown-program', message: `\`${link.command}\` makes ${madeAs(link.command)} \`${s.raw.slice(0, 60)}\`, which is not known before the command runs and may be a program a deny or ask rule names; run under the new name, no rule would see it. ${note}`, span: s.span };
      }
      const base = commandBasename(normalizeRelative(s.value));
      if (firsts.has(base)) {
        return { behavior: 'ask', reason: 'unknown-program', code: 'unknown-program', message: `\`${link.command}\` makes ${madeAs(link.command)} \`${s.value}\`, which has the name of a program a deny or ask rule names; run under the new name, no rule would see it. ${note}`, span: s.span };
      }
    }
  }
  // A script file the unit may write, run by an interpreter (`echo … > y.py; python3 y.py`, `awk -f y.awk`).
  const script = writtenScript(cmds, made, exactlyAllowed);
  if (script) {
    const r = visibleRule(text, policy.deny) ?? visibleRule(text, policy.ask);
    const how = `\`${script.program}\` runs the code in \`${script.file}\`, which \`${script.maker}\` may write in the same command`;
    if (r && policy.deny.includes(r)) return { behavior: 'deny', reason: 'deny-rule', code: 'policy-deny', message: `Denied by rule ${ruleText(r)}: ${how}, and the denied program is visible in the command.`, rule: r, span: script.span };
    if (r) return { behavior: 'ask', reason: 'ask-rule', code: 'policy-ask', message: `Rule ${ruleText(r)} asks for approval: ${how}, and its program is visible in the command.`, rule: r, span: script.span };
    return { behavior: 'ask', reason: 'unknown-program', code: 'unknown-program', message: `${how}, so what runs is not known. ${note}`, span: script.span };
  }
  // A command word that is a path the unit may make (`ln -s … m; ./m`, `printf … > m; ./m`).
  for (const m of cmds) {
    const word = resolveCommand(m.cmd)?.nameWord;
    const path = word?.value;
    if (path === undefined || !path.includes('/') || exactlyAllowed(m)) continue;
    const maker = mayMake(path, cmds, made, m);
    if (maker) {
      return { behavior: 'ask', reason: 'unknown-program', code: 'unknown-program', message: `\`${path}\` runs a file that \`${maker}\` may create or write in the same command, so what runs is not known. ${note}`, span: word!.span };
    }
  }
  return undefined;
}

/** Programs outside the interpreter table that run code from a file named in their arguments (`awk -f`, `sed -f`, `make -f`), and the files some read when given none. */
const SCRIPT_READERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['awk', []],
  ['gawk', []],
  ['mawk', []],
  ['nawk', []],
  ['sed', []],
  ['gsed', []],
  ['make', ['GNUmakefile', 'makefile', 'Makefile']],
  ['gmake', ['GNUmakefile', 'makefile', 'Makefile']],
]);

/**
 * The first command of `cmds` that runs, with an interpreter (rules/commands/interpreters.json,
 * the shells, awk, sed, make), a file another command of the unit may write (a redirection,
 * `tee`, a link or copy, an extraction — see {@link mayMake}): any static argument word, the
 * value of an attached option (`-fy.awk`, `--file=y.mk`), a file on its standard input
 * (`python3 < z.py`), or make's default makefiles. Every
 * argument counts, not only the script operand: an over-approximation that asks only when the
 * same command line writes the file.
 */
function writtenScript(
  cmds: readonly ModelCommand[],
  made: readonly { m: ModelCommand; link: ProgramLink }[],
  exactlyAllowed: (m: ModelCommand) => boolean,
): { program: string; file: string; maker: string; span: Span } | undefined {
  for (const m of cmds) {
    const resolved = resolveCommand(m.cmd);
    if (!resolved || exactlyAllowed(m)) continue;
    const name = resolved.name;
    const defaults = SCRIPT_READERS.get(name);
    if (defaults === undefined && !interpreterKnown(name) && !SCRIPT_SHELLS.has(name)) continue;
    const files: { file: string; span: Span }[] = (defaults ?? []).map((f) => ({ file: f, span: m.cmd.span }));
    for (const a of resolved.args) {
      const v = a.value;
      if (v === undefined || v === '-' || v === '--') continue;
      if (!v.startsWith('-')) files.push({ file: v, span: a.span });
      else if (v.includes('=')) files.push({ file: v.slice(v.indexOf('=') + 1), span: a.span });
      else if (/^-[a-zA-Z]./.test(v) && !v.startsWith('--')) files.push({ file: v.slice(2), span: a.span });
    }
    // Code on standard input from a file (`python3 < z.py`).
    for (const r of m.cmd.redirects) {
      if ((r.operator === '<' || r.operator === '<>') && (r.fd === undefined || r.fd === '0') && r.target?.value !== undefined) files.push({ file: r.target.value, span: r.span });
    }
    for (const f of files) {
      if (f.file === '') continue;
      const maker = mayMake(f.file, cmds, made, m);
      if (maker) return { program: name, file: f.file, maker, span: f.span };
    }
  }
  return undefined;
}

/** Shells, whose script operand is a file of code too (their own analysis asks for it; this one also sees a file the unit writes). */
const SCRIPT_SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'busybox']);

/**
 * The program of a command of the unit that may create or write `path` (a command word), or
 * `undefined`. A link or copy counts only when the file it makes may hold something else than a
 * program known by name: its source is not known, or is a relative path the unit may make itself
 * (`printf … > s; cp s m; ./m`), followed at most {@link MAX_LINK_CHAIN} links deep.
 */
function mayMake(path: string, cmds: readonly ModelCommand[], made: readonly { m: ModelCommand; link: ProgramLink }[], runner: ModelCommand, depth = 0): string | undefined {
  for (const { link } of made) {
    if (!linkMayMake(link, path)) continue;
    for (const s of link.sources) {
      if (s.value === undefined) return link.command;
      if (s.value.startsWith('/') || s.value.startsWith('~') || depth >= MAX_LINK_CHAIN) continue;
      if (mayMake(s.value, cmds, made, runner, depth + 1) !== undefined) return link.command;
    }
  }
  const p = normalizeRelative(path);
  for (const m of cmds) {
    if (m === runner) continue;
    for (const r of m.redirects) {
      if (r.kind !== 'write' && r.kind !== 'append' && r.kind !== 'read-write') continue;
      const t = r.target?.word.value;
      if (t === undefined || normalizeRelative(t) === p) return r.redirect.operator;
    }
    const resolved = resolveCommand(m.cmd);
    if (!resolved) continue;
    if (EXTRACTORS.has(resolved.name)) return resolved.name;
    if (resolved.name === 'git') {
      const sub = resolved.args.find((a) => a.value === undefined || !a.value.startsWith('-'));
      if (sub?.value === undefined || GIT_WORK_TREE_WRITERS.has(sub.value)) return 'git';
    }
    if (resolved.name === 'tee' && resolved.args.some((a) => a.value === undefined || normalizeRelative(a.value) === p)) return 'tee';
  }
  return undefined;
}
