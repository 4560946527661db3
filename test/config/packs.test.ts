import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, packSetFrom } from '../../src/config/config.js';
import { validateConfig, validatePack } from '../../src/config/validate.js';
import { UnitFacts } from '../../src/analyses/destructive.js';
import { parse } from '../helpers.js';
import { shellward } from '../cli/cli.js';

const PACK = {
  id: 'deploy',
  title: 'Our deploy tool',
  keywords: ['deployctl'],
  families: { deployctl: { names: ['deployctl'] } },
  rules: [
    {
      id: 'deployctl-wipe', family: 'deployctl', match: { firstOperand: '^wipe$' }, severity: { agent: 'error', script: 'warning' },
      title: 'deployctl wipe deletes an environment', message: '`deployctl wipe` deletes the environment.', rationale: 'r', fix: 'f',
      examples: { invalid: ['deployctl wipe prod'], valid: ['deployctl pause prod'] },
    },
  ],
};

describe('custom packs in the config', () => {
  it('validates a pack file and matches its rules through wrappers', async () => {
    const pack = validatePack(PACK, 'my-pack.json');
    const set = packSetFrom({ packs: { files: ['my-pack.json'] } }, 'shellward.config.json', [pack]);
    const p = await parse('sudo deployctl wipe prod; deployctl pause prod');
    const unit = new UnitFacts(p.commands);
    expect(p.commands.map((c) => set.match(c, unit).map((h) => h.rule.id))).toEqual([['deployctl-wipe'], []]);
  });

  it('names the file and the key path of every problem', () => {
    const bad = { ...PACK, rules: [{ ...PACK.rules[0], family: 'nope', match: { firstOperand: '(' } }] };
    expect(() => validatePack(bad, 'my-pack.json')).toThrow(ConfigError);
    expect(() => validatePack(bad, 'my-pack.json')).toThrow(/my-pack\.json: invalid pack:\n {2}rules\[0\]\.match\.firstOperand: must match format "regex"/);
    const wrongFamily = { ...PACK, rules: [{ ...PACK.rules[0], family: 'nope' }] };
    expect(() => validatePack(wrongFamily, 'p.json')).toThrow(/rules\[0\]\.family: no family "nope"/);
    expect(() => validatePack({ ...PACK, rules: [{ ...PACK.rules[0], id: 'git-reset-hard' }] }, 'p.json')).toThrow(/rules\[0\]\.id: "git-reset-hard" is already a rule id/);
    expect(() => validatePack({ ...PACK, id: 'git' }, 'p.json')).toThrow(/id: "git" is a built-in pack/);
  });

  it('turns built-in packs off, and refuses an unknown pack id', async () => {
    const set = packSetFrom({ packs: { disable: ['containers'] } }, 'c.json');
    const p = await parse('docker system prune -af');
    expect(set.match(p.commands[0]!, new UnitFacts(p.commands))).toEqual([]);
    expect(set.packs.map((x) => x.id)).not.toContain('containers');
    expect(() => packSetFrom({ packs: { disable: ['nope'] } }, 'c.json')).toThrow(/c\.json: invalid configuration:\n {2}packs\.disable: unknown pack "nope"/);
  });

  it('accepts severities for custom rule ids only when a pack defines them', () => {
    expect(() => validateConfig({ rules: { 'deployctl-wipe': 'error' } }, 'c.json')).toThrow(/rules\.deployctl-wipe: unknown rule id/);
    expect(validateConfig({ rules: { 'deployctl-wipe': 'error' } }, 'c.json', new Set(['deployctl-wipe'])).rules).toEqual({ 'deployctl-wipe': 'error' });
  });

  it('gives SARIF a rule descriptor for a custom rule: id, index, help, severity, the pack in properties, no docs link (CLI)', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-custom-pack-'));
    await writeFile(join(dir, 'deploy-pack.json'), JSON.stringify({ ...PACK, rules: [{ ...PACK.rules[0], rationale: 'Wiping drops the database.', fix: 'Use `deployctl pause`.' }] }));
    await writeFile(join(dir, 'shellward.config.json'), JSON.stringify({ packs: { files: ['deploy-pack.json'] } }));
    await writeFile(join(dir, 'x.sh'), 'deployctl wipe prod\n');
    const r = await shellward(['lint', '--format', 'sarif', '--fail-on', 'none', 'x.sh'], { cwd: dir });
    const log = JSON.parse(String(r.stdout)) as { runs: { tool: { driver: { rules: { id: string; helpUri?: string; shortDescription: { text: string }; help: { text: string }; defaultConfiguration: { level: string }; properties: Record<string, unknown> }[] } }; results: { ruleId: string; ruleIndex?: number; level: string }[] }[] };
    const run = log.runs[0]!;
    const result = run.results.find((x) => x.ruleId === 'deployctl-wipe');
    expect(result?.level).toBe('warning');
    const rule = run.tool.driver.rules[result!.ruleIndex!]!;
    expect(rule.id).toBe('deployctl-wipe');
    expect(rule.shortDescription.text).toBe('deployctl wipe deletes an environment');
    expect(rule.help.text).toContain('Wiping drops the database.');
    expect(rule.help.text).toContain('Use `deployctl pause`.');
    expect(rule.defaultConfiguration.level).toBe('warning');
    expect(rule.properties).toMatchObject({ pack: 'deploy', tags: expect.arrayContaining(['destructive', 'custom-pack']) });
    expect(rule.helpUri).toBeUndefined();
    // Built-in rules keep their docs link.
    expect(run.tool.driver.rules.find((x) => x.id === 'git-reset-hard')?.helpUri).toMatch(/docs\/rules\/git-reset-hard\.md$/);
  });
});
