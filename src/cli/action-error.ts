/**
 * What the CLI says when a subcommand's action throws: the file of a file-system error, else an
 * internal error with its stack. Shared by the commander program (program.ts) and the hook's
 * path without commander (hook-main.ts).
 */
import { EXIT } from './exit-codes.js';

/**
 * Reports `err`, thrown by a subcommand's action, on stderr and returns the exit code (always
 * {@link EXIT.ERROR}): `shellward: <path>: <reason> (<code>)` for a file-system error naming a
 * file (a file the user named could not be read or written: -o, --files-from …), otherwise
 * `shellward: internal error: <stack>`.
 */
export function reportActionError(err: unknown): number {
  const io = err as NodeJS.ErrnoException;
  if (io?.code && typeof io.path === 'string') {
    process.stderr.write(`shellward: ${io.path}: ${ioReason(io)}\n`);
    return EXIT.ERROR;
  }
  process.stderr.write(`shellward: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  return EXIT.ERROR;
}

/** A short reason for a file-system error, e.g. `no such file or directory (ENOENT)`. */
function ioReason(err: NodeJS.ErrnoException): string {
  const text: Readonly<Record<string, string>> = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EISDIR: 'is a directory',
    ENOTDIR: 'a path component is not a directory',
    ENOSPC: 'no space left on device',
    EROFS: 'read-only file system',
  };
  return `${text[err.code ?? ''] ?? err.message} (${err.code})`;
}
