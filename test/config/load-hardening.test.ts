/**
 * Config loading that cannot be turned against the policy: no FIFO, device or oversized file is
 * read as config, duplicate JSON keys are errors, the search stops at the project root, two
 * config files in one directory are an error, and a JavaScript config is loaded only when named.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, MAX_CONFIG_BYTES } from '../../src/config/load.js';

const made: string[] = [];
afterAll(async () => {
  for (const d of made) await rm(d, { recursive: true, force: true });
});

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'shellward-load-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  return dir;
}

describe('loadConfig hardening', () => {
  it.each(['shellward.config.json', '.claude/settings.json', '.claude/settings.local.json'])('a FIFO named %s is an error, never a hang', async (name) => {
    const dir = await project({ 'package.json': '{"name":"p"}', '.claude/keep': '' });
    execFileSync('mkfifo', [join(dir, name)]);
    await expect(loadConfig({ cwd: dir })).rejects.toThrow(`${name}: is not a regular file`);
  }, 10_000);

  it('an explicit --config that is a FIFO or a device is an error', async () => {
    const dir = await project({ 'package.json': '{"name":"p"}' });
    execFileSync('mkfifo', [join(dir, 'c.json')]);
    await expect(loadConfig({ cwd: dir, configFile: 'c.json' })).rejects.toThrow('is not a regular file');
    await expect(loadConfig({ cwd: dir, configFile: '/dev/zero' })).rejects.toThrow('is not a regular file');
  }, 10_000);

  it('an oversized config is an error', async () => {
    const dir = await project({ 'package.json': '{"name":"p"}', 'shellward.config.json': `{"x": "${'a'.repeat(MAX_CONFIG_BYTES)}"}` });
    await expect(loadConfig({ cwd: dir })).rejects.toThrow(/shellward\.config\.json: is \d+ bytes/);
  });

  it('duplicate JSON keys are an error naming the file and line, in settings files too', async () => {
    const settings = '{\n  "permissions": {\n    "deny": ["Bash(rm:*)"],\n    "deny": []\n  }\n}\n';
    const a = await project({ 'package.json': '{"name":"p"}', '.claude/settings.json': settings });
    await expect(loadConfig({ cwd: a })).rejects.toThrow('.claude/settings.json: line 4: the key `permissions.deny` appears twice');
    const b = await project({ 'package.json': '{"name":"p"}', 'shellward.config.json': settings });
    await expect(loadConfig({ cwd: b })).rejects.toThrow('shellward.config.json: line 4');
    const c = await project({ 'package.json': '{"name":"p","shellward":{"claudeSettings":false,"claudeSettings":true}}' });
    await expect(loadConfig({ cwd: c })).rejects.toThrow('package.json: line 1: the key `shellward.claudeSettings`');
  });

  it('two config files in one directory are an error naming both', async () => {
    const dir = await project({ 'package.json': '{"name":"p"}', '.shellwardrc.json': '{"claudeSettings": false}', 'shellward.config.json': '{}' });
    await expect(loadConfig({ cwd: dir })).rejects.toThrow(/shellward\.config\.json: and \.shellwardrc\.json both configure shellward/);
  });

  it('the search stops at the project root: a config above it is not used', async () => {
    const dir = await project({ 'shellward.config.json': '{"claudeSettings": false, "permissions": {"allow": ["Bash"]}}', 'proj/package.json': '{"name":"p"}', 'proj/sub/x': '' });
    const r = await loadConfig({ cwd: join(dir, 'proj/sub') });
    expect(r.sources.map((s) => s.file)).toEqual([]);
    expect(r.policy.allow).toEqual([]);
  });

  it('a JavaScript config is loaded only when named with --config', async () => {
    const dir = await project({ 'package.json': '{"name":"p"}', 'shellward.config.mjs': 'export default { claudeSettings: false };\n' });
    await expect(loadConfig({ cwd: dir })).rejects.toThrow('shellward.config.mjs: is a JavaScript config, which runs code when loaded');
    const r = await loadConfig({ cwd: dir, configFile: 'shellward.config.mjs' });
    expect(r.sources.map((s) => s.file)).toEqual(['shellward.config.mjs']);
  });

  it('YAML and .shellwardrc still load', async () => {
    const y = await project({ 'package.json': '{"name":"p"}', '.shellwardrc.yaml': 'claudeSettings: false\npermissions:\n  deny: ["Bash(rm:*)"]\n' });
    expect((await loadConfig({ cwd: y })).policy.deny.map((r) => r.raw)).toEqual(['Bash(rm:*)']);
    const rc = await project({ 'package.json': '{"name":"p"}', '.shellwardrc': '{"permissions": {"deny": ["Bash(rm:*)"]}}' });
    expect((await loadConfig({ cwd: rc })).policy.deny.map((r) => r.raw)).toEqual(['Bash(rm:*)']);
    const dupYaml = await project({ 'package.json': '{"name":"p"}', 'shellward.config.yaml': 'claudeSettings: false\nclaudeSettings: true\n' });
    await expect(loadConfig({ cwd: dupYaml })).rejects.toThrow('shellward.config.yaml');
  });
});
