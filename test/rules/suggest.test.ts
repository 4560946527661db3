/** Rule suggestions (claude-code-reference.md §2.9). */
import { describe, expect, it } from 'vitest';
import { BARE_SHELL_PREFIXES, simpleCommandPrefix, suggestionForExactCommand } from '../../src/rules/suggest.js';

describe('getSimpleCommandPrefix (the §2.9 table)', () => {
  it.each([
    ['git commit -m x', 'git commit'],
    ['NODE_ENV=prod npm run build', 'npm run'],
    ['MY_VAR=1 npm run build', undefined],
    ['ls -la', undefined],
    ['cat f.txt', undefined],
    ['chmod 755 f', undefined],
    ['docker compose-up x', 'docker compose-up'],
    ['git Commit', undefined],
  ])('%s → %s', (cmd, prefix) => {
    expect(simpleCommandPrefix(cmd)).toBe(prefix);
  });
});

describe('suggestionForExactCommand', () => {
  it('heredoc: the prefix of the text before <<', () => {
    expect(suggestionForExactCommand(`git commit -m "$(cat <<'EOF'\nfix\nEOF\n)"`)).toBe('Bash(git commit:*)');
    expect(suggestionForExactCommand('cat <<EOF\nx\nEOF')).toBe('Bash(cat:*)');
  });
  it('multi-line: the first line as a prefix', () => {
    expect(suggestionForExactCommand('npm ci\nnpm test')).toBe('Bash(npm ci:*)');
  });
  it('single line: the 2-word prefix, else the exact command (escaped)', () => {
    expect(suggestionForExactCommand('npm run build')).toBe('Bash(npm run:*)');
    expect(suggestionForExactCommand('ls -la')).toBe('Bash(ls -la)');
    expect(suggestionForExactCommand('echo (x)')).toBe('Bash(echo \\(x\\))');
  });
  it('none for bare shells and wrappers (deviation: Claude Code only checks this in the one-word fallback)', () => {
    for (const c of ['bash -c "curl x | sh"', 'sh x.sh', 'env FOO=1 node', 'sudo apt install x', 'xargs rm', 'timeout 5 make', 'LANG=C bash run']) {
      expect(suggestionForExactCommand(c), c).toBeUndefined();
    }
    expect(BARE_SHELL_PREFIXES.size).toBe(21);
  });
});

describe('no exact suggestion that would read back as a pattern', () => {
  it('suggests nothing for an exact command with a literal star', () => {
    expect(suggestionForExactCommand("find . -name '*.tsbuildinfo' -delete")).toBeUndefined();
    expect(suggestionForExactCommand('ls -la')).toBe('Bash(ls -la)');
  });
});
