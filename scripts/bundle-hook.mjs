#!/usr/bin/env node
/**
 * Bundles `shellward hook` (part of `npm run build`, after tsc): src/cli/hook-main.ts and
 * everything it imports, the dependencies included, become one ESM file,
 * dist/src/cli/hook-bundle.js, which bin.ts runs for `shellward hook`. Node then reads and
 * compiles one file instead of resolving and loading the hundreds of modules of the analysis
 * and its libraries: that module loading was most of the start-up of a hook process, and an
 * agent starts one per tool call.
 *
 * The bundle sits beside bin.js, so the paths its code finds from `import.meta.url` (the
 * installed packages' `.wasm` files, ../../build-info.json) are the same as for the unbundled
 * modules. hook-input.js stays a separate module: bin.ts hands the event it already read to the
 * in-process answer through it, so both must load the same instance.
 *
 * What the hook needs only in some runs (the loaders of YAML and JavaScript config files, the
 * JSON schema validator for a config file) is imported dynamically and goes into chunks beside
 * it, hook-chunk-<hash>.js, loaded only when a run needs them.
 *
 *   node scripts/bundle-hook.mjs [--outdir DIR]   (default: dist/src/cli)
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';
import { commonOptions, outdirArg } from './esbuild-common.mjs';

const outdir = outdirArg(process.argv.slice(2), 'dist/src/cli');

/** Keeps `./hook-input.js` an import of the module beside the bundle (see above). */
const sharedModulesPlugin = {
  name: 'shellward-shared-modules',
  setup(b) {
    b.onResolve({ filter: /^\.\/hook-input\.js$/ }, () => ({ path: './hook-input.js', external: true }));
  },
};

// Chunks of an earlier build (their names carry a content hash).
for (const f of await readdir(outdir).catch(() => [])) if (/^hook-chunk-.*\.js$/.test(f)) await rm(join(outdir, f));

const result = await build(
  commonOptions({
    entryPoints: { 'hook-bundle': 'src/cli/hook-main.ts' },
    outdir,
    // What is imported only dynamically (the config file loaders and the schema validator, needed
    // only when a config file exists) goes into chunks of its own, loaded when it is needed.
    splitting: true,
    chunkNames: 'hook-chunk-[hash]',
    plugins: [sharedModulesPlugin],
  }),
);

const outputs = Object.entries(result.metafile.outputs).map(([f, o]) => `${f.replace(/.*\//, '')} ${(o.bytes / 1024).toFixed(0)} KiB`);
process.stderr.write(`bundle-hook: wrote ${outdir}: ${outputs.join(', ')} (${Object.keys(result.metafile.inputs).length} modules)\n`);
