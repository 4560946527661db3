#!/usr/bin/env node
/** Executable entry of the `shellward` command (package.json `bin`). */
import { main } from './main.js';

// A closed pipe (`shellward lint | head`) is not an error: stop writing quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

const code = await main(process.argv);
// Exit explicitly once output is flushed: V8 keeps compiling hot wasm functions in the
// background (dynamic tiering) and a natural exit would wait ~300 ms for that work.
const flush = (stream: NodeJS.WriteStream): Promise<void> => new Promise((done) => stream.write('', () => done()));
await Promise.all([flush(process.stdout), flush(process.stderr)]);
process.exit(code);
