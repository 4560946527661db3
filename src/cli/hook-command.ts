/**
 * `shellward hook`: answers one pre-tool-use hook event of Claude Code, Codex CLI or Gemini CLI
 * read on stdin, in that agent's protocol (src/hook/). The policy is `check`'s: the shellward
 * config and `.claude/settings*.json` found from the event's `cwd`, the verdict is
 * {@link verdictFor}'s; the event's permission mode replaces the configured one.
 *
 * Exit code and output follow the agent's protocol (0 and JSON, or 0 and nothing for a call that
 * is not a shell command); a usage error exits 2 with a message on stderr. Internal errors and
 * time-outs are answered `ask` (never silently allowed).
 *
 * The same function answers requests of `shellward serve` (serve-command.ts).
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { decisionRecord } from '../hook/decision-log.js';
import { answerHookInput, HOOK_AGENTS, MAX_EVENT_LENGTH, shellwardMode, type AskFallback, type DenyOn, type HookAgent, type HookMode, type HookOutcome, type HookReply, type ShellCall } from '../hook/index.js';
import { Linter } from '../lint.js';
import { initParser } from '../parse/parser.js';
import { verdictFor, type Verdict } from '../verdict.js';
import { requestCwd } from './check-command.js';
import { addConfigOptions, linterOptions, type ConfigCliOptions } from './config-options.js';
import { loadConfig } from '../config/load.js';
import { EXIT } from './exit-codes.js';
import { takePrereadInput } from './hook-input.js';
import { agentProjectDir } from './hook-socket.js';
import { flushOutput, readStdinText, writeOutput } from './std-io.js';

/** Parsed options of `shellward hook`. */
export interface HookCliOptions extends ConfigCliOptions {
  agent?: HookAgent;
  mode: HookMode;
  denyOn?: DenyOn;
  askAs: AskFallback;
  log?: string;
  /** Milliseconds (a string from the command line). */
  timeout: string | number;
}

/** Default `--timeout`: milliseconds before an unanswered event is answered `ask`. */
export const DEFAULT_HOOK_TIMEOUT_MS = 5000;

/** The values of `--mode`; the first is the default. */
export const HOOK_MODES: readonly HookMode[] = ['enforce', 'warn', 'log'];

/** The values of `--deny-on`. */
export const DENY_ON_LEVELS: readonly DenyOn[] = ['error'];

/** The values of `--ask-as`; the first is the default. */
export const ASK_AS_CHOICES: readonly AskFallback[] = ['deny', 'pass'];

/**
 * The default decision log of `--mode log`: `$XDG_STATE_HOME/shellward/decisions.jsonl`, else
 * `~/.local/state/shellward/decisions.jsonl` (outside the project, so it is never committed).
 */
export function defaultDecisionLog(env: NodeJS.ProcessEnv = process.env): string {
  const state = env.XDG_STATE_HOME?.startsWith('/') ? env.XDG_STATE_HOME : join(homedir(), '.local', 'state');
  return join(state, 'shellward', 'decisions.jsonl');
}

/** `--timeout` as a positive number of milliseconds, or `undefined` when it is not one. */
export function timeoutMs(value: string | number): number | undefined {
  const n = typeof value === 'number' ? value : /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * The verdict of one shell call run in `cwd`: the policy of the agent's `projectDir` when the
 * agent named one (see `agentProjectDir`), else the policy around `cwd`; the event's permission
 * mode; parsing bounded by `parseTimeoutMs`. Throws on a configuration error (the message names
 * the file).
 */
export async function judgeShellCall(call: ShellCall, opts: ConfigCliOptions, cwd: string, parseTimeoutMs: number, projectDir?: string): Promise<Verdict> {
  // Start loading the parser (the default one, which Linter.create uses too: initParser keeps
  // the first) before the configuration search: its wasm compiles off the main thread while the
  // search runs. A failure is reported by Linter.create below, which awaits the same promise.
  initParser().catch(() => {});
  const resolved = await loadConfig({
    cwd,
    ...(projectDir !== undefined ? { projectDir } : {}),
    ...(opts.config !== undefined ? { configFile: resolve(opts.config) } : {}),
    ...(opts.claudeSettings === false ? { claudeSettings: false } : {}),
  });
  const linter = await Linter.create({ ...linterOptions(resolved, opts, true), parseTimeoutMs });
  const mode = shellwardMode(call.permissionMode);
  return verdictFor(call.command, { cwd, ...(mode !== undefined ? { mode } : {}) }, linter);
}

/**
 * Answers the hook event `text` with `opts`; relative paths (`--config`, `--log`, an event
 * without `cwd`) are taken from `processCwd`; `projectDir` is the agent's project directory from
 * the hook's environment, whose policy applies wherever the event's `cwd` is. Writes the decision log when asked to. Resolves
 * to the reply to write; never rejects (an error becomes an `ask`, a log that cannot be written a
 * line on the reply's stderr).
 */
export async function answerHook(text: string, opts: HookCliOptions, processCwd: string, projectDir?: string): Promise<HookReply> {
  const limit = timeoutMs(opts.timeout) ?? DEFAULT_HOOK_TIMEOUT_MS;
  const absConfig = opts.config !== undefined ? { ...opts, config: resolve(processCwd, opts.config) } : opts;
  let judgedCwd: string | undefined;
  const work = answerHookInput(text, { ...(opts.agent ? { agent: opts.agent } : {}), mode: opts.mode, ...(opts.denyOn ? { denyOn: opts.denyOn } : {}), askFallback: opts.askAs }, (call) => {
    judgedCwd = requestCwd(call.cwd, processCwd);
    return judgeShellCall(call, absConfig, judgedCwd, limit, projectDir);
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((done) => {
    timer = setTimeout(() => done('late'), limit);
    timer.unref?.();
  });
  const first = await Promise.race([work, late]);
  clearTimeout(timer);
  const outcome: HookOutcome =
    first === 'late'
      ? await answerHookInput(text, { ...(opts.agent ? { agent: opts.agent } : {}), mode: opts.mode, askFallback: opts.askAs }, () => Promise.reject(new Error(`no verdict within ${limit} ms`)))
      : first;
  const logFile = opts.log ?? (opts.mode === 'log' ? defaultDecisionLog() : undefined);
  if (logFile === undefined) return outcome.reply;
  const record = decisionRecord(outcome, opts.mode, judgedCwd, new Date());
  if (!record) return outcome.reply;
  const path = resolve(processCwd, logFile);
  try {
    await mkdir(dirname(path), { recursive: true });
    await appendFile(path, JSON.stringify(record) + '\n');
    return outcome.reply;
  } catch (err) {
    return { ...outcome.reply, stderr: `${outcome.reply.stderr}shellward hook: cannot write the decision log ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}\n` };
  }
}

/**
 * Runs `shellward hook` on this process's stdin (or the event the socket client read), writes
 * the reply (flushed when it returns) and returns the exit code.
 */
export async function runHookCommand(opts: HookCliOptions): Promise<number> {
  if (timeoutMs(opts.timeout) === undefined) {
    writeOutput(2, `shellward hook: --timeout must be a positive number of milliseconds, not ${JSON.stringify(String(opts.timeout))}\n`);
    await flushOutput();
    return EXIT.ERROR;
  }
  // Read and written without Node's stream objects where the descriptors allow it (std-io.ts):
  // the streams cost a hook process about as much time as its configuration search.
  const text = takePrereadInput() ?? (await readStdinText(MAX_EVENT_LENGTH + 1));
  const reply = await answerHook(text, opts, process.cwd(), agentProjectDir());
  writeOutput(1, reply.stdout);
  writeOutput(2, reply.stderr);
  await flushOutput();
  return reply.exitCode;
}

const HELP_AFTER = `
Reads one hook event on stdin and answers it in the agent's protocol:
  claude-code  PreToolUse, tool Bash: {"hookSpecificOutput": {"permissionDecision": allow|ask|deny, ...}}
  codex        PreToolUse, tool Bash: a deny, or nothing (Codex hooks cannot allow or ask)
  gemini       BeforeTool, tool run_shell_command: {"decision": allow|deny, "reason": ...}
Other tools and events get no output. The policy is that of "shellward check" in the event's cwd.
An ask goes to Codex and Gemini as a deny with the reason (--ask-as deny), or as a warning
without a decision (--ask-as pass). A malformed event, an internal error or a time-out is
answered ask. When "shellward serve" runs, the answer comes from it (set SHELLWARD_NO_SERVER=1
to always answer in this process).
`;

/**
 * Adds `hook`'s options and help to `cmd` (shared by the subcommand and `shellward serve`, which
 * parses a client's arguments). hook-args.ts reads the same options without commander for a
 * hook run; test/cli/hook-args.test.ts keeps the two alike. Options are made with
 * `cmd.createOption` (commander's `new Option`), so that this module does not load commander.
 */
export function defineHookOptions(cmd: Command): Command {
  cmd
    .description("answer one pre-tool-use hook event (Claude Code, Codex CLI, Gemini CLI) on stdin in the agent's protocol")
    .addOption(cmd.createOption('--agent <agent>', 'the agent that sends the event (default: recognised from the event)').choices([...HOOK_AGENTS]))
    .addOption(cmd.createOption('--mode <mode>', 'enforce: send the decision; warn: never block, only show why; log: only write the decision log').choices([...HOOK_MODES]).default(HOOK_MODES[0]))
    .addOption(cmd.createOption('--deny-on <level>', 'deny dangerous removals and destructive commands of this severity, whatever the policy says').choices([...DENY_ON_LEVELS]))
    .addOption(cmd.createOption('--ask-as <answer>', 'what an ask becomes for agents whose hook cannot ask (Codex CLI, Gemini CLI)').choices([...ASK_AS_CHOICES]).default(ASK_AS_CHOICES[0]))
    .option('--log <file>', 'append every verdict to this JSONL decision log (read it with shellward audit); --mode log default: $XDG_STATE_HOME/shellward/decisions.jsonl')
    .option('--timeout <ms>', 'answer ask when no verdict is ready after this many milliseconds', String(DEFAULT_HOOK_TIMEOUT_MS))
    .addHelpText('after', HELP_AFTER);
  return addConfigOptions(cmd);
}

/** Adds the `hook` subcommand to `program`; `setExit` receives the exit code. */
export function registerHookCommand(program: Command, setExit: (code: number) => void): void {
  defineHookOptions(program.command('hook')).action(async (opts: HookCliOptions) => {
    setExit(await runHookCommand(opts));
  });
}
