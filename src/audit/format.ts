/**
 * Output formats of `shellward audit` (text, json, markdown; SARIF is built by the CLI from the
 * destructive calls' diagnostics with the lint SARIF builder). Pure: each returns a string ending
 * with a newline. Recorded commands are attacker-controlled text: the text format escapes them for
 * the terminal, the markdown format for tables and inline code.
 */
import { escapeForTerminal } from '../report/text.js';
import type { AuditCounts, AuditExample, AuditReport } from './aggregate.js';
import type { AuditSandboxExample, AuditSandboxReport } from './sandbox.js';

/** Output formats of `audit`. */
export const AUDIT_FORMATS = ['text', 'json', 'sarif', 'markdown'] as const;
/** One of {@link AUDIT_FORMATS}. */
export type AuditFormat = (typeof AUDIT_FORMATS)[number];

/**
 * Version of the audit JSON document; bumped on incompatible changes. 2: a suggestion's `rule` may
 * join several rules with ` + ` (its `rules` lists them), and suggestions are verified.
 */
export const AUDIT_JSON_VERSION = 2;

function countsLine(c: AuditCounts): string {
  return (
    `calls ${c.calls} · ran ${c.ran} · rejected by the user ${c.rejected} · denied ${c.denied} · cancelled ${c.cancelled}` +
    ` · interrupted ${c.interrupted} · backgrounded ${c.backgrounded} · no result ${c.unknown}`
  );
}

/**
 * The "no rule would help" count with what it is out of (`head`), and why no allow rule is
 * suggested for those calls (`why`: one phrase per reason that occurs, with its count).
 */
function noRuleHelps(r: AuditReport): { head: string; why: string[] } {
  const n = (k: number): string => `${k} call${k === 1 ? '' : 's'}`;
  const b = r.noRuleBecause;
  const why = [
    b.destructive > 0 ? `${n(b.destructive)} matching a destructive-command rule: none is suggested, it would let them run unprompted` : '',
    b.askRule > 0 ? `${n(b.askRule)} matching an ask rule, which an allow rule does not override` : '',
    b.paths > 0 ? `${n(b.paths)} asked for their paths or options, not for the command` : '',
    b.checks > 0 ? `${n(b.checks)} asked by a security or parse check` : '',
    b.fellShort > 0 ? `${n(b.fellShort)} whose suggested rules would still leave a part asked (e.g. a pipe into sh)` : '',
  ].filter((x) => x !== '');
  return { head: `${r.noRuleHelps} of ${n(r.askedAndRun)} asked and run`, why };
}

function oneLine(command: string, max = 100): string {
  const flat = command.replace(/\s*\n\s*/g, ' ⏎ ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Columns a line of the text report is cut to (one screen: about 50 lines of 100 columns). */
export const TEXT_WIDTH = 100;

/**
 * A transcript path for one line of the text report: its file name only (the folder names the
 * agent's project, the JSON report has the whole path), with a long name cut in the middle to
 * `max` characters (`a5b94422-8b76…256a84.jsonl`).
 */
function shortPath(path: string, max: number): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.length > max ? `${name.slice(0, max - 14)}…${name.slice(name.length - 13)}` : name;
}

/** One example on one line of at most {@link TEXT_WIDTH} columns: where, the command (cut), outcome and detail. */
function exampleText(x: AuditExample): string {
  const exit = x.exitCode !== undefined ? `, exit ${x.exitCode}` : '';
  const where = `${escapeForTerminal(shortPath(x.file, 28))}:${x.line}`;
  const tail = `(${x.outcome}${exit}: ${escapeForTerminal(oneLine(x.detail, 32))})`;
  const room = Math.max(20, TEXT_WIDTH - 2 - where.length - 2 - 2 - tail.length);
  return `${where}  ${escapeForTerminal(oneLine(x.command, room))}  ${tail}`;
}

/** Examples shown per section of the markdown report; the rest is counted. */
export const SECTION_LIMIT = 5;
/** Examples shown per section of the text report, suggestions shown, and sessions listed one by one (more are summed up per agent). */
export const TEXT_SECTION_LIMIT = 3;
const TEXT_SUGGESTIONS = 5;
const TEXT_SESSIONS = 4;

/** The report's leading sections, in the order a reviewer asks: title, total count, examples. */
function sections(r: AuditReport): { title: string; total: number; examples: AuditExample[] }[] {
  const o = r.overall;
  const all = (pick: (s: AuditReport['sessions'][number]) => readonly AuditExample[]): AuditExample[] => r.sessions.flatMap((s) => [...pick(s)]);
  return [
    { title: 'Destructive commands that ran', total: o.destructiveRan, examples: all((s) => s.destructive) },
    { title: 'Denied or rejected calls (never ran)', total: o.denied + o.rejected, examples: [...all((s) => s.denied), ...all((s) => s.rejected)] },
    { title: 'Commands outside the project that ran', total: o.outsideCwdRan, examples: all((s) => s.outside) },
    { title: 'Secrets seen in command lines (masked)', total: o.secrets, examples: all((s) => s.secrets) },
    { title: 'sudo calls that ran', total: o.sudoRan, examples: all((s) => s.sudo) },
    { title: 'Failures (exit-code semantics)', total: o.failed, examples: all((s) => s.failures) },
  ];
}

/** The outside-the-project count, with the calls it cannot speak for. */
function outsideNote(c: AuditCounts): string {
  return c.outsideCwdUnknown > 0 ? ` (not known for ${c.outsideCwdUnknown} call${c.outsideCwdUnknown === 1 ? '' : 's'} with no recorded working directory)` : '';
}

/** The readable report: what matters first (each section capped, the rest counted), then sessions and suggestions. */
export function formatAuditText(r: AuditReport): string {
  const o = r.overall;
  const lines = [
    `shellward audit: ${r.files} transcript file${r.files === 1 ? '' : 's'}, ${r.sessions.length} session${r.sessions.length === 1 ? '' : 's'}, ${o.calls} shell call${o.calls === 1 ? '' : 's'}` +
      (o.notAnalysed > 0 ? ` (${o.notAnalysed} not analysed: PowerShell or cmd.exe)` : '') +
      (r.parseErrors > 0 ? `, ${r.parseErrors} unreadable line${r.parseErrors === 1 ? '' : 's'}` : ''),
    `  ${countsLine(o)}`,
    `  policy decisions: allow ${o.decisions.allow} · ask ${o.decisions.ask} · deny ${o.decisions.deny}`,
  ];
  for (const sec of sections(r)) {
    const extra = sec.title.startsWith('Commands outside') ? outsideNote(o) : sec.title.startsWith('Failures') && o.benignNonZero > 0 ? ` (not counted: ${o.benignNonZero} non-zero exit${o.benignNonZero === 1 ? '' : 's'} that mean no error, e.g. grep exit 1)` : '';
    lines.push('', `${sec.title}: ${sec.total}${extra}`);
    for (const x of sec.examples.slice(0, TEXT_SECTION_LIMIT)) lines.push(`  ${exampleText(x)}`);
    const rest = sec.total - Math.min(sec.examples.length, TEXT_SECTION_LIMIT);
    if (rest > 0 && sec.examples.length > 0) lines.push(`  … and ${rest} more (--format json lists up to ${MAX_EXAMPLES_NOTE} per session)`);
  }
  const combined = r.suggestions.some((s) => s.rules.length > 1);
  lines.push('', `Rules that would have saved prompts (at least 2 asked-and-run calls each; in each agent's syntax${combined ? '; A + B: add both' : ''})`);
  if (r.suggestions.length === 0) lines.push('  none');
  for (const s of r.suggestions.slice(0, TEXT_SUGGESTIONS)) lines.push(`  ${String(s.covers).padStart(5)}  ${s.agent.padEnd(11)} ${escapeForTerminal(s.native.join(' + '))}`);
  if (r.suggestions.length > TEXT_SUGGESTIONS) lines.push(`  … and ${r.suggestions.length - TEXT_SUGGESTIONS} more (--format markdown or json lists them)`);
  const none = noRuleHelps(r);
  lines.push(`  no rule would help: ${none.head}`, ...none.why.map((w) => `    ${w}`));
  if (r.excludedSuggestions.length > 0) lines.push(`  left out (would also allow a denied, rejected or destructive command): ${r.excludedSuggestions.map(escapeForTerminal).join(', ')}`);
  if (r.sessions.length > TEXT_SESSIONS) {
    // Many sessions: one line per agent (the markdown and JSON reports list every session).
    const byAgent = new Map<string, { sessions: number; calls: number; ran: number; destructive: number; failed: number }>();
    for (const s of r.sessions) {
      const a = byAgent.get(s.agent) ?? { sessions: 0, calls: 0, ran: 0, destructive: 0, failed: 0 };
      a.sessions++;
      a.calls += s.counts.calls;
      a.ran += s.counts.ran;
      a.destructive += s.counts.destructiveRan;
      a.failed += s.counts.failed;
      byAgent.set(s.agent, a);
    }
    lines.push('', `Sessions (${r.sessions.length}; --format markdown lists each)`);
    for (const [agent, a] of byAgent) lines.push(`  ${agent.padEnd(11)} ${a.sessions} session${a.sessions === 1 ? '' : 's'}: ${a.calls} calls, ran ${a.ran}, destructive ${a.destructive}, failed ${a.failed}`);
  } else {
    lines.push('', 'Sessions');
    for (const s of r.sessions) {
      const c = s.counts;
      lines.push(
        `  ${s.agent} ${escapeForTerminal(s.sessionId)}${s.firstTimestamp ? ` ${s.firstTimestamp}` : ''}: ${c.calls} call${c.calls === 1 ? '' : 's'}, ran ${c.ran}, ` +
          `destructive ${c.destructiveRan}, failed ${c.failed}, denied/rejected ${c.denied + c.rejected}` +
          (c.notAnalysed > 0 ? `, not analysed (PowerShell) ${c.notAnalysed}` : '') +
          (c.outsideCwdUnknown > 0 ? ', no recorded cwd' : ''),
      );
    }
  }
  if (r.sandbox) lines.push('', ...sandboxText(r.sandbox));
  return lines.join('\n') + '\n';
}

/** How many examples per list and session the JSON report keeps. */
const MAX_EXAMPLES_NOTE = 20;

/** The JSON document: `{version, tool, ...AuditReport}`, indented by 2 spaces. */
export function formatAuditJson(r: AuditReport, toolVersion: string): string {
  return JSON.stringify({ version: AUDIT_JSON_VERSION, tool: { name: 'shellward', version: toolVersion }, ...r }, null, 2) + '\n';
}

function md(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;')).replace(/\r?\n/g, ' ');
}

function code(s: string): string {
  const t = oneLine(s, 120).replace(/\|/g, '\\|');
  const fence = t.includes('`') ? '``' : '`';
  return `${fence}${fence.length > 1 ? ' ' : ''}${t}${fence.length > 1 ? ' ' : ''}${fence}`;
}

/** Markdown for a job summary or a pull-request comment. */
export function formatAuditMarkdown(r: AuditReport): string {
  const o = r.overall;
  const out = [
    '## shellward audit',
    '',
    `${r.files} transcript files · ${r.sessions.length} sessions · ${o.calls} shell calls${r.parseErrors > 0 ? ` · ${r.parseErrors} unreadable lines` : ''}`,
    '',
    `| | calls | ran | rejected | denied | cancelled | interrupted | allow | ask | deny | destructive ran |${r.outsideCwdEstablished ? ' outside cwd ran |' : ''} failed |`,
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${r.outsideCwdEstablished ? '---:|' : ''}---:|`,
  ];
  const row = (name: string, c: AuditCounts): string =>
    `| ${name} | ${c.calls} | ${c.ran} | ${c.rejected} | ${c.denied} | ${c.cancelled} | ${c.interrupted} | ${c.decisions.allow} | ${c.decisions.ask} | ${c.decisions.deny} | ${c.destructiveRan} |${r.outsideCwdEstablished ? ` ${c.outsideCwdRan} |` : ''} ${c.failed} |`;
  out.push(row('**all**', o));
  for (const s of r.sessions) out.push(row(`${md(s.agent)} \`${md(s.sessionId.slice(0, 13))}\``, s.counts));
  for (const sec of sections(r)) {
    const extra = sec.title.startsWith('Commands outside') ? outsideNote(o) : '';
    out.push('', `### ${sec.title}: ${sec.total}${md(extra)}`);
    if (sec.examples.length === 0) continue;
    out.push('', '| where | command | detail |', '|---|---|---|');
    for (const x of sec.examples.slice(0, SECTION_LIMIT)) out.push(`| ${md(x.file)}:${x.line} | ${code(x.command)} | ${md(x.outcome)}${x.exitCode !== undefined ? ` exit ${x.exitCode}` : ''}: ${md(x.detail)} |`);
    const rest = sec.total - Math.min(sec.examples.length, SECTION_LIMIT);
    if (rest > 0) out.push('', `… and ${rest} more.`);
  }
  out.push('', '### Rules that would have saved prompts', '');
  if (r.suggestions.length === 0) out.push('None.');
  else {
    out.push('| agent | rules (add all of a row) | asked-and-run calls they allow |', '|---|---|---:|');
    for (const s of r.suggestions) out.push(`| ${md(s.agent)} | ${s.native.map((x) => code(x)).join(' + ')} | ${s.covers} |`);
  }
  const none = noRuleHelps(r);
  out.push('', `No rule would help: ${md(none.head)}.`, ...(none.why.length > 0 ? ['', ...none.why.map((w) => `- ${md(w)}`)] : []));
  if (r.excludedSuggestions.length > 0) out.push('', `Left out because they would also allow a denied, rejected or destructive command: ${r.excludedSuggestions.map(code).join(', ')}`);
  if (r.sandbox) out.push('', ...sandboxMarkdown(r.sandbox));
  return out.join('\n') + '\n';
}

function sandboxedText(x: AuditSandboxExample): string {
  const rec = `${x.recorded.outcome}${x.recorded.exitCode !== undefined ? ` exit ${x.recorded.exitCode}` : ''}`;
  const sb = x.sandboxed ? `; sandbox: ${x.sandboxed.exitCode === null ? 'no exit code' : `exit ${x.sandboxed.exitCode}`} (${x.sandboxed.kind})` : '';
  return `recorded: ${rec}${sb}`;
}

/** The counts line of the sandbox section: what ran and what never did. */
function sandboxCounts(s: AuditSandboxReport): string[] {
  const c = s.counts;
  const n = (k: number, one: string, many = `${one}s`): string => `${k} ${k === 1 ? one : many}`;
  return [
    s.status === 'unavailable'
      ? `no sandbox is available (${s.message ?? ''}): ${c.ran > 0 ? `stopped after ${n(c.ran, 'command')}` : 'no command was run'}`
      : `commands run: ${c.ran} distinct (for ${n(c.allowed, 'call')} the policy allows, of ${c.calls})`,
    `never run: ${n(c.refusedAsk, 'call')} the policy asks about, ${c.refusedDeny} it denies` +
      (c.overLimit > 0 ? `, ${n(c.overLimit, 'command')} over the limit of ${s.limit} (--sandbox-limit)` : '') +
      (c.errors > 0 ? `, ${n(c.errors, 'command')} that could not be run` : ''),
    `recorded vs sandboxed: agree ${s.agreement.agree} · mismatch ${s.agreement.mismatch} · not comparable ${s.agreement.notComparable} (not run to completion when recorded, or no exit code)`,
    `failed in the sandbox: ${s.failedInSandbox}` +
      (s.environmentDiffers > 0 ? ` · ran in an empty directory (recorded working directory not available here): ${s.environmentDiffers}` : '') +
      ` · read-only commands that wrote files: ${s.wroteFiles}`,
  ];
}

/** Commands run listed in the text report. */
const MAX_RUNS_SHOWN = 20;

/** The sandbox section of the text report. */
function sandboxText(s: AuditSandboxReport): string[] {
  const lines = ['Sandbox (calls the policy allows, run again; asked and denied calls are never run)', ...sandboxCounts(s).map((l) => `  ${escapeForTerminal(l)}`)];
  if (s.runs.length > 0) lines.push('  commands run:');
  for (const x of s.runs.slice(0, MAX_RUNS_SHOWN)) {
    const status = x.exitCode === null ? x.kind : `exit ${x.exitCode} (${x.kind})`;
    const wrote = x.filesWritten.length > 0 ? `, wrote ${x.filesWritten.length} file${x.filesWritten.length === 1 ? '' : 's'}` : '';
    lines.push(`    ${escapeForTerminal(oneLine(x.command))}  (${status}, ${x.durationMs} ms${wrote}; ${x.calls} call${x.calls === 1 ? '' : 's'}${x.cwdSubstituted ? '; in an empty directory' : ''})`);
  }
  if (s.runs.length > MAX_RUNS_SHOWN) lines.push(`    … and ${s.runs.length - MAX_RUNS_SHOWN} more (--format json lists them all)`);
  for (const [title, list] of [['mismatches', s.mismatches], ['read-only, wrote files', s.wrote], ['could not be run', s.errors]] as const) {
    if (list.length === 0) continue;
    lines.push(`  ${title}:`);
    for (const x of list) {
      lines.push(`    ${escapeForTerminal(x.file)}:${x.line}:${x.column}  ${escapeForTerminal(oneLine(x.command))}  (${sandboxedText(x)}${x.cause ? `; ${x.cause}` : ''})`);
      lines.push(`      ${escapeForTerminal(x.detail)}`);
    }
  }
  return lines;
}

/** The sandbox section of the markdown report. */
function sandboxMarkdown(s: AuditSandboxReport): string[] {
  const out = ['### Sandbox', '', 'Calls the policy allows, run again in the sandbox; asked and denied calls are never run.', '', ...sandboxCounts(s).map((l) => `- ${md(l)}`)];
  for (const [title, list] of [['Mismatches', s.mismatches], ['Read-only commands that wrote files', s.wrote], ['Could not be run', s.errors]] as const) {
    if (list.length === 0) continue;
    out.push('', `#### ${title}`, '', '| where | command | outcome | detail |', '|---|---|---|---|');
    for (const x of list) out.push(`| ${md(x.file)}:${x.line} | ${code(x.command)} | ${md(sandboxedText(x))} | ${md(x.detail)} |`);
  }
  return out;
}
