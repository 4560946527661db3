/** Default bounds of a sandboxed run; a module without imports so the CLI can read them without loading the runner. */

/** Default time-out of a sandboxed command, in milliseconds (30 s). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Default bytes kept of standard output and of standard error (each): 1 MiB. */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
