/**
 * The options of `shellward hook` read without commander. A hook process is started for every
 * shell command an agent runs, and loading and running commander was a measurable part of its
 * start-up; the arguments an agent's hook entry passes are a few of the options below. This
 * reader handles exactly the argument lists commander would parse without an error or help
 * text, and gives them up (`undefined`) at the first thing that is not plainly one of them, so
 * commander still answers everything else (help, usage errors) with its usual messages.
 * test/cli/hook-args.test.ts checks that for every option `defineHookOptions` declares, both
 * read the same.
 */
import { HOOK_AGENTS } from '../hook/index.js';
import { PERMISSION_MODE_CHOICES } from './config-options.js';
import { ASK_AS_CHOICES, DEFAULT_HOOK_TIMEOUT_MS, DENY_ON_LEVELS, HOOK_MODES, type HookCliOptions } from './hook-command.js';

/** Each option taking a value: its key in {@link HookCliOptions} and, when restricted, the values allowed. */
const VALUE_OPTIONS: ReadonlyMap<string, { readonly key: keyof HookCliOptions; readonly choices?: readonly string[] }> = new Map([
  ['--agent', { key: 'agent', choices: HOOK_AGENTS }],
  ['--mode', { key: 'mode', choices: HOOK_MODES }],
  ['--deny-on', { key: 'denyOn', choices: DENY_ON_LEVELS }],
  ['--ask-as', { key: 'askAs', choices: ASK_AS_CHOICES }],
  ['--log', { key: 'log' }],
  ['--timeout', { key: 'timeout' }],
  ['--config', { key: 'config' }],
  ['--permission-mode', { key: 'permissionMode', choices: PERMISSION_MODE_CHOICES }],
]);

/**
 * The options of `shellward hook ARGS` (`args`: the arguments after `hook`), equal to what
 * commander gives the action with `defineHookOptions` (defaults included: `mode` `enforce`,
 * `askAs` `deny`, `timeout` `'5000'` as a string, `claudeSettings` `true`). Reads `--name value`
 * and `--name=value` for the options with a value (the last one given wins, as in commander)
 * and `--no-claude-settings`. Returns `undefined`, so that the caller asks commander, for
 * anything else: an unknown option or an argument, `-h`/`--help`, `--`, a missing or empty
 * value, a value starting with `-`, or one not among an option's choices. Never throws.
 */
export function quickHookArgs(args: readonly string[]): HookCliOptions | undefined {
  const opts: Record<string, string | boolean> = { mode: HOOK_MODES[0]!, askAs: ASK_AS_CHOICES[0]!, timeout: String(DEFAULT_HOOK_TIMEOUT_MS), claudeSettings: true };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--no-claude-settings') {
      opts.claudeSettings = false;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const option = VALUE_OPTIONS.get(name);
    if (option === undefined) return undefined;
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '' || value.startsWith('-')) return undefined;
    if (option.choices !== undefined && !option.choices.includes(value)) return undefined;
    opts[option.key] = value;
  }
  return opts as unknown as HookCliOptions;
}
