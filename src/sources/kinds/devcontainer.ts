/**
 * Dev container configurations (`.devcontainer.json`, `.devcontainer/devcontainer.json`,
 * `.devcontainer/<name>/devcontainer.json`; JSON with comments): the lifecycle commands
 * `initializeCommand` (run on the host), `onCreateCommand`, `updateContentCommand`,
 * `postCreateCommand`, `postStartCommand` and `postAttachCommand`. A string runs in a shell, an
 * array runs as an argv without one, an object holds several commands run in parallel, each a
 * string or an array (https://containers.dev/implementors/json_reference/#lifecycle-scripts).
 * Pure.
 */
import { argvToShell } from '../transcript/argv.js';
import { baseName, NOTE_RULE_IDS, posixPath, type ExtractedUnit, type Extraction, type ReadContext, type SourceNote, type TextKind } from '../kind.js';
import { jsonString, object, parseJson, type ParsedJson } from '../json-doc.js';
import type { MappedText } from '../mapped-text.js';
import { mappedUnit } from '../units.js';

const COMMANDS = ['initializeCommand', 'onCreateCommand', 'updateContentCommand', 'postCreateCommand', 'postStartCommand', 'postAttachCommand'] as const;

/** Whether `path` names a dev container configuration. */
export function isDevcontainerPath(path: string): boolean {
  const p = posixPath(path);
  const b = baseName(p);
  return b === '.devcontainer.json' || /(?:^|\/)\.devcontainer\/(?:[^/]+\/)?devcontainer\.json$/.test(p);
}

function extractDevcontainer(text: string, ctx: ReadContext): Extraction {
  const parsed = parseJson(text, 'dev container configuration', true);
  if (parsed.error) return { units: [], notes: [parsed.error] };
  const root = object(parsed.value) ?? {};
  const units: ExtractedUnit[] = [];
  const notes: SourceNote[] = [];
  const one = (value: unknown, path: (string | number)[]): void => {
    if (typeof value === 'string') {
      const code = jsonString(parsed as Exclude<ParsedJson, { error: SourceNote }>, path);
      if (code && code.text.trim() !== '') units.push({ unit: mappedUnit(ctx.file, text, code, 'sh', ctx.profile, 'command', code.hostAt(0) ?? 0), kind: 'devcontainer-command' });
      return;
    }
    if (Array.isArray(value)) {
      const argv: MappedText[] = [];
      for (let i = 0; i < value.length; i++) {
        const a = typeof value[i] === 'string' ? jsonString(parsed as { text: string }, [...path, i]) : undefined;
        if (!a) return;
        argv.push(a);
      }
      const sh = argvToShell(argv, 'sh');
      if (!sh || sh.kind === 'edit') return;
      if (sh.kind === 'foreign') {
        const at = argv[0]!.hostAt(0) ?? 0;
        notes.push({ ruleId: NOTE_RULE_IDS.shellNotAnalysed, message: `\`${path.join('.')}\` runs \`${sh.shell}\`, not a POSIX shell: it was not analysed.`, span: { start: at, end: at + 1 }, data: { shell: sh.shell } });
        return;
      }
      const unit = mappedUnit(ctx.file, text, sh.text, sh.dialect, ctx.profile, 'command', argv[0]!.hostAt(0) ?? 0);
      units.push({ unit: sh.directExec ? { ...unit, context: { directExec: true } } : unit, kind: 'devcontainer-command' });
    }
  };
  for (const key of COMMANDS) {
    const v = root[key];
    const obj = object(v);
    if (obj) for (const [name, c] of Object.entries(obj)) one(c, [key, name]);
    else one(v, [key]);
  }
  return { units, notes };
}

/** Dev container configurations. */
export const DEVCONTAINER: TextKind = {
  id: 'devcontainer',
  title: 'dev container configuration',
  read: 'text',
  profileKey: 'script',
  matchesName: (path) => isDevcontainerPath(path),
  extract: extractDevcontainer,
};
