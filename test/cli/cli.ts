/** Runs the built CLI (`npm test` builds dist/ first). */
import { execa, type Result } from 'execa';
import { fileURLToPath } from 'node:url';

/** Absolute path of the built CLI entry. */
export const BIN = fileURLToPath(new URL('../../dist/src/cli/bin.js', import.meta.url));
/** Repository root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `shellward args…` in `cwd` without throwing on a non-zero exit. */
export function shellward(args: readonly string[], opts: { cwd?: string; input?: string; env?: Record<string, string> } = {}): Promise<Result> {
  return execa(process.execPath, [BIN, ...args], {
    cwd: opts.cwd ?? REPO,
    reject: false,
    ...(opts.input !== undefined ? { input: opts.input } : {}),
    env: { NO_COLOR: '', FORCE_COLOR: '', ...opts.env },
    extendEnv: true,
    maxBuffer: 256 * 1024 * 1024,
  });
}
