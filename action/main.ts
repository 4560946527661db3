/**
 * Entry of the GitHub Action (action.yml runs the bundle of this file, action/dist/index.mjs,
 * built by `npm run bundle`). Everything is in ./run.ts; this file only starts it.
 */
import * as core from '@actions/core';
import { run } from './run.js';

run().catch((err: unknown) => core.setFailed(err instanceof Error ? (err.stack ?? err.message) : String(err)));
