/**
 * The merged permission policy the pure core receives: parsed rules of every source, in the order
 * the sources were given, each rule remembering its file. Built by src/config/load.ts (I/O) or
 * from a `check` request's `permissions`. Pure; throws only {@link RuleSyntaxError}.
 */
import { parseRule, type PermissionRule, type RuleBehavior, type RuleOrigin } from './parse.js';

/** A directory granted in `additionalDirectories`, and where it was configured. */
export interface PolicyDirectory {
  readonly path: string;
  readonly origin: RuleOrigin;
}

/**
 * Parsed rules per list. A deny in any source beats an allow in every source because the engine
 * consults all denies first (claude-code-reference.md §2.1 "Deny across scopes"), so merging is concatenation.
 */
export interface PermissionPolicy {
  readonly allow: readonly PermissionRule[];
  readonly ask: readonly PermissionRule[];
  readonly deny: readonly PermissionRule[];
  readonly additionalDirectories: readonly PolicyDirectory[];
}

/** The policy with no rules. */
export const EMPTY_POLICY: PermissionPolicy = { allow: [], ask: [], deny: [], additionalDirectories: [] };

/** The `permissions` object of a settings or config file, as read from JSON. */
export interface PermissionLists {
  readonly allow?: readonly string[];
  readonly ask?: readonly string[];
  readonly deny?: readonly string[];
  readonly additionalDirectories?: readonly string[];
}

const BEHAVIORS: readonly RuleBehavior[] = ['allow', 'ask', 'deny'];

/**
 * Parses the lists of one source. `file` names the source in errors and in `print-config`;
 * `keyPrefix` is the JSON path of the lists (`permissions`). Throws {@link RuleSyntaxError} for the
 * first malformed rule, naming the file, the key path (`permissions.allow[2]`) and the rule.
 */
export function policyFrom(lists: PermissionLists | undefined, file: string, keyPrefix = 'permissions'): PermissionPolicy {
  if (!lists) return EMPTY_POLICY;
  const out: Record<RuleBehavior, PermissionRule[]> = { allow: [], ask: [], deny: [] };
  for (const b of BEHAVIORS) {
    (lists[b] ?? []).forEach((raw, i) => {
      out[b].push(parseRule(raw, b, { file, path: `${keyPrefix}.${b}[${i}]` }));
    });
  }
  const additionalDirectories = (lists.additionalDirectories ?? []).map((path, i) => ({
    path,
    origin: { file, path: `${keyPrefix}.additionalDirectories[${i}]` },
  }));
  return { ...out, additionalDirectories };
}

/** Concatenates policies in order (earlier sources first in each list). */
export function mergePolicies(...policies: readonly PermissionPolicy[]): PermissionPolicy {
  return {
    allow: policies.flatMap((p) => p.allow),
    ask: policies.flatMap((p) => p.ask),
    deny: policies.flatMap((p) => p.deny),
    additionalDirectories: policies.flatMap((p) => p.additionalDirectories),
  };
}

/** Number of rules in a policy. */
export function ruleCount(p: PermissionPolicy): number {
  return p.allow.length + p.ask.length + p.deny.length;
}

