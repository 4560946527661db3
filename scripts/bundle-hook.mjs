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
import { readdir, readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
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

/**
 * Node's own modules, imported by name (`node:fs`, `fs/promises` …), are read with `require`
 * instead of as ES modules. Node gives an ES import of a built-in module a module namespace
 * filled with a copy of every export, which for `fs` also runs the getters (loading
 * `fs/promises` and what it needs): measurable in a process that lives for one hook event.
 * `require` returns the module object itself, from which the bundle reads the names it uses
 * when it uses them. Same modules, same values.
 */
const builtinsByRequirePlugin = {
  name: 'shellward-builtins-by-require',
  setup(b) {
    const names = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    b.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (a) => (names.has(a.path) && a.kind === 'import-statement' ? { path: a.path, namespace: 'node-builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (a) => ({ contents: `module.exports = require(${JSON.stringify(a.path)});`, loader: 'js' }));
  },
};

/**
 * The data tables under rules/ (about 250 KiB of JSON, all read on every hook run) go in as
 * `JSON.parse('…')` of their text rather than as object literals: V8 skims a string literal
 * and parses JSON faster than it compiles the same data as JavaScript
 * (https://v8.dev/blog/cost-of-javascript-2019#json). Same values.
 */
const jsonParsePlugin = {
  name: 'shellward-json-parse',
  setup(b) {
    b.onLoad({ filter: /[\\/]rules[\\/].*\.json$/ }, async (a) => {
      const text = JSON.stringify(JSON.parse(await readFile(a.path, 'utf8')));
      return { contents: `export default JSON.parse(${JSON.stringify(text)});`, loader: 'js' };
    });
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
    plugins: [sharedModulesPlugin, builtinsByRequirePlugin, jsonParsePlugin],
  }),
);

const outputs = Object.entries(result.metafile.outputs).map(([f, o]) => `${f.replace(/.*\//, '')} ${(o.bytes / 1024).toFixed(0)} KiB`);
process.stderr.write(`bundle-hook: wrote ${outdir}: ${outputs.join(', ')} (${Object.keys(result.metafile.inputs).length} modules)\n`);
