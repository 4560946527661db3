/**
 * The one lazily initialised tree-sitter-bash parser (web-tree-sitter + the `.wasm` that the
 * tree-sitter-bash package ships; nothing is built natively or downloaded at run time).
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { crowdedHeredocLine } from './heredoc-pressure.js';

let ready: Promise<Parser> | undefined;

/** Options for {@link initParser}. */
export interface ParserInit {
  /** Path of tree-sitter-bash.wasm; defaults to the one in the installed tree-sitter-bash package. */
  readonly languageWasm?: string;
  /** Path of web-tree-sitter's own tree-sitter.wasm; defaults to the installed package's. */
  readonly runtimeWasm?: string;
}

/**
 * Initialises the parser once; later calls return the same parser. Rejects when a `.wasm`
 * file cannot be loaded (a broken install), which callers report as an internal error.
 */
export function initParser(init: ParserInit = {}): Promise<Parser> {
  ready ??= (async () => {
    const require = createRequire(import.meta.url);
    // Located through the package, not next to web-tree-sitter's own script, so that the
    // parser also works when its JavaScript is bundled into another file (the hook bundle).
    const runtime = init.runtimeWasm ?? require.resolve('web-tree-sitter/tree-sitter.wasm');
    await Parser.init({ locateFile: () => runtime });
    const language = await Language.load(
      init.languageWasm ?? require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'),
    );
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  return ready;
}

/** The last few texts whose parse was stopped, with the time it had been given (ms). */
const TIMED_OUT: { text: string; budget: number }[] = [];

/** Default parse time-out per unit, in milliseconds: the upper bound of {@link parseBudgetMs}. */
export const DEFAULT_PARSE_TIMEOUT_MS = 10_000;

/** Fixed part of a unit's parse budget, in milliseconds. */
export const PARSE_BUDGET_BASE_MS = 1_000;

/**
 * Per-character part of a unit's parse budget, in milliseconds per UTF-16 code unit (20 ms per
 * 1000 characters, i.e. 50 KB/s). tree-sitter-bash in wasm parsed ordinary shell (pipelines, the
 * slowest ordinary shape measured) at about 130 KB/s on a heavily loaded 2-core machine, so real
 * scripts keep a wide margin, while input on which its error recovery goes superlinear (`<<`,
 * `${` or `[[` repeated) is stopped in time proportional to its size instead of the full time-out.
 */
export const PARSE_BUDGET_MS_PER_CHAR = 0.02;

/**
 * The time a unit of `length` UTF-16 code units may spend parsing, its embedded code included:
 * {@link PARSE_BUDGET_BASE_MS} + `length` × {@link PARSE_BUDGET_MS_PER_CHAR}, at most `maxMs`
 * (the configured time-out, default {@link DEFAULT_PARSE_TIMEOUT_MS}). In milliseconds.
 */
export function parseBudgetMs(length: number, maxMs = DEFAULT_PARSE_TIMEOUT_MS): number {
  return Math.min(maxMs, PARSE_BUDGET_BASE_MS + length * PARSE_BUDGET_MS_PER_CHAR);
}

/**
 * Parses `text` as bash. NUL characters are parsed as U+FFFD (same UTF-16 width, so offsets
 * are unchanged). Returns `undefined` when parsing ran past `timeoutMs` and was cancelled. The caller owns the tree and must `delete()` it (it lives in wasm memory).
 */
export function parseBash(parser: Parser, text: string, timeoutMs = DEFAULT_PARSE_TIMEOUT_MS): Tree | undefined {
  return parseBashBefore(parser, text, Date.now() + timeoutMs);
}

/**
 * {@link parseBash} with an absolute deadline (`Date.now()` milliseconds) instead of a time-out,
 * so that several parses (a unit and the code embedded in it) share one budget. Returns
 * `undefined` when the deadline passed before the parse finished (or had already passed), and
 * without parsing when a line of `text` holds more here-document operators than the parser can
 * be stopped in ({@link crowdedHeredocLine}).
 */
export function parseBashBefore(parser: Parser, text: string, deadline: number): Tree | undefined {
  // Here-document operators crowded on one line cost the parser time its progress callback cannot
  // interrupt (src/parse/heredoc-pressure.ts): such text is refused as if its budget had run out.
  if (crowdedHeredocLine(text) !== undefined) return undefined;
  const start = Date.now();
  // The same text is parsed by several passes (suppression comments, statement verdicts, the
  // checks); one that already ran out of a budget at least this large is not parsed again.
  if (TIMED_OUT.some((t) => t.budget >= deadline - start && t.text === text)) return undefined;
  // web-tree-sitter cancels the parse when the progress callback returns true (its .d.ts
  // types the callback as returning void).
  const progressCallback = (() => Date.now() > deadline) as unknown as () => void;
  // tree-sitter reads NUL as the end of input (and then recovers slowly over whatever follows).
  // Bash drops NUL bytes from its input; U+FFFD keeps every offset the same.
  const input = text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text;
  const tree = parser.parse(input, null, { progressCallback });
  if (!tree) {
    parser.reset();
    TIMED_OUT.unshift({ text, budget: Date.now() - start });
    TIMED_OUT.length = Math.min(TIMED_OUT.length, 4);
    return undefined;
  }
  return tree;
}
