/**
 * Meta test over the check registry and the rule metadata (architecture.md §9.4 items 1, 2, 4, 10).
 * It discovers check files by scanning src/checks/ — here, in the test only; the product never
 * scans — so a check added to the tree is covered without editing this file, and a check that
 * is written but not registered fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Category, Check, RuleMeta } from '../../src/checks/define.js';
import { CHECKS, RULES, ruleMeta } from '../../src/checks/index.js';
import { POLICY_FILE_RULES } from '../../src/checks/policy/policy-file-rules.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CHECKS_DIR = join(ROOT, 'src/checks');
const GOLDEN_DIR = join(ROOT, 'test/fixtures/golden');
/** Golden outputs of whole project trees (test/golden/kinds.test.ts). */
const KINDS_GOLDEN_DIR = join(ROOT, 'test/fixtures/kinds');

/** Modules of src/checks/ that are the framework, not checks. */
const FRAMEWORK = new Set(['define.ts', 'index.ts']);

/** Code prefix (stage) of each category. */
const CODE_PREFIX: Readonly<Record<Category, string>> = {
  parse: 'P1',
  security: 'S2',
  destructive: 'D3',
  paths: 'F4',
  policy: 'R5',
  input: 'I9',
  sandbox: 'X5',
  workflow: 'W6',
};

/** Categories of rules reported outside the checks (by the pipeline, by a sandboxed run): no runnable examples. */
const OUTSIDE_CHECKS: ReadonlySet<Category> = new Set<Category>(['input', 'sandbox', 'workflow']);

/** Where the findings of `sandbox` rules are produced by real runs; each such rule id must appear in it. */
const SANDBOX_TESTS = join(ROOT, 'test/sandbox/findings.test.ts');

/** Policy rules reported about the policy files (src/config/), not by a check: no runnable examples. */
const POLICY_FILE_IDS: ReadonlySet<string> = new Set(POLICY_FILE_RULES.map((r) => r.id));

/** Where the findings of the policy-file rules are produced; each such rule id must appear in it. */
const POLICY_FILE_TESTS = join(ROOT, 'test/config/policy-lint.test.ts');

/** Categories whose default severity may never be `note` (or `off`) in the agent profile. */
const LOUD_CATEGORIES: ReadonlySet<Category> = new Set<Category>(['security', 'destructive', 'paths']);

/**
 * Input rules that no golden file can show, with the reason. Every other `input` rule must appear
 * in some test/fixtures/golden/*.out, because input rules have no runnable examples.
 */
const INPUT_RULES_WITHOUT_GOLDEN: Readonly<Record<string, string>> = {
  'internal-error': 'only a bug in shellward (a check throwing) or a parse time-out produces it',
};

const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

function listTs(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listTs(p));
    else if (e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out.sort();
}

function isCheck(v: unknown): v is Check {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Partial<Check>;
  return typeof c.name === 'string' && Array.isArray(c.rules) && typeof c.run === 'function';
}

/** Every module under src/checks/ except the framework, with its default export (if any). */
const modules = await Promise.all(
  listTs(CHECKS_DIR)
    .filter((p) => !(dirname(p) === CHECKS_DIR && FRAMEWORK.has(basename(p))))
    .map(async (p) => {
      const rel = relative(CHECKS_DIR, p).split('\\').join('/');
      try {
        return { path: p, rel, mod: (await import(pathToFileURL(p).href)) as { default?: unknown }, error: undefined };
      } catch (error) {
        return { path: p, rel, mod: {} as { default?: unknown }, error };
      }
    }),
);
const checkFiles = modules.filter((m) => m.mod.default !== undefined);
const helperFiles = modules.filter((m) => m.error === undefined && m.mod.default === undefined);

describe('check files under src/checks/', () => {
  it('finds the check files (the scan itself works)', () => {
    expect(checkFiles.length).toBeGreaterThan(0);
    expect(checkFiles.length).toBeGreaterThanOrEqual(CHECKS.length);
  });

  it('loads every module', () => {
    const broken = modules.filter((m) => m.error !== undefined).map((m) => `${m.rel}: ${String(m.error)}`);
    expect(broken).toEqual([]);
  });

  it('has no file at the top level besides define.ts and index.ts (checks live in a category folder)', () => {
    const top = modules.filter((m) => !m.rel.includes('/')).map((m) => m.rel);
    expect(top).toEqual([]);
  });

  describe.each(checkFiles.map((m) => [m.rel, m] as const))('%s', (_rel, m) => {
    const check = m.mod.default;

    it('default-exports a check ({ name, rules, run })', () => {
      expect(isCheck(check)).toBe(true);
    });

    it('is registered in src/checks/index.ts (CHECKS)', () => {
      expect(CHECKS.includes(check as Check), `add ${m.rel} to CHECKS in src/checks/index.ts`).toBe(true);
    });

    it('is named after its file (the id of a single-rule check, `check.name` of a multi-rule one)', () => {
      if (!isCheck(check)) return expect.fail('not a check');
      expect(basename(m.path, '.ts')).toBe(check.name);
      if (check.rules.length === 1) expect(check.rules[0]!.id).toBe(check.name);
      expect(check.rules.length).toBeGreaterThan(0);
    });

    it('sits in the folder of its category', () => {
      if (!isCheck(check)) return expect.fail('not a check');
      const folder = m.rel.split('/')[0];
      for (const r of check.rules) expect(r.category, `${r.id} in ${m.rel}`).toBe(folder);
    });
  });

  it('keeps helper modules (no default export) out of the way of check names', () => {
    // A module without a default export is a helper; one named like a rule id is a check that
    // forgot `export default`.
    for (const h of helperFiles) {
      const name = basename(h.path, '.ts');
      expect(ruleMeta(name), `${h.rel} is named like rule ${name} but exports no check`).toBeUndefined();
      expect(CHECKS.some((c) => c.name === name), `${h.rel} is named like check ${name} but exports no check`).toBe(false);
    }
  });
});

describe('CHECKS registry', () => {
  it('lists every check once, each from a check file', () => {
    const fromFiles = new Set(checkFiles.map((m) => m.mod.default));
    for (const c of CHECKS) expect(fromFiles.has(c), `${c.name} is registered but no src/checks/**/${c.name}.ts default-exports it`).toBe(true);
    expect(new Set(CHECKS).size).toBe(CHECKS.length);
    expect(new Set(CHECKS.map((c) => c.name)).size).toBe(CHECKS.length);
  });

  it('is sorted by name', () => {
    const names = CHECKS.map((c) => c.name);
    expect(names).toEqual([...names].sort());
  });

  it('RULES holds exactly the rules of the checks plus the input rules, sorted by id', () => {
    const ids = RULES.map((r) => r.id);
    expect(ids).toEqual([...ids].sort());
    for (const c of CHECKS) for (const r of c.rules) expect(RULES.includes(r), r.id).toBe(true);
    const fromChecks = new Set(CHECKS.flatMap((c) => c.rules));
    for (const r of RULES) if (!fromChecks.has(r)) expect(OUTSIDE_CHECKS.has(r.category) || POLICY_FILE_IDS.has(r.id), `${r.id} is in RULES but in no check`).toBe(true);
  });
});

describe('rule metadata', () => {
  it('ids are unique', () => {
    const seen = new Map<string, number>();
    for (const r of RULES) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1).map(([id]) => id)).toEqual([]);
  });

  it('codes are unique', () => {
    const seen = new Map<string, string[]>();
    for (const r of RULES) seen.set(r.code, [...(seen.get(r.code) ?? []), r.id]);
    expect([...seen].filter(([, ids]) => ids.length > 1)).toEqual([]);
  });

  describe.each(RULES.map((r) => [r.id, r] as const))('%s', (_id, r: RuleMeta) => {
    it('has a kebab-case id', () => {
      expect(r.id).toMatch(KEBAB);
    });

    it('has a code of its category stage (P1xx parse, S2xx security, D3xx destructive, F4xx paths, X5xx sandbox, I9xx input)', () => {
      const prefix = CODE_PREFIX[r.category];
      expect(prefix, `unknown category ${r.category}`).toBeDefined();
      expect(r.code).toMatch(/^[A-Z][0-9]{3}$/);
      expect(r.code.slice(0, 2)).toBe(prefix);
    });

    it('has a one-line title without a trailing period', () => {
      expect(r.title.trim()).toBe(r.title);
      expect(r.title.length).toBeGreaterThan(0);
      expect(r.title).not.toMatch(/[\r\n]/);
      expect(r.title).not.toMatch(/\.$/);
    });

    it('has docs: a rationale and a fix', () => {
      expect(r.docs.rationale.trim().length).toBeGreaterThan(0);
      expect(r.docs.fix.trim().length).toBeGreaterThan(0);
      if (r.docs.exceptions !== undefined) expect(r.docs.exceptions.trim().length).toBeGreaterThan(0);
    });

    it('has a default severity for both profiles, never quiet for a security/destructive/paths rule in the agent profile', () => {
      const levels = ['error', 'warning', 'note', 'off'];
      expect(Object.keys(r.severity).sort()).toEqual(['agent', 'script']);
      expect(levels).toContain(r.severity.agent);
      expect(levels).toContain(r.severity.script);
      if (LOUD_CATEGORIES.has(r.category)) expect(['error', 'warning']).toContain(r.severity.agent);
      if (r.category === 'input') expect(r.severity.agent).toBe(r.severity.script);
    });

    it('lists its sources as `tool:name` strings', () => {
      for (const s of r.sources) expect(s).toMatch(/^[a-z][a-z0-9-]*:\S/);
    });

    if (r.claudeCode) {
      const cc = r.claudeCode;
      it('names its Claude Code validator well (numeric id 1–23 of claude-code-reference.md §1.2, position ≥ 1)', () => {
        expect(cc.name).toMatch(/^[A-Za-z_][\w.]*$/);
        if (cc.id !== undefined) {
          expect(Number.isInteger(cc.id)).toBe(true);
          expect(cc.id).toBeGreaterThanOrEqual(1);
          expect(cc.id).toBeLessThanOrEqual(23);
        }
        expect(Number.isInteger(cc.order)).toBe(true);
        expect(cc.order).toBeGreaterThanOrEqual(1);
        expect(typeof cc.misparsing).toBe('boolean');
      });
    }

    if (r.category === 'input' || r.category === 'workflow') {
      it('has no runnable examples and appears in a golden file instead', () => {
        expect(r.examples.valid).toEqual([]);
        expect(r.examples.invalid).toEqual([]);
        if (r.id in INPUT_RULES_WITHOUT_GOLDEN) return;
        const outs = [
          ...readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.out')).map((f) => join(GOLDEN_DIR, f)),
          ...readdirSync(KINDS_GOLDEN_DIR).filter((f) => f.endsWith('.out')).map((f) => join(KINDS_GOLDEN_DIR, f)),
        ];
        const hit = outs.some((f) => readFileSync(f, 'utf8').includes(`[${r.id}]`));
        expect(hit, `no test/fixtures/golden/*.out or test/fixtures/kinds/*.out shows [${r.id}]`).toBe(true);
      });
    } else if (r.category === 'sandbox') {
      it('has no runnable examples and is covered by test/sandbox/findings.test.ts instead', () => {
        expect(r.examples.valid).toEqual([]);
        expect(r.examples.invalid).toEqual([]);
        expect(readFileSync(SANDBOX_TESTS, 'utf8').includes(`'${r.id}'`), `test/sandbox/findings.test.ts never names '${r.id}'`).toBe(true);
      });
    } else if (POLICY_FILE_IDS.has(r.id)) {
      it('has no runnable examples and is covered by test/config/policy-lint.test.ts instead', () => {
        expect(r.examples.valid).toEqual([]);
        expect(r.examples.invalid).toEqual([]);
        expect(readFileSync(POLICY_FILE_TESTS, 'utf8').includes(`'${r.id}'`), `test/config/policy-lint.test.ts never names '${r.id}'`).toBe(true);
      });
    } else {
      it('has at least one invalid and one valid example', () => {
        expect(r.examples.invalid.length).toBeGreaterThan(0);
        expect(r.examples.valid.length).toBeGreaterThan(0);
        for (const ex of [...r.examples.invalid, ...r.examples.valid]) expect(ex.trim().length).toBeGreaterThan(0);
        expect(new Set(r.examples.invalid).size, 'duplicate invalid example').toBe(r.examples.invalid.length);
        expect(new Set(r.examples.valid).size, 'duplicate valid example').toBe(r.examples.valid.length);
      });
    }
  });
});
