/**
 * The entry of `shellward hook` alone: the same program as main.ts, with only the `hook`
 * subcommand registered (which is all main.ts registers for a `hook` run too), so its help,
 * usage errors and exit codes are the same. bin.ts runs it from the single-file bundle
 * dist/src/cli/hook-bundle.js that `npm run build` makes of it (scripts/bundle-hook.mjs): one
 * file to load instead of the hundreds of modules of the analysis, the start-up cost of a
 * process per agent tool call.
 */
import { registerHookCommand } from './hook-command.js';
import { runProgram } from './program.js';

/** Runs `shellward hook` with `argv` (as process.argv, `argv[2]` is `hook`) and returns the exit code; never throws. */
export function main(argv: readonly string[]): Promise<number> {
  return runProgram([['hook', async () => registerHookCommand]], argv);
}
