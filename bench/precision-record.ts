/**
 * Records the decision of one shellward build on every row of the precision set
 * (bench/precision/commands.jsonl), for the benchmark's "current release" column. A tool, not a
 * test; see bench/precision/README.md for the exact steps that produced
 * bench/precision/baseline.json.
 *
 *   node dist/bench/precision-record.js [--shellward DIR] [--name TEXT] [--out FILE]
 *
 * `--shellward DIR`: a built shellward checkout (its `dist/src/lint.js` and `dist/src/verdict.js`
 * are loaded; default: this repository). The build only needs the library's `Linter.create` and
 * `verdictFor`, so any version since the check engine existed can be measured. `--name`: what to
 * call it in the output (default: `shellward <DIR>`). `--out`: the JSON file to write (default:
 * stdout). Each command is judged with no permission rules, in the same scratch project the
 * benchmark uses (or the row's recorded working directory), `~` = {@link BENCH_HOME}.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_HOME, loadPrecisionSet, makeScratchProject, REPO_ROOT, type RecordedDecisions } from './precision/set.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

interface LibraryApi {
  Linter: { create(options: Record<string, unknown>): Promise<unknown> };
  verdictFor(command: string, request: { cwd?: string }, linter: unknown): { decision: 'allow' | 'ask' | 'deny' };
}

async function main(): Promise<void> {
  const dir = resolve(arg('--shellward') ?? REPO_ROOT);
  const name = arg('--name') ?? `shellward ${dir}`;
  const out = arg('--out');
  const lint = (await import(pathToFileURL(join(dir, 'dist', 'src', 'lint.js')).href)) as Pick<LibraryApi, 'Linter'>;
  const verdict = (await import(pathToFileURL(join(dir, 'dist', 'src', 'verdict.js')).href)) as Pick<LibraryApi, 'verdictFor'>;
  const rows = loadPrecisionSet();
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'shellward-precision-')));
  try {
    makeScratchProject(scratch);
    const linter = await lint.Linter.create({ pathHost: { home: BENCH_HOME } });
    const decisions: Record<string, 'allow' | 'ask' | 'deny'> = {};
    for (const r of rows) decisions[r.id] = verdict.verdictFor(r.command, { cwd: r.cwd ?? scratch }, linter).decision;
    const doc: RecordedDecisions = { shellward: name, decisions };
    const text = JSON.stringify(doc, null, 1) + '\n';
    if (out) writeFileSync(out, text);
    else process.stdout.write(text);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
