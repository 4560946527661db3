/**
 * The policy's own files and files that run code later are never written without approval, also
 * in acceptEdits mode and under an allow rule.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { protectedPath } from '../../src/analyses/paths.js';
import { Linter } from '../../src/lint.js';
import { verdictFor } from '../../src/verdict.js';

let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create({ pathHost: { home: '/home/u' } });
});

const FILES = [
  'shellward.config.json', 'shellward.config.js', 'shellward.config.mjs', '.shellwardrc', '.shellwardrc.json', '.shellwardrc.yaml', 'package.json',
  '.claude/settings.json', '.husky/pre-commit', '.git/hooks/pre-commit', '.git/config', '.gitattributes', '.github/workflows/ci.yml',
  '.envrc', '.npmrc', 'Makefile', 'GNUmakefile', '.pre-commit-config.yaml', 'sub/dir/Makefile',
];

describe('protected policy and code-running files', () => {
  it.each(FILES)('%s is protected', (f) => {
    expect(protectedPath(`/work/proj/${f}`)).toBe(true);
  });
  it('ordinary files are not', () => {
    for (const f of ['src/index.ts', 'README.md', 'makefile.md', 'docs/shellward.md', 'package-lock.json']) expect(protectedPath(`/work/proj/${f}`)).toBe(false);
  });
  it.each(FILES)('acceptEdits does not allow `cp x %s`, with or without an allow rule', (f) => {
    const req = (allow: string[], deny: string[] = []) => ({ cwd: '/work/proj', mode: 'acceptEdits' as const, permissions: { allow, deny, ask: [] } });
    expect(verdictFor(`cp x ${f}`, req([]), linter).decision).toBe('ask');
    expect(verdictFor(`echo '{}' > ${f}`, req([]), linter).decision).toBe('ask');
    expect(verdictFor(`cp x ${f}`, req(['Bash(cp:*)']), linter).decision).toBe('ask');
    expect(verdictFor(`cp x ${f}`, req(['Bash'], ['Bash(rm:*)']), linter).decision).toBe('ask');
  });
  it('acceptEdits still allows ordinary edits', () => {
    expect(verdictFor('cp x src/y.ts', { cwd: '/work/proj', mode: 'acceptEdits' }, linter).decision).toBe('allow');
  });
});
