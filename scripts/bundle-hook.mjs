#!/usr/bin/env node
/**
 * Bundles `shellward hook` (part of `npm run build`, after tsc): src/cli/hook-main.ts and
 * everything it imports, the dependencies included, become one CommonJS file,
 * dist/src/cli/hook-bundle.cjs, which bin.ts runs for `shellward hook` through V8's code cache
 * (src/cli/code-cache.ts). An agent starts one hook process per tool call; reading one file
 * instead of resolving and loading the hundreds of modules of the analysis, and taking the
 * compiled code from the cache instead of compiling it again, is most of what such a process
 * would otherwise spend.
 *
 * The bundle is run as the body of a function (code-cache.ts), not as a module: its code has no
 * `import()` of its own, which code compiled that way cannot run on Node 20. What it needs from
 * its host comes in as free variables that bin.ts provides:
 *   - `__shellwardImportMetaUrl`: the bundle's URL, for `import.meta.url` (so `.wasm` files and
 *     ../../build-info.json are found from beside bin.js, as for the unbundled modules);
 *   - `__shellwardImport`: a real `import()`, for the JavaScript config files cosmiconfig loads;
 *   - `__shellwardHookInput`: the hook-input.js module bin.ts already loaded (the socket client
 *     hands the event it read to the in-process answer through it, so both must share it).
 * Imports of bundled modules that the sources make with `import()` (the config loaders, the
 * schema validator, commander) become deferred `require`s within the file: their code is in it,
 * but runs only when a run needs it.
 *
 * It also bundles the executable, src/cli/bin.ts, as the CommonJS file dist/src/cli/bin.cjs (the
 * package.json `bin`): with the modules a hook run starts with (hook-client, hook-socket,
 * hook-input, std-io, code-cache, version) in it, a `shellward hook` process loads two
 * CommonJS files and no ES module (Node's ES module loader resolves, links and evaluates nothing
 * for it). bin.ts's `import()` of main.js stays a real `import()` (the ES modules of every other
 * command, loaded by Node).
 *
 *   node scripts/bundle-hook.mjs [--outdir DIR]   (default: dist/src/cli)
 */
import { chmod, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { commonOptions, outdirArg, root } from './esbuild-common.mjs';

const require = createRequire(join(root, 'package.json'));
const outdir = outdirArg(process.argv.slice(2), 'dist/src/cli');

/** The host's modules and values the bundle reads as free variables (see above), and the CommonJS build of web-tree-sitter. */
const hostPlugin = {
  name: 'shellward-hook-host',
  setup(b) {
    b.onResolve({ filter: /^\.\/hook-input\.js$/ }, () => ({ path: 'hook-input', namespace: 'shellward-host' }));
    b.onLoad({ filter: /.*/, namespace: 'shellward-host' }, () => ({ contents: 'module.exports = __shellwardHookInput;', loader: 'js' }));
    // web-tree-sitter's ES build finds Node's modules with `import()` and `import.meta`; its
    // CommonJS build (the same code) uses `require`.
    const treeSitterCjs = require.resolve('web-tree-sitter').replace(/\.js$/, '.cjs');
    b.onResolve({ filter: /^web-tree-sitter$/ }, () => ({ path: treeSitterCjs }));
    // cosmiconfig loads JavaScript config files with `import()`: the host's.
    b.onLoad({ filter: /[\\/]cosmiconfig[\\/]dist[\\/]loaders\.js$/ }, async (a) => ({
      contents: (await readFile(a.path, 'utf8')).replace(/\bimport\(/g, '__shellwardImport('),
      loader: 'js',
    }));
  },
};

/**
 * The data tables under rules/ (about 250 KiB of JSON) go in as `JSON.parse('…')` of their text
 * rather than as object literals: V8 skims a string literal and parses JSON faster than it
 * compiles the same data as JavaScript (https://v8.dev/blog/cost-of-javascript-2019#json).
 * Same values.
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

// The ES bundle and chunks of earlier builds.
for (const f of await readdir(outdir).catch(() => [])) if (/^hook-(chunk-.*|bundle)\.js$/.test(f)) await rm(join(outdir, f));

const result = await build(
  commonOptions({
    entryPoints: ['src/cli/hook-main.ts'],
    outfile: join(outdir, 'hook-bundle.cjs'),
    format: 'cjs',
    // CommonJS has its own `require`, `__filename` and `__dirname`.
    banner: {},
    // Without comments and whitespace, and every character ASCII (others escaped), the source is
    // a third smaller and V8 holds it as a one-byte string: less to read and hash on every run.
    // Names are kept, so stack traces still name the functions.
    charset: 'ascii',
    minifyWhitespace: true,
    minifySyntax: true,
    define: { 'import.meta.url': '__shellwardImportMetaUrl' },
    // `import()` of a bundled module becomes a deferred `require`, of one of Node's modules a `require`.
    supported: { 'dynamic-import': false },
    plugins: [hostPlugin, jsonParsePlugin],
  }),
);

/** bin.ts's `import('./main.js')` is left to Node, from beside bin.cjs. */
const mainExternalPlugin = {
  name: 'shellward-main-external',
  setup(b) {
    b.onResolve({ filter: /^\.\/main\.js$/ }, (a) => ({ path: a.path, external: true }));
  },
};

const launcher = await build(
  commonOptions({
    entryPoints: ['src/cli/bin.ts'],
    outfile: join(outdir, 'bin.cjs'),
    format: 'cjs',
    // bin.ts finds the hook's bundle from its own URL; bin.cjs sits beside bin.js. Strict, as
    // the ES module is (esbuild's own "use strict" comes after the banner).
    banner: { js: '"use strict";\nvar __shellwardBinUrl = require("node:url").pathToFileURL(__filename).href;' },
    define: { 'import.meta.url': '__shellwardBinUrl' },
    plugins: [mainExternalPlugin],
  }),
);
await chmod(join(outdir, 'bin.cjs'), 0o755);

const outputs = [...Object.entries(result.metafile.outputs), ...Object.entries(launcher.metafile.outputs)].map(([f, o]) => `${f.replace(/.*\//, '')} ${(o.bytes / 1024).toFixed(0)} KiB`);
process.stderr.write(`bundle-hook: wrote ${outdir}: ${outputs.join(', ')} (${Object.keys(result.metafile.inputs).length} and ${Object.keys(launcher.metafile.inputs).length} modules)\n`);
