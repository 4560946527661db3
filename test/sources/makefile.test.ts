/**
 * Makefile extraction: golden files and targeted cases. Each fixture under
 * test/fixtures/makefiles is read into units, and `<name>.out` records every unit (kind, the
 * host line:column of the first character of each of its lines, and its text) followed by the
 * diagnostics `lint` gives for the file in host coordinates. `UPDATE_GOLDEN=1 npx vitest run
 * test/sources/makefile.test.ts` rewrites them; review the diff by eye.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/core/positions.js';
import { finishFile, Linter } from '../../src/lint.js';
import { extractMakefile, isMakefilePath } from '../../src/sources/makefile.js';

const DIR = join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'test/fixtures/makefiles');
const UPDATE = process.env.UPDATE_GOLDEN === '1';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create();
});

/** Units of `text` rendered one line per unit line: `kind`, then `L:C | text` per line. */
function renderUnits(file: string, text: string): string {
  const idx = new LineIndex(text);
  const r = extractMakefile(file, text);
  const out = [`dialect ${r.dialect}${r.oneShell ? ' oneshell' : ''}`];
  for (const { unit, kind, line } of r.units) {
    out.push(`${kind} (line ${line})`);
    let at = 0;
    for (const l of unit.text.split('\n')) {
      const p = idx.position(unit.sourceMap.toHost(at));
      out.push(`  ${p.line}:${p.column} | ${l}`);
      at += l.length + 1;
    }
  }
  return out.join('\n') + '\n';
}

function renderLint(file: string, text: string): string {
  const { units } = extractMakefile(file, text);
  const diags = finishFile(text, units.flatMap((u) => linter.lintUnit(u.unit)));
  return diags.map((d) => `${d.range.start.line}:${d.range.start.column}-${d.range.end.line}:${d.range.end.column} ${d.severity} ${d.ruleId}: ${d.message}`).join('\n') + '\n';
}

describe('Makefile golden files', () => {
  const inputs = readdirSync(DIR).filter((f) => !f.endsWith('.out')).sort();
  it('has fixtures', () => {
    expect(inputs.length).toBeGreaterThan(3);
  });
  it.each(inputs)('%s', (name) => {
    const text = readFileSync(join(DIR, name), 'utf8');
    const actual = `# units\n${renderUnits(name, text)}# diagnostics\n${renderLint(name, text)}`;
    const golden = join(DIR, `${name}.out`);
    if (UPDATE) writeFileSync(golden, actual);
    expect(existsSync(golden), `${golden} is missing: run with UPDATE_GOLDEN=1 and review it`).toBe(true);
    expect(actual).toBe(readFileSync(golden, 'utf8'));
  });
});

describe('Makefile extraction', () => {
  const units = (text: string) => extractMakefile('Makefile', text).units.map((u) => u.unit.text);

  it('recognises Makefiles by name', () => {
    for (const p of ['Makefile', 'a/makefile', 'b/GNUmakefile', 'rules.mk', 'x/build.make', 'C:\\x\\Makefile']) expect(isMakefilePath(p)).toBe(true);
    for (const p of ['Makefile.am', 'makefile.txt', '.mk', 'mk', 'a/Makefile/x.c', 'notes.md']) expect(isMakefilePath(p)).toBe(false);
  });

  it('strips @, - and + in any order and turns $$ into $', () => {
    expect(units('a:\n\t@-+ echo $$HOME $$$$\n')).toEqual(['echo $HOME $$']);
  });

  it('substitutes literal values, turns other variables into same-length shell parameters and keeps placeholders for the rest', () => {
    expect(units('D := out\nD += more\nX = 1\nX = 2\na:\n\trm -rf $(D) ${X} $X $@ $(patsubst %,%,$(D)) $(a.b)\n')).toEqual([
      'rm -rf out more ${X} $X xx xxxxxxxxxxxxxxxxxxxx xxxxxx',
    ]);
  });

  it('treats a value that contains a reference, a define, or != as not literal', () => {
    expect(units('A = $(B)\nB = b\ndefine C\nc\nendef\nE != echo e\nt:\n\techo $(A) $(B) $(C) $(E)\n')).toEqual([
      'echo e',
      'echo ${A} b ${C} ${E}',
    ]);
  });

  it('keeps recipe continuations for the shell, dropping one recipe prefix per continuation line', () => {
    const r = extractMakefile('Makefile', 'a:\n\techo 1 \\\n\t\techo 2 \\\nno-tab\n');
    expect(r.units.map((u) => u.unit.text)).toEqual(['echo 1 \\\n\techo 2 \\\nno-tab']);
  });

  it('joins continued make lines with one space and reads a continued comment as a comment', () => {
    expect(units('# note \\\n\trm -rf / \\\nstill comment\nV := $(shell echo \\\n   a)\nt:\n\ttrue\n')).toEqual(['echo a', 'true']);
  });

  it('ignores tab lines outside a rule and inside define blocks', () => {
    expect(units('\tnot-a-recipe\ndefine R\nt:\n\trm -rf /\nendef\n')).toEqual([]);
  });

  it('reads conditionals without ending the rule, and includes and assignments end it', () => {
    expect(units('t:\nifdef X\n\techo x\nelse\n\techo y\nendif\ninclude f.mk\n\tnot-recipe\n')).toEqual(['echo x', 'echo y']);
  });

  it('reads an inline recipe after ;', () => {
    expect(units('a b: c ; echo $@ # shell comment\n')).toEqual(['echo xx # shell comment']);
  });

  it('does not read := and ::= as a rule colon', () => {
    expect(units('A := x\nB ::= y\nC :::= z\nt:\n\techo $(A)$(B)$(C)\n')).toEqual(['echo xyz']);
  });

  it('uses .RECIPEPREFIX and SHELL', () => {
    const r = extractMakefile('Makefile', 'SHELL = /usr/bin/env bash\n.RECIPEPREFIX := >\na:\n> echo a\n\techo b\n');
    expect(r.units.map((u) => u.unit.text)).toEqual(['echo a']);
    const bash = extractMakefile('Makefile', 'SHELL := /bin/bash\na:\n\techo a\n');
    expect(bash.dialect).toBe('bash');
    expect(bash.units[0]!.unit.dialect).toBe('bash');
    expect(extractMakefile('Makefile', 'a:\n\techo\n').dialect).toBe('sh');
  });

  it('makes each recipe one unit under .ONESHELL', () => {
    expect(units('.ONESHELL:\na:\n\t@cd x\n\t-rm y\nb:\n\techo b\n')).toEqual(['cd x\nrm y', 'echo b']);
  });

  it('maps a finding on the third continuation line there', () => {
    const text = 'clean:\n\tfor d in a b; do \\\n\t  echo $$d; \\\n\t  rm -rf /; \\\n\tdone\n';
    const { units: us } = extractMakefile('Makefile', text);
    const diags = finishFile(text, us.flatMap((u) => linter.lintUnit(u.unit)));
    const removal = diags.find((d) => d.ruleId === 'path-dangerous-removal');
    expect(removal?.range.start).toEqual({ line: 4, column: 11 }); // the `/` of `rm -rf /`
  });

  it('never throws on odd input', () => {
    for (const t of ['', '\\', 'a:\n\t\\', '$(', 'a: ; $(shell', 'define\n', '\t\n\t\n', 'x = $(\n', 'a:\n\t$$', ':\n\t$']) {
      expect(() => extractMakefile('Makefile', t)).not.toThrow();
    }
  });
});
