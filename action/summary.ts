/**
 * The Action's annotations plan and job summary (pure): which findings become annotations under
 * GitHub's per-step limit, and the Markdown/HTML written to `GITHUB_STEP_SUMMARY`.
 */
import { ruleMeta } from '../src/checks/index.js';
import { SEVERITY_RANK, type Diagnostic, type Severity } from '../src/core/types.js';
import { countSeverities, ruleHelpUri, type FileResult } from '../src/report/index.js';
import { countFilesWithFindings } from '../src/report/summary.js';

/** GitHub shows at most this many annotations of one level (error, warning, notice) per step. */
export const ANNOTATION_LIMIT = 10;

/** Findings listed in the job summary's table. */
export const SUMMARY_TOP = 20;

/** One finding with the path it is shown under. */
export interface Finding {
  readonly file: string;
  readonly d: Diagnostic;
}

/**
 * Natural order of paths and ids: digit runs compare as numbers (`f1`, `f2`, `f10`), letters
 * without regard to case first, then by case and code unit, so the order is total and stable.
 */
const NATURAL = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** {@link NATURAL}, ties broken by UTF-16 order. */
export function naturalCompare(a: string, b: string): number {
  return NATURAL.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Every finding, most severe first, then by file (natural order: `f2.sh` before `f10.sh`), line and column. */
export function rankedFindings(results: readonly FileResult[]): Finding[] {
  const all = results.flatMap((r) => r.diagnostics.map((d) => ({ file: r.file, d })));
  return all.sort(
    (a, b) =>
      SEVERITY_RANK[a.d.severity] - SEVERITY_RANK[b.d.severity] ||
      naturalCompare(a.file, b.file) ||
      a.d.range.start.line - b.d.range.start.line ||
      a.d.range.start.column - b.d.range.start.column,
  );
}

/** The annotations to emit and how many findings are left out. */
export interface AnnotationPlan {
  readonly shown: readonly Finding[];
  readonly omitted: Readonly<Record<Severity, number>>;
}

/** The first {@link ANNOTATION_LIMIT} findings of each severity of `ranked` (most severe first). */
export function planAnnotations(ranked: readonly Finding[], limit = ANNOTATION_LIMIT): AnnotationPlan {
  const count: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  const omitted: Record<Severity, number> = { error: 0, warning: 0, note: 0 };
  const shown: Finding[] = [];
  for (const f of ranked) {
    if (count[f.d.severity] >= limit) {
      omitted[f.d.severity]++;
      continue;
    }
    count[f.d.severity]++;
    shown.push(f);
  }
  return { shown, omitted };
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * Message text as HTML: escaped, with each `` `…` `` code span as `<code>…</code>`. For the
 * cells of the summary's HTML tables, inside which GitHub does not render Markdown. A backtick
 * without a partner is kept as it is.
 */
export function inlineHtml(s: string): string {
  let out = '';
  let last = 0;
  for (const m of s.matchAll(/`([^`]+)`/g)) {
    out += `${escapeHtml(s.slice(last, m.index))}<code>${escapeHtml(m[1]!)}</code>`;
    last = m.index + m[0].length;
  }
  return out + escapeHtml(s.slice(last));
}

/** `n word` or `n words`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** What the summary says about the `changed-only` scope. */
export interface SummaryScope {
  /** The base commit the change was compared with. */
  readonly base: string;
  /** What was compared, in words (`HEAD^1 1a2b3c4 (…) with HEAD …`, from action/base.ts). */
  readonly compared?: string;
  /** Changed files among the linted paths. */
  readonly files: number;
  /** Findings dropped because they are on lines the change did not touch (0 with `all-lines`). */
  readonly droppedLines: number;
  readonly allLines: boolean;
}

/** Everything the job summary shows. */
export interface SummaryInput {
  readonly results: readonly FileResult[];
  readonly filesAnalysed: number;
  readonly sarifFile: string;
  /** Annotations left out per level; `undefined` when annotations are off. */
  readonly omitted?: Readonly<Record<Severity, number>>;
  readonly scope?: SummaryScope;
  /** Why changed-only was asked for but every file was linted (the base could not be found …). */
  readonly unscoped?: string;
  /** `https://github.com/owner/repo/blob/<sha>/` to link findings to their lines, if known. */
  readonly blobUrl?: string;
}

function fileLink(f: Finding, blobUrl: string | undefined): string {
  const label = `<code>${escapeHtml(`${f.file}:${f.d.range.start.line}`)}</code>`;
  if (!blobUrl || f.file.startsWith('/') || f.file.startsWith('../')) return label;
  const path = f.file.split('/').map(encodeURIComponent).join('/');
  return `<a href="${escapeHtml(`${blobUrl}${path}#L${f.d.range.start.line}`)}">${label}</a>`;
}

function ruleLink(id: string): string {
  return `<a href="${escapeHtml(ruleHelpUri(id))}"><code>${escapeHtml(id)}</code></a>`;
}

/** The rule's title (its one-line description), or `''` for an id without metadata. */
function ruleTitle(id: string): string {
  return escapeHtml(ruleMeta(id)?.title ?? '');
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const tr = (cells: readonly string[], tag: string): string => `<tr>${cells.map((c) => `<${tag}>${c}</${tag}>`).join('')}</tr>`;
  return `<table>\n${tr(head, 'th')}\n${rows.map((r) => tr(r, 'td')).join('\n')}\n</table>`;
}

/**
 * The job summary: a headline with the counts, the `changed-only` scope, a table of findings per
 * rule and severity (rule linked to its reference page), the top {@link SUMMARY_TOP} findings
 * most severe first, and how many findings did not become annotations. Ends with a newline.
 */
export function renderSummary(input: SummaryInput): string {
  const c = countSeverities(input.results);
  const out: string[] = ['## shellward', ''];
  // As the text report's summary line: files with a finding (a policy file included), then files checked.
  const checked = `${plural(input.filesAnalysed, 'file')} checked`;
  out.push(
    c.total === 0
      ? `No problems found; ${checked}.`
      : `**${plural(c.total, 'problem')}** (${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}, ${plural(c.notes, 'note')}) in ${plural(countFilesWithFindings(input.results), 'file')}; ${checked}.`,
  );
  if (input.scope) {
    const s = input.scope;
    const lines = s.allLines ? 'all lines of them' : `only lines they change${s.droppedLines > 0 ? ` (${plural(s.droppedLines, 'finding')} on other lines not shown)` : ''}`;
    out.push('', `Changed files only: ${plural(s.files, 'file')} changed since <code>${escapeHtml(s.base.slice(0, 12))}</code>, ${lines}.`);
    if (s.compared) out.push('', `Compared ${inlineHtml(s.compared)}.`);
  } else if (input.unscoped) {
    out.push('', `Every file was linted: changed-only could not tell what changed (${inlineHtml(input.unscoped)}).`);
  }
  const ranked = rankedFindings(input.results);
  if (ranked.length > 0) {
    const perRule = new Map<string, { id: string; severity: Severity; count: number }>();
    for (const { d } of ranked) {
      const key = `${d.ruleId}\0${d.severity}`;
      const e = perRule.get(key) ?? { id: d.ruleId, severity: d.severity, count: 0 };
      e.count++;
      perRule.set(key, e);
    }
    const rules = [...perRule.values()].sort(
      (a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || b.count - a.count || naturalCompare(a.id, b.id),
    );
    out.push('', '### Findings per rule', '', table(['Rule', 'Title', 'Severity', 'Findings'], rules.map((r) => [ruleLink(r.id), ruleTitle(r.id), r.severity, String(r.count)])));
    const top = ranked.slice(0, SUMMARY_TOP);
    out.push(
      '',
      ranked.length > top.length ? `### Top ${top.length} of ${ranked.length} findings` : '### Findings',
      '',
      table(['Location', 'Severity', 'Rule', 'Message'], top.map((f) => [fileLink(f, input.blobUrl), f.d.severity, ruleLink(f.d.ruleId), inlineHtml(f.d.message)])),
    );
  }
  const notes: string[] = [];
  if (input.omitted) {
    const o = input.omitted;
    const left = o.error + o.warning + o.note;
    if (left > 0) {
      const parts = [o.error ? plural(o.error, 'error') : '', o.warning ? plural(o.warning, 'warning') : '', o.note ? plural(o.note, 'note') : ''].filter(Boolean);
      notes.push(`${plural(left, 'finding')} (${parts.join(', ')}) not shown as annotations: GitHub shows at most ${ANNOTATION_LIMIT} annotations of each level per step.`);
    }
  } else if (c.total > 0) {
    notes.push('Annotations are off (`annotations: false`).');
  }
  if (c.total > 0) notes.push(`Every finding is in the SARIF report <code>${escapeHtml(input.sarifFile)}</code>.`);
  if (notes.length > 0) out.push('', ...notes.flatMap((n, i) => (i === 0 ? [n] : ['', n])));
  return out.join('\n') + '\n';
}
