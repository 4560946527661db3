/**
 * GitLab CI (`.gitlab-ci.yml`, `*.gitlab-ci.yml`): the `script`, `before_script` and
 * `after_script` of every job (hidden `.template` jobs too, since `extends` reuses them), of
 * `default:`, and the old top-level ones. Each is a string or a list of strings (nested lists, as
 * YAML anchors produce, are flattened; `!reference` tags point elsewhere and are left out); the
 * runner writes every item as a line of one shell script, run by bash on Linux runners
 * (https://docs.gitlab.com/ci/yaml/#script). Each item is one unit, mapped into the YAML file.
 * Pure.
 */
import { isScalar, isSeq, type Document, type Node } from 'yaml';
import { baseName, type ExtractedUnit, type Extraction, type ReadContext, type TextKind } from '../kind.js';
import { mappedUnit } from '../units.js';
import { asMap, entries, parseYaml, resolved, mapValue } from '../yaml-doc.js';
import { mappedScalar } from '../yaml-scalar.js';

const SCRIPT_KEYS = ['before_script', 'script', 'after_script'] as const;
/** Top-level keys that are not jobs. */
const RESERVED = new Set(['stages', 'variables', 'include', 'default', 'workflow', 'image', 'services', 'cache', 'spec', 'types', 'pages:deploy']);

function readScript(doc: Document, node: Node | undefined, text: string, ctx: ReadContext, units: ExtractedUnit[], depth = 0): void {
  const n = resolved(doc, node);
  if (!n || depth > 8) return;
  if ((n as { tag?: string }).tag === '!reference') return;
  if (isSeq(n)) {
    for (const it of n.items) readScript(doc, it as Node, text, ctx, units, depth + 1);
    return;
  }
  if (!isScalar(n)) return;
  const code = mappedScalar(n, text);
  if (!code || code.text.trim() === '') return;
  const granularity = code.text.trim().includes('\n') ? 'script' : 'command';
  units.push({ unit: mappedUnit(ctx.file, text, code, 'bash', ctx.profile, granularity, n.range?.[0] ?? 0), kind: 'ci-script' });
}

function extractGitlab(text: string, ctx: ReadContext): Extraction {
  const parsed = parseYaml(text, 'GitLab CI configuration');
  if (parsed.error) return { units: [], notes: [parsed.error] };
  const { doc } = parsed;
  const root = asMap(doc, doc.contents);
  const units: ExtractedUnit[] = [];
  for (const key of ['before_script', 'after_script'] as const) readScript(doc, mapValue(doc, root, key), text, ctx, units);
  const dflt = asMap(doc, mapValue(doc, root, 'default'));
  for (const key of SCRIPT_KEYS) readScript(doc, mapValue(doc, dflt, key), text, ctx, units);
  for (const [name, node] of entries(doc, root)) {
    if (RESERVED.has(name) || (SCRIPT_KEYS as readonly string[]).includes(name)) continue;
    const job = asMap(doc, node);
    if (!job) continue;
    for (const key of SCRIPT_KEYS) readScript(doc, mapValue(doc, job, key), text, ctx, units);
  }
  return { units, notes: [] };
}

/** GitLab CI configuration files. */
export const GITLAB_CI: TextKind = {
  id: 'gitlab-ci',
  title: 'GitLab CI configuration',
  read: 'text',
  profileKey: 'script',
  matchesName: (path) => /^(?:\.gitlab-ci|.+\.gitlab-ci)\.ya?ml$/.test(baseName(path)),
  extract: extractGitlab,
};
