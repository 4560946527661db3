/**
 * The paths a git index file lists (the files the repository tracks in its work tree), read from
 * the index's bytes as git's index format documents it
 * (https://git-scm.com/docs/index-format): a `DIRC` header with version 2, 3 or 4 and an entry
 * count, then the entries — 62 bytes of stat data, object id and flags (SHA-1; 2 more flag bytes
 * when the extended flag is set), then the path: NUL-terminated and padded with NULs to a
 * multiple of 8 bytes in versions 2 and 3, prefix-compressed (an offset-encoded integer of bytes
 * to drop from the previous path, then the NUL-terminated rest) in version 4. Extensions and the
 * trailing checksum are not read. Pure; never throws.
 */

/** Most entries read; an index with more is not read (its paths are not known). */
export const MAX_INDEX_ENTRIES = 500_000;

/** Fixed part of an entry with a SHA-1 object id: ctime, mtime, dev, ino, mode, uid, gid, size (4 bytes each but the times 8), the id, the flags. */
const FIXED = 62;

/**
 * The paths listed by the index whose bytes are `bytes` (UTF-8 decoded, in index order), or
 * `undefined` when the bytes are not an index this reader knows (no `DIRC` header, a version
 * other than 2–4, a truncated entry, more than {@link MAX_INDEX_ENTRIES} entries, or a SHA-256
 * repository's index, whose entries are longer and fail the checks).
 */
export function indexPaths(bytes: Uint8Array): string[] | undefined {
  if (bytes.length < 12 || bytes[0] !== 0x44 || bytes[1] !== 0x49 || bytes[2] !== 0x52 || bytes[3] !== 0x43) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4);
  const count = view.getUint32(8);
  if (version < 2 || version > 4 || count > MAX_INDEX_ENTRIES) return undefined;
  const decoder = new TextDecoder();
  const out: string[] = [];
  let at = 12;
  let previous: Uint8Array = new Uint8Array(0);
  for (let k = 0; k < count; k++) {
    if (at + FIXED > bytes.length) return undefined;
    const flags = view.getUint16(at + 60);
    const extended = (flags & 0x4000) !== 0;
    if (extended && version < 3) return undefined;
    let p = at + FIXED + (extended ? 2 : 0);
    let name: Uint8Array;
    if (version === 4) {
      // git's offset encoding (varint.c): 7 bits a byte, high bit set on all but the last, each continuation adding one.
      let drop = 0;
      let byte: number;
      let guard = 0;
      do {
        if (p >= bytes.length || ++guard > 5) return undefined;
        byte = bytes[p++]!;
        drop = guard === 1 ? byte & 0x7f : ((drop + 1) << 7) | (byte & 0x7f);
      } while (byte & 0x80);
      if (drop > previous.length) return undefined;
      const end = bytes.indexOf(0, p);
      if (end < 0) return undefined;
      const rest = bytes.subarray(p, end);
      name = new Uint8Array(previous.length - drop + rest.length);
      name.set(previous.subarray(0, previous.length - drop));
      name.set(rest, previous.length - drop);
      at = end + 1;
    } else {
      const end = bytes.indexOf(0, p);
      if (end < 0) return undefined;
      name = bytes.subarray(p, end);
      // The entry (fixed part, flags, name and 1–8 NULs) is a multiple of 8 bytes long.
      const length = end - at;
      at += (length + 8) & ~7;
      if (at > bytes.length) return undefined;
    }
    if (name.length === 0) return undefined;
    out.push(decoder.decode(name));
    previous = name;
  }
  return out;
}
