/**
 * pre-commit (`.pre-commit-config.yaml`, and the hook definitions of `.pre-commit-hooks.yaml`):
 * the `entry` of hooks with `language: system` or `language: script`. pre-commit does not run an
 * entry in a shell: it splits it like Python's `shlex.split` and executes the argv, followed by
 * the hook's `args` and the file names (https://pre-commit.com/#new-hooks). So an entry is an
 * argv: `bash -c '…'` unwraps to its script; anything else is a direct execution, analysed as
 * its quote-joined argv. Every character maps into the YAML file. Pure.
 */
import { isSeq, type Document, type Node, type YAMLMap } from 'yaml';
import { baseName, NOTE_RULE_IDS, type ExtractedUnit, type Extraction, type ReadContext, type SourceNote, type TextKind } from '../kind.js';
import { MappedText } from '../mapped-text.js';
import { argvToShell } from '../transcript/argv.js';
import { mappedUnit } from '../units.js';
import { asMap, asScalar, asSeq, pairOf, parseYaml, stringOf, mapValue } from '../yaml-doc.js';
import { mappedScalar } from '../yaml-scalar.js';

/**
 * Splits `s` into words like Python's `shlex.split` (POSIX mode): blanks separate words, `'…'`
 * is literal, `"…"` allows `\"`, `\\`, `\$`, `` \` `` and a backslash-newline, a backslash outside
 * quotes escapes the next character, `#` at a word start begins a comment. Returns `undefined`
 * for an unclosed quote (shlex raises).
 */
export function shlexSplit(s: MappedText): MappedText[] | undefined {
  const t = s.text;
  const out: MappedText[] = [];
  let cur: MappedText | undefined;
  let i = 0;
  while (i < t.length) {
    const c = t[i]!;
    if (/\s/.test(c)) {
      if (cur) out.push(cur);
      cur = undefined;
      i++;
      continue;
    }
    if (c === '#' && !cur) break;
    cur ??= new MappedText();
    if (c === "'") {
      const end = t.indexOf("'", i + 1);
      if (end === -1) return undefined;
      for (let k = i + 1; k < end; k++) cur.pushFrom(s, k);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      let k = i + 1;
      for (;;) {
        if (k >= t.length) return undefined;
        const d = t[k]!;
        if (d === '"') break;
        if (d === '\\' && k + 1 < t.length && '"\\$`\n'.includes(t[k + 1]!)) {
          if (t[k + 1] !== '\n') cur.pushFrom(s, k + 1);
          k += 2;
          continue;
        }
        cur.pushFrom(s, k);
        k++;
      }
      i = k + 1;
      continue;
    }
    if (c === '\\') {
      if (i + 1 < t.length) {
        if (t[i + 1] !== '\n') cur.pushFrom(s, i + 1);
        i += 2;
      } else i++;
      continue;
    }
    cur.pushFrom(s, i);
    i++;
  }
  if (cur) out.push(cur);
  return out;
}

function readHook(doc: Document, hook: YAMLMap | undefined, text: string, ctx: ReadContext, units: ExtractedUnit[], notes: SourceNote[]): void {
  if (!hook) return;
  const language = stringOf(doc, hook, 'language');
  if (language !== 'system' && language !== 'script') return;
  const entryNode = asScalar(doc, pairOf(hook, 'entry')?.value);
  const entry = entryNode ? mappedScalar(entryNode, text) : undefined;
  if (!entry || entry.text.trim() === '') return;
  const argv = shlexSplit(entry);
  const at = entryNode?.range?.[0] ?? 0;
  if (!argv) {
    notes.push({ ruleId: NOTE_RULE_IDS.parseError, message: 'This `entry` has an unclosed quote: pre-commit cannot split it into words, so it was not checked.', span: { start: at, end: at + 1 } });
    return;
  }
  for (const a of asSeq(doc, mapValue(doc, hook, 'args'))?.items ?? []) {
    const s = asScalar(doc, a);
    const m = s ? mappedScalar(s, text) : undefined;
    if (m) argv.push(m);
  }
  const sh = argvToShell(argv, 'sh');
  if (!sh || sh.kind === 'edit') return;
  if (sh.kind === 'foreign') {
    notes.push({ ruleId: NOTE_RULE_IDS.shellNotAnalysed, message: `This hook runs \`${sh.shell}\`, not a POSIX shell: it was not analysed.`, span: { start: at, end: at + 1 }, data: { shell: sh.shell } });
    return;
  }
  const unit = mappedUnit(ctx.file, text, sh.text, sh.dialect, ctx.profile, 'command', at);
  units.push({ unit: sh.directExec ? { ...unit, context: { directExec: true } } : unit, kind: 'hook-entry' });
}

function extractPreCommit(text: string, ctx: ReadContext): Extraction {
  const parsed = parseYaml(text, 'pre-commit configuration');
  if (parsed.error) return { units: [], notes: [parsed.error] };
  const { doc } = parsed;
  const units: ExtractedUnit[] = [];
  const notes: SourceNote[] = [];
  const root = doc.contents as Node | null;
  if (isSeq(root)) {
    // .pre-commit-hooks.yaml: a list of hook definitions.
    for (const h of root.items) readHook(doc, asMap(doc, h), text, ctx, units, notes);
    return { units, notes };
  }
  for (const repo of asSeq(doc, mapValue(doc, asMap(doc, root), 'repos'))?.items ?? []) {
    for (const h of asSeq(doc, mapValue(doc, asMap(doc, repo), 'hooks'))?.items ?? []) readHook(doc, asMap(doc, h), text, ctx, units, notes);
  }
  return { units, notes };
}

/** pre-commit configurations and hook definitions. */
export const PRE_COMMIT: TextKind = {
  id: 'pre-commit',
  title: 'pre-commit configuration',
  read: 'text',
  profileKey: 'script',
  matchesName: (path) => /^\.pre-commit-(?:config|hooks)\.ya?ml$/.test(baseName(path)),
  extract: extractPreCommit,
};
