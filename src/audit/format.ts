/**
 * Output formats of `shellward audit` (text, json, markdown; SARIF is built by the CLI from the
 * destructive calls' diagnostics with the lint SARIF builder). Pure: each returns a string ending
 * with a newline. Recorded commands are attacker-controlled text: the text format escapes them for
 * the terminal, the markdown format for tables and inline code.
 */
import { escapeForTerminal } from '../report/text.js';
import type { AuditCounts, AuditExample, AuditReport } from './aggregate.js';

/** Output formats of `audit`. */
export const AUDIT_FORMATS = ['text', 'json', 'sarif', 'markdown'] as const;
/** One of {@link AUDIT_FORMATS}. */
export type AuditFormat = (typeof AUDIT_FORMATS)[number];

/** Version of the audit JSON document; bumped on incompatible changes. */
export const AUDIT_JSON_VERSION = 1;

function countsLine(c: AuditCounts): string {
  return (
    `calls ${c.calls} · ran ${c.ran} · rejected by the user ${c.rejected} · denied ${c.denied} · cancelled ${c.cancelled}` +
    ` · interrupted ${c.interrupted} · backgrounded ${c.backgrounded} · no result ${c.unknown}`
  );
}

function oneLine(command: string, max = 100): string {
  const flat = command.replace(/\s*\n\s*/g, ' ⏎ ');
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function exampleText(x: AuditExample): string {
  const exit = x.exitCode !== undefined ? `, exit ${x.exitCode}` : '';
  return `${escapeForTerminal(x.file)}:${x.line}:${x.column}  ${escapeForTerminal(oneLine(x.command))}  (${x.outcome}${exit}: ${escapeForTerminal(x.detail)})`;
}

/** The readable report. */
export function formatAuditText(r: AuditReport): string {
  const o = r.overall;
  const lines = [
    `shellward audit: ${r.files} transcript file${r.files === 1 ? '' : 's'}, ${r.sessions.length} session${r.sessions.length === 1 ? '' : 's'}, ${o.calls} shell call${o.calls === 1 ? '' : 's'}` +
      (r.parseErrors > 0 ? `, ${r.parseErrors} unreadable line${r.parseErrors === 1 ? '' : 's'}` : ''),
    '',
    'Overall',
    `  ${countsLine(o)}`,
    `  policy decisions: allow ${o.decisions.allow} · ask ${o.decisions.ask} · deny ${o.decisions.deny}`,
    `  destructive commands that ran: ${o.destructiveRan}`,
    `  commands outside the working directory that ran: ${r.outsideCwdEstablished ? o.outsideCwdRan : 'not established (the verdicts do not check paths yet)'}`,
    `  failures (exit-code semantics): ${o.failed}` + (o.benignNonZero > 0 ? ` (not counted: ${o.benignNonZero} non-zero exit${o.benignNonZero === 1 ? '' : 's'} that mean no error, e.g. grep exit 1)` : ''),
  ];
  for (const s of r.sessions) {
    const c = s.counts;
    lines.push('', `${s.agent} session ${escapeForTerminal(s.sessionId)}${s.firstTimestamp ? `  ${s.firstTimestamp} – ${s.lastTimestamp ?? ''}` : ''}`);
    lines.push(`  ${countsLine(c)}`);
    const outside = r.outsideCwdEstablished ? ` · outside cwd ran ${c.outsideCwdRan}` : '';
    lines.push(`  policy: allow ${c.decisions.allow} · ask ${c.decisions.ask} · deny ${c.decisions.deny} · destructive ran ${c.destructiveRan}${outside} · failed ${c.failed}`);
    for (const [title, list] of [['destructive, ran', s.destructive], ['failed', s.failures], ['rejected by the user', s.rejected]] as const) {
      if (list.length === 0) continue;
      lines.push(`  ${title}:`);
      for (const x of list) lines.push(`    ${exampleText(x)}`);
    }
  }
  lines.push('', 'Rules that would have saved prompts (asked-and-run calls each would allow)');
  if (r.suggestions.length === 0) lines.push('  none');
  for (const s of r.suggestions) lines.push(`  ${String(s.covers).padStart(5)}  ${escapeForTerminal(s.rule)}`);
  if (r.excludedSuggestions.length > 0) lines.push(`  left out (would also allow a denied, rejected or destructive command): ${r.excludedSuggestions.map(escapeForTerminal).join(', ')}`);
  return lines.join('\n') + '\n';
}

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
  const examples = r.sessions.flatMap((s) => s.destructive);
  if (examples.length > 0) {
    out.push('', '### Destructive commands that ran', '', '| where | command | rules |', '|---|---|---|');
    for (const x of examples) out.push(`| ${md(x.file)}:${x.line} | ${code(x.command)} | ${md(x.detail)} |`);
  }
  const failures = r.sessions.flatMap((s) => s.failures);
  if (failures.length > 0) {
    out.push('', '### Failures', '', '| where | command | result |', '|---|---|---|');
    for (const x of failures) out.push(`| ${md(x.file)}:${x.line} | ${code(x.command)} | ${md(x.detail)} |`);
  }
  out.push('', '### Rules that would have saved prompts', '');
  if (r.suggestions.length === 0) out.push('None.');
  else {
    out.push('| rule | asked-and-run calls it allows |', '|---|---:|');
    for (const s of r.suggestions) out.push(`| ${code(s.rule)} | ${s.covers} |`);
  }
  if (r.excludedSuggestions.length > 0) out.push('', `Left out because they would also allow a denied, rejected or destructive command: ${r.excludedSuggestions.map(code).join(', ')}`);
  return out.join('\n') + '\n';
}
