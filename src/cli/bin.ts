#!/usr/bin/env node
/** Executable entry of the `shellward` command (package.json `bin`). */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import module from 'node:module';
import { setFlagsFromString } from 'node:v8';

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
let main: (argv: readonly string[]) => Promise<number>;
let afterRun = (): void => {};
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
  main = bundle.exports.main as typeof main;
  afterRun = bundle.saveCache;
} else {
  ({ main } = await import('./main.js'));
}

// A closed pipe (`shellward lint | head`) is not an error: stop writing quietly. Any other
// failure to write the output (a full disk: ENOSPC) loses the report: exit 2, not 1, which
// would read as "findings".
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    // The reader went away: drop further output but finish the run, so the exit code still
    // says what was found (`shellward lint | head -1` in a pipefail script exits 1, not 0).
    if (err.code === 'EPIPE' || err.code === 'ERR_STREAM_DESTROYED') return;
    try {
      process.stderr.write(`shellward: cannot write output: ${err.message}\n`);
    } finally {
      process.exit(2);
    }
  });
}

const code = await main(process.argv);
afterRun();
// Exit explicitly once output is flushed, so no background work (wasm compilation, handles a
// library left open) delays the exit or changes its code.
const flush = (stream: NodeJS.WriteStream): Promise<void> => new Promise((done) => stream.write('', () => done()));
await Promise.all([flush(process.stdout), flush(process.stderr)]);
process.exit(code);
