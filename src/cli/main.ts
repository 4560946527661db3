/**
 * The `shellward` command: argv → subcommand → exit code. Thin: every subcommand calls the
 * library. Exit codes: see exit-codes.ts.
 */
import { EXIT } from './exit-codes.js';
import { runProgram, type Register, type Subcommands } from './program.js';

/**
 * Every subcommand, in help order, with a loader of the module that registers it. A run loads
 * only the module of the subcommand it names (the analysis, the sandbox, the transcript readers
 * and their libraries are not all needed by every subcommand: `check` and `hook` start faster);
 * help, an unknown subcommand or no subcommand load them all.
 */
const SUBCOMMANDS: Subcommands = [
  ['lint', async () => (await import('./lint-command.js')).registerLintCommand],
  ['check', async () => (await import('./check-command.js')).registerCheckCommand],
  ['hook', async () => (await import('./hook-command.js')).registerHookCommand],
  ['serve', async () => (await import('./serve-command.js')).registerServeCommand],
  ['audit', async () => (await import('./audit-command.js')).registerAuditCommand],
  ['print-config', async () => (await import('./print-config-command.js')).registerPrintConfigCommand],
  ['sandbox-check', async () => (await import('./sandbox-check-command.js')).registerSandboxCheckCommand],
  ['init', async () => (await import('./init-command.js')).registerInitCommand],
  ['rules', loadRulesCommand],
];

/** The registration of the `rules` subcommand (it needs the rule registry, the packs and the config). */
async function loadRulesCommand(): Promise<Register> {
  const [{ RULES, ruleByName }, { ruleHelpUri }, { BUILTIN_PACKS, BUILTIN_PACK_SET }, { addConfigOptions, loadCliConfig }] = await Promise.all([
    import('../checks/index.js'),
    import('../report/sarif.js'),
    import('../analyses/destructive.js'),
    import('./config-options.js'),
  ]);
  return (program, setExit) => {
    addConfigOptions(
      program
        .command('rules')
        .description('list every rule with its code, category and default severities, then the destructive-command packs (with the config\'s custom packs); with a rule id or code (rm-recursive-force, D311), print that rule\'s page')
        .argument('[rule]', 'a rule id or code'),
    ).action(async (name: string | undefined, opts: import('./config-options.js').ConfigCliOptions) => {
      if (name !== undefined) {
        const rule = ruleByName(name);
        if (!rule) {
          process.stderr.write(`shellward rules: unknown rule ${JSON.stringify(name)} (shellward rules lists the ids and codes)\n`);
          return setExit(EXIT.ERROR);
        }
        // The page docs/rules/<id>.md is generated from the same metadata, examples run through the linter.
        const [{ Linter }, { exampleLinter, renderRulePage }] = await Promise.all([import('../lint.js'), import('../docs/rule-docs.js')]);
        process.stdout.write(renderRulePage(rule, exampleLinter(await Linter.create())).replace(/^<!--.*-->\n\n/, ''));
        process.stdout.write(`\nOnline: ${ruleHelpUri(rule.id)}\n`);
        return setExit(EXIT.OK);
      }
      for (const r of RULES) {
        process.stdout.write(`${r.id.padEnd(28)} ${r.code}  ${r.category.padEnd(11)} agent=${r.severity.agent.padEnd(7)} script=${r.severity.script.padEnd(7)} ${r.title}\n`);
      }
      const resolved = await loadCliConfig(opts, process.cwd());
      if (!resolved) return setExit(EXIT.ERROR);
      const active = resolved.packs ?? BUILTIN_PACK_SET;
      process.stdout.write('\npacks (destructive-command rules; config `packs` turns them off or adds more):\n');
      for (const p of [...BUILTIN_PACKS, ...active.packs.filter((x) => !BUILTIN_PACKS.includes(x))]) {
        const on = active.packs.includes(p);
        const custom = !BUILTIN_PACKS.includes(p);
        process.stdout.write(`${p.id.padEnd(14)} ${on ? 'on ' : 'off'}${custom ? ' custom' : ''}  ${p.title}: ${p.rules.map((r) => r.id).join(', ')}\n`);
      }
      setExit(EXIT.OK);
    });
  };
}

/** Runs the CLI with `argv` (as process.argv) and returns the exit code; never throws. */
export function main(argv: readonly string[]): Promise<number> {
  return runProgram(SUBCOMMANDS, argv);
}
