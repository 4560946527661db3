/**
 * A fake machine for the glob batteries: directories with their entries and symbolic links, as a
 * {@link PathHost} (`realpath`, `readlink`, `list`) whose answers follow the kernel's rules
 * (links followed component by component, relative targets from the link's directory).
 */
import { posix } from 'node:path';
import type { PathHost } from '../../src/analyses/paths.js';

/** The fake file system: directory → entries; link path → target text. */
export interface FakeTree {
  readonly dirs: Readonly<Record<string, readonly string[]>>;
  readonly links: Readonly<Record<string, string>>;
  /** Directories whose listing fails (unreadable, or over the cap). */
  readonly unlistable?: readonly string[];
  /** The text of regular files (read with `readFile`). */
  readonly files?: Readonly<Record<string, string>>;
}

/** A path host over `tree` with home `home`. */
export function fakeHost(tree: FakeTree, home = '/home/u'): PathHost {
  const exists = (p: string): boolean => p === '/' || Object.hasOwn(tree.dirs, p) || (tree.dirs[posix.dirname(p)]?.includes(posix.basename(p)) ?? false);
  const realpath = (p: string, hops = 0): string | undefined => {
    if (hops > 40) return undefined;
    let cur = '/';
    const parts = p.split('/').filter((x) => x !== '' && x !== '.');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part === '..') {
        cur = posix.dirname(cur);
        continue;
      }
      const next = posix.join(cur, part);
      if (!exists(next)) return undefined;
      const link = tree.links[next];
      if (link !== undefined) {
        const target = realpath(link.startsWith('/') ? link : posix.join(cur, link), hops + 1);
        if (target === undefined) return undefined;
        cur = target;
      } else cur = next;
    }
    return cur;
  };
  return {
    home,
    realpath: (p) => realpath(p),
    readlink: (p) => tree.links[p],
    list: (dir) => (tree.unlistable?.includes(dir) ? undefined : tree.dirs[dir]),
    readFile: (p) => tree.files?.[p],
  };
}
