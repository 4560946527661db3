/**
 * The committed reference pages (docs/rules/) must equal what `npm run docs` would write now:
 * one page per rule plus the index, examples rendered with the linter's real output
 * (architecture.md §9.4 item 3). Regenerates in memory from the sources; a stale, missing or orphaned
 * page fails with the fix: run `npm run docs`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RuleMeta } from '../../src/checks/define.js';
import { RULES } from '../../src/checks/index.js';
import type { Diagnostic } from '../../src/core/types.js';
import { exampleLinter, renderIndex, renderRuleDocs, renderRulePage, RULE_DOCS_DIR, RULE_DOCS_INDEX, rulePageName } from '../../src/docs/rule-docs.js';
import { Linter } from '../../src/lint.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const DIR = join(ROOT, RULE_DOCS_DIR);
const HINT = 'run `npm run docs` and commit docs/rules/';

let pages: Map<string, string>;

beforeAll(async () => {
  pages = renderRuleDocs(RULES, exampleLinter(await Linter.create()));
});

describe('rendering', () => {
  const meta: RuleMeta = {
    id: 'demo-rule',
    code: 'D399',
    title: 'Demo | rule',
    category: 'destructive',
    severity: { agent: 'error', script: 'off' },
    docs: { rationale: 'Why.', fix: 'Fix.', exceptions: 'Except ```this```.' },
    sources: ['shellcheck:SC2115'],
    examples: { invalid: ['rm -rf x'], valid: ['echo ```'] },
    claudeCode: { id: 7, name: 'validateDemo', misparsing: true, order: 3 },
  };
  const finding: Diagnostic = {
    ruleId: 'demo-rule',
    severity: 'error',
    message: 'Bad.',
    file: 'example.sh',
    range: { start: { line: 1, column: 4 }, end: { line: 1, column: 7 } },
    fingerprint: 'x:1',
  };
  const page = renderRulePage(meta, (src) => (src === 'rm -rf x' ? [finding] : []));

  it('shows every metadata field and the output of each example', () => {
    for (const s of ['`validateDemo` (check id 7), position 3', 'misparsing ask', '# demo-rule', '**Demo | rule**', '`D399`', 'destructive', '| error |', '| off |', '`shellcheck:SC2115`', 'Why.', 'Fix.', 'Except']) {
      expect(page).toContain(s);
    }
    expect(page).toContain('```text\nexample.sh:1:4: error: Bad. [demo-rule]\n```');
    expect(page).toContain('```text\n(no findings)\n```');
  });

  it('fences examples that contain backticks with a longer fence', () => {
    expect(page).toContain('````sh\necho ```\n````');
  });

  it('shows invisible and control characters of an example as escapes', () => {
    const p = renderRulePage({ ...meta, examples: { invalid: ['echo\u00a0x\u0001\r\n\tok \ud800'], valid: [] } }, () => []);
    expect(p).toContain('```sh\necho\\u{00A0}x\\u{0001}\\u{000D}\n\tok \\u{D800}\n```');
    expect(p).toContain('shown as `\\u{…}` escapes');
    expect(page).not.toContain('shown as `\\u{…}` escapes');
  });

  it('links every rule from the index', () => {
    const index = renderIndex([meta]);
    expect(index).toContain('[demo-rule](demo-rule.md)');
    expect(index).toContain('Demo \\| rule');
  });
});

describe(`committed pages in ${RULE_DOCS_DIR}/`, () => {
  it('has one page per rule and the index', () => {
    expect(pages.size).toBe(RULES.length + 1);
    expect([...pages.keys()]).toContain(RULE_DOCS_INDEX);
    for (const r of RULES) expect([...pages.keys()]).toContain(rulePageName(r.id));
  });

  it('has no page for a rule that does not exist', () => {
    const committed = existsSync(DIR) ? readdirSync(DIR).filter((f) => f.endsWith('.md')) : [];
    expect(committed.filter((f) => !pages.has(f)), `orphaned pages: ${HINT}`).toEqual([]);
  });

  it.each([RULE_DOCS_INDEX, ...RULES.map((r) => rulePageName(r.id))])('%s is up to date', (name) => {
    const path = join(DIR, name);
    expect(existsSync(path), `${RULE_DOCS_DIR}/${name} is missing: ${HINT}`).toBe(true);
    const committed = readFileSync(path, 'utf8');
    expect(committed, `${RULE_DOCS_DIR}/${name} is stale: ${HINT}`).toBe(pages.get(name));
  });
});
