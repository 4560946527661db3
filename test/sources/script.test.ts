import { describe, expect, it } from 'vitest';
import { decodeText, detectShellScript, dialectFromShebang } from '../../src/sources/script.js';

describe('shell script detection', () => {
  it.each([
    ['#!/bin/sh', 'sh'],
    ['#!/bin/bash -e', 'bash'],
    ['#! /usr/bin/env bash', 'bash'],
    ['#!/usr/bin/env -S bash -euo pipefail', 'bash'],
    ['#!/usr/bin/env LC_ALL=C dash', 'dash'],
    ['#!/bin/ksh93', 'ksh'],
    ['#!/usr/local/bin/zsh -f', 'zsh'],
  ])('%s → %s', (line, dialect) => {
    expect(dialectFromShebang(line)).toBe(dialect);
  });
  it.each(['#!/usr/bin/env python3', '#!/usr/bin/perl -w', '# just a comment', ''])('%s is not a shell shebang', (line) => {
    expect(dialectFromShebang(line)).toBeUndefined();
  });
  it('uses the extension when there is no shebang, and the shebang over the extension', () => {
    expect(detectShellScript('a/b/run.sh', 'echo hi')).toBe('sh');
    expect(detectShellScript('x.BASH', '')).toBe('bash');
    expect(detectShellScript('t/test.bats', '')).toBe('bash');
    expect(detectShellScript('conf.zsh', '')).toBe('zsh');
    expect(detectShellScript('run.sh', '#!/bin/bash\n')).toBe('bash');
    expect(detectShellScript('tool', '\uFEFF#!/bin/sh\r\n')).toBe('sh');
    expect(detectShellScript('README.md', '# title')).toBeUndefined();
    expect(detectShellScript('.sh', '')).toBeUndefined();
  });
});

describe('decodeText', () => {
  it('decodes UTF-8 and drops a BOM', () => {
    expect(decodeText(new TextEncoder().encode('\uFEFFé'))).toEqual({ ok: true, text: 'é' });
  });
  it('refuses binary data with the offset of the NUL', () => {
    expect(decodeText(Uint8Array.from([0x23, 0x21, 0x00, 0x41]))).toEqual({ ok: false, reason: 'binary file (contains NUL bytes)', offset: 2 });
  });
  it('decodes invalid UTF-8 with replacement characters and names the first bad byte', () => {
    const bytes = Uint8Array.from([...new TextEncoder().encode('echo é\n'), 0xe9, 0x0a]);
    expect(decodeText(bytes)).toEqual({ ok: true, text: 'echo é\n\uFFFD\n', invalidAt: 8 });
  });
});
