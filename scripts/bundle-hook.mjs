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
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--outdir');
const outdir = resolve(root, at >= 0 && args[at + 1] ? args[at + 1] : 'dist/src/cli');

// The bundle is ESM, but some bundled dependencies are CommonJS and use `require` (for Node's
// own modules), `__filename` or `__dirname`: give them the ones of the bundle.
const banner = [
  "import { createRequire as __shellwardCreateRequire } from 'node:module';",
  "import { fileURLToPath as __shellwardFileURLToPath } from 'node:url';",
  "import { dirname as __shellwardDirname } from 'node:path';",
  'const require = __shellwardCreateRequire(import.meta.url);',
  'const __filename = __shellwardFileURLToPath(import.meta.url);',
  'const __dirname = __shellwardDirname(__filename);',
].join('\n');

/** Keeps `./hook-input.js` an import of the module beside the bundle (see above). */
const sharedModulesPlugin = {
  name: 'shellward-shared-modules',
  setup(b) {
    b.onResolve({ filter: /^\.\/hook-input\.js$/ }, () => ({ path: './hook-input.js', external: true }));
  },
};

/** Only `name` and `version` of shellward's own package.json go into the bundle (src/cli/version.ts imports it). */
const packageJsonPlugin = {
  name: 'shellward-package-json',
  setup(b) {
    const own = join(root, 'package.json');
    b.onLoad({ filter: /[\\/]package\.json$/ }, async (a) => {
      if (resolve(a.path) !== own) return undefined;
      const { name, version } = JSON.parse(await readFile(own, 'utf8'));
      return { contents: JSON.stringify({ name, version }), loader: 'json' };
    });
  },
};

// Chunks of an earlier build (their names carry a content hash).
for (const f of await readdir(outdir).catch(() => [])) if (/^hook-chunk-.*\.js$/.test(f)) await rm(join(outdir, f));

const result = await build({
  absWorkingDir: root,
  entryPoints: { 'hook-bundle': 'src/cli/hook-main.ts' },
  outdir,
  // What is imported only dynamically (the config file loaders and the schema validator, needed
  // only when a config file exists) goes into chunks of its own, loaded when it is needed.
  splitting: true,
  chunkNames: 'hook-chunk-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // cosmiconfig loads `typescript` lazily, only for a TypeScript config file, which shellward
  // does not look for: leave it out.
  external: ['typescript'],
  banner: { js: banner },
  // The licences stay in node_modules, where the installed package finds them.
  legalComments: 'none',
  charset: 'utf8',
  sourcemap: false,
  minify: false,
  metafile: true,
  logLevel: 'warning',
  plugins: [sharedModulesPlugin, packageJsonPlugin],
});

const outputs = Object.entries(result.metafile.outputs).map(([f, o]) => `${f.replace(/.*\//, '')} ${(o.bytes / 1024).toFixed(0)} KiB`);
process.stderr.write(`bundle-hook: wrote ${outdir}: ${outputs.join(', ')} (${Object.keys(result.metafile.inputs).length} modules)\n`);
