#!/usr/bin/env node
/**
 * Bundles the GitHub Action (`npm run bundle`): action/main.ts and everything it imports become
 * one ESM file, action/dist/index.mjs, next to the two `.wasm` files the parser loads
 * (web-tree-sitter's tree-sitter.wasm, tree-sitter-bash.wasm) and the licences of the bundled
 * packages. action.yml runs that file on `node24`, so nothing is installed on the user's runner;
 * the output is committed, and test/action/bundle.test.ts fails when it is stale.
 *
 * Deterministic: the same sources and lockfile give byte-identical output (no timestamps, no
 * absolute paths, files and licences in sorted order).
 *
 *   node scripts/bundle-action.mjs [--outdir DIR]   (default: action/dist)
 */
import { copyFile, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

const args = process.argv.slice(2);
const at = args.indexOf('--outdir');
const outdir = resolve(root, at >= 0 && args[at + 1] ? args[at + 1] : 'action/dist');

/** The `.wasm` files copied next to the bundle (action/run.ts loads them from there). */
const WASM = {
  'tree-sitter.wasm': require.resolve('web-tree-sitter/tree-sitter.wasm'),
  'tree-sitter-bash.wasm': require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'),
};

/** Packages whose files are in the output without being bundled code (the `.wasm` files). */
const WASM_PACKAGES = ['web-tree-sitter', 'tree-sitter-bash'];

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

/**
 * Only `name` and `version` of shellward's own package.json go into the bundle (src/cli/version.ts
 * imports it), so editing scripts or devDependencies does not make the bundle stale.
 */
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

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: ['action/main.ts'],
  outfile: join(outdir, 'index.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // cosmiconfig loads `typescript` lazily, only for a TypeScript config file, which shellward
  // does not look for: leave it out (10 MB).
  external: ['typescript'],
  banner: { js: banner },
  // Licences are collected into THIRD_PARTY_LICENSES.txt instead (below).
  legalComments: 'none',
  charset: 'utf8',
  sourcemap: false,
  minify: false,
  metafile: true,
  logLevel: 'warning',
  plugins: [packageJsonPlugin],
});

for (const [name, from] of Object.entries(WASM)) await copyFile(from, join(outdir, name));

/** The package directory (`node_modules/<name>` or `node_modules/@scope/<name>`, innermost) of a bundled input path. */
function packageDir(input) {
  const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return m ? m[1] : undefined;
}

const dirs = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const dir = packageDir(input);
  if (dir) dirs.add(dir);
}
for (const name of WASM_PACKAGES) dirs.add(`node_modules/${name}`);

const LICENSE_FILE = /^(licen[sc]e|copying|notice)(\.(md|txt|markdown))?$/i;
const sections = [];
for (const dir of [...dirs].sort()) {
  const pkg = JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8'));
  const files = (await readdir(join(root, dir))).filter((f) => LICENSE_FILE.test(f)).sort();
  const texts = [];
  for (const f of files) texts.push((await readFile(join(root, dir, f), 'utf8')).replace(/\r\n/g, '\n').trim());
  const license = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'UNKNOWN');
  sections.push([`${pkg.name}@${pkg.version} (${license})`, ...(texts.length > 0 ? ['', ...texts] : [])].join('\n'));
}
sections.sort();
const header = 'Third-party software bundled in action/dist/ (index.mjs and the .wasm files), with its licences.';
await writeFile(join(outdir, 'THIRD_PARTY_LICENSES.txt'), [header, ...sections].join(`\n\n${'-'.repeat(72)}\n\n`) + '\n');

const size = (result.metafile.outputs[Object.keys(result.metafile.outputs)[0]]?.bytes ?? 0) / 1024;
process.stderr.write(`bundle-action: wrote ${outdir} (index.mjs ${size.toFixed(0)} KiB, ${dirs.size} packages)\n`);
