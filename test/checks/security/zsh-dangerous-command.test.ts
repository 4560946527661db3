import { describe, expect, it } from 'vitest';
import { ZSH_DANGEROUS_COMMANDS } from '../../../src/checks/security/zsh-dangerous-command.js';
import { expectNone, expectOne } from './lint.js';

const ID = 'zsh-dangerous-command';

describe(ID, () => {
  it.each([...ZSH_DANGEROUS_COMMANDS].map((c) => [c]))('reports %s as the base word', async (c) => {
    const d = await expectOne(ID, `${c} x`, '1:1');
    expect(d.data).toMatchObject({ checkId: 20, subId: 1, command: c });
  });

  it.each([
    ['FOO=bar command builtin zmodload zsh/net/tcp', '1:25', 1],
    ['  noglob nocorrect sysopen -w fd f', '1:20', 1],
    ['A=1 B=2 zpty x y', '1:9', 1],
    ['fc -e vi', '1:4', 2],
    ['fc -le 10', '1:4', 2],
    ['fc -l -e : 1', '1:7', 2],
  ] as const)('reports %j', async (cmd, at, subId) => {
    const d = await expectOne(ID, cmd, at);
    expect(d.data).toMatchObject({ subId });
  });

  it.each([['fc -l'], ['echo zmodload'], ['ls -la'], ['ls; zmodload x'], ['command ls']])('does not report %j', async (cmd) => {
    await expectNone(ID, cmd);
  });

  it('examines each statement of a zsh script in the script profile', async () => {
    await expectOne(ID, 'ls\nzmodload zsh/system', '2:1', { profile: 'script', granularity: 'script', dialect: 'zsh' });
  });

  it('leaves bash and sh scripts alone in the script profile (bash has its own mapfile)', async () => {
    await expectNone(ID, 'mapfile -t lines < file\nzmodload zsh/system', { profile: 'script', granularity: 'script', dialect: 'bash' });
    await expectNone(ID, 'zmodload zsh/system', { profile: 'script', granularity: 'script', dialect: 'sh' });
    // Agent commands may run under zsh: always checked.
    await expectOne(ID, 'mapfile', '1:1');
  });
});
