/**
 * sed-unsafe-expression: a `sed` script that writes a file (`w`/`W` commands, the `s///w file`
 * flag) or runs a shell command (the `e` command, the `s///e` flag). These are the deny-list
 * items of Claude Code's sed allowlist that really write or execute (sedValidation.ts
 * `sedCommandIsAllowedByAllowlist`, claude-code-reference.md §4.2 item 6), which reject such a command
 * in every permission mode.
 */
import { sedHazards, type SedHazard } from '../../analyses/sed.js';
import { resolveCommand } from '../../parse/command-name.js';
import { defineCheck } from '../define.js';

const SED_NAMES: ReadonlySet<string> = new Set(['sed', 'gsed']);

function message(name: string, h: SedHazard): string {
  const expr = `\`${name}\` expression \`${h.word.value ?? h.word.raw}\``;
  if (h.kind === 'write') return `${expr} writes to the file \`${h.detail}\`.`;
  return h.detail === ''
    ? `${expr} runs a shell command (\`e\`).`
    : `${expr} runs the shell command \`${h.detail}\` (\`e\`).`;
}

export default defineCheck(
  {
    id: 'sed-unsafe-expression',
    code: 'F403',
    title: 'sed script that writes a file or runs a command',
    category: 'paths',
    severity: { agent: 'warning', script: 'warning' },
    docs: {
      rationale:
        'A `sed` script is a small program. The `w` and `W` commands and the `w file` flag of `s` write ' +
        'to any file, outside the files the command names (so path checks that look at arguments miss ' +
        'it); the `e` command and the `e` flag of `s` run a shell command. Claude Code lets `sed` run ' +
        'without asking only for `-n` line printing and plain `s/…/…/` substitutions, and rejects these ' +
        'commands and flags in every permission mode.',
      fix:
        'Print with `-n` and `p`, substitute with `s/…/…/` and redirect the output (`sed … > out`), or ' +
        'edit in place with `-i`. Run a command separately instead of through `e`.',
      exceptions:
        'Scripts are read as GNU sed reads them (options after operands, `-e`/`--expression` with ' +
        'attached or separate values, abbreviated long options). A script file given with `-f` is not ' +
        'read. Nothing is reported under `--sandbox`, where sed refuses these commands, nor for writes ' +
        'to `/dev/stdout` and `/dev/stderr`. A script with an expansion (`sed "$prog"`, `sed "s/$a/b/w out"`) ' +
        'is not read: its text is unknown until it runs.',
    },
    sources: ['claude-code:sedValidation.sedCommandIsAllowedByAllowlist'],
    examples: {
      valid: ['sed "$escape" f', 'sed -n 1,10p f', "sed 's/a/b/g' f", "sed -i 's/x/y/' f", "sed --sandbox 's/a/b/w out' f"],
      invalid: ["sed 's/a/b/w out' f", "sed 'e ls'", "sed -n '/x/w log' f", "sed 's/x/date/e'"],
    },
  },
  (ctx) => {
    for (const cmd of ctx.parsed.commands) {
      const resolved = resolveCommand(cmd);
      if (!resolved || !SED_NAMES.has(resolved.name)) continue;
      for (const h of sedHazards(resolved.args)) {
        ctx.report({
          ruleId: 'sed-unsafe-expression',
          message: message(resolved.name, h),
          span: h.word.span,
          data: { kind: h.kind, detail: h.detail },
        });
      }
    }
  },
);
