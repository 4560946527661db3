/**
 * The shape of a check and of the rule metadata it declares (architecture.md §9.2). Docs pages and
 * SARIF `rules[]` are generated from this metadata; nobody writes them twice.
 */
import type { CommandUnit, Finding, Profile, SeverityLevel } from '../core/types.js';
import type { PackSet } from '../analyses/destructive.js';
import type { ParsedScript } from '../parse/nodes.js';
import type { PermissionDecision } from '../rules/decide.js';
import type { CommandModel } from '../model/command-model.js';
import type { PermissionLists, PermissionPolicy } from '../rules/policy.js';

/** What a rule is about; constrains its default severity (security/destructive are never `note`). */
export type Category = 'parse' | 'security' | 'destructive' | 'paths' | 'policy' | 'input' | 'sandbox' | 'workflow';

/** Metadata of one rule id. */
export interface RuleMeta {
  /** kebab-case, stable, never reused. */
  readonly id: string;
  /** Stable short code, partitioned by stage: P1xx parse, S2xx security, D3xx destructive, F4xx paths, R5xx permission policy, X5xx sandbox runs, W6xx CI workflows, I9xx input. */
  readonly code: string;
  /** One line, imperative or descriptive, no trailing period (SARIF `shortDescription`). */
  readonly title: string;
  readonly category: Category;
  /** Default severity per profile (architecture.md §5); the user's config may override it. */
  readonly severity: Readonly<Record<Profile, SeverityLevel>>;
  /** Markdown docs: why it matters, what to write instead, known exceptions and deviations. */
  readonly docs: {
    readonly rationale: string;
    readonly fix: string;
    readonly exceptions?: string;
  };
  /**
   * How often a finding is a true positive (SARIF `properties.precision` for code scanning);
   * absent: the category's default (src/report/sarif.ts).
   */
  readonly precision?: 'very-high' | 'high' | 'medium' | 'low';
  /** Prior art, e.g. `claude-code:destructiveCommandWarning`, `shellcheck:SC2115`. */
  readonly sources: readonly string[];
  /**
   * Executable examples: each `invalid` one yields exactly one diagnostic of this id, each
   * `valid` one none (run by test/checks.examples.test.ts).
   */
  readonly examples: { readonly valid: readonly string[]; readonly invalid: readonly string[] };
  /**
   * The permission rules the examples run under (for the `policy` rules, whose findings depend on
   * a policy); the docs page shows them. Absent: the examples run with no rules.
   */
  readonly examplePolicy?: PermissionLists;
  /**
   * For rules that reproduce a Claude Code bashSecurity validator (claude-code-reference.md §1): its
   * numeric check id (absent for the id-less pre-check), the validator's name, whether its `ask`
   * carries `isBashSecurityCheckForMisparsing`, and its 1-based position in the execution order
   * of claude-code-reference.md §1.4 (the verdict's deferral rule uses `misparsing` and `order`).
   */
  readonly claudeCode?: { readonly id?: number; readonly name: string; readonly misparsing: boolean; readonly order: number };
  /** Set for a rule of a custom pack (config `packs.files`): the pack's id. Such a rule has no page under docs/rules. */
  readonly customPack?: string;
}

/**
 * Facts about the machine a run is on, supplied at the edge (src/lint.ts, from the Linter's
 * options) so that no check reads them itself (architecture.md §9.4 item 11).
 */
export interface CheckHost {
  /**
   * What `~` expands to (POSIX form) for a unit whose context records no home of its own;
   * `undefined` when not known (then `~` paths are unknown).
   */
  readonly home: string | undefined;
  /**
   * The absolute directory (POSIX form) that relative file names in `unit.origin.file` are
   * relative to: the directory shellward runs in.
   */
  readonly cwd: string;
}

/**
 * What a check sees: the unit, its parse views, and a sink for findings. `Id` is the union of
 * the rule ids the check declared ({@link defineCheck} infers it from the metadata), so that
 * reporting an id the check never declared fails type-checking; `string` for checks whose ids
 * come from data (the destructive packs, custom packs among them).
 */
export interface CheckContext<Id extends string = string> {
  readonly unit: CommandUnit;
  readonly parsed: ParsedScript;
  /** The machine's facts (home directory, the run's directory), from the edge. */
  readonly host: CheckHost;
  /**
   * The run's check registry (`CHECKS` of src/checks/index.ts), passed in so that a check can
   * derive what it needs from it without importing the registry: the security driver takes the
   * battery it re-runs on the text left after a safe heredoc substitution from it.
   */
  readonly registry: readonly Check[];
  /** The merged permission policy of the run (empty when none is configured). */
  readonly policy: PermissionPolicy;
  /** The unit's command model (src/model/), built once per unit; absent in hand-made contexts. */
  readonly model?: CommandModel;
  /**
   * The unit's command model started in the absolute directory `cwd` (`undefined`: unknown) with
   * home `home`: {@link model} itself when it was built with those two, else one built for them
   * (once per unit and pair), so that a check judging the unit from another directory does not
   * build a model of its own each time. Absent in hand-made contexts.
   */
  modelAt?(cwd: string | undefined, home: string | undefined): CommandModel;
  /**
   * The one permission decision for the unit (src/rules/decide.ts), with the gates of the checks
   * that ran so far (the policy check runs after every security check).
   */
  decision(): PermissionDecision;
  /** The destructive-command packs in force (the config's choice); absent: the built-in packs. */
  readonly packs?: PackSet;
  /** Reports a finding of one of the check's rule ids; the pipeline places it in the host file and applies severity. */
  report(finding: Finding & { readonly ruleId: Id }): void;
}

/** A check: the rule ids it can report and the function that reports them. Pure: no I/O. */
export interface Check {
  /** Name of the check (equals its file name). */
  readonly name: string;
  readonly rules: readonly RuleMeta[];
  run(ctx: CheckContext): void;
}

/**
 * Declares a check that reports a single rule id (the common case). The id is inferred as a
 * literal type from `meta`, and `run`'s context accepts findings of that id only.
 */
export function defineCheck<const Id extends string>(meta: RuleMeta & { readonly id: Id }, run: (ctx: CheckContext<Id>) => void): Check {
  return { name: meta.id, rules: [meta], run };
}
