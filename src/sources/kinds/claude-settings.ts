/**
 * Claude Code settings files (`.claude/settings.json`, `.claude/settings.local.json`): the
 * `command` of every hook (`hooks.<Event>[].hooks[]` with `type: "command"`), which Claude Code
 * runs in a shell on each matching event, such as every tool call
 * (https://docs.claude.com/en/docs/claude-code/hooks), and the `statusLine` command. Each is one
 * unit of granularity `command` in bash, mapped into the JSON string. (The permission rules of the
 * same files are read by the configuration, src/config/.) Pure.
 */
import { NOTE_RULE_IDS, posixPath, type ExtractedUnit, type Extraction, type ReadContext, type TextKind } from '../kind.js';
import { jsonString, object, parseJson } from '../json-doc.js';
import { mappedUnit } from '../units.js';

/** Whether `path` is `.claude/settings.json` or `.claude/settings.local.json`. */
export function isClaudeSettingsPath(path: string): boolean {
  return /(?:^|\/)\.claude\/settings(?:\.local)?\.json$/.test(posixPath(path));
}

function extractSettings(text: string, ctx: ReadContext): Extraction {
  const parsed = parseJson(text, 'Claude Code settings file', false);
  if (parsed.error) return { units: [], notes: [{ ...parsed.error, ruleId: NOTE_RULE_IDS.parseError }] };
  const root = object(parsed.value) ?? {};
  const units: ExtractedUnit[] = [];
  const add = (path: (string | number)[]): void => {
    const code = jsonString(parsed, path);
    if (code && code.text.trim() !== '') units.push({ unit: mappedUnit(ctx.file, text, code, 'bash', ctx.profile, 'command', code.hostAt(0) ?? 0), kind: 'settings-hook' });
  };
  for (const [event, groups] of Object.entries(object(root.hooks) ?? {})) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((g, gi) => {
      const hooks = object(g)?.hooks;
      if (!Array.isArray(hooks)) return;
      hooks.forEach((h, hi) => {
        const hook = object(h);
        if (hook && (hook.type === undefined || hook.type === 'command') && typeof hook.command === 'string') add(['hooks', event, gi, 'hooks', hi, 'command']);
      });
    });
  }
  const status = object(root.statusLine);
  if (status && typeof status.command === 'string') add(['statusLine', 'command']);
  return { units, notes: [] };
}

/** Claude Code settings files. */
export const CLAUDE_SETTINGS: TextKind = {
  id: 'claude-settings',
  title: 'Claude Code settings hooks',
  read: 'text',
  profileKey: 'script',
  matchesName: (path) => isClaudeSettingsPath(path),
  extract: extractSettings,
};
