/** Runs the built CLI (`npm test` builds dist/ first). */
import { execa, type Result } from 'execa';
import { fileURLToPath } from 'node:url';

/** Absolute path of the built CLI entry. */
export const BIN = fileURLToPath(new URL('../../dist/src/cli/bin.js', import.meta.url));
/** Absolute path of the package.json `bin`: the CommonJS launcher of the same CLI (bin.ts bundled by `npm run build`). */
export const PACKAGE_BIN = fileURLToPath(new URL('../../dist/src/cli/bin.cjs', import.meta.url));
/** Repository root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** The test process's environment without colour variables (vitest sets FORCE_COLOR). */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'NO_COLOR' && k !== 'FORCE_COLOR') env[k] = v;
  return env;
}

/** Runs `shellward args…` in `cwd` (with `bin`, default {@link BIN}) without throwing on a non-zero exit. */
export function shellward(args: readonly string[], opts: { cwd?: string; input?: string; env?: Record<string, string>; bin?: string } = {}): Promise<Result> {
  return execa(process.execPath, [opts.bin ?? BIN, ...args], {
    cwd: opts.cwd ?? REPO,
    reject: false,
    ...(opts.input !== undefined ? { input: opts.input } : {}),
    env: { ...baseEnv(), ...opts.env },
    extendEnv: false,
    maxBuffer: 256 * 1024 * 1024,
  });
}
