/**
 * The one lazily initialised tree-sitter-bash parser (web-tree-sitter + the `.wasm` that the
 * tree-sitter-bash package ships; nothing is built natively or downloaded at run time).
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { heredocPressure } from './heredoc-pressure.js';
import { deepNesting } from './nesting-pressure.js';

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

/** The last few texts whose parse was stopped, with the CPU time it had been given (ms). */
const TIMED_OUT: { text: string; budget: number; stop: ParseStop }[] = [];

/**
 * This process's CPU time (user + system) in milliseconds since it started: the clock of every
 * parse budget. CPU time, not wall time, so that a machine busy with other work does not turn a
 * parse that fits its budget into a time-out (the same input gets the same findings whatever the
 * load); it still counts only this process, so a parse of pathological input is stopped after the
 * same amount of work. The one read of host state in the parser, with the monotonic wall clock that paces its reads during a parse.
 */
export function parseClockMs(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

/** Wall-clock milliseconds between two reads of the CPU clock by a parse's progress callback ({@link parseTimed}). */
const CLOCK_EVERY_WALL_MS = 4;

/** Default parse time-out per unit, in milliseconds of CPU time: the upper bound of {@link parseBudgetMs}. */
export const DEFAULT_PARSE_TIMEOUT_MS = 10_000;

/** Fixed part of a unit's parse budget, in milliseconds of CPU time. */
export const PARSE_BUDGET_BASE_MS = 1_000;

/**
 * Per-character part of a unit's parse budget, in milliseconds of CPU time per UTF-16 code unit
 * (20 ms per 1000 characters, i.e. 50 KB/s). tree-sitter-bash in wasm parsed 1 MB of ordinary
 * shell in 1.2 s (here-documents) to 5.2 s (pipelines, the slowest ordinary shape measured) of CPU
 * on a loaded 2-core machine, so real scripts keep a margin of at least 4×.
 */
export const PARSE_BUDGET_MS_PER_CHAR = 0.02;

/**
 * CPU time, in milliseconds, a parse that has met a syntax error may spend before it has made
 * any progress; after that it must keep reading at least one UTF-16 code unit per
 * {@link PARSE_BUDGET_MS_PER_CHAR} ms, or it is stopped (see {@link parseBashBefore}). tree-sitter's
 * error recovery goes superlinear on some malformed input: on 1 MB of unclosed `${` it had read
 * 5,700 characters after 300 ms (its full parse of 100 KB took 25 s), while ordinary shell is read
 * at 190 characters per millisecond or more.
 */
export const PARSE_STALL_BASE_MS = 250;

/**
 * The CPU time a unit of `length` UTF-16 code units may spend parsing, its embedded code
 * included: {@link PARSE_BUDGET_BASE_MS} + `length` × {@link PARSE_BUDGET_MS_PER_CHAR}, at most
 * `maxMs` (the configured time-out, default {@link DEFAULT_PARSE_TIMEOUT_MS}). In milliseconds of
 * CPU time ({@link parseClockMs}).
 */
export function parseBudgetMs(length: number, maxMs = DEFAULT_PARSE_TIMEOUT_MS): number {
  return Math.min(maxMs, PARSE_BUDGET_BASE_MS + length * PARSE_BUDGET_MS_PER_CHAR);
}

/**
 * Parses `text` as bash. NUL characters are parsed as U+FFFD (same UTF-16 width, so offsets
 * are unchanged). Returns `undefined` when parsing ran past `timeoutMs` milliseconds of CPU time
 * (or stalled, see {@link parseBashBefore}) and was cancelled. The caller owns the tree and must
 * `delete()` it (it lives in wasm memory).
 */
export function parseBash(parser: Parser, text: string, timeoutMs = DEFAULT_PARSE_TIMEOUT_MS): Tree | undefined {
  return parseBashBefore(parser, text, parseClockMs() + timeoutMs);
}

/** Why {@link parseWithin} returned no tree. */
export type ParseStop =
  /** The deadline passed (or had passed) before the parse finished. */
  | { readonly reason: 'deadline' }
  /** Error recovery stopped making progress: `offset` UTF-16 code units read after `spentMs` of CPU time. */
  | { readonly reason: 'stalled'; readonly offset: number; readonly spentMs: number }
  /** Refused unparsed: here-document operators the parser cannot be stopped in (many on a line, or many first in a command). */
  | { readonly reason: 'crowded-heredocs' }
  /** Refused unparsed: substitutions or `[[` nested deeper than any script ({@link deepNesting}). */
  | { readonly reason: 'deep-nesting' };

/**
 * {@link parseBashBefore}, saying why no tree came back: `{ tree }` (the caller owns it and must
 * `delete()` it) or `{ stop }`. Same rules and deadline (CPU milliseconds, {@link parseClockMs}).
 */
export function parseWithin(parser: Parser, text: string, deadline: number): { readonly tree: Tree; readonly stop?: undefined } | { readonly tree?: undefined; readonly stop: ParseStop } {
  // Here-document operators crowded on one line, or standing first in many commands, cost the
  // parser time its progress callback cannot interrupt (src/parse/heredoc-pressure.ts): such text
  // is refused as if its budget had run out.
  if (heredocPressure(text) !== undefined) return { stop: { reason: 'crowded-heredocs' } };
  // So is nesting whose parse and analysis grow faster than its length (src/parse/nesting-pressure.ts).
  if (deepNesting(text) !== undefined) return { stop: { reason: 'deep-nesting' } };
  return parseTimed(parser, text, deadline);
}

/**
 * {@link parseWithin} without the pre-scans for text the parser cannot be stopped in or that
 * nests too deep: only the deadline (CPU milliseconds) and the stall rule stop it. For callers
 * (and tests) that know the text passed those scans.
 */
export function parseTimed(parser: Parser, text: string, deadline: number): { readonly tree: Tree; readonly stop?: undefined } | { readonly tree?: undefined; readonly stop: ParseStop } {
  const start = parseClockMs();
  // The same text is parsed by several passes (suppression comments, statement verdicts, the
  // checks); one that already ran out of a budget at least this large is not parsed again.
  const known = TIMED_OUT.find((t) => t.text === text && t.budget >= deadline - start);
  if (known) return { stop: known.stop };
  // web-tree-sitter cancels the parse when the progress callback returns true (its .d.ts
  // types the callback as returning void). It is called every few thousand parse steps (about
  // 34 times per 1,000 characters of ordinary shell, i.e. several times per millisecond), and a
  // read of the CPU clock is a system call (getrusage) that cost as much as a twentieth of a
  // whole lint: the CPU clock is read at the first call, then only once the cheap monotonic wall
  // clock says {@link CLOCK_EVERY_WALL_MS} ms have passed since the last read. Between two reads
  // this thread spends at most that much CPU time (the process's other threads, which the CPU
  // clock also counts, do little while a parse runs), so the budget stays in CPU time and a
  // deadline or a stall is seen at most about that much later.
  // `currentOffset` counts bytes of the UTF-16 input tree-sitter reads: two per code unit.
  let stalledAt: number | undefined;
  let lastWall = -Infinity;
  const progressCallback = ((state: { currentOffset: number; hasError: boolean }) => {
    const wall = performance.now();
    if (wall - lastWall < CLOCK_EVERY_WALL_MS) return false;
    lastWall = wall;
    const now = parseClockMs();
    if (now > deadline) return true;
    const read = state.currentOffset / 2;
    if (state.hasError && now - start > PARSE_STALL_BASE_MS + read * PARSE_BUDGET_MS_PER_CHAR) {
      stalledAt = read;
      return true;
    }
    return false;
  }) as unknown as () => void;
  // tree-sitter reads NUL as the end of input (and then recovers slowly over whatever follows).
  // Bash drops NUL bytes from its input; U+FFFD keeps every offset the same.
  const input = text.includes('\0') ? text.replaceAll('\0', '\uFFFD') : text;
  const tree = parser.parse(input, null, { progressCallback });
  if (tree) return { tree };
  parser.reset();
  const spentMs = parseClockMs() - start;
  const stop: ParseStop = stalledAt !== undefined ? { reason: 'stalled', offset: stalledAt, spentMs } : { reason: 'deadline' };
  // A stalled parse stalls again whatever its budget.
  TIMED_OUT.unshift({ text, budget: stalledAt !== undefined ? Infinity : spentMs, stop });
  TIMED_OUT.length = Math.min(TIMED_OUT.length, 4);
  return { stop };
}

/**
 * {@link parseBash} with an absolute deadline on the CPU clock ({@link parseClockMs}
 * milliseconds) instead of a time-out, so that several parses (a unit and the code embedded in
 * it) share one budget. Returns `undefined` when the deadline passed before the parse finished
 * (or had already passed); when the parse, having met a syntax error, spent more than
 * {@link PARSE_STALL_BASE_MS} + (characters read) × {@link PARSE_BUDGET_MS_PER_CHAR} ms (error
 * recovery that has stopped making progress: the rest of the deadline would be spent the same
 * way); and without parsing when a line of `text` holds more here-document operators than the
 * parser can be stopped in, or too many standing first in a command ({@link heredocPressure}), or `text` nests deeper than any script
 * ({@link deepNesting}). {@link parseWithin} says which.
 */
export function parseBashBefore(parser: Parser, text: string, deadline: number): Tree | undefined {
  return parseWithin(parser, text, deadline).tree;
}
