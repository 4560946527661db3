/** Small CLI I/O helpers: colour decision, output destination, reading lists of paths. */
import { readFile, writeFile } from 'node:fs/promises';
import { createWriteStream, readFileSync, statSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { isAbsolute, join } from 'node:path';

/**
 * Whether to colour output written to `stream`: never when `NO_COLOR` is set (any value,
 * https://no-color.org) or `--no-color` was given; always with `FORCE_COLOR` (≠ `0`) or
 * `--color`; otherwise only on a TTY. An empty `FORCE_COLOR` counts as unset.
 */
export function useColor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (flag === true) return true;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  return stream.isTTY === true;
}

/** Reads a list of paths, one per line (blank lines and `#` comments ignored); `-` is stdin. */
export async function readPathList(file: string): Promise<string[]> {
  const text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

/** Reads all of standard input as UTF-8. */
export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Writes `text` to `file`, or to stdout when `file` is undefined. */
export async function emit(text: string, file: string | undefined): Promise<void> {
  if (file) await writeFile(file, text);
  else process.stdout.write(text);
}

/**
 * Writes `chunks` in order to `file`, or to standard output when `file` is undefined, in batches
 * of about 1 MiB, waiting for the stream to drain: the text never has to be one string. Rejects
 * when the file cannot be written.
 */
export async function emitChunks(chunks: Iterable<string>, file: string | undefined): Promise<void> {
  const out = file ? createWriteStream(file) : process.stdout;
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await Promise.race([once(out, 'drain'), failed]);
  };
  let batch: string[] = [];
  let size = 0;
  for (const c of chunks) {
    batch.push(c);
    size += c.length;
    if (size >= 1 << 20) {
      await write(batch.join(''));
      batch = [];
      size = 0;
    }
  }
  if (size > 0) await write(batch.join(''));
  if (file) {
    (out as WriteStream).end();
    await finished(out as WriteStream);
  }
}

/** Largest file {@link sarifFileText} reads for code scanning's line hashes (bytes); bigger ones are left to the uploader. */
export const LINE_HASH_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A `fileText` reader for SARIF (`SarifOptions.fileText`): the text of a file shown as `file`
 * (relative to `cwd`, or absolute), decoded from UTF-8 as code scanning's uploader decodes it
 * (a byte-order mark kept, invalid bytes as U+FFFD); `undefined` for a file that cannot be read,
 * is not a regular file, or is over {@link LINE_HASH_MAX_BYTES}. Never throws.
 */
export function sarifFileText(cwd: string): (file: string) => string | undefined {
  return (file) => {
    try {
      const path = isAbsolute(file) ? file : join(cwd, file);
      const st = statSync(path);
      if (!st.isFile() || st.size > LINE_HASH_MAX_BYTES) return undefined;
      return readFileSync(path).toString('utf8');
    } catch {
      return undefined;
    }
  };
}
