/**
 * The here-document pre-scan (src/parse/heredoc-pressure.ts) and what the linter does with text it
 * refuses: one `parse-too-complex` finding on the crowded line, never better than `ask`, a deny
 * rule whose program is visible still denies — and no parse that the budget could not stop.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Linter } from '../../src/lint.js';
import { crowdedHeredocLine, heredocPressure, leadingHeredocs, MAX_HEREDOCS_PER_LINE, MAX_LEADING_HEREDOCS } from '../../src/parse/heredoc-pressure.js';
import { initParser, parseBash } from '../../src/parse/parser.js';
import { policyFrom } from '../../src/rules/policy.js';
import { verdictFor } from '../../src/verdict.js';
import { IdentityMap } from '../../src/core/source-map.js';
import type { CommandUnit } from '../../src/core/types.js';

describe('crowdedHeredocLine', () => {
  it('counts here-document operators per line, not here-strings', () => {
    expect(crowdedHeredocLine('cat' + ' <<a'.repeat(MAX_HEREDOCS_PER_LINE) + '\n')).toBeUndefined();
    const line = 'cat' + ' <<a'.repeat(MAX_HEREDOCS_PER_LINE + 1);
    expect(crowdedHeredocLine(`echo hi\n${line}\nls\n`)).toEqual({ start: 8, end: 8 + line.length });
    expect(crowdedHeredocLine('cat <<<x '.repeat(MAX_HEREDOCS_PER_LINE * 2))).toBeUndefined();
    // The same operators spread over lines are ordinary.
    expect(crowdedHeredocLine('cat <<a\na\n'.repeat(MAX_HEREDOCS_PER_LINE * 4))).toBeUndefined();
    // A run of `<` counts as its pairs.
    expect(crowdedHeredocLine('<'.repeat(2 * MAX_HEREDOCS_PER_LINE + 2))).toEqual({ start: 0, end: 2 * MAX_HEREDOCS_PER_LINE + 2 });
  });
});

describe('leadingHeredocs', () => {
  it('counts here-document operators that stand first in a command', () => {
    const lines = (unit: string, n: number): string => unit.repeat(n);
    expect(leadingHeredocs(lines('<<a\n', MAX_LEADING_HEREDOCS))).toBeUndefined();
    const text = `echo hi\n${lines('<<a\n', MAX_LEADING_HEREDOCS + 1)}`;
    const at = 'echo hi\n'.length + 4 * MAX_LEADING_HEREDOCS;
    expect(leadingHeredocs(text)).toEqual({ start: at, end: at + 3 });
    // After a file-descriptor number, blanks, `;`, `|`, `(` or a backquote too.
    for (const unit of ['3<<a\n', '  <<-a\n', 'x; <<a\n', 'x | <<a\n', '(<<a\n', '$(<<a\n', '`<<a\n']) {
      expect(leadingHeredocs(lines(unit, MAX_LEADING_HEREDOCS + 1)), unit).toBeDefined();
    }
    // Not after a command word, and a here-string is no here-document.
    expect(leadingHeredocs(lines('cat <<a\nbody\na\n', 10 * MAX_LEADING_HEREDOCS))).toBeUndefined();
    expect(leadingHeredocs(lines('<<<x\n', 10 * MAX_LEADING_HEREDOCS))).toBeUndefined();
    // Arithmetic shifts are not here-documents.
    expect(leadingHeredocs(lines('echo $((1<<3)) $((f|1<<2)) $(( 1 << 4 ))\n', 10 * MAX_LEADING_HEREDOCS))).toBeUndefined();
  });

  it('is one of the shapes heredocPressure reports, after the crowded line', () => {
    expect(heredocPressure('<<a\n'.repeat(MAX_LEADING_HEREDOCS + 1))?.shape).toBe('leading');
    expect(heredocPressure('<<'.repeat(MAX_HEREDOCS_PER_LINE + 1))?.shape).toBe('crowded-line');
    expect(heredocPressure("cat <<'EOF'\nsome text\nEOF\n".repeat(10_000))).toBeUndefined();
  });
});

describe('text with crowded here-documents', () => {
  let linter: Linter;
  beforeAll(async () => {
    linter = await Linter.create({ policy: policyFrom({ deny: ['Bash(curl:*)'] }, 'settings.json') });
  });
  const script = (text: string): CommandUnit => ({ text, dialect: 'bash', granularity: 'script', profile: 'script', origin: { file: 'big.sh', kind: 'script' }, sourceMap: new IdentityMap(), hostText: text });

  it('is refused by the parser entry point', async () => {
    const parser = await initParser();
    expect(parseBash(parser, '<<'.repeat(100_000))).toBeUndefined();
    const ok = parseBash(parser, 'cat <<a\nbody\na\n');
    expect(ok).toBeDefined();
    ok?.delete();
  });

  it('gives one internal-error finding (parse-too-complex is off for scripts) on the crowded line of a script', () => {
    const text = `echo start\n${'<<'.repeat(300_000)}\necho end\n`;
    const d = linter.lintUnit(script(text));
    expect(d.map((x) => x.ruleId)).toEqual(['internal-error']);
    expect(d[0]!.range.start).toEqual({ line: 2, column: 1 });
    expect(d[0]!.message).toContain('here-document operators');
    expect(d[0]!.message).toContain('not analysed');
    // In the agent profile the rule is on and says so itself.
    const agent = linter.lintUnit({ ...script(text), profile: 'agent' });
    expect(agent.map((x) => x.ruleId)).toEqual(['parse-too-complex']);
  });

  it('refuses here-document operators standing first in many commands, with the finding on the line that passed the limit', async () => {
    const parser = await initParser();
    const text = `echo start\n${'<<a\n'.repeat(MAX_LEADING_HEREDOCS + 1)}echo end\n`;
    expect(parseBash(parser, text)).toBeUndefined();
    const d = linter.lintUnit(script(text));
    expect(d.map((x) => x.ruleId)).toEqual(['internal-error']);
    expect(d[0]!.range.start).toEqual({ line: MAX_LEADING_HEREDOCS + 2, column: 1 });
    expect(d[0]!.message).toContain('stand first in a command');
    expect(verdictFor('<<a\n'.repeat(MAX_LEADING_HEREDOCS + 1), {}, linter).decision).toBe('ask');
  });

  it('asks for a command, and a visible denied program still denies', () => {
    const v = verdictFor('cat' + ' <<a'.repeat(1_000), {}, linter);
    expect(v.decision).toBe('ask');
    expect(v.reason).toMatch(/^parse-too-complex: /);
    expect(verdictFor('curl x' + ' <<a'.repeat(1_000), {}, linter).decision).toBe('deny');
  });
});
