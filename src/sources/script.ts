/**
 * The shell-script source: recognising shell scripts by extension or shebang, decoding their
 * bytes, and turning a script into one {@link CommandUnit} of granularity `script`. Pure: the
 * caller reads the bytes.
 */
import type { CommandUnit, Dialect, Profile } from '../core/types.js';
import { IdentityMap } from '../core/source-map.js';

const EXTENSIONS: Readonly<Record<string, Dialect>> = {
  '.sh': 'sh', '.bash': 'bash', '.bats': 'bash', '.ksh': 'ksh', '.zsh': 'zsh',
};

const SHELLS: Readonly<Record<string, Dialect>> = {
  sh: 'sh', bash: 'bash', dash: 'dash', ksh: 'ksh', mksh: 'ksh', ksh93: 'ksh', zsh: 'zsh', ash: 'sh', busybox: 'sh',
};

/**
 * The dialect named by a shebang line (`#!/bin/bash -e`, `#! /usr/bin/env -S bash -x`), or
 * `undefined` when the first line is not a shebang for sh, bash, dash, ksh or zsh.
 */
export function dialectFromShebang(firstLine: string): Dialect | undefined {
  if (!firstLine.startsWith('#!')) return undefined;
  const words = firstLine.slice(2).trim().split(/[ \t]+/);
  let prog = words[0] ?? '';
  let i = 1;
  if (prog.endsWith('/env') || prog === 'env') {
    // env [-S] [-i] [NAME=value…] shell
    while (i < words.length && (words[i]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) i++;
    prog = words[i] ?? '';
  }
  const base = prog.slice(prog.lastIndexOf('/') + 1);
  return SHELLS[base];
}

/** The dialect of a file from its name's extension, or `undefined`. */
export function dialectFromPath(path: string): Dialect | undefined {
  const dot = path.lastIndexOf('.');
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  if (dot <= slash + 1) return undefined;
  return EXTENSIONS[path.slice(dot).toLowerCase()];
}

/**
 * Whether a file is a shell script, and its dialect: the shebang wins over the extension.
 * `head` is the start of the file's text (its first line is enough).
 */
export function detectShellScript(path: string, head: string): Dialect | undefined {
  const nl = head.indexOf('\n');
  const first = (nl === -1 ? head : head.slice(0, nl)).replace(/^\uFEFF/, '').replace(/\r$/, '');
  return dialectFromShebang(first) ?? dialectFromPath(path);
}

/**
 * The outcome of decoding a file's bytes. `invalidAt` is the byte offset of the first byte that is
 * not valid UTF-8 when the text was decoded with replacement characters (U+FFFD).
 */
export type Decoded =
  | { readonly ok: true; readonly text: string; readonly invalidAt?: number }
  | { readonly ok: false; readonly reason: string; readonly offset: number };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lossyUtf8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/**
 * Decodes `bytes` as UTF-8 text (a leading BOM is dropped). Refuses binary data (a NUL byte in
 * the first 8 KiB). Text that is not valid UTF-8 (a Latin-1 comment, say: bash runs such files) is
 * decoded with each invalid sequence replaced by U+FFFD, and `invalidAt` names the first bad byte.
 */
export function decodeText(bytes: Uint8Array): Decoded {
  const nul = bytes.subarray(0, 8192).indexOf(0);
  if (nul !== -1) return { ok: false, reason: 'binary file (contains NUL bytes)', offset: nul };
  try {
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    return { ok: true, text: lossyUtf8.decode(bytes), invalidAt: firstInvalidUtf8(bytes) };
  }
}

/** Byte offset of the first byte that is not part of a valid UTF-8 sequence. */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    const need = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const n = b[i + k];
      if (n === undefined || (n & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return b.length;
}

/** Builds the unit of a whole shell script. `file` is the path shown to the user. */
export function scriptUnit(file: string, text: string, dialect: Dialect, profile: Profile = 'script'): CommandUnit {
  return {
    text,
    hostText: text,
    dialect,
    granularity: 'script',
    profile,
    origin: { file, kind: 'script' },
    sourceMap: new IdentityMap(),
  };
}
