/**
 * What the build recorded about itself (dist/build-info.json, written by scripts/build-info.mjs
 * after `tsc`): the version and the full git commit SHA shellward was built from, if it was
 * built in its own git checkout. Read once, synchronously; never throws.
 */
import { readFileSync } from 'node:fs';

/** The recorded build facts. */
export interface BuildInfo {
  /** package.json `version` at build time. */
  readonly version: string;
  /** The full commit SHA of the checkout it was built from; absent when unknown. */
  readonly commit?: string;
  /** Whether tracked files differed from that commit when it was built. */
  readonly dirty?: boolean;
}

/**
 * Parses the text of a build-info.json; anything malformed gives `{ version: fallbackVersion }`
 * (a commit is only taken when it is 40 or 64 lower-case hex digits).
 */
export function parseBuildInfo(text: string | undefined, fallbackVersion: string): BuildInfo {
  try {
    const v = JSON.parse(text ?? '') as Record<string, unknown>;
    const version = typeof v.version === 'string' ? v.version : fallbackVersion;
    const commit = typeof v.commit === 'string' && /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(v.commit) ? v.commit : undefined;
    return { version, ...(commit ? { commit, dirty: v.dirty === true } : {}) };
  } catch {
    return { version: fallbackVersion };
  }
}

/** The build facts of this installation (dist/build-info.json next to dist/src/). */
export function readBuildInfo(fallbackVersion: string): BuildInfo {
  let text: string | undefined;
  try {
    text = readFileSync(new URL('../../build-info.json', import.meta.url), 'utf8');
  } catch {
    text = undefined;
  }
  return parseBuildInfo(text, fallbackVersion);
}
