/** Shared test helpers: parse a string, lint a string as a unit. */
import { Linter, finishFile } from '../src/lint.js';
import type { Diagnostic, Profile } from '../src/core/types.js';
import { buildViews, type ParsedScript } from '../src/parse/nodes.js';
import { initParser, parseClockMs, parseTimed } from '../src/parse/parser.js';
import { IdentityMap } from '../src/core/source-map.js';

/** Parses `text` and returns its views (the tree is deleted). */
export async function parse(text: string): Promise<ParsedScript> {
  const parser = await initParser();
  // Without the pre-scans that refuse deep nesting unparsed: these tests read the views of such text.
  const { tree } = parseTimed(parser, text, parseClockMs() + 10_000);
  if (!tree) throw new Error('parse timed out');
  try {
    return buildViews(tree, text);
  } finally {
    tree.delete();
  }
}

let linter: Linter | undefined;

/** Lints `text` as one unit and returns sorted, fingerprinted diagnostics. */
export async function lintText(text: string, profile: Profile = 'script', file = 'test.sh'): Promise<Diagnostic[]> {
  linter ??= await Linter.create();
  const unit = {
    text,
    hostText: text,
    dialect: 'bash' as const,
    granularity: 'script' as const,
    profile,
    origin: { file, kind: 'script' as const },
    sourceMap: new IdentityMap(),
  };
  return finishFile(text, linter.lintUnit(unit));
}

/** `line:col ruleId` strings, for compact assertions. */
export function brief(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => `${d.range.start.line}:${d.range.start.column} ${d.ruleId}`);
}
