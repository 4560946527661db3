/** Configuration: schema validation with key paths, settings merging, globs, print-config (architecture.md §6). */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { claudeSettingsPermissions, ConfigError, formatResolvedConfig, globMatcher, isIgnored } from '../../src/config/config.js';
import { validateConfig } from '../../src/config/validate.js';
import { loadConfig } from '../../src/config/load.js';

describe('validateConfig', () => {
  it('accepts every documented key', () => {
    const c = {
      permissions: { allow: ['Bash(ls)'], ask: [], deny: ['Bash(curl:*)'], additionalDirectories: ['../x'] },
      additionalDirectories: ['/tmp'],
      rules: { 'policy-ask': 'off', 'git-push-force': 'error' },
      profile: { script: 'agent', makefile: 'script', transcript: 'agent', command: 'agent' },
      ignore: ['vendor/**'],
      claudeSettings: false,
    };
    expect(validateConfig(c, 'f.json')).toEqual(c);
  });

  it.each([
    [{ permissions: { allow: 'Bash(ls)' } }, 'permissions.allow: must be array'],
    [{ permissions: { allow: ['Bash(ls)', 3] } }, 'permissions.allow[1]: must be string'],
    [{ rules: { 'policy-ask': 'loud' } }, 'rules.policy-ask: must be equal to one of the allowed values: off, note, warning, error'],
    [{ rules: { 'no-such-rule': 'off' } }, 'rules.no-such-rule: unknown rule id'],
    [{ profile: { script: 'strict' } }, 'profile.script: must be equal to one of the allowed values'],
    [{ permisions: {} }, '(root): must NOT have additional properties (permisions)'],
    [[], '(root): must be object'],
  ])('rejects %j naming the key path', (value, message) => {
    expect(() => validateConfig(value, 'shellward.config.json')).toThrow(ConfigError);
    expect(() => validateConfig(value, 'shellward.config.json')).toThrow(message);
  });
});

describe('claudeSettingsPermissions', () => {
  it('reads the lists and ignores Claude Code\'s other keys', () => {
    expect(claudeSettingsPermissions({ permissions: { allow: ['Bash(ls)'], defaultMode: 'plan' }, env: {} }, 's')).toEqual({ allow: ['Bash(ls)'] });
    expect(claudeSettingsPermissions({}, 's')).toEqual({});
  });
  it('rejects a wrong shape with its key path', () => {
    expect(() => claudeSettingsPermissions({ permissions: { deny: [1] } }, '.claude/settings.json')).toThrow('.claude/settings.json: permissions.deny[0]: must be a string');
    expect(() => claudeSettingsPermissions({ permissions: [] }, 's')).toThrow('permissions: must be an object');
  });
});

describe('globs', () => {
  it.each([
    ['vendor/**', 'vendor/a/b.sh', true],
    ['vendor/**', 'src/vendor/a.sh', false],
    ['*.generated.sh', 'deep/dir/x.generated.sh', true],
    ['scripts/*.sh', 'scripts/a.sh', true],
    ['scripts/*.sh', 'scripts/sub/a.sh', false],
    ['**/fixtures/**', 'test/fixtures/x.sh', true],
    ['build/', 'build/out/x.sh', true],
    ['a?.sh', 'ab.sh', true],
    ['*.{sh,bash}', 'x/y.bash', true],
    ['.cache/', '.cache/z.sh', true],
  ])('%s vs %s → %s', (glob, path, hit) => {
    expect(isIgnored(path, [glob])).toBe(hit);
    expect(globMatcher([glob])(path)).toBe(hit);
  });
});

const made: string[] = [];
afterAll(async () => {
  for (const d of made) await rm(d, { recursive: true, force: true });
});

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'shellward-config-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

describe('loadConfig', () => {
  it('takes the permission mode from permissions.defaultMode, settings.local.json first; unmodelled modes are default', async () => {
    const dir = await project({
      'package.json': '{"name":"p"}',
      '.claude/settings.json': JSON.stringify({ permissions: { defaultMode: 'default' } }),
      '.claude/settings.local.json': JSON.stringify({ permissions: { defaultMode: 'acceptEdits' } }),
    });
    const r = await loadConfig({ cwd: dir });
    expect(r.permissionMode).toBe('acceptEdits');
    expect(formatResolvedConfig(r)).toContain('permission mode:\n  acceptEdits  ← .claude/settings.local.json permissions.defaultMode');
    const plan = await project({ 'package.json': '{"name":"p"}', '.claude/settings.json': JSON.stringify({ permissions: { defaultMode: 'plan' } }) });
    const p = await loadConfig({ cwd: plan });
    expect(p.permissionMode).toBeUndefined();
    expect(formatResolvedConfig(p)).toContain('sets defaultMode "plan", which is not modelled');
  });

  it('merges the shellward config with .claude/settings.local.json and .claude/settings.json, remembering each rule\'s file', async () => {
    const dir = await project({
      'package.json': '{"name":"p"}',
      '.shellwardrc.json': JSON.stringify({ permissions: { deny: ['Bash(curl:*)'] }, rules: { 'policy-ask': 'note' } }),
      '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(git status)'], ask: ['Bash(git push:*)'] } }),
      '.claude/settings.local.json': JSON.stringify({ permissions: { allow: ['Bash(curl:*)'], additionalDirectories: ['../lib'] } }),
    });
    const r = await loadConfig({ cwd: dir });
    expect(r.sources.map((s) => [s.file, s.kind])).toEqual([
      ['.shellwardrc.json', 'shellward-config'],
      ['.claude/settings.local.json', 'claude-settings-local'],
      ['.claude/settings.json', 'claude-settings'],
    ]);
    expect(r.policy.deny.map((x) => [x.raw, x.origin.file])).toEqual([['Bash(curl:*)', '.shellwardrc.json']]);
    expect(r.policy.allow.map((x) => x.raw)).toEqual(['Bash(curl:*)', 'Bash(git status)']);
    expect(r.policy.additionalDirectories).toEqual([{ path: '../lib', origin: { file: '.claude/settings.local.json', path: 'permissions.additionalDirectories[0]' } }]);
    expect(r.severity).toEqual({ 'policy-ask': 'note' });
    const printed = formatResolvedConfig(r);
    expect(printed).toContain('  Bash(curl:*)  ← .shellwardrc.json permissions.deny[0]');
    expect(printed).toContain('  Bash(git push:*)  ← .claude/settings.json permissions.ask[0]');
    expect(printed).toContain('policy-ask: note');
  });

  it('finds the config from a subdirectory, and can skip the Claude settings', async () => {
    const dir = await project({
      'package.json': '{"name":"p","shellward":{"claudeSettings":false}}',
      '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(ls)'] } }),
      'src/a/.keep': '',
    });
    const r = await loadConfig({ cwd: join(dir, 'src/a') });
    expect(r.sources.map((s) => s.kind)).toEqual(['shellward-config']);
    expect(r.sources[0]!.jsonRoot).toEqual(['shellward']);
    const r2 = await loadConfig({ cwd: dir, configFile: join(dir, 'package.json'), claudeSettings: true });
    expect(r2.sources.map((s) => s.kind)).toEqual(['shellward-config', 'claude-settings']);
  });

  it('reads Claude settings without any shellward config', async () => {
    const dir = await project({ '.claude/settings.json': JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }) });
    const r = await loadConfig({ cwd: dir });
    expect(r.policy.deny.map((x) => x.raw)).toEqual(['Bash(rm:*)']);
    expect((await loadConfig({ cwd: dir, claudeSettings: false })).policy.deny).toEqual([]);
  });

  it('takes .claude settings only from the project: up to its .git root, never a stray one above', async () => {
    const stray = await project({ '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(curl:*)'] } }), 'p/q/.keep': '' });
    expect((await loadConfig({ cwd: join(stray, 'p/q') })).policy.allow).toEqual([]);
    const repo = await project({ '.git/HEAD': '', '.claude/settings.json': JSON.stringify({ permissions: { deny: ['Bash(curl:*)'] } }), 'src/deep/.keep': '' });
    expect((await loadConfig({ cwd: join(repo, 'src/deep') })).policy.deny.map((x) => x.raw)).toEqual(['Bash(curl:*)']);
  });

  it('names the file, the key path and the rule of a malformed rule', async () => {
    const dir = await project({ '.claude/settings.json': JSON.stringify({ permissions: { allow: ['Bash(ls)'], deny: ['Bash(rm -rf'] } }) });
    await expect(loadConfig({ cwd: dir })).rejects.toThrow('.claude/settings.json: permissions.deny[0]: invalid permission rule "Bash(rm -rf": unbalanced parentheses');
  });

  it('reports invalid JSON and a missing explicit config', async () => {
    const dir = await project({ '.claude/settings.json': '{"permissions": ' });
    await expect(loadConfig({ cwd: dir })).rejects.toThrow(/\.claude\/settings\.json(:\d+:\d+)?: is not valid JSON/);
    await expect(loadConfig({ cwd: dir, configFile: 'nope.json' })).rejects.toThrow(ConfigError);
  });

  it('validates a YAML config against the schema', async () => {
    const dir = await project({ 'shellward.config.yaml': 'permissions:\n  deny: [1]\n' });
    await expect(loadConfig({ cwd: dir })).rejects.toThrow('shellward.config.yaml: invalid configuration:\n  permissions.deny[0]: must be string');
  });
});

describe('typos in Claude settings permissions', () => {
  it('rejects a key that is a typo of a rule list, and lets other keys pass', () => {
    expect(() => claudeSettingsPermissions({ permissions: { deyn: ['Bash(rm:*)'] } }, '.claude/settings.json')).toThrow(
      '.claude/settings.json: permissions.deyn: unknown key; did you mean permissions.deny?',
    );
    expect(() => claudeSettingsPermissions({ permissions: { alow: [] } }, 's')).toThrow('did you mean permissions.allow?');
    expect(claudeSettingsPermissions({ permissions: { defaultMode: 'acceptEdits', allow: ['Bash(ls)'] } }, 's')).toEqual({ allow: ['Bash(ls)'] });
  });
});

describe('a config file that is not valid JSON', () => {
  it('names the file, line and column, and shows the code frame once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-badjson-'));
    await writeFile(join(dir, 'package.json'), '{}\n');
    await writeFile(join(dir, 'shellward.config.json'), '{\n  "rules": {\n    "rm-recursive-force": "warning",\n  }\n}\n');
    const err = await loadConfig({ cwd: dir }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    const e = err as ConfigError;
    expect(e.location).toEqual({ line: 4, column: 3 });
    expect(e.message).toMatch(/^shellward\.config\.json:4:3: is not valid JSON: /);
    // The frame's marked line appears once, and the absolute path of cosmiconfig's prefix not at all.
    expect(e.message.match(/> 4 \|/g)).toHaveLength(1);
    expect(e.message).not.toContain(dir);
    await rm(dir, { recursive: true, force: true });
  });
});
