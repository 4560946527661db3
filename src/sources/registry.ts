/**
 * The registry of input kinds: every sort of file shellward reads, in the order they are tried.
 * A file's kind is the first whose name pattern matches; a file no name claims is tried by
 * content (a transcript's first JSON record, a script's shebang). The runner, the CLI and the
 * Action only ever go through {@link identifyKind}, so a new kind is one entry here. Pure.
 */
import { makefileCommentSpans } from '../suppress.js';
import { buildViews } from '../parse/nodes.js';
import { parseBash, parseBudgetMs } from '../parse/parser.js';
import { baseName, type InputKind, type KindId, type KindOptions, type StreamKind, type TextKind } from './kind.js';
import { CLAUDE_SETTINGS } from './kinds/claude-settings.js';
import { DEVCONTAINER } from './kinds/devcontainer.js';
import { DOCKERFILE } from './kinds/dockerfile.js';
import { GITHUB_ACTION, GITHUB_WORKFLOW } from './kinds/github-actions.js';
import { GITLAB_CI } from './kinds/gitlab-ci.js';
import { PACKAGE_JSON } from './kinds/package-json.js';
import { PRE_COMMIT } from './kinds/pre-commit.js';
import { extractMakefile, isMakefilePath } from './makefile.js';
import { detectShellScript, dialectFromPath, scriptUnit } from './script.js';
import { detectTranscript, mayBeTranscript } from './transcript/index.js';

/** Shell scripts: by extension (`.sh`, `.bash`, `.bats`, `.ksh`, `.zsh`) or by shebang. */
export const SHELL_SCRIPT: TextKind = {
  id: 'shell-script',
  title: 'shell script',
  read: 'text',
  profileKey: 'script',
  matchesName: (path) => dialectFromPath(path) !== undefined,
  sniff: (path, head) => detectShellScript(path, head) !== undefined,
  extract: (text, ctx) => {
    const dialect = detectShellScript(ctx.file, text.slice(0, 512)) ?? 'bash';
    return { units: [{ unit: scriptUnit(ctx.file, text, dialect, ctx.profile), kind: 'statement' }], notes: [] };
  },
  directiveComments: (text, parser, parsedComments) => {
    if (parsedComments) return parsedComments;
    const tree = parseBash(parser, text, parseBudgetMs(text.length));
    if (!tree) return [];
    try {
      return buildViews(tree, text).comments;
    } finally {
      tree.delete();
    }
  },
};

/** Makefiles: `Makefile`, `makefile`, `GNUmakefile`, `*.mk`, `*.make` and the configured names. */
export const MAKEFILE: TextKind = {
  id: 'makefile',
  title: 'Makefile',
  read: 'text',
  profileKey: 'makefile',
  matchesName: (path, options) => isMakefilePath(path, options.makefileName),
  extract: (text, ctx) => ({ units: extractMakefile(ctx.file, text, { profile: ctx.profile }).units.map((u) => ({ unit: u.unit, kind: u.kind })), notes: [] }),
  directiveComments: (text) => makefileCommentSpans(text),
};

/** Agent transcripts (Claude Code, Codex CLI, Gemini CLI), recognised by their first records. */
export const TRANSCRIPT: StreamKind = {
  id: 'transcript',
  title: 'agent transcript',
  read: 'stream',
  profileKey: 'transcript',
  matchesName: () => false,
  sniff: (path, head) => mayBeTranscript(path) && detectTranscript(head) !== undefined,
};

/** Every kind, in the order names are matched (the first match wins). */
export const INPUT_KINDS: readonly InputKind[] = [
  GITHUB_WORKFLOW,
  GITHUB_ACTION,
  GITLAB_CI,
  PRE_COMMIT,
  DEVCONTAINER,
  CLAUDE_SETTINGS,
  PACKAGE_JSON,
  DOCKERFILE,
  MAKEFILE,
  SHELL_SCRIPT,
  TRANSCRIPT,
];

/** The kind of id `id`. */
export function kindById(id: KindId): InputKind {
  return INPUT_KINDS.find((k) => k.id === id)!;
}

/** The kind whose name pattern matches `path`, or `undefined`. */
export function kindByName(path: string, options: KindOptions = {}): InputKind | undefined {
  return INPUT_KINDS.find((k) => k.matchesName(path, options));
}

/** How many characters of a file's start {@link identifyKind} looks at for content sniffing. */
export const SNIFF_CHARS = 64 * 1024;

/**
 * The kind of a file: by name, else by content (`head`: the start of its text, up to
 * {@link SNIFF_CHARS}; `undefined` when not read), else — for a file named explicitly whose
 * name has no extension — a shell script, as a shell would run it. `undefined`: no kind.
 */
export function identifyKind(path: string, head: string | undefined, options: KindOptions & { readonly explicit?: boolean } = {}): InputKind | undefined {
  const named = kindByName(path, options);
  if (named) return named;
  if (head !== undefined) {
    const text = head.replace(/^\uFEFF/, '');
    for (const k of INPUT_KINDS) if (k.sniff?.(path, k.read === 'stream' ? text : text.slice(0, 512))) return k;
  }
  if (options.explicit && !baseName(path).slice(1).includes('.')) return SHELL_SCRIPT;
  return undefined;
}

/** Whether a file no name claims is worth reading the head of: all may be shell scripts by shebang. */
export function needsSniffing(path: string): { readonly bytes: number } {
  return { bytes: mayBeTranscript(path) ? SNIFF_CHARS : 512 };
}

/** The names of the kinds, for messages ("shell scripts, Makefiles, …"). */
export function kindTitles(): string {
  return INPUT_KINDS.map((k) => k.title).join(', ');
}
