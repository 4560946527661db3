/**
 * `changed-only`: the exact commit a change is compared with, in the checkout GitHub Actions
 * gives (I/O edge: runs git).
 *
 * - On a pull request, actions/checkout checks out the merge commit GitHub made
 *   (`refs/pull/N/merge`): its first parent is the base branch as it was merged into, its second
 *   the pull request's head. Diffing with the first parent shows exactly what the pull request
 *   changes, even when `pull_request.base.sha` is stale (the base branch moved after the event:
 *   diffing with it would report the base branch's newer commits as the pull request's).
 * - Otherwise (a push, a merge group, a checkout of the head commit) the base is the merge base
 *   of the event's base commit and HEAD, as `git diff base...HEAD` and the pull request page use.
 * - A shallow clone (actions/checkout's default `fetch-depth: 1`) lacks those commits: the
 *   missing commit is fetched by id (`git fetch --depth=1 origin <sha>`, which GitHub serves), and
 *   the history is deepened a bounded number of times (`git fetch --deepen=N`) until the merge
 *   base is found. Each step is logged; when none works, {@link BaseUnavailable} says why.
 */
import { execa } from 'execa';
import type { EventBase } from './scope.js';

/** Raised when the base commit cannot be found or fetched; the message says why (no trailing period). */
export class BaseUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BaseUnavailable';
  }
}

/** What {@link resolveBase} found. */
export interface ResolvedBase {
  /** The full commit id the change is diffed against (its merge base with `head` is itself). */
  readonly base: string;
  /** The full commit id of HEAD. */
  readonly head: string;
  /**
   * What was compared, in words, for the log and the job summary: `HEAD^1 1a2b3c4 (the base
   * branch the pull request was merged into; pull_request.base.sha 5d6e7f8 is older) with HEAD …`.
   */
  readonly description: string;
  /** The git fetches made to get the commits (0 with a full clone). */
  readonly fetches: number;
}

/** Options of {@link resolveBase}. */
export interface ResolveBaseOptions {
  /** A directory in the work tree. */
  readonly cwd: string;
  /**
   * The base commit the event names, where it came from (`pull_request.base.sha`), and on a pull
   * request the head commit that identifies a merge checkout: {@link eventBase}'s answer.
   */
  readonly eventBase: EventBase;
  /** The remote to fetch missing commits from (default `origin`; none when it does not exist). */
  readonly remote?: string;
  /** Commits to deepen a shallow history by, one fetch per element (default 50, 200, 1000). */
  readonly deepen?: readonly number[];
  /** Called with one line per git fetch made, before it runs. */
  readonly log?: (line: string) => void;
}

/** Git options that make the commands here independent of the user's configuration. */
const GIT = ['-c', 'core.quotepath=false', '-c', 'protocol.version=2'];

/** Longest a single fetch may take (ms). */
const FETCH_TIMEOUT_MS = 120_000;

async function git(cwd: string, args: readonly string[], timeout?: number): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  const r = await execa('git', [...GIT, ...args], { cwd, reject: false, ...(timeout ? { timeout } : {}), env: { GIT_TERMINAL_PROMPT: '0' } });
  return { ok: r.exitCode === 0 && !r.failed, stdout: String(r.stdout ?? '').trim(), stderr: String(r.stderr ?? '').trim() || (r.failed ? (r.shortMessage ?? '') : '') };
}

const short = (sha: string): string => sha.slice(0, 7);

/**
 * The parents of commit `sha` as its object records them (`git cat-file commit`), which a
 * shallow clone still shows although it hides them from `HEAD^1`.
 */
export async function rawParents(cwd: string, sha: string): Promise<string[]> {
  const r = await git(cwd, ['cat-file', 'commit', sha]);
  if (!r.ok) return [];
  const parents: string[] = [];
  for (const line of r.stdout.split('\n')) {
    if (line === '') break;
    const m = /^parent ([0-9a-f]{40,64})$/.exec(line);
    if (m) parents.push(m[1]!);
  }
  return parents;
}

async function hasCommit(cwd: string, sha: string): Promise<boolean> {
  return (await git(cwd, ['cat-file', '-e', `${sha}^{commit}`])).ok;
}

/**
 * Finds the commit the change in `options.cwd`'s checkout is compared with (see the module
 * comment), fetching from `options.remote` what a shallow clone lacks. Throws
 * {@link BaseUnavailable} when HEAD is not a commit, or the base cannot be found or fetched
 * within the bounded deepening.
 */
export async function resolveBase(options: ResolveBaseOptions): Promise<ResolvedBase> {
  const { cwd, eventBase } = options;
  const headR = await git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  if (!headR.ok) throw new BaseUnavailable('HEAD is not a commit (not a git checkout?)');
  const head = headR.stdout;
  const remoteName = options.remote ?? 'origin';
  const remote = (await git(cwd, ['remote', 'get-url', remoteName])).ok ? remoteName : undefined;
  const shallow = (await git(cwd, ['rev-parse', '--is-shallow-repository'])).stdout === 'true';
  let fetches = 0;
  /** `sha` present, fetched by id when missing. */
  const present = async (sha: string, what: string): Promise<boolean> => {
    if (await hasCommit(cwd, sha)) return true;
    if (!remote) return false;
    fetches++;
    options.log?.(`changed-only: fetching ${what} ${short(sha)} from ${remote} (git fetch --depth=1 ${remote} ${sha})`);
    await git(cwd, ['fetch', '--quiet', '--no-tags', '--no-recurse-submodules', '--depth=1', remote, sha], FETCH_TIMEOUT_MS);
    return hasCommit(cwd, sha);
  };

  const parents = await rawParents(cwd, head);
  const pullRequest = eventBase.pullRequest;
  if (pullRequest && parents.length === 2 && (pullRequest.head === undefined || pullRequest.head === parents[1])) {
    const first = parents[0]!;
    if (!(await present(first, "the merge commit's first parent"))) {
      throw new BaseUnavailable(
        `HEAD ${short(head)} is the pull request's merge commit, but its first parent ${short(first)} (the base branch) is not in the clone${remote ? ` and could not be fetched from ${remote}` : ` and there is no remote ${remoteName} to fetch it from`}`,
      );
    }
    const stale = eventBase.base === first ? `= ${eventBase.source}` : `${eventBase.source} ${short(eventBase.base)} is older: the base branch moved`;
    return {
      base: first,
      head,
      description: `HEAD^1 ${short(first)} (the base branch the pull request was merged into; ${stale}) with HEAD ${short(head)} (the merge commit)`,
      fetches,
    };
  }

  const b = eventBase.base;
  if (!(await present(b, `${eventBase.source}`))) {
    throw new BaseUnavailable(`base ref ${JSON.stringify(b)} (${eventBase.source}) does not resolve to a commit${remote ? ` and could not be fetched from ${remote}` : ''}`);
  }
  const steps = options.deepen ?? [50, 200, 1000];
  for (let i = 0; ; i++) {
    const mb = await git(cwd, ['merge-base', b, head]);
    if (mb.ok && mb.stdout !== '') {
      const via = mb.stdout === b ? `${eventBase.source} ${short(b)}` : `the merge base ${short(mb.stdout)} of ${eventBase.source} ${short(b)} and HEAD`;
      return { base: mb.stdout, head, description: `${via} with HEAD ${short(head)}`, fetches };
    }
    const stillShallow = (await git(cwd, ['rev-parse', '--is-shallow-repository'])).stdout === 'true';
    if (!shallow || !stillShallow || !remote || i >= steps.length) {
      const tried = shallow && remote ? ` after deepening the shallow clone ${i} time${i === 1 ? '' : 's'} (${steps.slice(0, i).join(', ')} commits)` : shallow ? ' (a shallow clone)' : '';
      throw new BaseUnavailable(`no merge base of ${eventBase.source} ${short(b)} and HEAD ${short(head)}${tried}`);
    }
    fetches++;
    options.log?.(`changed-only: deepening the shallow clone by ${steps[i]} commits to find the merge base (git fetch --deepen=${steps[i]} ${remote} ${short(head)} ${short(b)})`);
    await git(cwd, ['fetch', '--quiet', '--no-tags', '--no-recurse-submodules', `--deepen=${steps[i]}`, remote, head, b], FETCH_TIMEOUT_MS);
  }
}
