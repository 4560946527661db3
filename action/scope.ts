/**
 * `changed-only` for the Action: which event gives the base commit, and the pure filters that
 * keep only changed files and the findings on changed lines. The git work, and the line test
 * (`onChangedLines`), are in src/git/changed.ts.
 */
import { onChangedLines, type ChangedLines } from '../src/git/changed.js';
import type { FileResult } from '../src/report/index.js';

/** Events on which `changed-only` is on when the input is left empty. */
export const CHANGED_ONLY_EVENTS: ReadonlySet<string> = new Set(['pull_request', 'pull_request_target']);

/** What the event payload says the change is based on. */
export interface EventBase {
  /** Commit the change is compared with (a merge base with the checked-out commit is taken). */
  readonly base: string;
  /** Where the base came from, for messages (`pull_request.base.sha`). */
  readonly source: string;
  /**
   * On a `pull_request` or `pull_request_target` event: the pull request's head commit as the
   * payload names it (`pull_request.head.sha`, `undefined` when it names none). A checked-out
   * merge commit whose second parent is this head is GitHub's test merge.
   */
  readonly pullRequest?: { readonly head: string | undefined };
}

/** The value at `keys` inside the JSON `value`, `undefined` when a step is missing or not an object. */
function field(value: unknown, ...keys: string[]): unknown {
  let v = value;
  for (const k of keys) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/i;

/**
 * What the event payload (the parsed JSON of `GITHUB_EVENT_PATH`) says the change is based on:
 * `pull_request.base.sha` for `pull_request` and `pull_request_target` (with the head commit,
 * {@link EventBase.pullRequest}), `merge_group.base_sha` for `merge_group`, `before` for `push`
 * (not for the all-zero `before` of a new branch). `undefined` for other events or a payload
 * without it. The only reader of the payload's commits.
 */
export function eventBase(eventName: string, payload: unknown): EventBase | undefined {
  const pick = (value: unknown, source: string): EventBase | undefined =>
    typeof value === 'string' && SHA.test(value) && !/^0+$/.test(value) ? { base: value, source } : undefined;
  switch (eventName) {
    case 'pull_request':
    case 'pull_request_target': {
      const base = pick(field(payload, 'pull_request', 'base', 'sha'), 'pull_request.base.sha');
      const head = field(payload, 'pull_request', 'head', 'sha');
      return base && { ...base, pullRequest: { head: typeof head === 'string' ? head : undefined } };
    }
    case 'merge_group':
      return pick(field(payload, 'merge_group', 'base_sha'), 'merge_group.base_sha');
    case 'push':
      return pick(field(payload, 'before'), 'push before');
    default:
      return undefined;
  }
}

/**
 * The repository-relative path of a result's displayed path (relative to the working directory,
 * which is `prefix` inside the repository: `''` at the root), or `undefined` for a path outside
 * the working directory (shown absolute).
 */
export function repoPath(displayed: string, prefix: string): string | undefined {
  if (displayed.startsWith('/') || /^[A-Za-z]:[\\/]/.test(displayed) || displayed.startsWith('../')) return undefined;
  return prefix === '' ? displayed : `${prefix.replace(/\/+$/, '')}/${displayed}`;
}

/** Options of {@link scopeResults}. */
export interface ScopeOptions {
  /** Working directory relative to the repository root, POSIX (`''` at the root). */
  readonly prefix: string;
  /** Repository-relative paths of the changed files. */
  readonly files: ReadonlySet<string>;
  /** Changed lines per file; `undefined` keeps every finding of a changed file (`all-lines`). */
  readonly lines?: ChangedLines;
  /** Displayed paths kept whole whatever changed (the `transcripts` input). */
  readonly keep?: ReadonlySet<string>;
}

/** What {@link scopeResults} returns. */
export interface Scoped {
  readonly results: FileResult[];
  /** Findings dropped because their file did not change. */
  readonly droppedFiles: number;
  /** Findings dropped because none of their lines changed. */
  readonly droppedLines: number;
}

/**
 * Keeps the results of changed files (and of `keep`), and of those only the findings on changed
 * lines unless `lines` is undefined. Results of files that did not change are left out entirely.
 */
export function scopeResults(results: readonly FileResult[], options: ScopeOptions): Scoped {
  const out: FileResult[] = [];
  let droppedFiles = 0;
  let droppedLines = 0;
  for (const r of results) {
    if (options.keep?.has(r.file)) {
      out.push(r);
      continue;
    }
    const path = repoPath(r.file, options.prefix);
    if (path === undefined || !options.files.has(path)) {
      droppedFiles += r.diagnostics.length;
      continue;
    }
    if (!options.lines) {
      out.push(r);
      continue;
    }
    const diagnostics = onChangedLines(r.diagnostics, options.lines, path);
    droppedLines += r.diagnostics.length - diagnostics.length;
    out.push(diagnostics.length === r.diagnostics.length ? r : { ...r, diagnostics });
  }
  return { results: out, droppedFiles, droppedLines };
}
