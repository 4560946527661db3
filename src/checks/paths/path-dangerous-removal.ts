/**
 * path-dangerous-removal: `rm`/`rmdir` of `/`, `~`, `$HOME`, `/*`, a direct child of `/`, or
 * `"$VAR/"` whose variable may be empty. Claude Code's rm/rmdir hard limit, which no allow rule
 * can override (claude-code-reference.md §3.4.2 item 4), and ShellCheck SC2115.
 */
import { dangerousRemovals, type DangerousRemoval } from '../../analyses/dangerous-removal.js';
import { BUILTIN_PACK_SET, UnitFacts } from '../../analyses/destructive.js';
import type { CommandUnit } from '../../core/types.js';
import { defineCheck } from '../define.js';

/**
 * The word as the Makefile spells it, when `d` is in a recipe line and its variable is a make
 * variable (`$(D)` / `${D}` with one `$`; the unit text holds `${D}` in its place): messages then
 * quote the Makefile and give a make-syntax guard instead of a shell one.
 */
function makeSpelling(d: DangerousRemoval, unit: CommandUnit): { word: string; variable: string; make: boolean } | undefined {
  if (unit.origin.kind !== 'makefile' || d.kind !== 'empty-variable') return undefined;
  const v = d.variables[0];
  if (v === undefined) return undefined;
  const word = unit.hostText.slice(unit.sourceMap.toHost(d.word.span.start), unit.sourceMap.toHost(d.word.span.end));
  const esc = v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return { word, variable: v, make: new RegExp(`(^|[^$])\\$[({]${esc}[)}]`).test(word) };
}

function message(d: DangerousRemoval, unit: CommandUnit): string {
  const make = makeSpelling(d, unit);
  if (make) {
    const v = make.variable;
    return make.make
      ? `\`${make.word}\` becomes \`${d.path}\` when the make variable \`${v}\` is empty or unset; guard it, e.g. \`$(or $(${v}),$(error ${v} is empty))\`.`
      : `\`${make.word}\` becomes \`${d.path}\` when \`$${v}\` is empty or unset; use \`"$\${${v}:?}"\` to stop instead.`;
  }
  const w = d.word.raw;
  const cmd = [d.command, ...d.options].join(' ');
  switch (d.kind) {
    case 'root':
      return `\`${cmd} ${w}\` removes the root directory.`;
    case 'home':
      return `\`${cmd} ${w}\` removes the home directory.`;
    case 'root-file':
      return `\`${cmd} ${w}\` removes the file \`${d.path.replace(/\/+$/, '')}\` directly under \`/\` (without \`-r\` or \`-d\`, rm removes no directory).`;
    case 'root-child':
      return `\`${cmd} ${w}\` removes \`${d.path.replace(/\/+$/, '')}\`, a top-level system directory.`;
    case 'glob-all':
      return `\`${cmd} ${w}\` removes everything in ${d.path === '*' ? 'the current directory' : `\`${d.path.slice(0, -2) || '/'}\``}.`;
    case 'empty-variable': {
      const v = d.variables[0] ?? 'var';
      return `\`${w}\` becomes \`${d.path}\` when \`$${v}\` is empty or unset; use \`"\${${v}:?}"\` to stop instead.`;
    }
  }
}

export default defineCheck(
  {
    id: 'path-dangerous-removal',
    code: 'F401',
    title: 'Removal of the root, home or a top-level directory',
    category: 'paths',
    severity: { agent: 'error', script: 'error' },
    docs: {
      rationale:
        'Removing `/`, the home directory, everything under them, or a direct child of `/` (`/usr`, ' +
        '`/etc`, `/tmp` …) destroys the system or the user\'s data. Claude Code asks before any such ' +
        '`rm`/`rmdir`, and no allow rule can auto-approve it. A path that starts with a variable ' +
        '(`"$dir/"`, `"$dir"/*`) becomes one of these when the variable is empty or unset (SC2115).',
      fix:
        'Remove the specific directory you mean. Guard variables: `rm -rf "${dir:?}/"` aborts when ' +
        '`dir` is empty; `${dir:-/nonexistent}` also works.',
      exceptions:
        'Claude Code treats any path ending in `/*` as dangerous; shellward only flags `X/*` when `X` ' +
        'itself is dangerous (so `rm -rf build/*` is not flagged) and `*` alone. The empty-variable ' +
        'case, as in ShellCheck, needs a recursive flag. Paths are judged lexically, before symlinks. A plain ' +
        '`rm /zerofile` (no `-r`, no `-d`) removes a file, not a directory: the message says so, and in scripts it is a note.',
    },
    sources: ['claude-code:pathValidation.dangerousRemoval', 'shellcheck:SC2115'],
    examples: {
      valid: ['rm -rf ./build', 'rm -rf "${dir:?}/"', 'rm -rf ~/tmp/cache', 'rm -r "$dir/build"'],
      invalid: ['rm -rf /', 'rm -rf ~', 'rm -rf "$HOME"', 'sudo rm -rf /*', 'rm -rf /usr', 'rm -rf "$dir/"', 'rm -r "$STEAMROOT"/*', 'rmdir /tmp', 'rm /zerofile'],
    },
  },
  (ctx) => {
    let unit: UnitFacts | undefined;
    for (const cmd of ctx.parsed.commands) {
      const found = dangerousRemovals(cmd);
      if (found.length === 0) continue;
      // The destructive-command rules the command also hits (`rm-recursive-force`) are left out
      // of the report and named here: one finding per problem.
      unit ??= new UnitFacts(ctx.parsed.commands);
      const related = found.some((d) => d.kind !== 'root-file') ? (ctx.packs ?? BUILTIN_PACK_SET).match(cmd, unit).map((h) => h.rule.id) : [];
      for (const d of found) {
        ctx.report({
          ruleId: 'path-dangerous-removal',
          message: message(d, ctx.unit),
          span: d.word.span,
          // A plain file under `/` is a note in scripts; for an agent Claude Code still asks.
          ...(d.kind === 'root-file' && ctx.unit.profile === 'script' ? { severity: 'note' as const } : {}),
          data: { kind: d.kind, path: d.path, ...(related.length > 0 ? { related } : {}) },
        });
      }
    }
  },
);
