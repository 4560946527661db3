/**
 * The command whose exit status is the status of a whole unit: the last element of the last
 * top-level statement, looking through lists (`a && b`, `a; b`), pipelines (`a | b`) and
 * redirections (`a | b > out`). Used by the exit-code analysis (claude-code-reference.md §3.6), which
 * mirrors Claude Code's heuristic of interpreting the last subcommand.
 */
import type { Node, Tree } from 'web-tree-sitter';
import { toWord, type Word } from './words.js';

/** What the status-deciding element of a unit is. */
export type LastCommand =
  /** A simple command; `name` is its command-name word (`undefined` for assignments or redirections only). */
  | { readonly kind: 'command'; readonly name: Word | undefined }
  /** A test command written `[ … ]` or `[[ … ]]` (tree-sitter parses both as `test_command`). */
  | { readonly kind: 'test'; readonly bracket: '[' | '[[' }
  /**
   * Anything whose status is not one command's: a negation (`! grep x`), a subshell, a compound
   * command (`if`, `for`, `{ …; }`), a function definition, a syntax error. `type` is the
   * tree-sitter node type.
   */
  | { readonly kind: 'other'; readonly type: string }
  /** No statement at all (empty text or comments only). */
  | { readonly kind: 'empty' };

/** Upper bound on descent steps; each step goes one level down, so trees deeper than this are `other`. */
const MAX_STEPS = 10_000;

function lastNamedChild(node: Node): Node | undefined {
  for (let i = node.namedChildCount - 1; i >= 0; i--) {
    const c = node.namedChild(i);
    if (c && c.type !== 'comment') return c;
  }
  return undefined;
}

/**
 * The {@link LastCommand} of a parsed unit. Pure and iterative (no recursion); at most
 * 10 000 steps down the tree. Does not delete the tree.
 */
export function lastCommandOf(tree: Tree): LastCommand {
  let node = lastNamedChild(tree.rootNode);
  if (!node) return { kind: 'empty' };
  for (let step = 0; step < MAX_STEPS; step++) {
    switch (node.type) {
      case 'list':
      case 'pipeline': {
        const next = lastNamedChild(node);
        if (!next) return { kind: 'other', type: node.type };
        node = next;
        continue;
      }
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        if (!body) return { kind: 'command', name: undefined };
        node = body;
        continue;
      }
      case 'command': {
        const name = node.childForFieldName('name');
        const inner = name?.namedChild(0) ?? name;
        return { kind: 'command', name: inner ? toWord(inner) : undefined };
      }
      case 'test_command': {
        const open = node.child(0);
        return { kind: 'test', bracket: open?.type === '[[' ? '[[' : '[' };
      }
      default:
        return { kind: 'other', type: node.type };
    }
  }
  return { kind: 'other', type: node.type };
}
