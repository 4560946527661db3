/**
 * The data tables under rules/ are tested like code (architecture.md §9.4 item 8): every table
 * validates against the JSON schema its `$schema` names (draft-07, `format: regex` checked by
 * compiling the expression as the analyses do), every schema is a valid draft-07 schema, no id
 * or object key is duplicated (JSON.parse would silently keep the last of two equal keys), every
 * rule's family exists, and every regular expression compiles and passes a structural check
 * against catastrophic backtracking.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RULES_DIR = join(ROOT, 'rules');
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

// ---------------------------------------------------------------------------------------------
// Helpers

function listJson(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...listJson(p));
    else if (e.isFile() && e.name.endsWith('.json')) out.push(p);
  }
  return out.sort();
}

/**
 * The duplicate object keys of the JSON document `text`, as `path.key` strings. A minimal
 * recursive-descent reader: it assumes `text` is valid JSON (JSON.parse checks that first).
 */
function duplicateKeys(text: string): string[] {
  let i = 0;
  const dups: string[] = [];
  const ws = (): void => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const str = (): string => {
    const start = i;
    i++; // opening quote
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        const key = str();
        if (seen.has(key)) dups.push(`${path}.${key}`);
        seen.add(key);
        ws();
        i++; // ':'
        value(`${path}.${key}`);
        ws();
        if (text[i++] === '}') return;
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (let n = 0; ; n++) {
        value(`${path}[${n}]`);
        ws();
        if (text[i++] === ']') return;
      }
    } else if (c === '"') {
      str();
    } else {
      while (i < text.length && !',]} \t\r\n'.includes(text[i]!)) i++;
    }
  };
  value('$');
  return dups;
}

/**
 * Why `source` may backtrack catastrophically, or `undefined` when the structural check finds
 * nothing: a group that contains a variable quantifier (`*`, `+`, `?`, `{n,m}`) and is itself
 * repeated more than once (`(a+)+`, `(a?)*`, `((ab)*c){2,}`), or a backreference. Character
 * classes and escapes are skipped. Overlapping alternatives under one quantifier (`(a|a)*`) are
 * not detected; keep alternations in the tables disjoint.
 */
function backtrackingRisk(source: string): string | undefined {
  const stack: { quantified: boolean; start: number }[] = [{ quantified: false, start: 0 }];
  /** The atom just read: a plain atom, or a group and whether it contains a variable quantifier. */
  let atom: { group: boolean; inner: boolean; start: number } | undefined;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    // A quantifier applies to the preceding atom.
    const q = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})/.exec(source.slice(i));
    if (q && atom) {
      const [min, max] = q[1] === '*' ? [0, Infinity] : q[1] === '+' ? [1, Infinity] : q[1] === '?' ? [0, 1]
        : [Number(q[2]), q[3] === undefined ? Number(q[2]) : q[4] === '' ? Infinity : Number(q[4])];
      if (atom.group && atom.inner && max > 1) {
        return `nested quantifier: \`${source.slice(atom.start, i + q[0].length)}\` repeats a group that contains a quantifier`;
      }
      if (min !== max) stack[stack.length - 1]!.quantified = true;
      i += q[0].length;
      if (source[i] === '?') i++; // lazy
      atom = undefined;
      continue;
    }
    if (c === '\\') {
      if (/^\\(?:[1-9]|k<)/.test(source.slice(i))) return `backreference at ${i}`;
      atom = { group: false, inner: false, start: i };
      i += 2;
    } else if (c === '[') {
      const start = i;
      i++;
      if (source[i] === '^') i++;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i++;
      atom = { group: false, inner: false, start };
    } else if (c === '(') {
      stack.push({ quantified: false, start: i });
      i++;
      const prefix = /^\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(source.slice(i));
      if (prefix) i += prefix[0].length;
      atom = undefined;
    } else if (c === ')') {
      const frame = stack.length > 1 ? stack.pop()! : { quantified: false, start: 0 };
      i++;
      atom = { group: true, inner: frame.quantified, start: frame.start };
      // Whatever is quantified inside this group is also inside the enclosing one.
      if (frame.quantified) stack[stack.length - 1]!.quantified = true;
    } else if (c === '|' || c === '^' || c === '$') {
      atom = undefined;
      i++;
    } else {
      atom = { group: false, inner: false, start: i };
      i++;
    }
  }
  return undefined;
}

/** An Ajv instance for draft-07 whose `regex` format compiles the expression as the analyses do (no `u` flag). */
function makeAjv(collect: (re: string) => void): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: true });
  ajv.addFormat('regex', {
    type: 'string',
    validate: (s: string) => {
      collect(s);
      try {
        new RegExp(s);
        return true;
      } catch {
        return false;
      }
    },
  });
  return ajv;
}

// ---------------------------------------------------------------------------------------------
// The tables

interface Table {
  readonly path: string;
  readonly rel: string;
  readonly text: string;
  readonly data: Record<string, unknown>;
}

const tables: Table[] = listJson(RULES_DIR).map((path) => {
  const text = readFileSync(path, 'utf8');
  return { path, rel: relative(ROOT, path).split('\\').join('/'), text, data: JSON.parse(text) as Record<string, unknown> };
});
const schemas = tables.filter((t) => t.data.$schema === DRAFT_07);
const dataTables = tables.filter((t) => t.data.$schema !== DRAFT_07);

describe('the structural regex check', () => {
  it.each(['(a+)+', '(a*)*', '((ab)*c)+', '(?:\\s+\\w+)*', '(a{1,3})+', '(a?)+', '(x+){2,}', '(?<n>a+)*', '(\\w+)\\1', '((a+))*', '(a+){3}'])(
    'rejects %s',
    (re) => {
      expect(backtrackingRisk(re)).toBeDefined();
    },
  );
  it.each(['^\\+', '^(drop|clear)$', '(?:a|b)*', '[(+]+', '\\(a+\\)+', '(a+)?', '(a){3}', '^(\\S*/)?(rm|rmdir)$', 'a{2}b*(c)+', '[\\]+]+(x)*'])(
    'accepts %s',
    (re) => {
      expect(backtrackingRisk(re)).toBeUndefined();
    },
  );
});

describe('the duplicate-key reader', () => {
  it('finds a repeated key at any depth and nothing in a clean document', () => {
    expect(duplicateKeys('{"a": {"b": 1, "c": [1, {"d": "x\\"}", "d": 2}], "b": 3}, "e": {}}')).toEqual(['$.a.c[1].d', '$.a.b']);
    expect(duplicateKeys('{"a": 1, "a": 2}')).toEqual(['$.a']);
    expect(duplicateKeys('{"a": [], "b": {"a": true, "c": null}}')).toEqual([]);
  });
});

describe('rules/ tables', () => {
  it('finds the tables and their schemas', () => {
    expect(dataTables.map((t) => t.rel)).toContain('rules/packs/git.json');
    expect(dataTables.map((t) => t.rel)).toContain('rules/commands/wrappers.json');
    expect(schemas.length).toBeGreaterThan(0);
  });

  describe.each(tables.map((t) => [t.rel, t] as const))('%s', (_rel, t) => {
    it('names its schema in `$schema`', () => {
      expect(typeof t.data.$schema).toBe('string');
    });

    it('has no duplicate object keys', () => {
      expect(duplicateKeys(t.text)).toEqual([]);
    });
  });

  describe.each(schemas.map((t) => [t.rel, t] as const))('schema %s', (_rel, t) => {
    it('is a valid draft-07 schema that compiles in strict mode', () => {
      const ajv = makeAjv(() => {});
      expect(ajv.validateSchema(t.data), ajv.errorsText(ajv.errors)).toBe(true);
      expect(() => ajv.compile(t.data)).not.toThrow();
    });
  });

  describe.each(dataTables.map((t) => [t.rel, t] as const))('table %s', (_rel, t) => {
    const schemaPath = resolve(dirname(t.path), String(t.data.$schema));
    // Validate at collection time so each `it` below stands on its own.
    const regexes: string[] = [];
    let validate: ValidateFunction | undefined;
    let compileError: unknown;
    let ok = false;
    try {
      validate = makeAjv((re) => regexes.push(re)).compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);
      ok = validate(t.data) as boolean;
    } catch (err) {
      compileError = err;
    }

    it('validates against its schema', () => {
      expect(schemas.map((s) => s.path), `$schema ${String(t.data.$schema)} is not a schema under rules/`).toContain(schemaPath);
      expect(compileError).toBeUndefined();
      expect(validate?.errors ?? [], 'schema errors').toEqual([]);
      expect(ok).toBe(true);
    });

    it('has only regular expressions that compile and are linear-safe', () => {
      expect(compileError).toBeUndefined();
      // The expressions are collected through the schema's `format: regex`: make sure that happened.
      // (A pack of structural predicates only, such as the fork-bomb pack, has none.)
      if (readFileSync(schemaPath, 'utf8').includes('"format": "regex"') && !t.rel.endsWith('fork-bomb.json')) expect(regexes.length).toBeGreaterThan(0);
      for (const re of regexes) {
        expect(() => new RegExp(re), re).not.toThrow();
        expect(backtrackingRisk(re), re).toBeUndefined();
      }
    });
  });
});

describe('rules/packs/*.json', () => {
  type PackFile = {
    id: string;
    families: Record<string, { names: string[]; subcommands?: Record<string, unknown> }>;
    rules: { id: string; code?: string; family: string; subcommand?: string[] }[];
  };
  const packs = dataTables.filter((x) => x.rel.startsWith('rules/packs/')).map((x) => ({ rel: x.rel, pack: x.data as PackFile }));
  const rules = packs.flatMap((p) => p.pack.rules);

  it('has packs, each with rules, named after its file', () => {
    expect(packs.length).toBeGreaterThanOrEqual(13);
    for (const { rel, pack } of packs) {
      expect(pack.rules.length, rel).toBeGreaterThan(0);
      expect(rel).toBe(`rules/packs/${pack.id}.json`);
    }
  });

  it('has no duplicate rule ids or codes across packs, and every built-in rule has a code', () => {
    const ids = rules.map((r) => r.id);
    const codes = rules.map((r) => r.code);
    expect(ids.filter((x, k) => ids.indexOf(x) !== k)).toEqual([]);
    expect(codes.filter((x, k) => codes.indexOf(x) !== k)).toEqual([]);
    expect(rules.filter((r) => r.code === undefined).map((r) => r.id)).toEqual([]);
  });

  it('keeps the rule ids that users have in configs and baselines', () => {
    for (const id of ['git-reset-hard', 'git-push-force', 'git-push-delete', 'git-clean-force', 'git-checkout-discard', 'git-restore-discard', 'git-stash-drop', 'git-branch-force-delete', 'git-no-verify', 'git-commit-amend', 'rm-recursive-force', 'rm-recursive', 'rm-force', 'find-delete', 'sql-drop-truncate', 'sql-delete-all', 'kubectl-delete', 'terraform-destroy']) {
      expect(ids()).toContain(id);
    }
    function ids(): string[] {
      return rules.map((r) => r.id);
    }
  });

  it('uses only families that exist in its pack (or `*`)', () => {
    for (const { pack } of packs) {
      for (const r of pack.rules) if (r.family !== '*') expect(Object.keys(pack.families), `${r.id}: family ${r.family}`).toContain(r.family);
    }
  });

  it('names each subcommand its family declares (so its value options are known)', () => {
    for (const { pack } of packs) {
      for (const r of pack.rules) {
        const subs = pack.families[r.family]?.subcommands;
        if (!subs || !r.subcommand) continue;
        for (const s of r.subcommand) expect(Object.keys(subs), `${r.id}: subcommand ${s}`).toContain(s);
      }
    }
  });

  it('gives each command name to one family per pack', () => {
    for (const { rel, pack } of packs) {
      const names = Object.values(pack.families).flatMap((f) => f.names);
      expect(names.filter((x, k) => names.indexOf(x) !== k), rel).toEqual([]);
    }
  });
});

describe('rules/commands/wrappers.json', () => {
  const t = dataTables.find((x) => x.rel === 'rules/commands/wrappers.json');
  const wrappers = ((t?.data as { wrappers?: Record<string, { optionsWithValue: string[]; stopFlags: string[] }> } | undefined)?.wrappers ?? {});

  it('has wrappers', () => {
    expect(Object.keys(wrappers).length).toBeGreaterThan(0);
  });

  it('never lists an option both as taking a value and as a stop flag', () => {
    for (const [name, w] of Object.entries(wrappers)) {
      expect(w.optionsWithValue.filter((o) => w.stopFlags.includes(o)), name).toEqual([]);
    }
  });
});
