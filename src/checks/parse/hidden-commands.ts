/**
 * hidden-commands: text bash runs as commands that the parse does not show as commands — a
 * here-document that bash ends earlier than tree-sitter-bash does (`cat <<X;`, a body line `\`
 * before `X`), text after a delimiter the parse views do not model, substitutions the parser
 * reads as plain text — and assignments to bash's command hash table or alias table
 * (`BASH_CMDS[ls]=/bin/rm`, `BASH_ALIASES[ls]=…`), after which a command word runs something
 * other than what it says. Reads `ParsedScript.unmodelled` (src/parse/nodes.ts) and the unit's
 * assignments.
 */
import { defineCheck } from '../define.js';

const MAX_PER_UNIT = 20;
const TABLES = /^(BASH_CMDS|BASH_ALIASES)(\[|$)/;

export default defineCheck(
  {
    id: 'hidden-commands',
    code: 'P104',
    title: 'Commands the parse does not show',
    category: 'parse',
    // In a script most of these are parser disagreements in ordinary code (a backquote inside
    // `${…}`, text after a here-document delimiter): a note there, a warning on an agent's command.
    severity: { agent: 'warning', script: 'note' },
    docs: {
      rationale:
        'Every other check works on the commands the parser finds. Where bash reads the text ' +
        'differently, the commands bash runs are not the ones checked. bash ends a here-document ' +
        'delimiter word at the first unquoted metacharacter, so in `cat <<X;` the delimiter is `X` ' +
        'while tree-sitter-bash takes `X;`: the lines after the first line `X` run as commands. In ' +
        'a here-document with an unquoted delimiter bash removes each backslash-newline pair before ' +
        'it compares a line with the delimiter, so a body line `\\` followed by `X` ends the ' +
        'document. An element assigned to `BASH_CMDS` (bash\'s command hash table) or `BASH_ALIASES` ' +
        'works like `hash -p` or `alias`: `BASH_CMDS[ls]=/bin/rm; ls x` removes `x`. ' +
        'Bash manual: https://www.gnu.org/software/bash/manual/bash.html#Here-Documents and ' +
        'https://www.gnu.org/software/bash/manual/bash.html#Bash-Variables.',
      fix: 'Put a space or newline between a here-document delimiter and what follows it, quote the delimiter (`<<\'EOF\'`) when the body holds backslashes, and use `hash`/`alias` explicitly, if at all.',
      exceptions: 'The text between the parser\'s end and bash\'s end is reported once per here-document; commands in it are not checked by the other rules.',
    },
    sources: ['bash-manual:Here-Documents'],
    examples: {
      valid: ['cat <<EOF\nhello\nEOF', "cat <<'EOF' | grep x\na \\\nb\nEOF"],
      invalid: ['cat <<X;\nX\nrm -rf ~\nX;', 'cat <<X\n\\\nX\nrm -rf ~\nX', 'BASH_CMDS[ls]=/bin/rm; ls x'],
    },
  },
  (ctx) => {
    let count = 0;
    const text = ctx.parsed.text;
    for (const u of ctx.parsed.unmodelled ?? []) {
      if (++count > MAX_PER_UNIT) return;
      // Most reasons already open with the text they are about (`…` holds …).
      const snippet = text.slice(u.span.start, Math.min(u.span.end, u.span.start + 40)).split('\n')[0];
      ctx.report({ ruleId: 'hidden-commands', message: u.reason.startsWith('`') ? u.reason : `\`${snippet}\` ${u.reason}`, span: u.span });
    }
    const assignments = [
      ...(ctx.parsed.assignmentStatements ?? []).map((s) => s.assignment),
      ...ctx.parsed.commands.flatMap((c) => c.assignments),
      ...(ctx.parsed.declarations ?? []).flatMap((d) => d.assignments),
    ];
    for (const a of assignments) {
      const m = TABLES.exec(a.name);
      if (!m) continue;
      if (++count > MAX_PER_UNIT) return;
      ctx.report({
        ruleId: 'hidden-commands',
        message: `\`${a.name.slice(0, 40)}=…\` changes bash's ${m[1] === 'BASH_CMDS' ? 'command hash table' : 'alias table'}: a later command word runs something other than what it says.`,
        span: a.span,
      });
    }
  },
);
