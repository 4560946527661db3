/** Process exit codes of the `shellward` CLI (documented in README.md). */
export const EXIT = {
  /** Nothing at or above the `--fail-on` severity. */
  OK: 0,
  /** Findings at or above the `--fail-on` severity. */
  FINDINGS: 1,
  /** Usage, configuration or internal error (an argument matched nothing, a check crashed …). */
  ERROR: 2,
} as const;
