/**
 * What the two esbuild bundles of shellward share (scripts/bundle-action.mjs for the GitHub
 * Action, scripts/bundle-hook.mjs for `shellward hook`): the repository root, the `--outdir`
 * argument, the build options both use and the plugin that puts only `name` and `version` of
 * shellward's package.json into a bundle.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The output directory: the absolute form of `--outdir DIR` from `argv` (relative to the
 * repository root), else of `fallback`.
 */
export function outdirArg(argv, fallback) {
  const at = argv.indexOf('--outdir');
  return resolve(root, at >= 0 && argv[at + 1] ? argv[at + 1] : fallback);
}

// The bundles are ESM, but some bundled dependencies are CommonJS and use `require` (for Node's
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
 * Only `name` and `version` of shellward's own package.json go into a bundle (src/cli/version.ts
 * imports it), so editing scripts or devDependencies does not change the bundle.
 */
export const packageJsonPlugin = {
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

/**
 * The esbuild options both bundles use: one ESM bundle for Node 20 and newer, dependencies
 * included, readable (not minified, no source map), deterministic (no absolute paths: the
 * working directory is the repository root), with a metafile for the build's summary and
 * {@link packageJsonPlugin} first among the plugins. `extra` adds or overrides options;
 * `extra.plugins` are appended.
 */
export function commonOptions(extra) {
  const { plugins = [], ...rest } = extra;
  return {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // cosmiconfig loads `typescript` lazily, only for a TypeScript config file, which shellward
    // does not look for: leave it out (10 MB).
    external: ['typescript'],
    banner: { js: banner },
    // Licences are not copied into the code: the Action collects them into a file of their
    // own; the hook bundle's stay in node_modules, where the installed package finds them.
    legalComments: 'none',
    charset: 'utf8',
    sourcemap: false,
    minify: false,
    metafile: true,
    logLevel: 'warning',
    ...rest,
    plugins: [packageJsonPlugin, ...plugins],
  };
}
