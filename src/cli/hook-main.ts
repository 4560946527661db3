/**
 * The entry of `shellward hook` alone: the same program as main.ts, with only the `hook`
 * subcommand registered (which is all main.ts registers for a `hook` run too), so its help,
 * usage errors and exit codes are the same. bin.ts runs it from the single-file bundle
 * dist/src/cli/hook-bundle.cjs that `npm run build` makes of it (scripts/bundle-hook.mjs), with
 * V8's code cache (code-cache.ts): one file to load instead of the hundreds of modules of the
 * analysis, compiled once, the start-up cost of a process per agent tool call.
 *
 * Arguments that are plainly `hook`'s options (hook-args.ts) are answered without loading
 * commander; anything else (help, a usage error) goes through the commander program, loaded
 * only then.
 */
import { reportActionError } from './action-error.js';
import { quickHookArgs } from './hook-args.js';
import { registerHookCommand, runHookCommand } from './hook-command.js';
import { flushOutput, outputStream } from './std-io.js';

/**
 * Runs `shellward hook` with `argv` (as process.argv, `argv[2]` is `hook`) and returns the exit
 * code once its output is flushed (the caller needs no stream handling of its own, see
 * std-io.ts); never throws.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const opts = argv[2] === 'hook' ? quickHookArgs(argv.slice(3)) : undefined;
  if (opts !== undefined) {
    try {
      return await runHookCommand(opts);
    } catch (err) {
      outputStream(2);
      const code = reportActionError(err);
      await flushOutput();
      return code;
    }
  }
  // commander writes help and usage errors to the streams.
  outputStream(1);
  const { runProgram } = await import('./program.js');
  const code = await runProgram([['hook', async () => registerHookCommand]], argv);
  await flushOutput();
  return code;
}
