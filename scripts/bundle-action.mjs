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
import { join } from 'node:path';
import { build } from 'esbuild';
import { commonOptions, outdirArg, root } from './esbuild-common.mjs';

const require = createRequire(join(root, 'package.json'));
const outdir = outdirArg(process.argv.slice(2), 'action/dist');

/** The `.wasm` files copied next to the bundle (action/run.ts loads them from there). */
const WASM = {
  'tree-sitter.wasm': require.resolve('web-tree-sitter/tree-sitter.wasm'),
  'tree-sitter-bash.wasm': require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'),
};

/** Packages whose files are in the output without being bundled code (the `.wasm` files). */
const WASM_PACKAGES = ['web-tree-sitter', 'tree-sitter-bash'];

await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });

// Licences are collected into THIRD_PARTY_LICENSES.txt instead (below).
const result = await build(commonOptions({ entryPoints: ['action/main.ts'], outfile: join(outdir, 'index.mjs') }));

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
