/**
 * `shellward hook` reads its arguments without commander when they are plainly its options
 * (src/cli/hook-args.ts): it must read them exactly as commander does with the options
 * `defineHookOptions` declares, know every one of those options, and give up on everything
 * else so that commander prints its help or usage error.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { quickHookArgs } from '../../src/cli/hook-args.js';
import { defineHookOptions } from '../../src/cli/hook-command.js';
import { parseHookArgs } from '../../src/cli/serve-command.js';

/** What commander gives the action for `args`, or the error it printed. */
async function commander(args: readonly string[]): Promise<unknown> {
  const r = await parseHookArgs(args);
  return 'opts' in r ? { ...r.opts } : { error: r.error };
}

/** Every option of `shellward hook` as commander knows it: flag, whether it takes a value, its choices. */
function declared(): { long: string; value: boolean; choices: readonly string[] | undefined }[] {
  const cmd = defineHookOptions(new Command('hook'));
  return cmd.options.map((o) => ({ long: o.long!, value: o.required || o.optional, choices: o.argChoices }));
}

describe('quickHookArgs', () => {
  it('reads no arguments as commander does (the defaults)', async () => {
    const quick = quickHookArgs([]);
    expect(quick).toEqual({ mode: 'enforce', askAs: 'deny', timeout: '5000', claudeSettings: true });
    expect(quick).toEqual(await commander([]));
  });

  it('knows every option defineHookOptions declares, each value in both spellings, as commander reads it', async () => {
    const options = declared();
    expect(options.map((o) => o.long)).toEqual(expect.arrayContaining(['--agent', '--mode', '--deny-on', '--ask-as', '--log', '--timeout', '--config', '--no-claude-settings', '--permission-mode']));
    let compared = 0;
    for (const o of options) {
      const lists: string[][] = [];
      if (!o.value) lists.push([o.long]);
      else for (const v of o.choices ?? ['some/file.json', '250']) lists.push([o.long, v], [`${o.long}=${v}`]);
      for (const args of lists) {
        const quick = quickHookArgs(args);
        expect(quick, args.join(' ')).toBeDefined();
        expect(quick, args.join(' ')).toEqual(await commander(args));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('reads combinations and repeated options as commander does (the last one wins)', async () => {
    const lists = [
      ['--agent', 'codex', '--mode', 'warn', '--deny-on', 'error', '--ask-as', 'pass'],
      ['--mode', 'warn', '--mode', 'log'],
      ['--config=a=b.json', '--no-claude-settings', '--timeout', '100', '--log', 'x.jsonl'],
      ['--permission-mode', 'acceptEdits', '--agent=gemini', '--no-claude-settings', '--no-claude-settings'],
    ];
    for (const args of lists) {
      const quick = quickHookArgs(args);
      expect(quick, args.join(' ')).toBeDefined();
      expect(quick, args.join(' ')).toEqual(await commander(args));
    }
  });

  it('gives up on help, unknown options, arguments, missing or invalid values (commander answers those)', async () => {
    const lists = [
      ['--help'],
      ['-h'],
      ['--bogus'],
      ['extra'],
      ['--'],
      ['--mode'],
      ['--mode', 'bogus'],
      ['--mode=bogus'],
      ['--agent', 'claude'],
      ['--timeout='],
      ['--config', '--mode'],
      ['--no-claude-settings=1'],
      ['--claude-settings'],
      ['-V'],
    ];
    for (const args of lists) expect(quickHookArgs(args), args.join(' ')).toBeUndefined();
    // commander's own answer to these is an error or help text, never options.
    for (const args of [['--help'], ['--bogus'], ['extra'], ['--mode', 'bogus'], ['--agent', 'claude']]) {
      expect(await commander(args), args.join(' ')).toHaveProperty('error');
    }
  });
});
