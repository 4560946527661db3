/** Which commands of the model run in the background (`places` holds `background`): nested and repeated jobs. */
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/model/build.js';
import { buildViews } from '../../src/parse/nodes.js';
import { initParser, parseBash } from '../../src/parse/parser.js';

const parser = await initParser();

/** The text of each command of `text` that the model places in the background. */
function inBackground(text: string): string[] {
  const tree = parseBash(parser, text)!;
  try {
    const m = buildModel(buildViews(tree, text), { cwd: '/w', home: '/h' });
    return m.commands.filter((c) => c.places.includes('background')).map((c) => text.slice(c.cmd.span.start, c.cmd.span.end));
  } finally {
    tree.delete();
  }
}

describe('background places', () => {
  it('marks the commands inside a background job, nested or not, and no other', () => {
    expect(inBackground('a & b; { c & d; } & e')).toEqual(['a', 'c', 'd']);
    expect(inBackground('x; (y; z) & w')).toEqual(['y', 'z']);
    expect(inBackground('p | q &\nr')).toEqual(['p', 'q']);
    expect(inBackground('f() { g & }; h')).toEqual(['g']);
  });

  it('marks every one of many jobs', () => {
    const text = 'sleep 1 &\necho x\n'.repeat(1_000);
    const found = inBackground(text);
    expect(found).toHaveLength(1_000);
    expect(new Set(found)).toEqual(new Set(['sleep 1']));
  });
});
