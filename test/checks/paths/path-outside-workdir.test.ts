/** path-outside-workdir: writes to paths established outside the working directories. */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CommandUnit, Diagnostic, SourceKind, UnitContext } from '../../../src/core/types.js';
import { finishFile, Linter } from '../../../src/lint.js';
import { policyFrom, type PermissionLists } from '../../../src/rules/policy.js';
import { IdentityMap } from '../../../src/core/source-map.js';

const ID = 'path-outside-workdir';
let linter: Linter;
beforeAll(async () => {
  linter = await Linter.create();
});

interface Options {
  readonly context?: UnitContext;
  readonly kind?: SourceKind;
  readonly file?: string;
  readonly policy?: PermissionLists;
}

function lint(text: string, o: Options = {}): Diagnostic[] {
  const kind = o.kind ?? 'transcript';
  const unit: CommandUnit = {
    text,
    hostText: text,
    dialect: 'bash',
    granularity: kind === 'script' ? 'script' : 'command',
    profile: kind === 'script' ? 'script' : 'agent',
    origin: { file: o.file ?? (kind === 'script' ? '/work/proj/scripts/build.sh' : 'session.jsonl'), kind },
    sourceMap: new IdentityMap(),
    ...(o.context ? { context: o.context } : {}),
  };
  return finishFile(text, linter.lintUnit(unit, o.policy ? policyFrom(o.policy, 'settings.json') : undefined)).filter((d) => d.ruleId === ID);
}

const IN_PROJ: Options = { context: { cwd: '/work/proj' } };

/** `col message` of the findings. */
function brief(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => `${d.range.start.column} ${d.message}`);
}

describe(ID, () => {
  it('reports a write, create or redirect outside the cwd, naming path, resolved path and working directory', () => {
    expect(brief(lint('rm -f ../other/x.txt', IN_PROJ))).toEqual([
      '7 `rm` writes `../other/x.txt` (`/work/other/x.txt`), outside the working directory `/work/proj`.',
    ]);
    expect(brief(lint('touch /etc/motd', IN_PROJ))).toEqual(['7 `touch` creates `/etc/motd`, outside the working directory `/work/proj`.']);
    expect(brief(lint('echo x >> /var/log/x', IN_PROJ))).toEqual([
      '11 `>>` redirects output to `/var/log/x`, outside the working directory `/work/proj`.',
    ]);
    const [d] = lint('mkdir /work/proj2', IN_PROJ);
    expect(d).toMatchObject({ severity: 'warning', data: { path: '/work/proj2', resolved: '/work/proj2', operation: 'create', workingDirectories: ['/work/proj'] } });
  });

  it('expands `~` to the home directory of the user running shellward', () => {
    const home = homedir();
    expect(lint('echo x >> ~/.bashrc', IN_PROJ).map((d) => d.data?.resolved)).toEqual([`${home}/.bashrc`]);
  });

  it('takes `~` from the home the run was given, as the decision does', async () => {
    const inHome = await Linter.create({ pathHost: { home: '/work/proj' } });
    const text = 'touch ~/notes.txt';
    const unit: CommandUnit = {
      text,
      hostText: text,
      dialect: 'bash',
      granularity: 'command',
      profile: 'agent',
      origin: { file: 'session.jsonl', kind: 'transcript' },
      sourceMap: new IdentityMap(),
      context: { cwd: '/work/proj' },
    };
    const analysis = inHome.analyse(unit);
    expect(analysis.decision()?.paths.map((c) => [c.resolved, c.reason])).toEqual([['/work/proj/notes.txt', 'inside']]);
    expect(analysis.diagnostics.filter((d) => d.ruleId === ID)).toEqual([]);
    expect(lint(text, IN_PROJ).map((d) => d.data?.resolved)).toEqual([`${homedir()}/notes.txt`]);
  });

  it('is silent for writes inside, reads outside, devices, variables, globs, ~user and unknown cwds', () => {
    for (const src of [
      'touch notes.txt',
      'rm -rf ./build src/../dist',
      'cat /etc/hosts; ls /; grep -r x /usr',
      'echo x > /dev/null 2>&1; cp a /dev/stdout',
      'rm -rf "$dir" $HOME/x',
      'rm /tmp/*.log',
      'touch ~root/x',
      'cd "$d" && touch ../x',
      'cd - && rm ../x',
      "sed 's/a/b/' /etc/hosts",
    ]) {
      expect(brief(lint(src, IN_PROJ)), src).toEqual([]);
    }
  });

  it('reports `sed` only when it edits in place', () => {
    expect(lint("sed -i 's/a/b/' /etc/hosts", IN_PROJ)).toHaveLength(1);
    // The backup copy `/etc/hosts.bak` is a write of its own.
    expect(lint("sed -i.bak -e 's/a/b/' /etc/hosts", IN_PROJ).map((d) => d.data?.resolved)).toEqual(['/etc/hosts.bak', '/etc/hosts']);
    expect(lint("sed --in-place 's/a/b/' /etc/hosts", IN_PROJ)).toHaveLength(1);
    expect(lint("sed -n 's/a/b/p' /etc/hosts", IN_PROJ)).toHaveLength(0);
  });

  it('follows a static cd, and never reports after a dynamic one', () => {
    expect(lint('cd /srv && touch x', IN_PROJ).map((d) => d.data?.resolved)).toEqual(['/srv/x']);
    expect(lint('cd src && touch ../x', IN_PROJ)).toEqual([]);
    expect(lint('(cd /srv && touch x); touch y', IN_PROJ).map((d) => d.data?.resolved)).toEqual(['/srv/x']);
  });

  it('accepts the additional directories of the unit and of the policy', () => {
    expect(lint('cp a /data/x', { context: { cwd: '/work/proj', additionalDirectories: ['/data'] } })).toEqual([]);
    expect(lint('cp a /data/x', { ...IN_PROJ, policy: { additionalDirectories: ['/data'] } })).toEqual([]);
    expect(lint('cp a ../sibling/x', { ...IN_PROJ, policy: { additionalDirectories: ['../sibling'] } })).toEqual([]);
    const [d] = lint('cp a /datax/y', { context: { cwd: '/work/proj', additionalDirectories: ['/data'] } });
    expect(d?.message).toBe('`cp` writes `/datax/y`, outside the working directories `/work/proj`, `/data`.');
  });

  it('skips agent commands without a recorded cwd (nothing is known to be outside)', () => {
    expect(lint('touch /etc/motd')).toEqual([]);
    expect(lint('touch /etc/motd', { kind: 'command', file: 'command' })).toEqual([]);
  });

  it('takes a script without a recorded cwd to run from its own directory, following its cds', () => {
    expect(lint('#!/bin/sh\ntouch ./x ../x ../../y\n', { kind: 'script' }).map((d) => d.data?.resolved)).toEqual(['/work/proj/x', '/work/y']);
    const rel = lint('#!/bin/sh\nrm -f ../../z\n', { kind: 'script', file: 'a/b.sh' }).map((d) => d.data?.resolved);
    // Relative to the process's directory; under a temp directory (a CI clone) it is not reported.
    const expected = resolve('a', '../../z');
    expect(rel).toEqual(/^\/(tmp|var\/tmp)(\/|$)/.test(expected) ? [] : [expected]);
    expect(lint('#!/bin/sh\ncd / || exit 1\nrm -f srv/x\ncd "$1"\nrm -f y\n', { kind: 'script' }).map((d) => d.data?.resolved)).toEqual(['/srv/x']);
    expect(lint('#!/bin/sh\nset -e\ncd /\nrm -f srv/x\n', { kind: 'script' }).map((d) => d.data?.resolved)).toEqual(['/srv/x']);
    // The cd may fail and leave the script in its own directory: not established outside.
    expect(lint('#!/bin/sh\ncd /\nrm -f srv/x\n', { kind: 'script' })).toEqual([]);
  });

  it('checks commands embedded in sh -c, where they run', () => {
    expect(lint("sh -c 'touch /etc/x'", IN_PROJ).map((d) => d.data?.resolved)).toEqual(['/etc/x']);
    expect(lint("bash -c 'cd sub && touch ../x'", IN_PROJ)).toEqual([]);
    // `eval` runs its cd in the current shell: the cwd is unknown afterwards.
    expect(lint("eval 'cd sub'; touch ../x", IN_PROJ)).toEqual([]);
    expect(lint("sh -c 'cd sub'; touch ../x", IN_PROJ).map((d) => d.data?.resolved)).toEqual(['/work/x']);
  });
});
