/**
 * Parse complexity (claude-code-reference.md §1.7): every too-complex node type of the list, the
 * safe-variable exceptions, the separators, parse errors, the hard caps, deep nesting, and the
 * agreement between the scan inside the parse views and the standalone walk.
 */
import { describe, expect, it } from 'vitest';
import {
  analyseComplexity,
  describeComplexity,
  LENGTH_CONSTRUCT,
  MAX_COMPLEXITY_LENGTH,
  MAX_COMPLEXITY_NODES,
  NODE_COUNT_CONSTRUCT,
  TOO_COMPLEX_NODE_TYPES,
  type ComplexityLimits,
  type ParseComplexity,
} from '../../src/parse/complexity.js';
import { initParser, parseClockMs, parseTimed } from '../../src/parse/parser.js';
import { lintText, parse } from '../helpers.js';

/** Complexity from the parse views, checked against the standalone walk. */
async function complexity(text: string, limits?: ComplexityLimits): Promise<ParseComplexity> {
  const parser = await initParser();
  // Without the pre-scans that refuse deep nesting unparsed: these tests read the views of such text.
  const { tree } = parseTimed(parser, text, parseClockMs() + 10_000);
  if (!tree) throw new Error('parse timed out');
  try {
    const standalone = analyseComplexity(tree, text, limits);
    if (!limits) expect((await parse(text)).complexity).toEqual(standalone);
    return standalone;
  } finally {
    tree.delete();
  }
}

/**
 * One command per node type of claude-code-reference.md §1.7, with the construct reported and the offset where it
 * starts. tree-sitter-bash 0.25 parses `until` as a `while_statement` and `$"…"` as `$` + string;
 * the scan reports the latter as `translated_string`.
 */
const SPEC_EXAMPLES: readonly (readonly [type: string, command: string, offset: number, listed?: string])[] = [
  ['command_substitution', 'echo $(date)', 5],
  ['command_substitution', 'echo `date`', 5],
  ['process_substitution', 'diff <(ls a) <(ls b)', 5],
  ['expansion', 'echo ${HOME}', 5],
  ['simple_expansion', 'echo $FOO', 5],
  ['brace_expression', 'echo {1..3}', 5],
  ['subshell', '(cd src && ls)', 0],
  ['compound_statement', '{ ls; pwd; }', 0],
  ['for_statement', 'for f in *.ts; do wc -l "$f"; done', 0],
  ['while_statement', 'while true; do sleep 1; done', 0],
  ['while_statement', 'until false; do sleep 1; done', 0, 'until_statement'],
  ['if_statement', 'if true; then ls; fi', 0],
  ['case_statement', 'case x in a) ls;; esac', 0],
  ['function_definition', 'f() { ls; }', 0],
  ['test_command', '[ -f x ] && cat x', 0],
  ['test_command', '[[ -f x ]]', 0],
  ['ansi_c_string', "echo $'a\\nb'", 5],
  ['translated_string', 'echo $"hello"', 5],
  ['translated_string', 'echo a$"hello"', 6],
  ['herestring_redirect', 'cat <<< foo', 4],
  ['heredoc_redirect', 'cat <<EOF\nhello\nEOF', 4],
];

describe('claude-code-reference.md §1.7 too-complex node types', () => {
  it('covers every node type of the list', () => {
    const covered = new Set(SPEC_EXAMPLES.map(([t, , , listed]) => listed ?? t));
    for (const t of TOO_COMPLEX_NODE_TYPES) expect(covered.has(t), t).toBe(true);
  });

  it.each(SPEC_EXAMPLES.map(([t, c, o]) => [JSON.stringify(c), t, c, o] as const))('%s is too-complex (%s)', async (_l, type, command, offset) => {
    const c = await complexity(command);
    expect(c).toMatchObject({ status: 'too-complex', construct: type });
    expect(c.span?.start).toBe(offset);
    expect(describeComplexity(c)).toContain(`at offset ${offset}`);
  });

  it('reports the outermost, leftmost construct', async () => {
    const c = await complexity('ls && echo "$(cat $(ls))" ${x}');
    expect(c).toMatchObject({ construct: 'command_substitution', span: { start: 12, end: 24 } });
    expect((await complexity('f() { echo $(date); }')).construct).toBe('function_definition');
  });

  it('treats node types the walker does not handle as too-complex', async () => {
    expect((await complexity('x=$((1 + 2))')).construct).toBe('arithmetic_expansion');
    expect((await complexity('declare -a arr=(1 2)')).construct).toBe('array');
    expect((await complexity('x[1]=2')).construct).toBe('subscript');
    expect((await complexity('for ((i=0; i<3; i++)); do :; done')).construct).toBe('c_style_for_statement');
  });
});

describe('what the walker handles', () => {
  it.each([
    'git status',
    'npm test -- --run src/a.test.ts',
    'a && b || c; d & e | f |& g\nh',
    '! grep -q x file',
    'export CI=1 && npm test',
    'local a=b',
    'unset FOO',
    'FOO=1 BAR="x y" make -j4',
    "git commit -m 'fix: a \"quoted\" thing'",
    'cmd > out.txt 2>&1 < in.txt',
    'echo a\\ b \\$HOME',
    'echo "price: 5$" \\$"x"',
    'ls *.ts ~/src # a comment',
    '',
  ])('%j is simple', async (command) => {
    expect(await complexity(command)).toMatchObject({ status: 'simple' });
    expect(describeComplexity(await complexity(command))).toBeUndefined();
  });

  it('allows references to the AST safe variables anywhere', async () => {
    for (const v of ['HOME', 'PWD', 'OLDPWD', 'USER', 'LOGNAME', 'SHELL', 'PATH', 'HOSTNAME', 'UID', 'EUID', 'PPID', 'RANDOM', 'SECONDS', 'LINENO', 'TMPDIR', 'BASH_VERSION', 'BASHPID', 'SHLVL', 'HISTFILE']) {
      expect((await complexity(`echo $${v} "$${v}"`)).status, v).toBe('simple');
    }
  });

  it('allows IFS and the special parameters ? $ ! # 0 - only inside strings', async () => {
    for (const v of ['IFS', '?', '$', '!', '#', '0', '-']) {
      expect((await complexity(`echo "$${v}"`)).status, `"$${v}"`).toBe('simple');
      expect(await complexity(`echo $${v}`), `$${v}`).toMatchObject({ status: 'too-complex', construct: 'simple_expansion', span: { start: 5 } });
    }
  });

  it('rejects other variables, positional parameters and $@', async () => {
    for (const command of ['echo "$FOO"', 'echo $1', 'echo "$@"', 'echo $_', 'cd $HOME_DIR']) {
      expect((await complexity(command)).construct, command).toBe('simple_expansion');
    }
  });
});

describe('parse errors', () => {
  it('reports the first ERROR node', async () => {
    const c = await complexity('echo "unterminated');
    expect(c).toMatchObject({ status: 'parse-error' });
    expect(['ERROR', 'MISSING']).toContain(c.construct);
    expect(describeComplexity(c)).toMatch(/does not parse/);
  });

  it('reports a MISSING token with what was expected', async () => {
    const c = await complexity('if true; then ls');
    expect(c.status).toBe('parse-error');
    if (c.construct === 'MISSING') expect(c.expected).toBe('fi');
  });

  it('gives a parse error precedence over constructs and caps', async () => {
    expect((await complexity('echo $(date')).status).toBe('parse-error');
    expect((await complexity('a '.repeat(MAX_COMPLEXITY_LENGTH) + '"')).status).toBe('parse-error');
  });
});

describe('hard caps', () => {
  it('makes a command longer than the length cap too-complex, at the cap', async () => {
    const long = 'echo ' + 'a'.repeat(MAX_COMPLEXITY_LENGTH);
    const c = await complexity(long);
    expect(c).toMatchObject({ status: 'too-complex', construct: LENGTH_CONSTRUCT, span: { start: MAX_COMPLEXITY_LENGTH, end: long.length } });
    expect(describeComplexity(c)).toContain(`${long.length} characters long`);
    expect((await complexity('echo ' + 'a'.repeat(MAX_COMPLEXITY_LENGTH - 5))).status).toBe('simple');
  });

  it('makes a command with more nodes than the node cap too-complex, at the first node past it', async () => {
    const dense = 'a;'.repeat(Math.ceil(MAX_COMPLEXITY_NODES / 4) + 10);
    expect(dense.length).toBeLessThanOrEqual(MAX_COMPLEXITY_LENGTH);
    const c = await complexity(dense);
    expect(c).toMatchObject({ status: 'too-complex', construct: NODE_COUNT_CONSTRUCT });
    expect(c.nodeCount).toBeGreaterThan(MAX_COMPLEXITY_NODES);
    expect(c.span!.start).toBeGreaterThan(0);
    expect(describeComplexity(c)).toMatch(/syntax nodes/);
  });

  it('applies lowered limits (length first, then nodes, then constructs)', async () => {
    expect(await complexity('ls -la', { maxLength: 3, maxNodes: 100 })).toMatchObject({ construct: LENGTH_CONSTRUCT, span: { start: 3, end: 6 } });
    expect(await complexity('ls -la', { maxLength: 100, maxNodes: 3 })).toMatchObject({ construct: NODE_COUNT_CONSTRUCT });
    expect(await complexity('echo $(x)', { maxLength: 100, maxNodes: 3 })).toMatchObject({ construct: NODE_COUNT_CONSTRUCT });
    expect(await complexity('echo $(x)', { maxLength: 100, maxNodes: 100 })).toMatchObject({ construct: 'command_substitution' });
  });
});

describe('deep and large input', () => {
  it('handles 100 000 nested subshells and substitutions without recursion', async () => {
    const n = 100_000;
    const parens = await complexity('('.repeat(n) + 'ls' + ')'.repeat(n));
    expect(parens.status).not.toBe('simple');
    expect(parens.nodeCount).toBeGreaterThan(n);
    const subs = await complexity('$('.repeat(n));
    expect(subs.status).toBe('parse-error');
  });

  it('counts nodes like the parse views', async () => {
    const text = 'git status && ls | wc -l';
    expect((await complexity(text)).nodeCount).toBe((await parse(text)).nodeCount);
  });
});

describe('parse-too-complex check', () => {
  it('reports once, at the construct, in the agent profile only', async () => {
    const ds = await lintText('ls && echo $(date) $(whoami)', 'agent');
    const own = ds.filter((d) => d.ruleId === 'parse-too-complex');
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ severity: 'warning', range: { start: { line: 1, column: 12 } }, data: { construct: 'command_substitution', offset: 11 } });
    expect(own[0]!.message).toMatch(/^Command substitution .* at offset 11 cannot be proven safe/);
    expect((await lintText('ls && echo $(date)', 'script')).filter((d) => d.ruleId === 'parse-too-complex')).toEqual([]);
  });

  it('leaves parse errors to parse-error', async () => {
    const ds = await lintText('echo $(date', 'agent');
    expect(ds.some((d) => d.ruleId === 'parse-error')).toBe(true);
    expect(ds.some((d) => d.ruleId === 'parse-too-complex')).toBe(false);
  });
});
