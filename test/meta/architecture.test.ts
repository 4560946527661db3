/**
 * The import graph of `src/` and `action/` (architecture.md §8, §9.4 item 11):
 *
 * - every module belongs to a layer of {@link LAYERS}, and imports only from its own component or
 *   from a lower layer (two components of one layer do not import each other);
 * - no two modules import each other, directly or through others (no cycles);
 * - the pure core ({@link PURE}) imports no I/O module (`node:fs`, `node:os`, `node:child_process`
 *   and every other module not in {@link PURE_EXTERNALS}) and reads no host state (`process`,
 *   the clock, randomness, timers, `fetch`), except for the exemptions of {@link EXEMPT}.
 *
 * The rules run on the real tree and, in the last block, on planted files, so that a rule that
 * cannot fail fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The layers, lowest first. A component is a directory (`src/parse/`) or one file
 * (`src/lint.ts`). The order follows the data flow of architecture.md §2: the pure core (types,
 * parse, command model, analyses, the decision, checks), the engine that runs the checks on a
 * unit, the outputs, the inputs and configuration, the runners, and the delivery edges.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['src/core/'],
  ['src/parse/'],
  ['src/model/'],
  ['src/analyses/'],
  ['src/rules/'],
  ['src/checks/'],
  ['src/oversized-command.ts'],
  ['src/lint.ts'],
  ['src/verdict.ts'],
  ['src/report/'],
  ['src/suppress.ts', 'src/baseline.ts', 'src/git/'],
  ['src/sources/', 'src/config/', 'src/docs/'],
  ['src/unit-verdicts.ts', 'src/transcript-runner.ts', 'src/linter-options.ts'],
  ['src/file-lint.ts'],
  ['src/lint-pool.ts'],
  ['src/lint-worker.ts'],
  ['src/runner.ts'],
  ['src/project.ts'],
  ['src/hook/', 'src/sandbox/'],
  ['src/audit/'],
  ['src/index.ts'],
  ['src/cli/'],
  // The GitHub Action is the outermost edge: it reuses the CLI's output helpers (src/cli/io.ts).
  ['action/'],
];

/** The pure core: no I/O, no host state (architecture.md §8). */
const PURE: readonly string[] = ['src/core/', 'src/parse/', 'src/model/', 'src/analyses/', 'src/rules/', 'src/checks/'];

/** Modules outside the repository the pure core may import, and why they are pure. */
const PURE_EXTERNALS: Readonly<Record<string, string>> = {
  'node:path': 'string operations on paths (every `resolve` in the core starts from an absolute path)',
  'node:crypto': 'hashing for fingerprints (src/core/fingerprint.ts)',
  'web-tree-sitter': 'the parser, run in wasm on a string',
  picomatch: 'glob patterns compiled to regular expressions, matched on strings (Read/Edit rule patterns)',
};

/** Host state the pure core must not read: free identifiers, and `object.member` accesses. */
const FORBIDDEN_GLOBALS: ReadonlySet<string> = new Set([
  'process', 'performance', 'fetch', 'require', 'globalThis', 'setTimeout', 'setInterval', 'setImmediate', 'Buffer',
]);
const FORBIDDEN_MEMBERS: ReadonlySet<string> = new Set(['Date.now', 'Math.random']);

/** Deliberate exceptions to the purity rule: file, what it uses, why. Each must still be needed. */
const EXEMPT: readonly { readonly file: string; readonly use: string; readonly why: string }[] = [
  { file: 'src/parse/parser.ts', use: 'process', why: 'the parse budget is a deadline on this process\'s CPU clock (process.cpuUsage)' },
  { file: 'src/parse/parser.ts', use: 'performance', why: 'a cheap monotonic wall clock decides when the progress callback reads the CPU clock (a system call)' },
  { file: 'src/parse/parser.ts', use: 'node:module', why: 'createRequire locates the grammar .wasm of the installed package' },
  { file: 'src/parse/parser.ts', use: 'require', why: 'the function createRequire returns, for `require.resolve` of the grammar .wasm' },
];

interface Import {
  readonly specifier: string;
  readonly line: number;
}

interface Module {
  /** Repository-relative POSIX path. */
  readonly path: string;
  readonly text: string;
}

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const p = posix.join(dir, e.name);
    if (e.isDirectory() && e.name !== 'dist' && e.name !== 'node_modules') out.push(...listTs(p));
    else if (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

const SOURCE_FILES = new Map<string, ts.SourceFile>();

/** The syntax tree of a module, parsed once per path and text. */
function sourceFile(m: Module): ts.SourceFile {
  const key = `${m.path}\0${m.text}`;
  let sf = SOURCE_FILES.get(key);
  if (!sf) {
    sf = ts.createSourceFile(m.path, m.text, ts.ScriptTarget.Latest, true);
    SOURCE_FILES.set(key, sf);
  }
  return sf;
}

function lineOf(sf: ts.SourceFile, node: ts.Node): number {
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
}

/** Every static and dynamic import, `export … from` and `require()` of a module, with its 1-based line. */
function importsOf(m: Module): readonly Import[] {
  const key = `${m.path}\0${m.text}`;
  const known = IMPORTS.get(key);
  if (known) return known;
  const sf = sourceFile(m);
  const out: Import[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ specifier: node.moduleSpecifier.text, line: lineOf(sf, node) });
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0]!)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === 'require')) {
        out.push({ specifier: (node.arguments[0] as ts.StringLiteralLike).text, line: lineOf(sf, node) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  IMPORTS.set(key, out);
  return out;
}

const IMPORTS = new Map<string, readonly Import[]>();

const HOST_READS = new Map<string, readonly { use: string; line: number }[]>();

/** Reads of host state in a module: `use` is the name (`process`, `Date.now` …), with its line. */
function hostReadsOf(m: Module): readonly { use: string; line: number }[] {
  const key = `${m.path}\0${m.text}`;
  const known = HOST_READS.get(key);
  if (known) return known;
  const sf = sourceFile(m);
  const out: { use: string; line: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const name = `${node.expression.text}.${node.name.text}`;
      if (FORBIDDEN_MEMBERS.has(name)) out.push({ use: name, line: lineOf(sf, node) });
    }
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Date' && (node.arguments?.length ?? 0) === 0) {
      out.push({ use: 'new Date()', line: lineOf(sf, node) });
    }
    if (ts.isIdentifier(node) && FORBIDDEN_GLOBALS.has(node.text) && isFreeReference(node)) {
      out.push({ use: node.text, line: lineOf(sf, node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  HOST_READS.set(key, out);
  return out;
}

/** True when identifier `id` refers to a variable (not a property name, a declaration or a type name). */
function isFreeReference(id: ts.Identifier): boolean {
  const p = id.parent;
  if ((ts.isPropertyAccessExpression(p) || ts.isQualifiedName(p)) && (p as ts.PropertyAccessExpression).name === id) return false;
  if ((ts.isPropertyAssignment(p) || ts.isPropertySignature(p) || ts.isPropertyDeclaration(p) || ts.isMethodDeclaration(p)) && p.name === id) return false;
  if ((ts.isVariableDeclaration(p) || ts.isParameter(p) || ts.isFunctionDeclaration(p) || ts.isBindingElement(p)) && p.name === id) return false;
  if (ts.isTypeReferenceNode(p) || ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) return false;
  return true;
}

/** The component (member of {@link LAYERS}) a path belongs to, with its layer index; `undefined` when none. */
function componentOf(path: string): { component: string; layer: number } | undefined {
  for (let layer = 0; layer < LAYERS.length; layer++) {
    for (const component of LAYERS[layer]!) {
      if (component.endsWith('/') ? path.startsWith(component) : path === component) return { component, layer };
    }
  }
  return undefined;
}

/** Where a relative specifier points, as a repository-relative path (`.js` → `.ts`). */
function target(from: string, specifier: string): string {
  const p = posix.normalize(posix.join(posix.dirname(from), specifier));
  return p.endsWith('.js') ? `${p.slice(0, -3)}.ts` : p;
}

const isPure = (path: string): boolean => PURE.some((d) => path.startsWith(d));

/** Every violation of the layer rule in `modules`, one line each (`file:line: …`). */
function layerViolations(modules: readonly Module[]): string[] {
  const out: string[] = [];
  for (const m of modules) {
    const from = componentOf(m.path);
    if (!from) {
      out.push(`${m.path}: belongs to no layer; add its directory to LAYERS in test/meta/architecture.test.ts (and architecture.md)`);
      continue;
    }
    for (const imp of importsOf(m)) {
      if (!imp.specifier.startsWith('.')) continue;
      const to = target(m.path, imp.specifier);
      if (!to.startsWith('src/') && !to.startsWith('action/')) {
        if (!to.endsWith('.json')) out.push(`${m.path}:${imp.line}: imports '${imp.specifier}' (${to}), outside src/ and action/ (only JSON data may be imported from there)`);
        continue;
      }
      const dest = componentOf(to);
      if (!dest || dest.component === from.component || dest.layer < from.layer) continue;
      const how = dest.layer === from.layer ? 'a component of the same layer' : 'a higher layer';
      out.push(`${m.path}:${imp.line}: imports '${imp.specifier}' from ${how}: ${from.component} (layer ${from.layer}) must not import ${dest.component} (layer ${dest.layer})`);
    }
  }
  return out;
}

/** Every import cycle among `modules`, as `a -> b -> … -> a`. */
function cycles(modules: readonly Module[]): string[] {
  const graph = new Map<string, string[]>();
  for (const m of modules) {
    graph.set(
      m.path,
      importsOf(m)
        .filter((i) => i.specifier.startsWith('.'))
        .map((i) => target(m.path, i.specifier)),
    );
  }
  // Tarjan's strongly connected components; a component of more than one module is a cycle.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(`import cycle among ${scc.length} modules: ${scc.sort().join(', ')}`);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return out;
}

/** Every violation of the purity rule in `modules`, and the exemptions that were used. */
function purityViolations(modules: readonly Module[]): { violations: string[]; used: Set<string> } {
  const violations: string[] = [];
  const used = new Set<string>();
  const exempt = (file: string, use: string): boolean => {
    const e = EXEMPT.find((x) => x.file === file && x.use === use);
    if (e) used.add(`${file} ${use}`);
    return e !== undefined;
  };
  for (const m of modules) {
    if (!isPure(m.path)) continue;
    for (const imp of importsOf(m)) {
      if (imp.specifier.startsWith('.') || imp.specifier in PURE_EXTERNALS || exempt(m.path, imp.specifier)) continue;
      violations.push(`${m.path}:${imp.line}: imports '${imp.specifier}'; the pure core does no I/O: take the fact from the unit's context or the injected host (CheckContext.host, PathHost)`);
    }
    for (const r of hostReadsOf(m)) {
      if (exempt(m.path, r.use)) continue;
      violations.push(`${m.path}:${r.line}: reads host state (${r.use}); the pure core gets it from the edge (src/lint.ts, the unit's context)`);
    }
  }
  return { violations, used };
}

const MODULES: readonly Module[] = [...listTs('src'), ...listTs('action')].map((path) => ({
  path,
  text: readFileSync(join(ROOT, path), 'utf8'),
}));

describe('architecture', () => {
  it('finds the modules it judges', () => {
    expect(MODULES.length).toBeGreaterThan(100);
    expect(MODULES.map((m) => m.path)).toContain('src/checks/security/statement.ts');
  });

  it('layers import only downward', () => {
    expect(layerViolations(MODULES)).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(cycles(MODULES)).toEqual([]);
  });

  it('keeps the core pure', () => {
    expect(purityViolations(MODULES).violations).toEqual([]);
  });

  it('needs every exemption it grants', () => {
    const { used } = purityViolations(MODULES);
    expect(EXEMPT.filter((e) => !used.has(`${e.file} ${e.use}`)).map((e) => `${e.file}: ${e.use} is exempt but not used`)).toEqual([]);
  });

  it('lists every pure directory as a layer', () => {
    for (const d of PURE) expect(componentOf(`${d}x.ts`), d).toBeDefined();
  });
});

describe('architecture rules on planted violations', () => {
  const plant = (path: string, text: string): Module[] => [...MODULES.filter((m) => m.path !== path), { path, text }];

  it('names the file, line and import of an upward import', () => {
    const planted = plant('src/parse/planted.ts', "import type { Verdict } from '../verdict.js';\nexport type V = Verdict;\n");
    expect(layerViolations(planted)).toEqual([
      "src/parse/planted.ts:1: imports '../verdict.js' from a higher layer: src/parse/ (layer 1) must not import src/verdict.ts (layer 8)",
    ]);
  });

  it('rejects an import between two components of one layer', () => {
    const planted = plant('src/config/planted.ts', "export { SCRIPT } from '../sources/script.js';\n");
    expect(layerViolations(planted)).toEqual([
      "src/config/planted.ts:1: imports '../sources/script.js' from a component of the same layer: src/config/ (layer 11) must not import src/sources/ (layer 11)",
    ]);
  });

  it('rejects a module outside every layer', () => {
    expect(layerViolations(plant('src/elsewhere/x.ts', 'export const x = 1;\n'))).toEqual([
      'src/elsewhere/x.ts: belongs to no layer; add its directory to LAYERS in test/meta/architecture.test.ts (and architecture.md)',
    ]);
  });

  it('finds a cycle', () => {
    const planted = [
      ...MODULES,
      { path: 'src/checks/planted-a.ts', text: "import { b } from './planted-b.js';\nexport const a = b;\n" },
      { path: 'src/checks/planted-b.ts', text: "import { a } from './planted-a.js';\nexport const b = a;\n" },
    ];
    expect(cycles(planted)).toEqual(['import cycle among 2 modules: src/checks/planted-a.ts, src/checks/planted-b.ts']);
  });

  it('names the I/O import and the host read of a check', () => {
    const planted = plant(
      'src/checks/paths/planted.ts',
      [
        "import { homedir } from 'node:os';",
        "import { readFileSync } from 'fs';",
        'export const home = homedir();',
        "export const env = process.env['HOME'];",
        'export const now = Date.now();',
        'const process2 = { env: 1 };',
        'export const fine = process2.env;',
        '',
      ].join('\n'),
    );
    expect(purityViolations(planted).violations).toEqual([
      "src/checks/paths/planted.ts:1: imports 'node:os'; the pure core does no I/O: take the fact from the unit's context or the injected host (CheckContext.host, PathHost)",
      "src/checks/paths/planted.ts:2: imports 'fs'; the pure core does no I/O: take the fact from the unit's context or the injected host (CheckContext.host, PathHost)",
      'src/checks/paths/planted.ts:4: reads host state (process); the pure core gets it from the edge (src/lint.ts, the unit\'s context)',
      'src/checks/paths/planted.ts:5: reads host state (Date.now); the pure core gets it from the edge (src/lint.ts, the unit\'s context)',
    ]);
  });

  it('does not exempt the same use in another file', () => {
    const planted = plant('src/parse/planted.ts', "import { createRequire } from 'node:module';\nexport const r = createRequire;\n");
    expect(purityViolations(planted).violations).toHaveLength(1);
  });

  it('leaves the edges alone', () => {
    const planted = plant('src/cli/planted.ts', "import { homedir } from 'node:os';\nexport const h = homedir() + process.cwd();\n");
    expect(purityViolations(planted).violations).toEqual([]);
  });
});
