import { describe, expect, it } from 'vitest';
import type { Node, Tree } from 'web-tree-sitter';
import { buildNodeTable, directWalkAvailable, FLAG_MISSING, TableView, type NodeTable } from '../../src/parse/node-table.js';
import { initParser } from '../../src/parse/parser.js';

const SAMPLES = [
  '# c\necho a; echo b &\nf() { rm -r x; }\nx=$(date) && (cd / && ls) | wc -l\n',
  "A=1 B='x y' cmd arg 2>/dev/null >out <<'EOF'\nbody $x\nEOF\n",
  'for i in a "b $c" `d`; do echo "${i:-x}" $((i+1)); done; case $x in a|b) y=1;; *) :;; esac\n',
  'if [[ -n $a && $b =~ ^x ]]; then echo "é😀 $a"; fi\ncat <<X | sh\n$(id)\nX\n',
  'echo $(( 1 + \nif then fi\n',
  'echo "unterminated\n',
  'a\0b $x\n',
  `${'( '.repeat(300)}true${' )'.repeat(300)}\n`,
  'declare -x P=1 Q; local a=b`c`d; x=a`b`c cmd; eval "$(foo)"\n',
];

/** The table read with the public `Node` API, for comparison. */
function fromNodes(tree: Tree): { type: string; named: boolean; start: number; end: number; missing: boolean; children: number; field: (string | null)[] }[] {
  const out: { type: string; named: boolean; start: number; end: number; missing: boolean; children: number; field: (string | null)[] }[] = [];
  const stack: Node[] = [tree.rootNode];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const children = n.children.filter((c): c is Node => c !== null);
    out.push({ type: n.type, named: n.isNamed, start: n.startIndex, end: n.endIndex, missing: n.isMissing, children: children.length, field: children.map((_c, k) => n.fieldNameForChild(k)) });
    for (let k = children.length - 1; k >= 0; k--) stack.push(children[k]!);
  }
  return out;
}

function childrenOf(v: TableView, i: number): number[] {
  const out: number[] = [];
  for (let c = v.firstChild(i); c !== -1; c = v.next(c)) out.push(c);
  return out;
}

describe('node table', () => {
  it('is filled by the direct walk over web-tree-sitter internals (a failure here means web-tree-sitter changed: check src/parse/node-table.ts)', async () => {
    await initParser();
    expect(directWalkAvailable()).toBe(true);
  });

  it('holds the same nodes as the public cursor walk and the Node API, and leaves the cursor usable', async () => {
    const parser = await initParser();
    for (const text of SAMPLES) {
      const tree = parser.parse(text.replaceAll('\0', '\uFFFD'))!;
      const cursor = tree.walk();
      const direct = buildNodeTable(tree, cursor, true);
      const other = tree.walk();
      const portable = buildNodeTable(tree, other, true, true);
      other.delete();
      const fields: (keyof NodeTable)[] = ['typeId', 'fieldId', 'parent', 'depth', 'start', 'end', 'nextSibling', 'subtreeEnd', 'flags'];
      expect(direct.count).toBe(portable.count);
      for (const f of fields) expect(Array.from(direct[f] as ArrayLike<number>), `${f} of ${JSON.stringify(text.slice(0, 30))}`).toEqual(Array.from(portable[f] as ArrayLike<number>));

      const v = new TableView(direct, tree.language, cursor);
      const nodes = fromNodes(tree);
      expect(direct.count).toBe(nodes.length);
      for (let i = 0; i < direct.count; i++) {
        const n = nodes[i]!;
        const kids = childrenOf(v, i);
        expect({ type: v.type(i), named: v.named(i), start: direct.start[i], end: direct.end[i], missing: (direct.flags[i]! & FLAG_MISSING) !== 0, children: kids.length }).toEqual({ type: n.type, named: n.named, start: n.start, end: n.end, missing: n.missing, children: n.children });
        // Field names of the children as the Node API gives them (extras such as comments have none).
        expect(kids.map((c) => (v.type(c) === 'comment' ? null : v.field(c)))).toEqual(n.field);
      }
      // The cursor went back to its JS object: it still moves and reads.
      const last = direct.count - 1;
      expect(v.nodeAt(last).type).toBe(v.type(last));
      expect(v.nodeAt(0).type).toBe('program');
      cursor.delete();
      tree.delete();
    }
  });

  it('answers field look-ups like Node.childForFieldName', async () => {
    const parser = await initParser();
    const tree = parser.parse('for x in a b; do y=1 cmd; done\n')!;
    const cursor = tree.walk();
    const v = new TableView(buildNodeTable(tree, cursor, false), tree.language, cursor);
    const loop = 1;
    expect(v.type(loop)).toBe('for_statement');
    const variable = v.childForField(loop, 'variable');
    expect(variable).not.toBe(-1);
    expect(v.type(variable)).toBe('variable_name');
    expect(v.childrenForField(loop, 'value').map((c) => v.table.start[c])).toEqual([9, 11]);
    expect(v.childForField(loop, 'no-such-field')).toBe(-1);
    cursor.delete();
    tree.delete();
  });
});
