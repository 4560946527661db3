/**
 * Reading and writing the project files `shellward init` creates or merges into (I/O edge): the
 * starter files, package.json, and the agents' JSON settings files.
 */
import { access, chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Whether `path` exists (any type; a dangling symlink does not). Never throws. */
export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** A JSON file as {@link readJsonFile} read it. */
export type JsonFile =
  /** Its value (`undefined` for an empty file) and the indentation to write it back with. */
  | { readonly value: unknown; readonly indent: string }
  /** It is not JSON: the parser's message. */
  | { readonly error: string };

/**
 * Reads the JSON file `path`: `undefined` when it does not exist; otherwise its value (a leading
 * byte order mark dropped, as the config loader does; an empty or blank file has the value
 * `undefined`) with its own indentation (that of its first indented key, two spaces by default),
 * or the parse error. Rejects when the file exists but cannot be read.
 */
export async function readJsonFile(path: string): Promise<JsonFile | undefined> {
  if (!(await exists(path))) return undefined;
  const text = (await readFile(path, 'utf8')).replace(/^\uFEFF/, '');
  try {
    const value: unknown = text.trim() === '' ? undefined : JSON.parse(text);
    return { value, indent: /^([ \t]+)"/m.exec(text)?.[1] ?? '  ' };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** Writes `content` to `path`, creating the directories above it, and sets `mode` when given. */
export async function writeProjectFile(path: string, content: string, mode?: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  if (mode !== undefined) await chmod(path, mode);
}
