/**
 * `package.json` `scripts`: npm (and pnpm, yarn) run each script with `sh -c` on POSIX systems
 * (https://docs.npmjs.com/cli/using-npm/scripts, `script-shell`), so each is one unit of
 * granularity `command` in `sh`, mapped into the JSON string. Pure.
 */
import { baseName, type ExtractedUnit, type Extraction, type ReadContext, type TextKind } from '../kind.js';
import { jsonString, object, parseJson } from '../json-doc.js';
import { mappedUnit } from '../units.js';

function extractPackageJson(text: string, ctx: ReadContext): Extraction {
  const parsed = parseJson(text, 'package.json', false);
  if (parsed.error) return { units: [], notes: [parsed.error] };
  const scripts = object(object(parsed.value)?.scripts);
  const units: ExtractedUnit[] = [];
  for (const [name, value] of Object.entries(scripts ?? {})) {
    if (typeof value !== 'string') continue;
    const code = jsonString(parsed, ['scripts', name]);
    if (!code || code.text.trim() === '') continue;
    units.push({ unit: mappedUnit(ctx.file, text, code, 'sh', ctx.profile, 'command', code.hostAt(0) ?? 0), kind: 'npm-script' });
  }
  return { units, notes: [] };
}

/** `package.json` files. */
export const PACKAGE_JSON: TextKind = {
  id: 'package-json',
  title: 'package.json scripts',
  read: 'text',
  profileKey: 'script',
  matchesName: (path) => baseName(path) === 'package.json',
  extract: extractPackageJson,
};
