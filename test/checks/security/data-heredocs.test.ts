/**
 * Noise seen in real agent sessions, pinned with minimal commands of the same shape: data heredoc
 * bodies are text, array assignments are not zsh `=(…)`, and a printed `"---X---"` is no flag.
 * Each case also keeps the neighbouring real finding, so the rules are narrowed, not switched off.
 */
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../src/core/types.js';
import { lintText } from '../../helpers.js';

async function rules(text: string, profile: Profile = 'agent'): Promise<string[]> {
  return (await lintText(text, profile, 'cmd')).map((d) => d.ruleId);
}

describe('data heredoc bodies are not shell', () => {
  it('HTML in a file written with cat > a.md <<EOF is no input redirection', async () => {
    expect(await rules('cat > a.md <<EOF\n<b>bold</b> and <i>x</i>\nEOF')).not.toContain('input-redirection');
    // still reported outside the body, and in a body fed to a shell
    expect(await rules('cat > a.md <<EOF\n<b>x</b>\nEOF\nwc -l < a.md')).toContain('input-redirection');
    expect(await rules('bash <<EOF\ncat < /etc/passwd\nEOF')).toContain('input-redirection');
  });

  it('Markdown titles and ASCII art are text', async () => {
    const md = await rules('cat > README.md <<EOF\n# Title\nSee issue#12 and C#.\nEOF');
    expect(md).not.toContain('mid-word-hash');
    const art = await rules("cat > banner.txt <<EOF\n /\\ /\\ |\n( o.o )  don't\nEOF");
    expect(art).not.toContain('backslash-escaped-whitespace');
    // a body that expands something is not plain data: its `$(…)` runs
    expect(await rules('cat > x.md <<EOF\nnow: $(date) a#b\nEOF')).toContain('mid-word-hash');
    // outside heredocs the checks are unchanged
    expect(await rules('echo a#b')).toContain('mid-word-hash');
    expect(await rules('cat file\\ name')).toContain('backslash-escaped-whitespace');
  });
});

describe('array assignments and printed dashes', () => {
  it('cmd=(ls -la) is an array, not zsh process substitution; cat =(ls) still is', async () => {
    expect(await rules('cmd=(ls -la)\n"${cmd[@]}"')).not.toContainEqual('command-substitution-zsh');
    const found = await lintText('cmd=(ls -la)', 'agent', 'cmd');
    expect(found.filter((d) => d.ruleId === 'command-substitution' && /=\(\)/.test(d.message))).toEqual([]);
    const zsh = await lintText('cat =(ls)', 'agent', 'cmd');
    expect(zsh.some((d) => d.ruleId === 'command-substitution' && /=\(\)/.test(d.message))).toBe(true);
  });

  it('echo "---X---" on its own line of a multi-line command is no obfuscated flag; a quoted flag still is', async () => {
    expect(await rules('cd build\necho "---Summary---"\nls')).not.toContain('obfuscated-flags');
    expect(await rules('make && echo "--done--"')).not.toContain('obfuscated-flags');
    expect(await rules('cd build\nfind . "-"exec rm {} +')).toContain('obfuscated-flags');
    // printed into a pipe or a substitution, the word may become a flag
    expect(await rules('cd x\necho "-rf" | xargs rm')).toContain('obfuscated-flags');
  });
});
