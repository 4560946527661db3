/**
 * Wrappers that run their command in another directory or under another root: the command's
 * relative paths are not relative to the working directory shellward follows, and under a new
 * root neither its program nor its absolute paths are the ones on this machine. Each case was
 * run with GNU coreutils 9.1 `env -C`, util-linux `unshare -w`, `chroot`.
 */
import { describe, expect, it } from 'vitest';
import { bypassHarness } from './bypass-harness.js';

const { check, neverAllowed } = bypassHarness();
const ALL = ['Bash'];
const DENY = ['Bash(rm:*)', 'Bash(curl:*)'];

describe('a wrapper that changes the working directory leaves it unknown', () => {
  it.each([
    'env -C /etc cat shadow',
    'env --chdir=/etc cat shadow',
    'env --chdir /etc cat shadow',
    'env -iC/etc cat shadow',
    'env -C /etc FOO=1 cat shadow',
    'sudo -D /etc cat shadow',
    'sudo --chdir=/etc cat shadow',
    'unshare -w /etc cat shadow',
    'unshare --wd=/etc cat shadow',
    'nsenter --wd=/etc cat shadow',
    'bwrap --bind / / --chdir /etc cat shadow',
    'env -C "$D" cat shadow',
    'env -C .. cat x',
  ])('%s is never allowed on the ground of its paths', (command) => {
    neverAllowed(command);
    for (const deny of [[], DENY]) {
      const v = check(command, ALL, deny);
      expect(v.decision, command).toBe('ask');
      expect(v.reason, command).toMatch(/working directory is not known|not known|under another root/);
    }
    expect(check(command, [], [], 'acceptEdits').decision, command).not.toBe('allow');
  });

  it('the same wrappers without a directory option keep the working directory', () => {
    for (const command of ['env FOO=1 cat README', 'sudo -u bob cat x', 'env -i cat x', 'nice -n 5 cat x']) {
      expect(check(command, ALL, DENY).decision, command).toBe('allow');
    }
  });
});

describe('a wrapper that changes the root directory runs what shellward does not see', () => {
  it.each(['chroot /srv/jail cat /work/proj/x', 'sudo -R /srv/jail cat /work/proj/x', 'unshare -R /srv/jail cat x', 'nsenter --root=/srv/jail cat x', 'chroot / rmdir x'])(
    '%s asks beside deny rules and is never allowed',
    (command) => {
      neverAllowed(command);
      const v = check(command, ALL, DENY);
      expect(v.decision, command).toBe('ask');
      expect(v.reason, command).toMatch(/another root directory|working directory is not known/);
    },
  );

  it('a denied program under another root still denies', () => {
    expect(check('chroot /srv/jail rm -rf x', ALL, DENY).decision).toBe('deny');
    expect(check('sudo -R /srv/jail rm x', ALL, DENY).decision).toBe('deny');
  });
});
