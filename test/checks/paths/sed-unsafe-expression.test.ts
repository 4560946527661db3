/**
 * sed-unsafe-expression: run directly on parsed views (the check is pure), so the test does not
 * depend on the rest of the pipeline.
 */
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../src/checks/define.js';
import check from '../../../src/checks/paths/sed-unsafe-expression.js';
import type { Finding } from '../../../src/core/types.js';
import { buildViews } from '../../../src/parse/nodes.js';
import { initParser, parseBash } from '../../../src/parse/parser.js';

async function run(text: string): Promise<Finding[]> {
  const parser = await initParser();
  const tree = parseBash(parser, text);
  if (!tree) throw new Error('parse timed out');
  const parsed = (() => {
    try {
      return buildViews(tree, text);
    } finally {
      tree.delete();
    }
  })();
  const found: Finding[] = [];
  check.run({ parsed, report: (f: Finding) => found.push(f) } as unknown as CheckContext);
  return found;
}

describe('sed-unsafe-expression', () => {
  it.each([
    ["sed 's/a/b/w out' f", "`sed` expression `s/a/b/w out` writes to the file `out`.", "'s/a/b/w out'"],
    ["sed 'e ls'", '`sed` expression `e ls` runs the shell command `ls` (`e`).', "'e ls'"],
    ["sed 's/x/date/e'", '`sed` expression `s/x/date/e` runs a shell command (`e`).', "'s/x/date/e'"],
    ["sudo env LC_ALL=C gsed -n '/x/w log' f", '`gsed` expression `/x/w log` writes to the file `log`.', "'/x/w log'"],
    ["echo $(sed -e '1w /tmp/x' f)", '`sed` expression `1w /tmp/x` writes to the file `/tmp/x`.', "'1w /tmp/x'"],
  ])('%s', async (text, message, at) => {
    const fs = await run(text);
    expect(fs.map((f) => f.message)).toEqual([message]);
    expect(text.slice(fs[0]!.span.start, fs[0]!.span.end)).toBe(at);
    expect(fs[0]!.ruleId).toBe('sed-unsafe-expression');
  });

  it('reports each hazard', async () => {
    expect((await run("sed -e 'w a' -e 's/x/y/ew b'")).map((f) => f.data)).toEqual([
      { kind: 'write', detail: 'a' },
      { kind: 'execute', detail: '' },
      { kind: 'write', detail: 'b' },
    ]);
  });

  it.each(["sed -n 1,10p f", "sed 's/a/b/g' f", "sed -i 's/x/y/' f", "echo 's/a/b/w out'", "awk '{print > \"out\"}'", "sed --sandbox 'e ls'"])(
    'is silent on %s',
    async (text) => {
      expect(await run(text)).toEqual([]);
    },
  );
});
