/**
 * GitHub Actions: workflows (`.github/workflows/*.yml|yaml`) and composite actions (`action.yml`
 * or `action.yaml` with `runs.using: composite`). Every step's `run:` is one unit of granularity
 * `script`, in the shell the step runs in: its `shell:`, else `defaults.run.shell` of the job, else
 * of the workflow, else `bash` (`pwsh` on a `windows` runner), as GitHub documents
 * (https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idstepsshell).
 * `bash`, `sh` (and other POSIX shells, also as a custom `bash -l {0}`) are analysed; `pwsh`,
 * `powershell`, `cmd`, `python` and other programs are reported as not analysed. The script is the
 * YAML scalar's value (block scalars with chomping and indentation indicators, plain and quoted
 * scalars), every character mapped to its place in the file; `${{ … }}` expressions become
 * same-length placeholders, and those that read attacker-controlled event data are reported.
 * Pure.
 */
import type { Document, Node, YAMLMap } from 'yaml';
import type { Dialect } from '../../core/types.js';
import { findExpressions, untrustedProperties, withPlaceholders } from '../gha-expressions.js';
import { baseName, NOTE_RULE_IDS, posixPath, type ExtractedUnit, type Extraction, type ReadContext, type SourceNote, type TextKind } from '../kind.js';
import type { MappedText } from '../mapped-text.js';
import { mappedUnit } from '../units.js';
import { asMap, asScalar, asSeq, entries, pairOf, parseYaml, spanOf, stringOf, mapValue } from '../yaml-doc.js';
import { mappedScalar } from '../yaml-scalar.js';

const POSIX_SHELLS: Readonly<Record<string, Dialect>> = { bash: 'bash', sh: 'sh', dash: 'dash', zsh: 'zsh', ksh: 'ksh' };

/** The shell of a `shell:` value: its dialect, or the program it names when that is no POSIX shell. */
export function shellOf(value: string): { dialect: Dialect } | { other: string } {
  const word = value.trim().split(/\s+/)[0] ?? '';
  const prog = baseName(word).replace(/\.exe$/i, '');
  const dialect = POSIX_SHELLS[prog];
  return dialect ? { dialect } : { other: prog || value.trim() };
}

/** Whether `path` is under `.github/workflows/` and ends in `.yml` or `.yaml`. */
export function isWorkflowPath(path: string): boolean {
  return /(?:^|\/)\.github\/workflows\/[^/]+\.ya?ml$/i.test(posixPath(path));
}

/** The untrusted-input notes of one script (expressions are in the unit's text, mapped by `code`). */
function untrustedNotes(code: MappedText, stepName: string): SourceNote[] {
  const out: SourceNote[] = [];
  for (const e of findExpressions(code.text)) {
    const props = untrustedProperties(e.body);
    if (props.length === 0) continue;
    const start = code.hostAt(e.start) ?? 0;
    const end = (code.hostAt(e.end - 1) ?? start) + 1;
    const prop = props[0]!;
    const name = envName(prop);
    out.push({
      ruleId: NOTE_RULE_IDS.untrustedInput,
      message:
        `\`\${{ ${e.body} }}\` is pasted into the script of ${stepName} before the shell runs: \`${prop}\` is written by whoever opens ` +
        `the issue or pull request, posts the comment or names the branch, so a value like \`"; curl … | sh #\` runs as code. ` +
        `Pass it through the step's \`env:\` (\`${name}: \${{ ${e.body} }}\`) and write \`"$${name}"\` in the script.`,
      span: { start, end: Math.max(end, start + 1) },
      data: { expression: e.body, property: prop },
    });
  }
  return out;
}

/** An environment variable name for a property (`github.event.issue.title` → `ISSUE_TITLE`). */
function envName(prop: string): string {
  const parts = prop.split('.').filter((p) => p !== '*' && p !== 'github' && p !== 'event');
  return parts.slice(-2).join('_').replace(/[^A-Za-z0-9_]/g, '_').toUpperCase() || 'VALUE';
}

interface StepScope {
  readonly doc: Document;
  readonly text: string;
  readonly ctx: ReadContext;
  /** The inherited `shell` (job defaults, workflow defaults, runner default). */
  readonly shell: string;
  /** Where the inherited shell was set, for messages. */
  readonly shellFrom: string;
  /** What the steps belong to, for messages ("job `build`", "composite action"). */
  readonly owner: string;
}

/** The units and notes of one `steps:` sequence. */
function readSteps(steps: Node | undefined, scope: StepScope, units: ExtractedUnit[], notes: SourceNote[]): void {
  const { doc, text, ctx } = scope;
  const seq = asSeq(doc, steps);
  if (!seq) return;
  seq.items.forEach((item, index) => {
    const step = asMap(doc, item);
    const runPair = pairOf(step, 'run');
    if (!step || !runPair) return;
    const run = asScalar(doc, runPair.value);
    const label = stepLabel(doc, step, index, scope.owner);
    if (!run) {
      notes.push({ ruleId: NOTE_RULE_IDS.parseError, message: `The \`run:\` of ${label} is not a string; it was not checked.`, span: spanOf(runPair.key as Node) });
      return;
    }
    const code = mappedScalar(run, text);
    if (!code) return;
    notes.push(...untrustedNotes(code, label));
    const own = stringOf(doc, step, 'shell');
    const shellValue = own ?? scope.shell;
    const shell = findExpressions(shellValue).length > 0 ? { other: shellValue } : shellOf(shellValue);
    if ('other' in shell) {
      const from = own !== undefined ? 'its `shell:`' : scope.shellFrom;
      notes.push({
        ruleId: NOTE_RULE_IDS.shellNotAnalysed,
        message: `${capital(label)} runs in \`${shell.other}\` (${from}), not a POSIX shell: its script was not analysed.`,
        span: spanOf(runPair.key as Node),
        data: { shell: shell.other },
      });
      return;
    }
    const unitText = withPlaceholders(code, findExpressions(code.text));
    units.push({ unit: mappedUnit(ctx.file, text, unitText, shell.dialect, ctx.profile, 'script', spanOf(run).start), kind: 'run-step' });
  });
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** "step `Build` of job `test`" / "step 3 of job `test`". */
function stepLabel(doc: Document, step: YAMLMap, index: number, owner: string): string {
  const name = stringOf(doc, step, 'name') ?? stringOf(doc, step, 'id');
  const id = name !== undefined && name.length <= 60 && !name.includes('`') && !name.includes('\n') ? `\`${name}\`` : String(index + 1);
  return `step ${id} of ${owner}`;
}

/** The `defaults.run.shell` of a workflow or job mapping. */
function defaultShell(doc: Document, map: YAMLMap | undefined): string | undefined {
  return stringOf(doc, asMap(doc, mapValue(doc, asMap(doc, mapValue(doc, map, 'defaults')), 'run')), 'shell');
}

/** Whether a job's `runs-on` names a Windows runner (its label, or one of its labels). */
function onWindows(doc: Document, job: YAMLMap): boolean {
  const v = mapValue(doc, job, 'runs-on');
  const labels: string[] = [];
  const s = asScalar(doc, v);
  if (s && typeof s.value === 'string') labels.push(s.value);
  for (const it of asSeq(doc, v)?.items ?? []) {
    const x = asScalar(doc, it);
    if (x && typeof x.value === 'string') labels.push(x.value);
  }
  const m = asMap(doc, v);
  if (m) labels.push(...(stringOf(doc, m, 'labels') ? [stringOf(doc, m, 'labels')!] : []));
  return labels.some((l) => /windows/i.test(l) && !l.includes('${{'));
}

/** Reads a workflow file. */
function extractWorkflow(text: string, ctx: ReadContext): Extraction {
  const parsed = parseYaml(text, 'workflow');
  if (parsed.error) return { units: [], notes: [parsed.error] };
  const { doc } = parsed;
  const root = asMap(doc, doc.contents);
  const units: ExtractedUnit[] = [];
  const notes: SourceNote[] = [];
  const workflowShell = defaultShell(doc, root);
  for (const [id, node] of entries(doc, asMap(doc, mapValue(doc, root, 'jobs')))) {
    const job = asMap(doc, node);
    if (!job) continue;
    const jobShell = defaultShell(doc, job);
    const windows = onWindows(doc, job);
    const shell = jobShell ?? workflowShell ?? (windows ? 'pwsh' : 'bash');
    const shellFrom = jobShell !== undefined ? "the job's `defaults.run.shell`" : workflowShell !== undefined ? "the workflow's `defaults.run.shell`" : "the default on the job's Windows runner";
    readSteps(mapValue(doc, job, 'steps'), { doc, text, ctx, shell, shellFrom, owner: `job \`${id}\`` }, units, notes);
  }
  return { units, notes };
}

/** Reads an `action.yml`: its steps when it is a composite action. */
function extractAction(text: string, ctx: ReadContext): Extraction {
  const parsed = parseYaml(text, 'action metadata file');
  if (parsed.error) return { units: [], notes: [parsed.error] };
  const { doc } = parsed;
  const runs = asMap(doc, mapValue(doc, asMap(doc, doc.contents), 'runs'));
  const using = stringOf(doc, runs, 'using');
  if (using?.toLowerCase() !== 'composite') {
    return { units: [], notes: [], notThisKind: using !== undefined ? `an action that runs with \`${using}\`, not a composite action: it has no \`run:\` steps` : 'no `runs.using` key: not a GitHub Actions action metadata file' };
  }
  const units: ExtractedUnit[] = [];
  const notes: SourceNote[] = [];
  // Composite steps must name their shell; one that does not is read as bash.
  readSteps(mapValue(doc, runs, 'steps'), { doc, text, ctx, shell: 'bash', shellFrom: 'the default', owner: 'the composite action' }, units, notes);
  return { units, notes };
}

/** GitHub Actions workflows. */
export const GITHUB_WORKFLOW: TextKind = {
  id: 'github-workflow',
  title: 'GitHub Actions workflow',
  read: 'text',
  profileKey: 'script',
  matchesName: (path) => isWorkflowPath(path),
  extract: extractWorkflow,
};

/** GitHub Actions composite actions (`action.yml`, `action.yaml`). */
export const GITHUB_ACTION: TextKind = {
  id: 'github-action',
  title: 'GitHub Actions composite action',
  read: 'text',
  profileKey: 'script',
  matchesName: (path) => /^action\.ya?ml$/.test(baseName(path)),
  extract: extractAction,
};
