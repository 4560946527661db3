/**
 * A tree-sitter tree flattened into typed arrays in one cursor walk: per node (in preorder, the
 * root at 0) its symbol id, field id, parent, depth, extent, next sibling and subtree end. The
 * parse views (src/parse/nodes.ts) read this record instead of web-tree-sitter `Node` objects:
 * each `Node` property is a call into the parser's wasm memory plus JavaScript glue (a `Node`
 * object per child, the cursor marshalled through a transfer buffer on every step), which cost
 * more than the parse itself.
 *
 * Two ways to fill the table, with the same result:
 * - **direct**: the cursor functions web-tree-sitter's wasm module exports
 *   (`_ts_tree_cursor_goto_first_child_wasm` …) called in a loop, the cursor's state left in the
 *   module's transfer buffer between calls (where every such function reads and writes it), so no
 *   JavaScript glue runs per node. This reads internals of web-tree-sitter 0.25 (the emscripten
 *   module object, which is the options object given to `Parser.init`; a `TreeCursor`'s and a
 *   `Tree`'s handles in their `[0]`…`[3]` slots; the transfer buffer's address returned by
 *   `_ts_init`; see lib/tree-sitter.c of web-tree-sitter,
 *   https://github.com/tree-sitter/tree-sitter/blob/v0.25.10/lib/binding_web/lib/tree-sitter.c).
 *   test/parse/node-table.test.ts fails when those change: then this path must be checked again.
 * - **portable**: the public `TreeCursor` API, used when the module was not captured (the parser
 *   was initialised before this file was loaded) or does not have the expected shape.
 */
import { Parser, type Language, type Node, type Tree, type TreeCursor } from 'web-tree-sitter';

/** The part of web-tree-sitter's emscripten module the direct walk calls (all take the tree's handle). */
interface Binding {
  HEAP32: Int32Array;
  _ts_init(): number;
  _ts_tree_cursor_goto_first_child_wasm(tree: number): number;
  _ts_tree_cursor_goto_next_sibling_wasm(tree: number): number;
  _ts_tree_cursor_goto_parent_wasm(tree: number): number;
  _ts_tree_cursor_current_node_type_id_wasm(tree: number): number;
  _ts_tree_cursor_current_field_id_wasm(tree: number): number;
  _ts_tree_cursor_current_node_is_missing_wasm(tree: number): number;
  _ts_tree_cursor_start_index_wasm(tree: number): number;
  _ts_tree_cursor_end_index_wasm(tree: number): number;
}

const BINDING_FUNCTIONS = [
  '_ts_init', '_ts_tree_cursor_goto_first_child_wasm', '_ts_tree_cursor_goto_next_sibling_wasm', '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_current_node_type_id_wasm', '_ts_tree_cursor_current_field_id_wasm', '_ts_tree_cursor_current_node_is_missing_wasm',
  '_ts_tree_cursor_start_index_wasm', '_ts_tree_cursor_end_index_wasm',
] as const;

let binding: Binding | undefined;
let transferBuffer = 0;

function asBinding(module: unknown): Binding | undefined {
  if (typeof module !== 'object' || module === null) return undefined;
  const m = module as Record<string, unknown>;
  if (!(m.HEAP32 instanceof Int32Array)) return undefined;
  for (const f of BINDING_FUNCTIONS) if (typeof m[f] !== 'function') return undefined;
  return module as Binding;
}

// Capture the emscripten module: web-tree-sitter 0.25 builds it on the options object passed to
// `Parser.init` (emscripten's MODULARIZE factory uses its argument as the module).
{
  const init = Parser.init.bind(Parser);
  Parser.init = async (options?: Parameters<typeof Parser.init>[0]) => {
    const opts = (options ?? {}) as Record<string, unknown>;
    await init(opts as Parameters<typeof Parser.init>[0]);
    const b = asBinding(opts);
    if (b !== undefined && binding === undefined) {
      binding = b;
      // `ts_init` only writes the language version numbers into the buffer and returns its address.
      transferBuffer = b._ts_init();
    }
  };
}

/** Whether tables are filled by the direct walk (see the file comment); false: the portable one. */
export function directWalkAvailable(): boolean {
  return binding !== undefined;
}

/** Flag bit of {@link NodeTable.flags}: the node is MISSING (a token the parser inserted). */
export const FLAG_MISSING = 1;

/**
 * The nodes of a tree in preorder (index 0 is the root). Offsets are UTF-16 code units into the
 * text the tree was parsed from; `-1` means none.
 */
export interface NodeTable {
  /** Number of nodes (named and anonymous). */
  readonly count: number;
  /** Symbol id of each node (`Language.types[id]`; 65535 is ERROR). */
  readonly typeId: Uint16Array;
  /** Field id the node fills in its parent (`Language.fields[id]`), 0 for none. */
  readonly fieldId: Uint16Array;
  readonly parent: Int32Array;
  /** Depth of each node, 0 for the root. */
  readonly depth: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly nextSibling: Int32Array;
  /** One past the last node of each node's subtree: the node has children when this is above its index + 1 (the first child is index + 1). */
  readonly subtreeEnd: Int32Array;
  /** {@link FLAG_MISSING} (read only in a tree with an error). */
  readonly flags: Uint8Array;
}

class Builder {
  count = 0;
  typeId = new Uint16Array(256);
  fieldId = new Uint16Array(256);
  parent = new Int32Array(256);
  depth = new Int32Array(256);
  start = new Int32Array(256);
  end = new Int32Array(256);
  nextSibling = new Int32Array(256);
  subtreeEnd = new Int32Array(256);
  flags = new Uint8Array(256);

  grow(): void {
    const n = this.typeId.length * 2;
    const g = <T extends Uint16Array | Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.typeId = g(this.typeId, (k) => new Uint16Array(k));
    this.fieldId = g(this.fieldId, (k) => new Uint16Array(k));
    this.parent = g(this.parent, (k) => new Int32Array(k));
    this.depth = g(this.depth, (k) => new Int32Array(k));
    this.start = g(this.start, (k) => new Int32Array(k));
    this.end = g(this.end, (k) => new Int32Array(k));
    this.nextSibling = g(this.nextSibling, (k) => new Int32Array(k));
    this.subtreeEnd = g(this.subtreeEnd, (k) => new Int32Array(k));
    this.flags = g(this.flags, (k) => new Uint8Array(k));
  }

  table(): NodeTable {
    const n = this.count;
    return {
      count: n, typeId: this.typeId.subarray(0, n), fieldId: this.fieldId.subarray(0, n), parent: this.parent.subarray(0, n),
      depth: this.depth.subarray(0, n), start: this.start.subarray(0, n), end: this.end.subarray(0, n),
      nextSibling: this.nextSibling.subarray(0, n), subtreeEnd: this.subtreeEnd.subarray(0, n), flags: this.flags.subarray(0, n),
    };
  }
}

/** The cursor moves the walk needs and what it reads of the current node; two implementations below. */
interface Steps {
  typeId(): number;
  fieldId(): number;
  start(): number;
  end(): number;
  missing(): boolean;
  firstChild(): boolean;
  nextSibling(): boolean;
  parent(): boolean;
}

function walkInto(b: Builder, s: Steps, withMissing: boolean): void {
  let depth = 0;
  /** Open ancestors of the current node by depth, and the last node seen at each depth below them. */
  let open = new Int32Array(64);
  let last = new Int32Array(64);
  last[0] = -1;
  for (;;) {
    const i = b.count++;
    if (i === b.typeId.length) b.grow();
    b.typeId[i] = s.typeId();
    b.fieldId[i] = s.fieldId();
    b.start[i] = s.start();
    b.end[i] = s.end();
    b.flags[i] = withMissing && s.missing() ? FLAG_MISSING : 0;
    b.depth[i] = depth;
    b.parent[i] = depth > 0 ? open[depth - 1]! : -1;
    b.nextSibling[i] = -1;
    const prev = last[depth]!;
    if (prev >= 0) b.nextSibling[prev] = i;
    last[depth] = i;
    if (s.firstChild()) {
      if (depth + 1 >= open.length) {
        const o = new Int32Array(open.length * 2);
        o.set(open);
        open = o;
        const l = new Int32Array(last.length * 2);
        l.set(last);
        last = l;
      }
      open[depth] = i;
      depth++;
      last[depth] = -1;
      continue;
    }
    b.subtreeEnd[i] = i + 1;
    while (!s.nextSibling()) {
      if (depth === 0 || !s.parent()) return;
      depth--;
      b.subtreeEnd[open[depth]!] = b.count;
    }
  }
}

/**
 * The node table of `tree` (see {@link NodeTable}). `cursor` must be a fresh cursor of `tree` at
 * its root (`tree.walk()`); it is left at the root, usable, and still owned by the caller.
 * `withMissing`: read each node's MISSING flag (only a tree with an error has MISSING nodes).
 * `portable`: use the public cursor API even when the direct walk is available (for tests).
 */
export function buildNodeTable(tree: Tree, cursor: TreeCursor, withMissing: boolean, portable = false): NodeTable {
  const b = new Builder();
  const m = portable ? undefined : binding;
  if (m === undefined) {
    walkInto(b, {
      typeId: () => cursor.nodeTypeId,
      fieldId: () => cursor.currentFieldId,
      start: () => cursor.startIndex,
      end: () => cursor.endIndex,
      missing: () => cursor.nodeIsMissing,
      firstChild: () => cursor.gotoFirstChild(),
      nextSibling: () => cursor.gotoNextSibling(),
      parent: () => cursor.gotoParent(),
    }, withMissing);
    return b.table();
  }
  const handles = cursor as unknown as Record<0 | 1 | 2 | 3, number>;
  const tp = (tree as unknown as Record<0, number>)[0];
  const at = transferBuffer >> 2;
  const heap = m.HEAP32;
  heap[at] = handles[0];
  heap[at + 1] = handles[1];
  heap[at + 2] = handles[2];
  heap[at + 3] = handles[3];
  try {
    walkInto(b, {
      typeId: () => m._ts_tree_cursor_current_node_type_id_wasm(tp),
      fieldId: () => m._ts_tree_cursor_current_field_id_wasm(tp),
      start: () => m._ts_tree_cursor_start_index_wasm(tp),
      end: () => m._ts_tree_cursor_end_index_wasm(tp),
      missing: () => m._ts_tree_cursor_current_node_is_missing_wasm(tp) === 1,
      firstChild: () => m._ts_tree_cursor_goto_first_child_wasm(tp) === 1,
      nextSibling: () => m._ts_tree_cursor_goto_next_sibling_wasm(tp) === 1,
      parent: () => m._ts_tree_cursor_goto_parent_wasm(tp) === 1,
    }, withMissing);
  } finally {
    // The cursor's stack may have moved (grown): hand its state back to the JS cursor. The memory
    // view is read again, as the wasm memory may have grown during the walk.
    const h = m.HEAP32;
    handles[0] = h[at]!;
    handles[1] = h[at + 1]!;
    handles[2] = h[at + 2]!;
    handles[3] = h[at + 3]!;
  }
  return b.table();
}

/**
 * Reading a {@link NodeTable} with names: node types and field names as the language spells
 * them (the same strings as `Node.type` and `TreeCursor.currentFieldName`), children by
 * first-child / next-sibling, and a `Node` on demand for code that still takes one.
 */
export class TableView {
  /** Type name per symbol id (`ERROR` for the error symbol), filled on first use. */
  private readonly names: string[] = [];
  private readonly namedById: boolean[] = [];

  /**
   * `table` was built from a tree of `language` with `cursor` ({@link buildNodeTable}); the
   * cursor serves {@link nodeAt} and stays owned by the caller.
   */
  constructor(
    readonly table: NodeTable,
    private readonly language: Language,
    private readonly cursor: TreeCursor,
  ) {}

  /** The node type of node `i` (`Node.type`). */
  type(i: number): string {
    const id = this.table.typeId[i]!;
    let name = this.names[id];
    if (name === undefined) {
      name = this.language.types[id] || 'ERROR';
      this.names[id] = name;
    }
    return name;
  }

  /** Whether node `i` is named (`Node.isNamed`: a property of its symbol). */
  named(i: number): boolean {
    const id = this.table.typeId[i]!;
    let named = this.namedById[id];
    if (named === undefined) {
      named = id === 65535 || this.language.nodeTypeIsNamed(id);
      this.namedById[id] = named;
    }
    return named;
  }

  /** The field name node `i` fills in its parent, or `null` (`TreeCursor.currentFieldName`). */
  field(i: number): string | null {
    const id = this.table.fieldId[i]!;
    return id === 0 ? null : (this.language.fields[id] ?? null);
  }

  /** The first child of node `i`, or -1. */
  firstChild(i: number): number {
    return this.table.subtreeEnd[i]! > i + 1 ? i + 1 : -1;
  }

  /** The next sibling of node `i`, or -1. */
  next(i: number): number {
    return this.table.nextSibling[i]!;
  }

  /** The first child of node `i` with the field `name` (`Node.childForFieldName`), or -1. */
  childForField(i: number, name: string): number {
    const id = this.fieldIdOf(name);
    if (id <= 0) return -1;
    const fieldId = this.table.fieldId;
    for (let c = this.firstChild(i); c !== -1; c = this.table.nextSibling[c]!) if (fieldId[c] === id) return c;
    return -1;
  }

  /** The children of node `i` with the field `name`, in order (`Node.childrenForFieldName`). */
  childrenForField(i: number, name: string): number[] {
    const id = this.fieldIdOf(name);
    const out: number[] = [];
    if (id <= 0) return out;
    const fieldId = this.table.fieldId;
    for (let c = this.firstChild(i); c !== -1; c = this.table.nextSibling[c]!) if (fieldId[c] === id) out.push(c);
    return out;
  }

  /** The first named child of node `i`, or -1. */
  firstNamedChild(i: number): number {
    for (let c = this.firstChild(i); c !== -1; c = this.table.nextSibling[c]!) if (this.named(c)) return c;
    return -1;
  }

  private readonly fieldIds = new Map<string, number>();

  private fieldIdOf(name: string): number {
    let id = this.fieldIds.get(name);
    if (id === undefined) {
      id = this.language.fields.indexOf(name);
      this.fieldIds.set(name, id);
    }
    return id;
  }

  /** The web-tree-sitter `Node` of node `i` (moves the cursor: costs a descent from where it is). */
  nodeAt(i: number): Node {
    this.cursor.gotoDescendant(i);
    return this.cursor.currentNode;
  }
}
