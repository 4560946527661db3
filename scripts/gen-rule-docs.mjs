#!/usr/bin/env node
/**
 * Writes the rule reference pages (docs/rules/<id>.md and docs/rules/README.md) and the rule ids of
 * schemas/shellward-config.schema.json (src/docs/config-schema.ts) from the compiled
 * rule metadata, running every example through the linter so the pages show real output.
 * Run through `npm run docs` (which compiles first); pages that no longer belong to a rule are
 * removed. test/meta/rule-docs.test.ts fails when the committed pages differ from what this writes.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULES } from '../dist/src/checks/index.js';
import { exampleLinter, renderRuleDocs, RULE_DOCS_DIR } from '../dist/src/docs/rule-docs.js';
import { Linter } from '../dist/src/lint.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, RULE_DOCS_DIR);

const linter = await Linter.create();
const pages = renderRuleDocs(RULES, exampleLinter(linter));

await mkdir(dir, { recursive: true });
for (const name of await readdir(dir)) {
  if (name.endsWith('.md') && !pages.has(name)) {
    await rm(join(dir, name));
    process.stdout.write(`removed ${RULE_DOCS_DIR}/${name}\n`);
  }
}
for (const [name, text] of pages) await writeFile(join(dir, name), text);
process.stdout.write(`wrote ${pages.size} files to ${RULE_DOCS_DIR}/\n`);

// The rule ids of the config schema (src/docs/config-schema.ts).
const { renderConfigSchema } = await import('../dist/src/docs/config-schema.js');
const schemaFile = join(root, 'schemas/shellward-config.schema.json');
const { readFile } = await import('node:fs/promises');
await writeFile(schemaFile, renderConfigSchema(JSON.parse(await readFile(schemaFile, 'utf8')), RULES));
process.stdout.write(`wrote the rule ids of schemas/shellward-config.schema.json\n`);
