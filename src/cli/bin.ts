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

process.exitCode = await main(process.argv);
