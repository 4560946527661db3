/**
 * The environment a sandboxed command sees: an allowlist of the host's variables, nothing else
 * (no tokens, no proxies, no `LD_PRELOAD`). Pure.
 */

/** Host variables passed through when set (names only; values come from the injected host environment). */
export const ENV_ALLOWLIST: readonly string[] = ['HOME', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_COLLATE', 'LC_CTYPE', 'LC_MESSAGES', 'LOGNAME', 'PATH', 'TERM', 'TZ', 'USER'];

/** `PATH` when the host has none. */
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The sandbox environment: each {@link ENV_ALLOWLIST} variable the host has (values containing
 * NUL are dropped), `PATH` defaulting to {@link DEFAULT_PATH}, then `fixed` (e.g. `TMPDIR`),
 * which wins. Returns a fresh object with sorted keys.
 */
export function sandboxEnv(host: Readonly<Record<string, string | undefined>>, fixed: Readonly<Record<string, string>> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ENV_ALLOWLIST) {
    const v = Object.hasOwn(host, name) ? host[name] : undefined;
    if (typeof v === 'string' && !v.includes('\0')) out[name] = v;
  }
  out.PATH ??= DEFAULT_PATH;
  Object.assign(out, fixed);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
