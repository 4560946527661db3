/**
 * The shape of an input kind: one sort of file shellward reads shell code from (a shell script, a
 * Makefile, a GitHub Actions workflow, a Dockerfile, an agent transcript …). A kind says how it is
 * recognised (by its path, or by the first bytes of its content), which profile its units get, and
 * how it yields command units with source maps plus findings about the file itself. The runner
 * iterates the registry (src/sources/registry.ts) and treats every kind alike. Pure: the runner
 * reads the bytes.
 */
import type { CommandUnit, Profile, Span } from '../core/types.js';
import type { UnitVerdictKind } from '../report/types.js';
import type { Parser } from 'web-tree-sitter';

/** Identifiers of the kinds, as shown in `file-skipped` notes and docs. */
export type KindId =
  | 'shell-script'
  | 'makefile'
  | 'github-workflow'
  | 'github-action'
  | 'dockerfile'
  | 'package-json'
  | 'gitlab-ci'
  | 'pre-commit'
  | 'devcontainer'
  | 'claude-settings'
  | 'transcript';

/**
 * Rule ids of the notes readers report (their metadata lives with the other rules in src/checks;
 * test/sources/kinds.test.ts checks that each is a known rule).
 */
export const NOTE_RULE_IDS = {
  /** Shell code in a shell shellward does not analyse (PowerShell, cmd, Python …). */
  shellNotAnalysed: 'shell-not-analysed',
  /** A file that is not valid YAML or JSON. */
  parseError: 'source-parse-error',
  /** A GitHub Actions expression with attacker-controlled text expanded into a `run:` script. */
  untrustedInput: 'untrusted-input-in-run',
} as const;

/** Which configured profile a kind's units use (config `profile.script|makefile|transcript`). */
export type ProfileKey = 'script' | 'makefile' | 'transcript';

/**
 * A finding a reader reports about its host file rather than about shell code (a step in a shell
 * shellward does not analyse, a YAML syntax error, an expression injected into a script).
 * `span` is in the host text (UTF-16 offsets, end exclusive); severity comes from the rule's
 * default for the unit's profile and the configuration.
 */
export interface SourceNote {
  readonly ruleId: string;
  readonly message: string;
  readonly span: Span;
  readonly data?: Readonly<Record<string, unknown>>;
}

/** One unit a reader yields, with what it is (the `kind` of its `lint --format json` verdict). */
export interface ExtractedUnit {
  readonly unit: CommandUnit;
  readonly kind: UnitVerdictKind;
}

/** What a text kind finds in one file. */
export interface Extraction {
  readonly units: readonly ExtractedUnit[];
  readonly notes: readonly SourceNote[];
  /**
   * Set when the file, though its name matched, holds nothing of this kind (an `action.yml` of a
   * JavaScript action): the reason, reported as `file-skipped` when the file was named explicitly.
   */
  readonly notThisKind?: string;
}

/** What a reader is told about the file. */
export interface ReadContext {
  /** The path shown to the user (relative to the run's directory when inside it). */
  readonly file: string;
  /** The profile of the units. */
  readonly profile: Profile;
}

/** Options that change how kinds are recognised. */
export interface KindOptions {
  /** More Makefile names (config `makefiles`): matches a file's base name. */
  readonly makefileName?: (base: string) => boolean;
}

interface KindBase {
  readonly id: KindId;
  /** What the kind is, in a few words ("GitHub Actions workflow"). */
  readonly title: string;
  readonly profileKey: ProfileKey;
  /** Whether `path` (absolute or relative, any separators) names a file of this kind. */
  matchesName(path: string, options: KindOptions): boolean;
  /**
   * Whether the file is of this kind by its content, for a file whose name no kind claims. `head`
   * is the start of its text (at least its first 512 characters, or the whole file).
   */
  sniff?(path: string, head: string): boolean;
}

/** A kind read whole as text and split into units. */
export interface TextKind extends KindBase {
  readonly read: 'text';
  /** The units and notes of a file's `text` (a BOM already dropped). Never throws. */
  extract(text: string, ctx: ReadContext): Extraction;
  /**
   * The comment spans (host offsets) inline suppression directives are read from; absent when
   * the kind has no directives. `parser` is the loaded bash parser. `parsedComments`, when given,
   * are the comment spans of a bash parse of exactly `text` the caller already has (the lint of a
   * whole-file script unit): a kind that would parse `text` for its comments returns them instead.
   */
  directiveComments?(text: string, parser: Parser, parsedComments?: readonly Span[]): readonly Span[];
}

/** A kind streamed from its file by a reader of its own (agent transcripts). */
export interface StreamKind extends KindBase {
  readonly read: 'stream';
}

/** An input kind. */
export type InputKind = TextKind | StreamKind;

/** The base name of a path with `/` or `\` separators. */
export function baseName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}

/** `path` with POSIX separators. */
export function posixPath(path: string): string {
  return path.split('\\').join('/');
}
