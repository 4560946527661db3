/**
 * destructive-command: one check, many rule ids — one per rule of the destructive-command packs
 * (rules/packs/*.json: `git-reset-hard`, `rm-recursive-force`, `remote-code-pipe-shell` …, plus
 * the custom packs of the config). Extends Claude Code's destructiveCommandWarning.ts on parsed
 * argv instead of raw text, so `echo "rm -rf /"`, comments and quoted heredoc bodies are not
 * removals, and wrappers (`sudo`, `command`, `xargs` …), paths (`/bin/rm`) and embedded code
 * (`sh -c '…'`) do not hide one. Each simple command gets at most one finding: its most severe
 * rule, with the other rules it hits in `data.related`. A removal that path-dangerous-removal
 * reports (`rm -rf /`) is left to it.
 */
import { dangerousRemovals } from '../../analyses/dangerous-removal.js';
import { BUILTIN_PACK_SET, BUILTIN_PACKS, bestHit, hitSeverity, UnitFacts, type PackRule, type PackSet } from '../../analyses/destructive.js';
import type { Check, RuleMeta } from '../define.js';
import { INSTALL_DIR_VAR } from '../paths/path-outside-workdir.js';

/** The rule metadata of a pack rule (docs, SARIF, `shellward rules`). */
export function packRuleMeta(r: PackRule, packId: string): RuleMeta {
  return {
    id: r.id,
    code: r.code ?? 'D300',
    title: r.title,
    category: 'destructive',
    severity: { agent: r.severity?.agent ?? 'warning', script: r.severity?.script ?? 'warning' },
    docs: {
      rationale:
        r.rationale +
        `\n\nPack \`${packId}\`. shellward matches the parsed command after wrappers (\`sudo\`, \`env\`, \`command\`, \`xargs\`, ` +
        '`timeout` …) and directory prefixes (`/bin/rm`) are stripped, inside `sh -c \'…\'`, `eval` and Makefile recipes too; text inside ' +
        'quotes, comments and quoted heredoc bodies is not a command. Arguments that are not static (`$FLAGS`) are not guessed.',
      fix: r.fix,
      ...(r.exceptions ? { exceptions: r.exceptions } : {}),
    },
    sources: ['claude-code:destructiveCommandWarning', 'destructive-command-guard:packs'],
    examples: r.examples,
  };
}

const RULES: readonly RuleMeta[] = BUILTIN_PACK_SET.rules.map(({ pack, rule }) => packRuleMeta(rule, pack.id));

/**
 * The rule metadata of the custom packs in `packs` (config `packs.files`), for reports that
 * describe every rule a finding may carry (SARIF `tool.driver.rules[]`); empty for the
 * built-in set or `undefined`.
 */
export function customPackRuleMetas(packs: PackSet | undefined): RuleMeta[] {
  if (!packs) return [];
  return packs.rules.filter(({ pack }) => !BUILTIN_PACKS.includes(pack)).map(({ pack, rule }) => ({ ...packRuleMeta(rule, pack.id), customPack: pack.id }));
}

const check: Check = {
  name: 'destructive-command',
  rules: RULES,
  run(ctx) {
    const packs = ctx.packs ?? BUILTIN_PACK_SET;
    const u = ctx.unit;
    // In a Makefile, a removal through an installation-directory variable (`$(DESTDIR)$(BINDIR)/x`)
    // removes what `make install` put where it was asked to: the acceptable form.
    const unit = new UnitFacts(ctx.parsed.commands, u.origin.kind === 'makefile' ? (w) => INSTALL_DIR_VAR.test(u.hostText.slice(u.sourceMap.toHost(w.span.start), u.sourceMap.toHost(Math.max(w.span.start, w.span.end - 1)) + 1)) : undefined, ctx.parsed);
    const profile = ctx.unit.profile;
    for (const cmd of ctx.parsed.commands) {
      const hits = packs.match(cmd, unit);
      const best = bestHit(hits, profile);
      if (!best) continue;
      // `rm -rf /` and its kin are path-dangerous-removal's (an error that names the path).
      if (dangerousRemovals(cmd).some((d) => d.kind !== 'root-file')) continue;
      const severity = hitSeverity(best, profile);
      if (severity === 'off') continue;
      const related = hits.filter((h) => h !== best).map((h) => h.rule.id);
      const hint = best.unguarded !== undefined ? ` \`$${best.unguarded}\` is not guarded: \`"\${${best.unguarded}:?}"\` stops when it is empty.` : '';
      const own: string = best.rule.severity?.[profile] ?? 'warning';
      ctx.report({
        ruleId: best.rule.id,
        message: best.rule.message + hint,
        span: cmd.span,
        ...(severity !== own || best.rule.code === undefined ? { severity } : {}),
        data: { pack: best.pack.id, ...(best.inProject ? { acceptableForm: true } : {}), ...(related.length > 0 ? { related } : {}) },
      });
    }
  },
};

export default check;
