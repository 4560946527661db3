/**
 * The labelled precision set (bench/precision/commands.jsonl) and its scoring, shared by the
 * precision benchmark (bench/precision-bench.ts), the baseline recorder
 * (bench/precision-record.ts) and the test that holds the set to zero unsafe allows
 * (test/bench/precision.test.ts).
 *
 * A row is one real agent command with the decision a careful reviewer gives **without any
 * permission rules**: `allow` when it is provably harmless (reads only inside its working
 * directory, writes nothing, runs no code beyond the named read-only tool, no network), `ask`
 * for anything else. See bench/precision/README.md for how the set was built.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The reviewer's decision for a row. */
export type Label = 'allow' | 'ask';

/** One labelled command. */
export interface PrecisionRow {
  /** Stable id (`p001` …), unique in the set. */
  readonly id: string;
  /** The command, verbatim as the agent sent it. */
  readonly command: string;
  /**
   * The working directory the session recorded (absolute), or absent: then the command runs in
   * the benchmark's scratch project.
   */
  readonly cwd?: string;
  readonly label: Label;
  /** Why the label (one short phrase). */
  readonly why: string;
  /** Where the command comes from: a public URL, or a path of this repository. */
  readonly source: string;
}

/** Decisions of one shellward build, as the recorder writes them. */
export interface RecordedDecisions {
  /** What was measured, e.g. `shellward main bab4452`. */
  readonly shellward: string;
  /** Decision per row id (`allow`, `ask` or `deny`). */
  readonly decisions: Readonly<Record<string, 'allow' | 'ask' | 'deny'>>;
}

const here = dirname(fileURLToPath(import.meta.url));
/** Repository root: this file runs as bench/precision/set.ts (vitest) or dist/bench/precision/set.js. */
export const REPO_ROOT = resolve(here, '..', '..', ...(basename(resolve(here, '..', '..')) === 'dist' ? ['..'] : []));
/** The labelled set. */
export const SET_FILE = join(REPO_ROOT, 'bench', 'precision', 'commands.jsonl');
/** Per-row decisions of the current release, recorded by bench/precision-record.ts. */
export const BASELINE_FILE = join(REPO_ROOT, 'bench', 'precision', 'baseline.json');

const ROW_KEYS = new Set(['id', 'command', 'cwd', 'label', 'why', 'source']);

/**
 * Reads and validates the set: one JSON object per non-empty line with a unique `id`, a string
 * `command`, an optional absolute `cwd`, `label` `allow` or `ask`, a non-empty `why` and
 * `source`, and no other keys. Throws an `Error` naming the file and the 1-based line of the
 * first bad row.
 */
export function loadPrecisionSet(file: string = SET_FILE): PrecisionRow[] {
  const rows: PrecisionRow[] = [];
  const ids = new Set<string>();
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const where = `${file}:${i + 1}`;
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch (err) {
        throw new Error(`${where}: not JSON (${err instanceof Error ? err.message : String(err)})`);
      }
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${where}: a row must be a JSON object`);
      const o = v as Record<string, unknown>;
      const extra = Object.keys(o).filter((k) => !ROW_KEYS.has(k));
      if (extra.length > 0) throw new Error(`${where}: unknown key ${extra.join(', ')}`);
      if (typeof o.id !== 'string' || !/^p\d{3,}$/.test(o.id)) throw new Error(`${where}: "id" must look like p001`);
      if (ids.has(o.id)) throw new Error(`${where}: duplicate id ${o.id}`);
      ids.add(o.id);
      if (typeof o.command !== 'string' || o.command === '') throw new Error(`${where}: "command" must be a non-empty string`);
      if (o.cwd !== undefined && (typeof o.cwd !== 'string' || !isAbsolute(o.cwd))) throw new Error(`${where}: "cwd" must be an absolute path`);
      if (o.label !== 'allow' && o.label !== 'ask') throw new Error(`${where}: "label" must be "allow" or "ask"`);
      if (typeof o.why !== 'string' || o.why === '') throw new Error(`${where}: "why" must be a non-empty string`);
      if (typeof o.source !== 'string' || o.source === '') throw new Error(`${where}: "source" must be a non-empty string`);
      rows.push({ id: o.id, command: o.command, ...(o.cwd !== undefined ? { cwd: o.cwd as string } : {}), label: o.label, why: o.why, source: o.source });
    });
  return rows;
}

/** Reads recorded decisions (bench/precision-record.ts output); throws naming the file when malformed. */
export function loadRecorded(file: string = BASELINE_FILE): RecordedDecisions {
  const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const o = v as Partial<RecordedDecisions> | null;
  if (!o || typeof o.shellward !== 'string' || typeof o.decisions !== 'object' || o.decisions === null) {
    throw new Error(`${file}: expected {"shellward": string, "decisions": {id: decision}}`);
  }
  for (const [id, d] of Object.entries(o.decisions)) {
    if (d !== 'allow' && d !== 'ask' && d !== 'deny') throw new Error(`${file}: decision of ${id} must be allow, ask or deny`);
  }
  return o as RecordedDecisions;
}

/** The home directory every measured build resolves `~` against, so results do not depend on the machine. */
export const BENCH_HOME = '/home/bench-user';

/** The scores of one column of the benchmark. */
export interface PrecisionScore {
  readonly rows: number;
  /** Rows whose decision equals the label (`deny` counts as `ask`: not allowed). */
  readonly correct: number;
  /** Rows labelled `allow` (harmless). */
  readonly harmless: number;
  /** Harmless rows the build allowed. */
  readonly harmlessAllowed: number;
  /** Rows labelled `ask` that the build allowed: must be none. */
  readonly unsafeAllows: readonly PrecisionRow[];
  /** Rows with no recorded decision (a baseline older than the set). */
  readonly missing: number;
}

/**
 * Scores `decisions` (by row id) against the labels. A row without a decision is counted in
 * `missing` and in nothing else. Pure.
 */
export function scorePrecision(rows: readonly PrecisionRow[], decisions: Readonly<Record<string, string>>): PrecisionScore {
  let correct = 0;
  let harmless = 0;
  let harmlessAllowed = 0;
  let missing = 0;
  const unsafe: PrecisionRow[] = [];
  for (const r of rows) {
    const d = decisions[r.id];
    if (d === undefined) {
      missing++;
      continue;
    }
    const allowed = d === 'allow';
    if (r.label === 'allow') harmless++;
    if (allowed === (r.label === 'allow')) correct++;
    if (allowed && r.label === 'allow') harmlessAllowed++;
    if (allowed && r.label === 'ask') unsafe.push(r);
  }
  return { rows: rows.length - missing, correct, harmless, harmlessAllowed, unsafeAllows: unsafe, missing };
}

/**
 * Fills `dir` (which must exist and be empty) with a small realistic project — a git
 * repository with one commit holding README.md, package.json, src/, tests/, docs/, config/ and
 * web/ files, the kind the set's commands read. Uses `git` from PATH; throws if git fails.
 */
export function makeScratchProject(dir: string): void {
  const files: Record<string, string> = {
    'README.md': '# demo\n\nA small project for the precision benchmark.\n',
    'CLAUDE.md': '# Notes for agents\n',
    'package.json': JSON.stringify({ name: 'demo', version: '1.0.0', scripts: { test: 'vitest run', build: 'tsc' } }, null, 2) + '\n',
    'pyproject.toml': '[project]\nname = "demo"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
    'requirements.txt': 'fastapi\npydantic\n',
    '.gitignore': 'node_modules/\n.env\n',
    'src/main.py': 'def main():\n    print("hi")\n',
    'src/util.py': 'def add(a, b):\n    return a + b\n',
    'src/api/main.py': 'from fastapi import FastAPI\napp = FastAPI()\n',
    'src/api/routers/__init__.py': '',
    'src/api/routers/chat.py': '# chat router\n',
    'src/index.ts': 'export const x = 1;\n',
    'src/delivery.js': 'export function deliver(d) { d.setHours(0); return d.getDate(); }\n',
    'tests/test_main.py': 'def test_add():\n    assert 1 + 1 == 2\n',
    'docs/guide.md': '# Guide\n',
    'config/main.yaml': 'server:\n  port: 8000\n',
    'config/agents.yaml': 'agents: []\n',
    'web/package.json': JSON.stringify({ name: 'web', scripts: { dev: 'next dev' }, devDependencies: { '@playwright/test': '1.0.0' } }, null, 2) + '\n',
    'web/app/layout.tsx': 'export default function Layout() { return null; }\n',
    'web/lib/api.ts': 'export const api = "/api";\n',
    'migrations/001_users.sql': 'create table users (id int);\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
}
