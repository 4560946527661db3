/**
 * Standard input and output of `shellward hook` without Node's stream objects. Touching
 * `process.stdin`, `process.stdout` or `process.stderr` creates a stream (for a pipe a
 * `net.Socket`, with the networking and stream modules behind it): ~15 ms of CPU in a process
 * that lives for one agent tool call, measured on Node 20. A hook event is one small JSON
 * document and the answer one line, so both are read and written with the file-system calls
 * on the descriptors 0, 1 and 2 (https://nodejs.org/api/fs.html#fsreadsyncfd-buffer-offset-length-position),
 * falling back to the streams where a descriptor cannot be used that way (non-blocking: EAGAIN).
 *
 * What the streams of the CLI's other commands do on a write error, these do too (bin.ts):
 * a reader that went away (EPIPE) or a closed descriptor is not an error, the output is
 * dropped; any other failure says so on stderr and exits 2.
 */
import { readSync, writeSync } from 'node:fs';

/** Whether {@link outputStream} created the streams (they then need {@link flushOutput}). */
let streamsUsed = false;

/** Error codes of a write whose reader is gone: the output is dropped, the run goes on. */
const GONE = new Set(['EPIPE', 'ERR_STREAM_DESTROYED', 'EBADF']);

function cannotWrite(err: NodeJS.ErrnoException): never {
  try {
    writeSync(2, `shellward: cannot write output: ${err.message}\n`);
  } finally {
    process.exit(2);
  }
}

/**
 * `process.stdout` (fd 1) or `process.stderr` (fd 2), with the CLI's error handling on both
 * (see above) from the first call on. Use it for output that is not a single piece of text
 * (commander's help, a formatter that streams); {@link flushOutput} before exiting.
 */
export function outputStream(fd: 1 | 2): NodeJS.WriteStream {
  if (!streamsUsed) {
    streamsUsed = true;
    for (const stream of [process.stdout, process.stderr]) {
      stream.on('error', (err: NodeJS.ErrnoException) => {
        // The reader went away: drop further output but finish the run, so the exit code still
        // says what was found (`shellward lint | head -1` in a pipefail script exits 1, not 0).
        if (GONE.has(err.code ?? '')) return;
        cannotWrite(err);
      });
    }
  }
  return fd === 1 ? process.stdout : process.stderr;
}

/**
 * Writes `text` (UTF-8) to fd 1 or 2, synchronously where the descriptor allows it, else
 * through {@link outputStream}. Returns when written or handed to the stream; never throws
 * (a write error: see above).
 */
export function writeOutput(fd: 1 | 2, text: string): void {
  if (text === '') return;
  if (streamsUsed) {
    outputStream(fd).write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  while (done < bytes.length) {
    try {
      done += writeSync(fd, bytes, done, bytes.length - done);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'EAGAIN') {
        outputStream(fd).write(bytes.subarray(done));
        return;
      }
      if (GONE.has(e.code ?? '')) return;
      cannotWrite(e);
    }
  }
}

/** Resolves once what was written through {@link outputStream} has been flushed (at once when nothing was). */
export async function flushOutput(): Promise<void> {
  if (!streamsUsed) return;
  const flush = (stream: NodeJS.WriteStream): Promise<void> => new Promise((done) => stream.write('', () => done()));
  await Promise.all([flush(process.stdout), flush(process.stderr)]);
}

/**
 * All of standard input as UTF-8 text (malformed bytes become U+FFFD), reading at most
 * `limit` UTF-16 code units' worth: past `3 * limit` bytes the rest is read and dropped, so a
 * longer input still comes back longer than `limit` (one code unit never takes more than 3
 * bytes) and a caller that refuses inputs over `limit` refuses it. Reads synchronously while
 * the descriptor allows it, then through `process.stdin`. An input that cannot be read at all
 * (fd 0 closed) is empty.
 */
export async function readStdinText(limit: number): Promise<string> {
  const maxBytes = 3 * limit + 3;
  const chunks: Buffer[] = [];
  let kept = 0;
  const keep = (chunk: Buffer): void => {
    if (kept > maxBytes) return;
    chunks.push(chunk);
    kept += chunk.length;
  };
  const buf = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EOF' || code === 'EBADF') break;
      if (code !== 'EAGAIN') throw err;
      for await (const chunk of process.stdin) keep(chunk as Buffer);
      break;
    }
    if (n === 0) break;
    keep(Buffer.from(buf.subarray(0, n)));
  }
  return Buffer.concat(chunks).toString('utf8');
}
