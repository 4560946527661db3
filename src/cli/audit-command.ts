/**
 * `shellward audit PATH…`: reads agent transcripts (folders such as `~/.claude/projects`,
 * `~/.codex/sessions`, `~/.gemini/tmp`, or single files), gives every shell tool call its verdict
 * under the policy, and reports per session and overall (src/audit/). Files are recognised by
 * content; everything else under the paths is ignored. Formats: text (default), json, sarif
 * (one result per destructive call, at the transcript file and line), markdown.
 *
 * With `--sandbox`, the calls the policy allows are run again in a sandbox (src/sandbox/batch.ts)
 * and the report gains a section comparing each call's recorded outcome with the sandboxed one
 * (src/audit/sandbox.ts); asked and denied calls are never run.
 *
 * Progress goes to stderr, and only when stderr is a terminal. Exit codes: 0 when the audit ran
 * (whatever it found), 2 when a path or file could not be read, the configuration is invalid, or
 * `--sandbox` found no sandbox to run in.
 */
import type { Command } from 'commander';
import { InvalidArgumentError, Option } from 'commander';
import { splitSubcommands } from '../analyses/exit-code.js';
import { AuditAccumulator } from '../audit/aggregate.js';
import { AUDIT_FORMATS, formatAuditJson, formatAuditMarkdown, formatAuditText, type AuditFormat } from '../audit/format.js';
import { customPackRuleMetas } from '../checks/destructive/destructive-command.js';
import { RULES, ruleMeta } from '../checks/index.js';
import { lineHash, numberFingerprints } from '../core/fingerprint.js';
import type { Diagnostic } from '../core/types.js';
import { Linter } from '../lint.js';
import { formatSarif, type FileResult } from '../report/index.js';
import { displayPath, discover } from '../sources/discover.js';
import { detectTranscript, mayBeTranscript, readTranscriptFile, type SeenIds } from '../sources/transcript/index.js';
import { unitVerdict } from '../unit-verdicts.js';
import { verdictFor } from '../verdict.js';
import { addConfigOptions, linterOptions, loadCliConfig, type ConfigCliOptions } from './config-options.js';
import { EXIT } from './exit-codes.js';
import { emit, readPathList, sarifFileText } from './io.js';
import { VERSION } from './version.js';
import { open, stat } from 'node:fs/promises';
import { dirname, resolve as resolvePath, sep } from 'node:path';
import { sandboxSection, type AuditSandboxCall } from '../audit/sandbox.js';
import { escapeForTerminal } from '../report/index.js';
import { DEFAULT_SANDBOX_LIMIT, parseSandboxLimit } from '../sandbox/batch.js';
import { callFindings, compareOutcome } from '../sandbox/compare.js';
import { DEFAULT_TIMEOUT_MS } from '../sandbox/defaults.js';
import type { Verdict } from '../verdict.js';
import { parseTimeout } from './sandbox-check-command.js';

interface AuditOptions extends ConfigCliOptions {
  format: AuditFormat;
  output?: string;
  filesFrom?: string;
  sandbox?: boolean;
  sandboxLimit?: number;
  sandboxTimeout?: number;
}

/** `--sandbox-limit` for commander. */
function sandboxLimitOption(value: string): number {
  try {
    return parseSandboxLimit(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

async function head(path: string): Promise<string | undefined> {
  let fh: import('node:fs/promises').FileHandle | undefined;
  try {
    fh = await open(path, 'r');
    const buf = new Uint8Array(64 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return new TextDecoder().decode(buf.subarray(0, bytesRead));
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}

/**
 * The directory audit paths are shown relative to: the folder itself when `args` is one folder;
 * else `cwd` when every argument lies inside it; else the deepest directory that holds every
 * argument (a folder argument itself, a file's or glob's parent), so `audit ~/.claude/projects
 * ~/.codex/sessions` shows `.claude/projects/…` rather than `/home/me/.claude/projects/…` in a
 * job summary. Falls back to `cwd` when that directory would be the file-system root.
 */
export async function displayBase(args: readonly string[], cwd: string): Promise<string> {
  const isDir = (p: string): Promise<boolean> => stat(p).then((st) => st.isDirectory(), () => false);
  const abs = args.map((a) => resolvePath(cwd, a));
  if (abs.length === 1 && (await isDir(abs[0]!))) return abs[0]!;
  const inside = (p: string, dir: string): boolean => p === dir || p.startsWith(dir.endsWith(sep) ? dir : dir + sep);
  if (abs.every((p) => inside(p, cwd))) return cwd;
  // A glob's directory part is its literal prefix before the first pattern character.
  const dirs = await Promise.all(abs.map(async (p) => (/[*?[{]/.test(p) ? dirname(p.slice(0, p.search(/[*?[{]/)) + 'x') : (await isDir(p)) ? p : dirname(p))));
  let common = dirs[0]!;
  for (const d of dirs.slice(1)) while (!inside(d, common)) common = dirname(common);
  return common === dirname(common) ? cwd : common;
}

/** A one-line progress bar for stderr: `[#####     ] 12/40 files  18.2 MB  3 412 calls`. */
export function progressLine(done: number, total: number, bytes: number, calls: number, width = 24): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${done}/${total} files  ${(bytes / 1e6).toFixed(1)} MB  ${calls} calls`;
}

/** Runs `audit` and returns the exit code. */
export async function runAudit(paths: string[], opts: AuditOptions): Promise<number> {
  const cwd = process.cwd();
  const args = [...paths];
  if (opts.filesFrom) args.push(...(await readPathList(opts.filesFrom)));
  if (args.length === 0) {
    process.stderr.write('shellward audit: give one or more transcript files or folders (e.g. ~/.claude/projects)\n');
    return EXIT.ERROR;
  }
  const resolved = await loadCliConfig(opts, cwd);
  if (!resolved) return EXIT.ERROR;
  const { candidates, errors } = await discover(args, cwd);
  // Paths are shown relative to the folder audited when one folder is given (`audit ~/.codex/sessions`).
  const base = await displayBase(args, cwd);
  for (const e of errors) process.stderr.write(`shellward: ${e.arg}: ${e.message}\n`);
  let failed = errors.length > 0;
  const linter = await Linter.create(linterOptions(resolved, opts));
  // A call's suggested rules are credited only when, all added, they make its verdict `allow`
  // (`curl … | sh` gets `Bash(curl …)` suggested, which leaves the `sh` asked); the accumulator
  // caches the answer per command, working directory and rule set.
  const acc = new AuditAccumulator((command, cwd, rules) =>
    verdictFor(command, { ...(cwd !== undefined ? { cwd } : {}), permissions: { allow: [...rules] } }, linter).decision === 'allow',
  );
  const seen: SeenIds = new Set();
  const sarifResults = new Map<string, Diagnostic[]>();
  const progress = process.stderr.isTTY === true;
  const files = candidates.filter((c) => c.explicit || mayBeTranscript(c.path));
  let done = 0;
  let bytes = 0;
  let calls = 0;
  // --sandbox: the calls the policy allows, run after reading (src/sandbox/batch.ts); the others are only counted.
  const allowed: (AuditSandboxCall & { readonly verdict: Verdict })[] = [];
  const refused = { ask: 0, deny: 0 };
  for (const c of files) {
    const text = await head(c.path);
    const format = text === undefined ? undefined : detectTranscript(text);
    done++;
    if (!format) continue;
    const file = displayPath(c.path, base);
    acc.addFile(file);
    try {
      const st = await readTranscriptFile(c.path, file, format, seen, {
        call(call) {
          calls++;
          const v = unitVerdict(linter, call.unit, 'tool-call', { lineShift: call.lineShift });
          acc.add({ file, range: v.range, command: v.command, context: call.unit.context ?? {}, verdict: v.verdict });
          if (opts.sandbox) {
            if (v.verdict.decision === 'allow') allowed.push({ file, range: v.range, command: v.command, context: call.unit.context ?? {}, verdict: v.verdict });
            else refused[v.verdict.decision]++;
          }
          if (opts.format === 'sarif' && v.verdict.destructive.length > 0) {
            const list = sarifResults.get(file) ?? [];
            for (const id of v.verdict.destructive) {
              const outcome = call.unit.context?.outcome ?? 'unknown';
              const ran = outcome === 'ran' || outcome === 'backgrounded' || outcome === 'interrupted';
              const exit = call.unit.context?.exitCode !== undefined ? `, exit ${call.unit.context.exitCode}` : '';
              list.push({
                ruleId: id,
                severity: ran ? 'error' : 'note',
                message: `${ruleMeta(id)?.title ?? id} — recorded outcome: ${outcome}${exit}.`,
                file,
                range: v.range,
                fingerprint: lineHash(id, `${call.unit.context?.toolUseId ?? ''}\n${v.command}`),
              });
            }
            sarifResults.set(file, list);
          }
        },
        error() {
          acc.addParseError();
        },
      });
      bytes += st.bytes;
    } catch (err) {
      failed = true;
      process.stderr.write(`${progress ? '\r\x1b[K' : ''}shellward: ${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})\n`);
    }
    if (progress) process.stderr.write(`\r\x1b[K${progressLine(done, files.length, bytes, calls)}`);
  }
  if (progress) process.stderr.write('\r\x1b[K');
  // A suggestion (its rules added together) is left out when it would allow a refused or
  // destructive command, or the destructive or denied part of one (`Bash(git push:*)` and
  // `git add -A && git push --force`).
  const risky = new Map<string, string[]>();
  const riskyParts = (command: string, cwd: string | undefined): string[] => {
    let parts = risky.get(command);
    if (!parts) {
      const subs = splitSubcommands(command);
      parts = [command, ...(subs.length > 1 ? subs.filter((p) => {
        const v = verdictFor(p, cwd !== undefined ? { cwd } : {}, linter);
        return v.destructive.length > 0 || v.decision === 'deny';
      }) : [])];
      risky.set(command, parts);
    }
    return parts;
  };
  let report = acc.finish((rules, cmd) =>
    riskyParts(cmd.command, cmd.cwd).some((p) => verdictFor(p, { ...(cmd.cwd !== undefined ? { cwd: cmd.cwd } : {}), permissions: { allow: [...rules] } }, linter).decision === 'allow'),
  );
  if (opts.sandbox) {
    const { runSandboxBatch } = await import('../sandbox/batch.js');
    const batch = await runSandboxBatch(
      allowed.map((a) => ({ command: a.command, ...(a.context.cwd !== undefined ? { cwd: a.context.cwd } : {}), verdict: a.verdict })),
      {
        ...(opts.sandboxLimit !== undefined ? { limit: opts.sandboxLimit } : {}),
        ...(opts.sandboxTimeout !== undefined ? { timeoutMs: opts.sandboxTimeout } : {}),
        ...(progress ? { onRun: (n: number, total: number) => process.stderr.write(`\r\x1b[Ksandbox: ${n}/${total} commands run`) } : {}),
      },
    );
    if (progress) process.stderr.write('\r\x1b[K');
    report = { ...report, sandbox: sandboxSection(allowed, batch, refused) };
    if (batch.status === 'unavailable') {
      failed = true;
      process.stderr.write(`shellward: --sandbox: no sandbox is available (${batch.reason}): ${escapeForTerminal(batch.message)}; no command was run\n`);
    }
    if (opts.format === 'sarif') {
      const profile = resolved.config.profile?.transcript ?? 'agent';
      batch.entries.forEach((entry, i) => {
        if (entry.status !== 'ran') return;
        const a = allowed[i]!;
        const { result, place } = entry.run;
        const found = callFindings(result, compareOutcome(a.command, a.context, result, place), place, (id, requested) => linter.severityFor(id, { profile }, requested));
        if (found.length === 0) return;
        const list = sarifResults.get(a.file) ?? [];
        for (const f of found) list.push({ ...f, file: a.file, range: a.range, fingerprint: lineHash(f.ruleId, `${a.context.toolUseId ?? ''}\n${a.command}`) });
        sarifResults.set(a.file, list);
      });
    }
  }
  let out: string;
  switch (opts.format) {
    case 'json':
      out = formatAuditJson(report, VERSION);
      break;
    case 'markdown':
      out = formatAuditMarkdown(report);
      break;
    case 'sarif': {
      const results: FileResult[] = [...sarifResults].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([file, ds]) => {
        const fps = numberFingerprints(ds.map((d) => d.fingerprint));
        return { file, diagnostics: ds.map((d, i) => ({ ...d, fingerprint: fps[i]! })) };
      });
      // Result paths are relative to `base` (the one folder audited, else cwd), so read the files from there.
      out = formatSarif({ results, rules: [...RULES, ...customPackRuleMetas(resolved.packs)], toolVersion: VERSION, filesAnalysed: report.files }, { fileText: sarifFileText(base) });
      break;
    }
    default:
      out = formatAuditText(report);
  }
  await emit(out, opts.output);
  return failed ? EXIT.ERROR : EXIT.OK;
}

/** Adds the `audit` subcommand to `program`; `setExit` receives the exit code. */
export function registerAuditCommand(program: Command, setExit: (code: number) => void): void {
  const audit = program
    .command('audit')
    .description('audit agent transcripts (Claude Code, Codex, Gemini CLI): what ran, what the policy says, what failed, which rules would save prompts')
    .argument('[paths...]', 'transcript files or folders (e.g. ~/.claude/projects ~/.codex/sessions ~/.gemini/tmp)')
    .addOption(new Option('-f, --format <format>', 'output format').choices([...AUDIT_FORMATS]).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .option('--files-from <file>', 'read more paths from a file, one per line (- for stdin)')
    .option('--sandbox', 'also run the calls the policy allows in a sandbox (bubblewrap / sandbox-exec) and compare each recorded outcome with the sandboxed one; never runs asked or denied calls; exit 2 when no sandbox is available')
    .addOption(new Option('--sandbox-limit <n>', 'with --sandbox: most distinct commands run').argParser(sandboxLimitOption).default(DEFAULT_SANDBOX_LIMIT))
    .addOption(new Option('--sandbox-timeout <ms>', 'with --sandbox: time-out of each command in milliseconds').argParser(parseTimeout).default(DEFAULT_TIMEOUT_MS));
  addConfigOptions(audit).action(async (paths: string[], opts: AuditOptions) => {
    setExit(await runAudit(paths, opts));
  });
}
