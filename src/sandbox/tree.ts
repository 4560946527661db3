/**
 * The working-directory copy a sandboxed command writes to, and what it changed: copy a directory
 * tree, snapshot it (type, mode, modification time, SHA-256 of file contents, symlink targets) and
 * diff two snapshots into files created, changed and deleted.
 *
 * Size limits: a directory is copied only when it has at most {@link TreeLimits.maxEntries}
 * entries and {@link TreeLimits.maxBytes} bytes of regular-file content (defaults 20 000 and
 * 256 MiB, {@link DEFAULT_TREE_LIMITS}); a larger one is refused with {@link TreeTooLargeError}
 * before anything is copied (point `--cwd` at a smaller directory). Nothing is skipped silently:
 * sockets, FIFOs and device files are not copied and are listed in `skipped`.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, copyFile, lstat, mkdir, readdir, readlink, rename, rm, symlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';

/** Bounds on the size of a directory tree that is copied or snapshotted. */
export interface TreeLimits {
  /** Maximum number of entries (files, directories, symlinks, others), the root excluded. */
  readonly maxEntries: number;
  /** Maximum total size of regular files, in bytes. */
  readonly maxBytes: number;
}

/** Default {@link TreeLimits}: 20 000 entries, 256 MiB. */
export const DEFAULT_TREE_LIMITS: TreeLimits = { maxEntries: 20_000, maxBytes: 256 * 1024 * 1024 };

/** Thrown when a directory exceeds the {@link TreeLimits}; `message` names the limit and the directory. */
export class TreeTooLargeError extends Error {
  override readonly name = 'TreeTooLargeError';
}

/** Kind of a directory entry. `other`: socket, FIFO, device. */
export type EntryType = 'file' | 'dir' | 'symlink' | 'other';

/** One entry of a {@link TreeSnapshot}. */
export interface EntryState {
  readonly type: EntryType;
  /** Permission bits (`mode & 0o7777`). */
  readonly mode: number;
  /** Modification time in milliseconds since the epoch (files only; `0` otherwise). */
  readonly mtimeMs: number;
  /** `sha256:<hex>` of a file's contents, `unreadable:<errno code>`, or `too-large:<bytes>` past the byte limit; `undefined` for non-files. */
  readonly hash?: string;
  /** A symlink's target as stored. */
  readonly target?: string;
}

/** A directory tree's state: relative POSIX path → entry, plus whether the walk stopped at a limit. */
export interface TreeSnapshot {
  readonly entries: ReadonlyMap<string, EntryState>;
  /** True when the tree exceeded the limits and the snapshot is partial. */
  readonly truncated: boolean;
  /**
   * The directories whose every entry is in `entries` (`''` is the root); all of them when not
   * truncated. An entry missing from a directory not listed here is unknown, not deleted.
   */
  readonly listed: ReadonlySet<string>;
}

/** What changed about an entry that exists before and after. */
export type ChangeAspect = 'type' | 'content' | 'mode' | 'mtime' | 'target';

/** One file written by a command. `path` is relative to the working directory, `/`-separated. */
export interface FileChange {
  readonly path: string;
  readonly change: 'created' | 'changed' | 'deleted';
  /** The entry's type after the change (before it, for `deleted`). */
  readonly type: EntryType;
  /** For `changed`: what differs, in the order `type`, `content`, `target`, `mode`, `mtime`. */
  readonly aspects?: readonly ChangeAspect[];
}

function typeOf(st: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryType {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'dir';
  return 'other';
}

async function hashFile(path: string): Promise<string> {
  try {
    const h = createHash('sha256');
    for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
    return `sha256:${h.digest('hex')}`;
  } catch (err) {
    return `unreadable:${(err as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

interface Walked {
  readonly rel: string;
  readonly type: EntryType;
  readonly mode: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly atimeMs: number;
}

/** Relative paths longer than this (UTF-16 code units) are not walked: well under Linux's PATH_MAX of 4096 bytes. */
const MAX_RELATIVE_PATH = 3000;

/**
 * Walks `root` breadth-first in sorted order with `lstat` (symlinks are not followed), stopping
 * once the limits are exceeded or a path grows past {@link MAX_RELATIVE_PATH} (a command can make
 * a chain of directories deeper than the system lets a path name). Returns the entries (root
 * excluded), the directories listed completely (`''` is the root), and why it stopped early.
 */
async function walk(root: string, limits: TreeLimits): Promise<{ entries: Walked[]; listed: Set<string>; exceeded: string | undefined }> {
  const entries: Walked[] = [];
  const listed = new Set<string>();
  let bytes = 0;
  const queue: string[] = [''];
  for (let qi = 0; qi < queue.length; qi++) {
    const dir = queue[qi]!;
    let names: string[];
    try {
      names = (await readdir(join(root, dir))).sort();
    } catch (err) {
      // A directory the command made unreadable (`chmod 000`) or removed while walked: the walk is partial.
      if (dir === '') throw err;
      return { entries, listed, exceeded: `the directory ${dir} could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    for (const name of names) {
      const rel = dir === '' ? name : `${dir}/${name}`;
      if (rel.length > MAX_RELATIVE_PATH) return { entries, listed, exceeded: `a path longer than ${MAX_RELATIVE_PATH} characters` };
      const st = await lstat(join(root, rel));
      const type = typeOf(st);
      entries.push({ rel, type, mode: st.mode & 0o7777, size: st.size, mtimeMs: st.mtimeMs, atimeMs: st.atimeMs });
      if (type === 'file') bytes += st.size;
      if (entries.length > limits.maxEntries) return { entries, listed, exceeded: `more than ${limits.maxEntries} entries` };
      if (bytes > limits.maxBytes) return { entries, listed, exceeded: `more than ${limits.maxBytes} bytes of files` };
      if (type === 'dir') queue.push(rel);
    }
    listed.add(dir);
  }
  return { entries, listed, exceeded: undefined };
}

/**
 * Why the tree under `root` is over `limits` (entries, bytes of files, a path too long or a
 * directory that cannot be read), or `undefined` when it is within them. Reads metadata only
 * (`readdir`, `lstat`), stopping at the first limit. Throws when `root` cannot be read.
 */
export async function treeLimitExceeded(root: string, limits: TreeLimits): Promise<string | undefined> {
  return (await walk(root, limits)).exceeded;
}

/**
 * Snapshots the tree under `root` (which must be a directory). Reads every regular file to hash
 * it. When the tree exceeds `limits`, returns the entries seen so far with `truncated: true`
 * (used after a run, when a command may have created many files). Throws on I/O errors of the
 * walk itself (e.g. `root` missing).
 */
export async function snapshotTree(root: string, limits: TreeLimits = DEFAULT_TREE_LIMITS): Promise<TreeSnapshot> {
  const { entries, listed, exceeded } = await walk(root, limits);
  const out = new Map<string, EntryState>();
  for (const e of entries) {
    const path = join(root, e.rel);
    if (e.type === 'file') {
      // A file over the byte limit by itself (only possible in a truncated walk) is not read.
      const hash = e.size > limits.maxBytes ? `too-large:${e.size}` : await hashFile(path);
      out.set(e.rel, { type: e.type, mode: e.mode, mtimeMs: e.mtimeMs, hash });
    }
    else if (e.type === 'symlink') out.set(e.rel, { type: e.type, mode: 0, mtimeMs: 0, target: await readlink(path) });
    else out.set(e.rel, { type: e.type, mode: e.mode, mtimeMs: 0 });
  }
  return { entries: out, truncated: exceeded !== undefined, listed };
}

/**
 * Copies the tree under `src` into `dest` (created; must not exist): directories, regular files
 * (contents, permission bits, modification times) and symlinks (target copied verbatim, never
 * followed). Sockets, FIFOs and devices are not copied; their relative paths are returned in
 * `skipped`. Throws {@link TreeTooLargeError} before copying anything when `src` exceeds `limits`.
 */
export async function copyTree(src: string, dest: string, limits: TreeLimits = DEFAULT_TREE_LIMITS): Promise<{ skipped: string[] }> {
  const { entries, exceeded } = await walk(src, limits);
  if (exceeded !== undefined) {
    throw new TreeTooLargeError(
      `the working directory ${src} is too large to copy into the sandbox (${exceeded}; limits: ${limits.maxEntries} entries, ${limits.maxBytes} bytes); run in a smaller directory`,
    );
  }
  const skipped: string[] = [];
  const rootMode = (await lstat(src)).mode & 0o7777;
  await mkdir(dest, { mode: 0o700 });
  const dirs: Walked[] = [];
  for (const e of entries) {
    const from = join(src, e.rel);
    const to = join(dest, e.rel);
    if (e.type === 'dir') {
      await mkdir(to, { mode: 0o700 });
      dirs.push(e);
    } else if (e.type === 'file') {
      await copyFile(from, to);
      await chmod(to, e.mode);
      await utimes(to, e.atimeMs / 1000, e.mtimeMs / 1000);
    } else if (e.type === 'symlink') {
      await symlink(await readlink(from), to);
    } else {
      skipped.push(e.rel);
    }
  }
  // Directory modes last (a read-only directory must be filled first), deepest first.
  for (const d of dirs.reverse()) await chmod(join(dest, d.rel), d.mode);
  await chmod(dest, rootMode);
  return { skipped };
}

/**
 * Removes a tree made by {@link copyTree} or written by a sandboxed command, first making every
 * directory writable and searchable (a command may have removed those permissions). A directory
 * whose path grows past {@link MAX_RELATIVE_PATH} is first renamed to a short name directly under
 * `root`, so a chain of directories deeper than PATH_MAX is removed too. Best effort for the
 * permission fix; throws only when the final removal fails.
 */
export async function removeTree(root: string): Promise<void> {
  const queue = [root];
  let moved = 0;
  for (let i = 0; i < queue.length; i++) {
    let dir = queue[i]!;
    try {
      if (dir.length - root.length > MAX_RELATIVE_PATH) {
        const to = join(root, `.shellward-deep-${moved++}`);
        await rename(dir, to);
        dir = to;
      }
      await chmod(dir, 0o700);
      for (const e of await readdir(dir, { withFileTypes: true })) if (e.isDirectory()) queue.push(join(dir, e.name));
    } catch {
      // unreadable or vanished: rm below reports what matters.
    }
  }
  await rm(root, { recursive: true, force: true });
}

/**
 * The changes from `before` to `after`, sorted by path (UTF-16 order). An entry present only
 * after is `created`, only before `deleted` (when `after` is truncated, only in a directory it
 * listed completely: an entry the walk never reached is not reported); present in both, `changed` when its type, content
 * hash, symlink target, permission bits, or (for files) modification time differ. Directory
 * modification times are ignored: they change whenever an entry is added or removed, which is
 * reported for the entry itself. Pure.
 */
export function diffSnapshots(before: TreeSnapshot, after: TreeSnapshot): FileChange[] {
  const out: FileChange[] = [];
  for (const [path, a] of after.entries) {
    const b = before.entries.get(path);
    if (!b) {
      out.push({ path, change: 'created', type: a.type });
      continue;
    }
    const aspects: ChangeAspect[] = [];
    if (a.type !== b.type) aspects.push('type');
    else {
      if (a.hash !== b.hash) aspects.push('content');
      if (a.target !== b.target) aspects.push('target');
      if (a.mode !== b.mode) aspects.push('mode');
      if (a.type === 'file' && a.mtimeMs !== b.mtimeMs) aspects.push('mtime');
    }
    if (aspects.length > 0) out.push({ path, change: 'changed', type: a.type, aspects });
  }
  for (const [path, b] of before.entries) {
    if (after.entries.has(path)) continue;
    // Past a limit the after-walk stopped early: an entry it never reached is not known to be gone.
    const slash = path.lastIndexOf('/');
    if (after.truncated && !after.listed.has(slash === -1 ? '' : path.slice(0, slash))) continue;
    out.push({ path, change: 'deleted', type: b.type });
  }
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}
