/** Runs the built CLI (`npm test` builds dist/ first). */
import { execa, type Result } from 'execa';
import { fileURLToPath } from 'node:url';

/** Absolute path of the built CLI entry. */
export const BIN = fileURLToPath(new URL('../../dist/src/cli/bin.js', import.meta.url));
/** Repository root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** The test process's environment without colour variables (vitest sets FORCE_COLOR). */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NO_COLOR' && k !== 'FORCE_COLOR') env[k] = v;
  return env;
}

/** Runs `shellward args…` in `cwd` without throwing on a non-zero exit. */
export function shellward(args: readonly string[], opts: { cwd?: string; input?: string; env?: Record<string, string> } = {}): Promise<Result> {
  return execa(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? REPO,
    reject: false,
    ...(opts.input !== undefined ? { input: opts.input } : {}),
    env: { ...baseEnv(), ...opts.env },
    extendEnv: false,
    maxBuffer: 256 * 1024 * 1024,
  });
}
