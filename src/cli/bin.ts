#!/usr/bin/env node
/**
 * Executable entry of the `shellward` command. tsc compiles it to the ES module
 * dist/src/cli/bin.js; `npm run build` also bundles it, with the small modules of the hook's
 * start (hook-client, hook-socket, hook-input, std-io, code-cache, version), into the CommonJS file
 * dist/src/cli/bin.cjs (scripts/bundle-hook.mjs), which is the package.json `bin`. The two run
 * the same code. Node runs a CommonJS entry through its CommonJS loader, and every `shellward
 * hook` (one process per agent tool call) then resolves, links and evaluates no ES module at
 * all: bin.cjs and the hook's bundle only (measured on Node 20: ~7 ms of CPU less per run).
 * Every other command imports the ES modules of main.js, as bin.js does. Hence no top-level
 * `await` here: CommonJS has none.
 */
import { existsSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { flushOutput, outputStream } from './std-io.js';

// Node 22.1+ can keep the compiled code of our modules on disk between runs (in the temp
// directory by default): a hook that starts a fresh process per tool call skips recompiling
// them. Node 20 has no such cache; `enableCompileCache` is absent there.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// Run tree-sitter's wasm with V8's baseline compiler only. With the optimising tier on, V8
// compiles the 1.3 MB grammar in the background and the process cannot exit until it is done:
// ~0.35 s of CPU on every run, more than a typical pre-commit lint takes in total. Measured on
// the Debian corpus (466 scripts, 1.5 MB), baseline-only is as fast overall and uses a third
// less memory. Must run before the parser module compiles the wasm (main.js loads it lazily).
setFlagsFromString('--liftoff-only');

type Main = (argv: readonly string[]) => Promise<number>;

/** The `main` that answers this run: the hook's bundle for `shellward hook` when it is there, else main.js's. */
async function loadMain(): Promise<{ main: Main; afterRun: () => void; ownOutput: boolean }> {
  // `shellward hook` asks a running `shellward serve` first (hook-client.ts loads no analysis);
  // without one it falls through to the in-process command below, with the event already read.
  if (process.argv[2] === 'hook') {
    const { hookViaServer } = await import('./hook-client.js');
    const served = await hookViaServer(process.argv.slice(3));
    if (served !== undefined) process.exit(served);
  }
  // `shellward hook` runs from its single-file bundle (hook-main.ts bundled by `npm run build`,
  // scripts/bundle-hook.mjs) when it is there: the same program with only `hook` registered, as
  // main.js registers for a hook run, read from one file instead of hundreds of modules and
  // compiled from V8's code cache after the first run (code-cache.ts; SHELLWARD_CODE_CACHE=0
  // turns the cache off). A build without the bundle (tsc alone) runs main.js.
  const hookBundle = new URL('./hook-bundle.cjs', import.meta.url);
  if (process.argv[2] === 'hook' && existsSync(hookBundle)) {
    const [{ codeCacheDir, loadBundle }, hookInput] = await Promise.all([import('./code-cache.js'), import('./hook-input.js')]);
    const bundle = loadBundle(
      fileURLToPath(hookBundle),
      {
        __shellwardImportMetaUrl: hookBundle.href,
        __shellwardImport: (specifier: string) => import(specifier),
        __shellwardHookInput: hookInput,
      },
      process.env.SHELLWARD_CODE_CACHE === '0' ? undefined : codeCacheDir(),
    );
    return { main: bundle.exports.main as Main, afterRun: bundle.saveCache, ownOutput: true };
  }
  // bin.cjs leaves this import to Node (scripts/bundle-hook.mjs): main.js and what it imports
  // are ES modules, loaded only here.
  const { main } = await import('./main.js');
  return { main, afterRun: () => {}, ownOutput: false };
}

/** Runs the command of `process.argv` and exits with its code. */
async function run(): Promise<never> {
  const { main, afterRun, ownOutput } = await loadMain();
  // A closed pipe (`shellward lint | head`) is not an error: stop writing quietly. Any other
  // failure to write the output (a full disk: ENOSPC) loses the report: exit 2, not 1, which
  // would read as "findings" (std-io.ts). The hook's bundle does this itself, and creates
  // Node's stdout/stderr streams only when it needs them.
  if (!ownOutput) outputStream(1);
  const code = await main(process.argv);
  afterRun();
  // Exit explicitly once output is flushed, so no background work (wasm compilation, handles a
  // library left open) delays the exit or changes its code.
  await flushOutput();
  process.exit(code);
}

// A failure here (a broken install) is Node's unhandled rejection: the error on stderr, exit 1.
void run();
