/**
 * The progress line of a long `lint` run (I/O edge), drawn with cli-progress on standard error so
 * it never mixes with a report on standard output. Shown by default only when standard error is
 * a terminal and the environment is not CI (the `CI` variable, which GitHub Actions, GitLab CI
 * and most other services set), as audit's progress line and npm's progress bar do;
 * `--progress` forces it, `--no-progress` turns it off.
 */
import cliProgress from 'cli-progress';

/** The stream the line goes to: what this module reads of a `tty.WriteStream`. */
export interface ProgressStream extends NodeJS.WritableStream {
  readonly isTTY?: boolean;
}

/**
 * Whether a progress line is wanted. `flag` is commander's value of `--progress` /
 * `--no-progress` (`undefined` when neither was given): true and false win; otherwise the line
 * is shown when `stream` is a terminal and `env.CI` is unset, empty, `0` or `false`.
 */
export function progressWanted(flag: boolean | undefined, stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (flag !== undefined) return flag;
  const ci = env.CI;
  const inCi = ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
  return stream.isTTY === true && !inCi;
}

/** What a lint run reports to its progress line. */
export interface LintProgress {
  /** `done` candidates of `total` finished, `bytes` of content read (src/runner.ts `onProgress`). */
  update(done: number, total: number, bytes: number): void;
  /** Removes the line (on a terminal) and stops its timer; call before the report is printed. Idempotent. */
  stop(): void;
}

/** Milliseconds a run lasts before its line appears: a run quicker than this prints nothing. */
export const PROGRESS_DELAY_MS = 500;

/** `1234567` bytes → `1.2 MB` (decimal megabytes, one decimal). */
function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * A progress line on `stream`: `shellward lint [██████░░░░] 12/40 files · 3.4 MB · 5s`, redrawn at
 * most 10 times a second in place on a terminal, cleared by {@link LintProgress.stop}; on a stream
 * that is not a terminal (only with `--progress`) one plain line every 2 seconds instead, as
 * cli-progress's `noTTYOutput` writes it. Nothing is drawn before {@link PROGRESS_DELAY_MS}
 * (`delayMs`) have passed. File names are not shown (they are user text and would need escaping
 * and truncation); counts only. `now` is for tests.
 */
export function lintProgress(stream: ProgressStream, delayMs = PROGRESS_DELAY_MS, now: () => number = Date.now): LintProgress {
  const started = now();
  let bar: cliProgress.SingleBar | undefined;
  let stopped = false;
  return {
    update(done, total, bytes) {
      if (stopped) return;
      if (!bar) {
        if (now() - started < delayMs || done >= total) return;
        bar = new cliProgress.SingleBar(
          {
            stream,
            format: 'shellward lint [{bar}] {value}/{total} files · {size} · {duration_formatted}',
            barsize: 24,
            clearOnComplete: true,
            hideCursor: false,
            linewrap: false,
            noTTYOutput: stream.isTTY !== true,
            notTTYSchedule: 2000,
            etaBuffer: 50,
          },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, done, { size: megabytes(bytes) });
        return;
      }
      bar.setTotal(total);
      bar.update(done, { size: megabytes(bytes) });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar?.stop();
    },
  };
}
