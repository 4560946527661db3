/**
 * The shared per-command driver (src/checks/security/statement.ts): which text is a command
 * string, early allows and what they suppress, finding metadata, profiles.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS, RULES, SECURITY_BATTERY } from '../../../src/checks/index.js';
import { ORDER } from '../../../src/checks/security/order.js';
import { commandForText, isPassthrough, isSecurityCheck } from '../../../src/checks/security/statement.js';
import { lint, positions } from './lint.js';

// The security rules that reproduce Claude Code's checks (secret-in-command is shellward's own).
const security = RULES.filter((r) => r.category === 'security' && r.claudeCode !== undefined);
const securityIds = (ds: readonly { ruleId: string }[]): string[] => ds.map((d) => d.ruleId).filter((id) => security.some((r) => r.id === id));

describe('rule metadata', () => {
  it('has the 23 Claude Code checks, the carriage-return sub-case and the quote-differential pre-check', () => {
    expect(security.map((r) => r.id).sort()).toEqual([
      'backslash-escaped-operators', 'backslash-escaped-whitespace', 'brace-expansion', 'carriage-return',
      'command-substitution', 'comment-quote-desync', 'control-characters', 'dangerous-variables',
      'git-commit-substitution', 'ifs-injection', 'incomplete-commands', 'input-redirection', 'jq-file-arguments',
      'jq-system-function', 'malformed-token-injection', 'mid-word-hash', 'newlines', 'obfuscated-flags',
      'output-redirection', 'proc-environ-access', 'quote-parser-differential', 'quoted-newline',
      'shell-metacharacters', 'unicode-whitespace', 'zsh-dangerous-command',
    ]);
    const ids = new Set(security.map((r) => r.claudeCode?.id).filter((x) => x !== undefined));
    for (let i = 1; i <= 23; i++) expect(ids.has(i), `Claude Code check ${i}`).toBe(true);
  });

  it('derives the battery from the registry: one detector per Claude Code rule, in the order of ORDER', () => {
    const byOrder = Object.entries(ORDER).sort((a, b) => a[1] - b[1]);
    const checks = CHECKS.filter(isSecurityCheck).sort((a, b) => a.security.order - b.security.order);
    expect(checks.map((c) => c.name)).toEqual(byOrder.map(([id]) => id));
    expect(checks.map((c) => c.rules[0]?.claudeCode?.order)).toEqual(byOrder.map(([, at]) => at));
    expect(SECURITY_BATTERY.map(([at]) => at)).toEqual(byOrder.map(([, at]) => at));
    expect(SECURITY_BATTERY.map(([, detect]) => detect)).toEqual(checks.map((c) => c.security.detect));
  });

  it('numbers codes after the Claude Code ids (S2NN = ID NN)', () => {
    for (const r of security) {
      const id = r.claudeCode?.id;
      if (id !== undefined && r.id !== 'carriage-return' && r.id !== 'jq-file-arguments' && r.id !== 'output-redirection') {
        expect(r.code, r.id).toBe(`S2${String(id).padStart(2, '0')}`);
      }
    }
  });

  it('gives every rule a distinct position in the execution order, and the misparsing flag as Claude Code', () => {
    const orders = security.map((r) => r.claudeCode!.order);
    expect(new Set(orders).size).toBe(orders.length);
    expect([...orders].sort((a, b) => a - b)).toEqual(orders.map((_, i) => i + 1));
    const nonMisparsing = security.filter((r) => !r.claudeCode!.misparsing).map((r) => r.id).sort();
    expect(nonMisparsing).toEqual(['input-redirection', 'newlines', 'output-redirection']);
  });

  it('is loud in the agent profile: every ask is a warning', () => {
    for (const r of security) expect(r.severity.agent, r.id).toBe('warning');
  });

  it('keeps evasion checks on in the script profile and ordinary scripting off', () => {
    const on = ['control-characters', 'unicode-whitespace', 'proc-environ-access', 'zsh-dangerous-command', 'carriage-return', 'jq-system-function'];
    // Ordinary scripting, and the differentials of Claude Code's own parsers (shell-quote, its
    // comment stripper, its splitter), which bash running a script does not have. On the Debian
    // corpus these fired ~450 times, all on ordinary code (`# don't`, `[ "$1" = "--help" ]`, `IFS=:`).
    const off = [
      'command-substitution', 'input-redirection', 'output-redirection', 'newlines', 'brace-expansion', 'shell-metacharacters', 'dangerous-variables',
      'ifs-injection', 'backslash-escaped-operators', 'backslash-escaped-whitespace', 'obfuscated-flags', 'quote-parser-differential',
      'comment-quote-desync', 'mid-word-hash',
    ];
    for (const id of on) expect(['error', 'warning'], id).toContain(security.find((r) => r.id === id)!.severity.script);
    for (const id of off) expect(security.find((r) => r.id === id)!.severity.script, id).toBe('off');
  });
});

describe('profiles', () => {
  it('the script profile is quiet on ordinary scripting', async () => {
    const text = 'x=$(date); echo "${x}" > out.txt 2>&1';
    expect(securityIds(await lint(text, { profile: 'script', granularity: 'script' }))).toEqual([]);
    expect(securityIds(await lint(text, { profile: 'script', granularity: 'command' }))).toEqual([]);
    // …which the agent profile reports, as Claude Code asks about it.
    expect(securityIds(await lint(text))).toEqual(expect.arrayContaining(['command-substitution', 'output-redirection']));
  });

  it('the script profile is quiet on a typical script', async () => {
    const script = [
      '#!/usr/bin/env bash',
      'set -euo pipefail',
      "# Build the release; don't run as root",
      'for f in src/*.ts; do',
      '  name=$(basename "$f" .ts)',
      '  echo "building ${name}" >&2',
      'done',
      'if [ $# -eq 0 ]; then echo "usage: $0 dir" >&2; exit 1; fi',
      'tar -czf "out-$(date +%F).tgz" {src,test} 2>/dev/null',
      "cat <<'EOF' > notes.txt",
      "it's done # really",
      'EOF',
    ].join('\n');
    expect(securityIds(await lint(script, { profile: 'script', granularity: 'script' }))).toEqual([]);
  });
});

describe('command strings', () => {
  it('is the whole unit for a command unit, each top-level statement for a script unit', async () => {
    const text = 'echo a\nzmodload zsh/system';
    expect(positions(await lint(text), 'newlines')).toEqual(['1:7']);
    expect(positions(await lint(text), 'zsh-dangerous-command')).toEqual([]); // only the first segment
    const script = await lint(text, { granularity: 'script' });
    expect(positions(script, 'newlines')).toEqual([]);
    expect(positions(script, 'zsh-dangerous-command')).toEqual(['2:1']);
  });

  it('reports each rule at most once per command string', async () => {
    const ds = await lint('echo $(a) $(b) `c`');
    expect(positions(ds, 'command-substitution')).toEqual(['1:16']); // the backtick is tested first
  });

  it('excludes comments between statements of a script', async () => {
    const ds = await lint("# don't\nls", { granularity: 'script' });
    expect(positions(ds, 'comment-quote-desync')).toEqual([]);
  });

  it('does nothing on an empty command (validateEmpty allows)', async () => {
    expect(securityIds(await lint('   \n\t'))).toEqual([]); // the tab would be an incomplete fragment
  });
});

describe('quoted heredoc bodies (claude-code-reference.md §1.3)', () => {
  it('treats quoted and escaped heredoc bodies as inert text', async () => {
    for (const c of ["cat <<'EOF'\n$(x) `y` a#b {a,b}\nEOF", 'cat <<\\EOF\n$(x) `y`\nEOF', 'cat <<"EOF"\n$(x)\nEOF', "cat <<-'EOF'\n\t$(x)\n\tEOF"]) {
      expect(securityIds(await lint(c)), c).toEqual([]);
    }
  });

  it('keeps unquoted heredoc bodies visible, because they expand', async () => {
    const ds = await lint('cat <<EOF\n$(x)\nEOF');
    expect(positions(ds, 'command-substitution')).toEqual(['2:1']);
  });

  it('uses the parse instead of bailing out on $\' or a backtick before << (deviation)', async () => {
    // Claude Code's extractHeredocs gives up when the command contains $' and reports the body.
    const ds = await lint("echo $'x'; cat <<'EOF'\n$(y)\nEOF");
    expect(positions(ds, 'command-substitution')).toEqual([]);
    expect(positions(ds, 'obfuscated-flags')).toEqual(['1:6']);
  });

  it('keeps the body visible when the parse has a syntax error', async () => {
    const ds = await lint("cat <<'EOF' (\n$(y)\nEOF");
    expect(positions(ds, 'command-substitution')).toEqual(['2:1']);
  });
});

describe('validateSafeCommandSubstitution (claude-code-reference.md §1.5)', () => {
  const allowed = (c: string): boolean => commandForText(c, SECURITY_BATTERY).allowedBy === 'safe-command-substitution';

  it.each([
    ["git commit -m \"$(cat <<'EOF'\nmsg $(x) `y` ${z}\nEOF\n)\""], // form (a)
    ["git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n   )\""],
    ["echo \"$(cat <<'EOF'\nmsg\nEOF)\""], // form (b): EOF)
    ["echo $(cat <<''EOF''\nx\nEOF\n)"], // doubled quotes tolerated
    ['echo $(cat <<\\EOF\nx\nEOF\n)'], // escaped delimiter
    ["echo $(cat<<-'EOF'\n\tx\n\tEOF\n)"], // <<- strips tabs
    ["echo $(cat <<'A'\na\nA\n) $(cat <<'B'\nb\nB\n)"], // two in sequence
    ["$(cat <<'EOF'\nonly\nEOF\n)"], // command position, nothing else remains
  ])('allows %j', (c) => {
    expect(allowed(c)).toBe(true);
  });

  it.each([
    ['echo $(cat <<"EOF"\nx\nEOF\n)', 'a double-quoted delimiter'],
    ['echo $(cat <<EOF\nx\nEOF\n)', 'an unquoted delimiter'],
    ["echo $(cat <<'EOF' ; rm x\nx\nEOF\n)", 'content after the delimiter'],
    ["echo $(cat <<'EOF'\nx\nEOF\nrm -rf /\n)", 'the first closing line counts'],
    ["echo $(cat <<'EOF'\nx\nEOF`\n)", 'an ambiguous early closure'],
    ["echo $(cat <<'EOF'\nx\nEOF;\nEOF\n)", 'an ambiguous early closure with ;'],
    ["$(cat <<'EOF'\nchmod\nEOF\n) 777 /etc/shadow", 'command-name position with a remainder'],
    ["echo $(cat <<'EOF'\nx\nEOF\n) && rm -rf x", 'an operator in the remainder'],
    ["echo $(cat <<'EOF'\nx\nEOF\n) > out", 'a redirection in the remainder'],
    ["zmodload zsh/system $(cat <<'EOF'\nx\nEOF\n)", 'a remainder that fails the battery'],
    ["echo $(cat <<'A'\n$(cat <<'B'\nx\nB\n)\nA\n)", 'nested matches'],
    ["echo $(cat <<'EOF'\nx", 'no closing line'],
    ["echo $(cat <<'EOF'\nx\nEOF", 'no closing parenthesis'],
    ["echo $(cat <<\t\n'EOF'\nx\nEOF\n)", 'a newline between << and the delimiter'],
  ])('rejects %j (%s)', (c) => {
    expect(allowed(c)).toBe(false);
  });

  it('suppresses the checks after it, not the ones before', async () => {
    const c = "git commit -m \"$(cat <<'EOF'\nfix: a=b c#d {x,y} $(z)\nEOF\n)\"";
    expect(securityIds(await lint(c))).toEqual([]);
    expect(securityIds(await lint(c.replace('fix', 'fi\x07x')))).toEqual(['control-characters']);
    // A leading tab: incomplete-commands asks, and the remainder (tab included) fails the battery.
    expect(securityIds(await lint(`\t${c}`)).sort()).toEqual(['command-substitution', 'incomplete-commands']);
  });

  it('re-checks the remainder with the whole battery', () => {
    expect(isPassthrough('echo hello', SECURITY_BATTERY)).toBe(true);
    expect(isPassthrough('zmodload x', SECURITY_BATTERY)).toBe(false);
    expect(isPassthrough('cat /proc/self/environ', SECURITY_BATTERY)).toBe(false);
    expect(isPassthrough('=curl x', SECURITY_BATTERY)).toBe(false);
    expect(isPassthrough("git commit -m 'x'", SECURITY_BATTERY)).toBe(true);
    expect(isPassthrough('', SECURITY_BATTERY)).toBe(true);
  });
});

describe('finding data', () => {
  it('carries the Claude Code id, sub-id, misparsing flag and order', async () => {
    const [d] = (await lint('echo {a,b}')).filter((x) => x.ruleId === 'brace-expansion');
    expect(d?.data).toEqual({ checkId: 16, subId: 1, misparsing: true, order: 23 });
    const [q] = (await lint("echo 'a\\' b")).filter((x) => x.ruleId === 'quote-parser-differential');
    expect(q?.data).toMatchObject({ misparsing: true, order: 2 });
    expect(q?.data).not.toHaveProperty('checkId');
  });
});

describe('bounded work', () => {
  // Which detectors fire on large adversarial inputs of 20 000 to 90 000 characters, nested
  // 30 000 deep (far past any recursion limit); how long such shapes take at 1 MB is measured by
  // `npm run bench` (the pathological inputs).
  const idAt = new Map(Object.entries(ORDER).map(([id, at]) => [at as number, id]));
  it.each([
    ['deep substitutions', '$('.repeat(30_000) + ')'.repeat(30_000), ['command-substitution']],
    ['many quotes', "'".repeat(30_001), ['obfuscated-flags']],
    ['backslash runs', '\\'.repeat(50_000) + ';', []],
    ['many heredoc openers', "echo $(cat <<'A'\n".repeat(5_000), ['newlines', 'command-substitution', 'input-redirection']],
    ['many ${', '${'.repeat(30_000) + 'IFS', ['ifs-injection', 'command-substitution']],
    ['NUL and controls', '\x00\x01;\x7f'.repeat(10_000), ['control-characters']],
    ['braces', '{'.repeat(30_000) + ',', []],
    ['lone surrogates', '\ud800 \udc00'.repeat(10_000), []],
    ['flags and quotes', ' -"a'.repeat(10_000), ['incomplete-commands', 'obfuscated-flags']],
    ['git commit', 'git commit ' + '-m '.repeat(10_000) + '"x', []],
  ])('runs the whole battery on %s', (_name, text, expected) => {
    const cmd = commandForText(text, SECURITY_BATTERY);
    const fired = SECURITY_BATTERY
      .filter(([, detect]) => detect(cmd) !== undefined)
      .map(([at]) => idAt.get(at));
    expect(fired).toEqual(expected);
  });

  it('lints a long agent command end to end', async () => {
    // Plain commands and operators: none of the security checks fires.
    expect(securityIds(await lint('echo "x" && ls -la | grep y; '.repeat(5_000)))).toEqual([]);
  });
});
