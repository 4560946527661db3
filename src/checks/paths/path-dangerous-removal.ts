/**
 * path-dangerous-removal: `rm`/`rmdir` of `/`, `~`, `$HOME`, `/*`, a direct child of `/`, or
 * `"$VAR/"` whose variable may be empty. Claude Code's rm/rmdir hard limit, which no allow rule
 * can override (SPEC-bashtool.md §3.4.2 item 4), and ShellCheck SC2115.
 */
import { dangerousRemovals, type DangerousRemoval } from '../../analyses/dangerous-removal.js';
import { defineCheck } from '../define.js';

function message(d: DangerousRemoval): string {
  const w = d.word.raw;
  const cmd = [d.command, ...d.options].join(' ');
  switch (d.kind) {
    case 'root':
      return `\`${cmd} ${w}\` removes the root directory.`;
    case 'home':
      return `\`${cmd} ${w}\` removes the home directory.`;
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
        'case, as in ShellCheck, needs a recursive flag. Paths are judged lexically, before symlinks.',
    },
    sources: ['claude-code:pathValidation.dangerousRemoval', 'shellcheck:SC2115'],
    examples: {
      valid: ['rm -rf ./build', 'rm -rf "${dir:?}/"', 'rm -rf ~/tmp/cache', 'rm -r "$dir/build"'],
      invalid: ['rm -rf /', 'rm -rf ~', 'rm -rf "$HOME"', 'sudo rm -rf /*', 'rm -rf /usr', 'rm -rf "$dir/"', 'rm -r "$STEAMROOT"/*', 'rmdir /tmp'],
    },
  },
  (ctx) => {
    for (const cmd of ctx.parsed.commands) {
      for (const d of dangerousRemovals(cmd)) {
        ctx.report({
          ruleId: 'path-dangerous-removal',
          message: message(d),
          span: d.word.span,
          data: { kind: d.kind, path: d.path },
        });
      }
    }
  },
);
