/** `shellward lint` on Makefiles and agent transcripts, through the built CLI. */
import { readFileSync } from 'node:fs';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import ajvModule from 'ajv';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSarif } from '../report/sarif-schema.js';
import { shellward } from './cli.js';

const Ajv = ajvModule.default;
const schema = JSON.parse(readFileSync(new URL('../../schemas/shellward-report.schema.json', import.meta.url), 'utf8')) as object;
const validateReport = new Ajv({ allErrors: true }).compile(schema);

interface Verdicts {
  results: {
    file: string;
    diagnostics: { ruleId: string; range: { start: { line: number; column: number } } }[];
    verdicts?: { kind: string; command: string; range: { start: { line: number; column: number } }; context?: Record<string, unknown>; verdict: { decision: string; reason: string; destructive: string[] } }[];
  }[];
}

describe('shellward lint on Makefiles', () => {
  it('finds Makefiles by name in a directory and points into the recipe', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-mk-'));
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'Makefile'), 'clean:\n\t@echo cleaning\n\tgit clean -fdx \\\n\t  && git reset --hard\n');
    await writeFile(join(dir, 'sub', 'rules.mk'), 'x:\n\trm -rf $(OUT)\n');
    await writeFile(join(dir, 'notes.txt'), '\trm -rf /\n');
    const r = await shellward(['lint', '--fail-on', 'none', '.'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const out = String(r.stdout);
    expect(out).toContain('Makefile:3:2: warning: `git clean -f` may permanently delete untracked files. [git-clean-force]');
    expect(out).toContain('Makefile:4:7: warning: `git reset --hard` may discard uncommitted changes. [git-reset-hard]');
    expect(out).toContain('sub/rules.mk:2:2: note: `rm -rf` may recursively force-remove files. [rm-recursive-force]');
    expect(out).not.toContain('notes.txt');
    const sarif = await shellward(['lint', '--format', 'sarif', 'Makefile'], { cwd: dir });
    expect(validateSarif(JSON.parse(String(sarif.stdout)))).toEqual([]);
  });
});

describe('shellward lint on agent transcripts', () => {
  it('lints the fixture transcripts found by content in a directory, with valid SARIF', async () => {
    const r = await shellward(['lint', '--format', 'sarif', 'test/fixtures/transcripts']);
    expect(String(r.stderr)).toBe('');
    // The remote-code pack makes `curl … | sh` in an agent's tool call an error (rules/packs/remote-code.json),
    // and two fixture calls pipe a download into a shell, so the default --fail-on error fails the run.
    expect(r.exitCode).toBe(1);
    const log = JSON.parse(String(r.stdout));
    expect(validateSarif(log)).toEqual([]);
    const results = log.runs[0].results as { ruleId: string; level?: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }[];
    const push = results.find((x) => x.ruleId === 'git-push-force' && x.locations[0]!.physicalLocation.artifactLocation.uri.includes('7f3e2a91-4c5d-4e8b-9a1f-2b3c4d5e6f70.jsonl'));
    // line 18 of the session: the rejected force push; column of `git push` inside the JSON string
    expect(push!.locations[0]!.physicalLocation.region).toMatchObject({ startLine: 18, startColumn: 359 });
    expect(results.filter((x) => x.ruleId === 'remote-code-pipe-shell' && x.level === 'error')).toHaveLength(2);
  });

  it('reports a malformed line as transcript-parse-error and reads on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-tr-'));
    const call = (id: string, cmd: string) => JSON.stringify({ type: 'assistant', sessionId: 's', uuid: id, message: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command: cmd } }] } });
    await writeFile(join(dir, 'session.jsonl'), [call('a', 'git reset --hard'), '{"type":"assistant","mess', call('b', 'git push -f')].join('\n') + '\n');
    const r = await shellward(['lint', '--fail-on', 'none', '.'], { cwd: dir });
    expect(String(r.stdout)).toContain('session.jsonl:2:1: warning: Line 2 of the transcript could not be read (not valid JSON); it was skipped. [transcript-parse-error]');
    expect(String(r.stdout)).toContain('session.jsonl:3:');
    expect(String(r.stdout)).toContain('[git-push-force]');
  });
});

describe('lint --format json: verdicts per command unit', () => {
  it('gives every script statement, recipe line and tool call its verdict with its host position', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'shellward-verdicts-'));
    await writeFile(join(dir, 'run.sh'), '#!/bin/sh\necho hi\nif true; then\n  rm -rf /\nfi\n');
    await writeFile(join(dir, 'Makefile'), 'all:\n\t@echo $(X) \\\n\t  && git push --force\n');
    const tr = JSON.stringify({ type: 'assistant', sessionId: 's1', uuid: 'u', cwd: '/w', timestamp: 't', message: { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'git clean -fdx' } }] } });
    const res = JSON.stringify({ type: 'user', sessionId: 's1', uuid: 'v', message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'Exit code 1', is_error: true }] } });
    await writeFile(join(dir, 'session.jsonl'), `${tr}\n${res}\n`);
    const r = await shellward(['lint', '--format', 'json', '--fail-on', 'none', '.'], { cwd: dir });
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(String(r.stdout)) as Verdicts;
    expect(validateReport(doc), JSON.stringify(validateReport.errors)).toBe(true);
    const byFile = new Map(doc.results.map((x) => [x.file, x.verdicts!]));
    expect(byFile.get('run.sh')!.map((v) => [v.kind, v.command.split('\n')[0], v.range.start.line, v.range.start.column])).toEqual([
      ['statement', 'echo hi', 2, 1],
      ['statement', 'if true; then', 3, 1],
    ]);
    const mk = byFile.get('Makefile')!;
    expect(mk.map((v) => [v.kind, v.command, v.range.start])).toEqual([['recipe', 'echo ${X} \\\n  && git push --force', { line: 2, column: 3 }]]);
    expect(mk[0]!.verdict.destructive).toEqual(['git-push-force']);
    const calls = byFile.get('session.jsonl')!;
    expect(calls.map((v) => [v.kind, v.command, v.range.start.line, v.context?.outcome, v.context?.exitCode, v.context?.cwd])).toEqual([
      ['tool-call', 'git clean -fdx', 1, 'ran', 1, '/w'],
    ]);
    expect(calls[0]!.verdict.destructive).toEqual(['git-clean-force']);
    expect(Object.keys(calls[0]!.verdict).slice(0, 2)).toEqual(['decision', 'reason']);
  });

  it('the text and SARIF formats do not carry verdicts', async () => {
    const r = await shellward(['lint', '--format', 'sarif', 'examples/safe.sh']);
    expect(String(r.stdout)).not.toContain('verdicts');
  });
});
