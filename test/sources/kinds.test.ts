/**
 * The input kinds' readers (src/sources/kinds/): which units and notes each yields and where every
 * character of a unit comes from in its host file. Column checks go down to single characters of
 * YAML block scalars (literal, folded, chomping, indentation indicators) and quoted scalars.
 */
import { parseDocument, isScalar, visit, type Scalar } from 'yaml';
import { describe, expect, it } from 'vitest';
import { LineIndex } from '../../src/core/positions.js';
import { ruleMeta } from '../../src/checks/index.js';
import { Linter } from '../../src/lint.js';
import { findExpressions, placeholder, untrustedProperties } from '../../src/sources/gha-expressions.js';
import { NOTE_RULE_IDS, type Extraction, type TextKind } from '../../src/sources/kind.js';
import { DOCKERFILE } from '../../src/sources/kinds/dockerfile.js';
import { GITHUB_ACTION, GITHUB_WORKFLOW } from '../../src/sources/kinds/github-actions.js';
import { shlexSplit } from '../../src/sources/kinds/pre-commit.js';
import { MappedText } from '../../src/sources/mapped-text.js';
import { identifyKind, INPUT_KINDS } from '../../src/sources/registry.js';
import { mappedScalar } from '../../src/sources/yaml-scalar.js';
import { blankJsonc } from '../../src/sources/json-doc.js';

const ctx = { file: 'f', profile: 'script' as const };

function extract(kind: TextKind, text: string): Extraction {
  return kind.extract(text, ctx);
}

/** Every unit character that is copied (not a placeholder, fold or inserted quote) is the host character it maps to. */
function expectFaithful(x: Extraction): void {
  for (const { unit } of x.units) {
    for (let i = 0; i < unit.text.length; i++) {
      const c = unit.text[i]!;
      const h = unit.hostText[unit.sourceMap.toHost(i)];
      if (c === '\n' || c === ' ') continue;
      if (/[${}_GHAEXPR]/.test(c) && unit.text.includes('${GHA')) continue;
      expect(h, `unit char ${i} ${JSON.stringify(c)}`).toBe(c);
    }
  }
}

/** 1-based line:column of unit offset `i`. */
function at(x: Extraction, n: number, i: number): string {
  const u = x.units[n]!.unit;
  const p = new LineIndex(u.hostText).position(u.sourceMap.toHost(i));
  return `${p.line}:${p.column}`;
}

describe('YAML scalars mapped to the file', () => {
  const samples = [
    'k: |\n  a\n    b\n  c\n',
    'k: |-\n  a\n\n  b\n\n\n',
    'k: |+\n  a\n\n',
    'k: >\n  a\n  b\n\n  c\n    d\n  e\n',
    'k: >-\n  one\n  two\n',
    'seq:\n  - k: |2\n       two more\n      x\n',
    'k: "a\\tb\\\n    c\n\n  d \\u00e9"\n',
    "k: 'it''s\n  folded'\n",
    'k: plain\n  folded\n\n  text\n',
    'k: |\r\n  crlf\r\n  lines\r\n',
  ];
  it.each(samples)('decodes %j as the yaml package does, each character from its place', (src) => {
    const doc = parseDocument(src, { keepSourceTokens: true });
    const nodes: Scalar[] = [];
    visit(doc, { Scalar: (_k, n) => void (isScalar(n) && typeof n.value === 'string' && n.value !== 'k' && n.value !== 'seq' && nodes.push(n)) });
    expect(nodes.length).toBeGreaterThan(0);
    for (const n of nodes) {
      const m = mappedScalar(n, src)!;
      expect(m.text).toBe(n.value);
      // Not the coarse fallback: characters map to distinct places.
      if (m.length > 1) expect(m.hostAt(m.length - 1)).not.toBe(m.hostAt(0));
      for (let i = 0; i < m.length; i++) {
        const c = m.text[i]!;
        if (c === '\n' || c === ' ' || c === '\t' || c === "'" || c === 'é') continue;
        expect(src[m.hostAt(i)!]).toBe(c);
      }
    }
  });
});

describe('GitHub Actions workflows', () => {
  const wf = [
    'on: push', // 1
    'jobs:', // 2
    '  build:', // 3
    '    runs-on: ubuntu-latest', // 4
    '    steps:', // 5
    '      - run: |', // 6
    '          echo start', // 7
    '            rm -rf "$HOME/"', // 8
    '      - run: >-', // 9
    '          git push', // 10
    '          --force', // 11
    '      - name: indicator', // 12
    '        run: |2', // 13
    '            rm -rf /', // 14
    '      - run: echo "${{ github.event.issue.title }}" && rm -rf ${{ inputs.dir }}/x', // 15
    '      - run: "git  reset \\', // 16
    '          --hard"', // 17
    '',
  ].join('\n');
  const x = extract(GITHUB_WORKFLOW, wf);

  it('yields one script unit per run step, in bash', () => {
    expect(x.units.map((u) => [u.kind, u.unit.dialect, u.unit.granularity])).toEqual(Array(5).fill(['run-step', 'bash', 'script']));
    expect(x.units.map((u) => u.unit.text)).toEqual([
      'echo start\n  rm -rf "$HOME/"\n',
      'git push --force',
      '  rm -rf /\n',
      `echo "${placeholder(31)}" && rm -rf ${placeholder(17)}/x`,
      'git  reset --hard',
    ]);
    expectFaithful(x);
  });

  it('maps block, folded, indicator and quoted scalars to exact columns', () => {
    expect(at(x, 0, 0)).toBe('7:11');
    expect(at(x, 0, x.units[0]!.unit.text.indexOf('rm'))).toBe('8:13');
    expect(at(x, 0, x.units[0]!.unit.text.indexOf('"$HOME'))).toBe('8:20');
    expect(at(x, 1, x.units[1]!.unit.text.indexOf('--force'))).toBe('11:11');
    expect(at(x, 2, x.units[2]!.unit.text.indexOf('rm'))).toBe('14:13');
    expect(at(x, 3, x.units[3]!.unit.text.indexOf('rm'))).toBe('15:56');
    expect(at(x, 3, x.units[3]!.unit.text.indexOf('/x'))).toBe('15:80');
    expect(at(x, 4, x.units[4]!.unit.text.indexOf('--hard'))).toBe('17:11');
  });

  it('reports the untrusted expression at its columns, not the safe env: form', () => {
    const notes = x.notes.filter((n) => n.ruleId === NOTE_RULE_IDS.untrustedInput);
    expect(notes).toHaveLength(1);
    const idx = new LineIndex(wf);
    expect(idx.position(notes[0]!.span.start)).toEqual({ line: 15, column: 20 });
    expect(idx.position(notes[0]!.span.end)).toEqual({ line: 15, column: 51 });
    const safe = extract(GITHUB_WORKFLOW, 'on: issues\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - env:\n          TITLE: ${{ github.event.issue.title }}\n        run: echo "$TITLE"\n');
    expect(safe.notes).toEqual([]);
    expect(safe.units).toHaveLength(1);
  });

  it('lints findings into the workflow at the columns of the script', async () => {
    const linter = await Linter.create();
    const found = x.units.flatMap((u) => linter.lintUnit(u.unit)).map((d) => `${d.range.start.line}:${d.range.start.column} ${d.ruleId}`);
    // One finding per command: a dangerous removal reports path-dangerous-removal alone (rm-recursive-force in its related data).
    expect(found).toEqual(expect.arrayContaining(['8:20 path-dangerous-removal', '10:11 git-push-force', '14:20 path-dangerous-removal', '15:56 rm-recursive-force', '16:15 git-reset-hard']));
  });

  it('follows shell: at step, job and workflow level and the Windows default', () => {
    const y = extract(
      GITHUB_WORKFLOW,
      'defaults:\n  run:\n    shell: sh\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo a\n      - run: echo b\n        shell: bash -l {0}\n      - run: Write-Host c\n        shell: pwsh\n  w:\n    runs-on: windows-2022\n    steps:\n      - run: echo d\n  j:\n    defaults:\n      run:\n        shell: cmd\n    steps:\n      - run: echo e\n',
    );
    expect(y.units.map((u) => [u.unit.text, u.unit.dialect])).toEqual([
      ['echo a', 'sh'],
      ['echo b', 'bash'],
      ['echo d', 'sh'],
    ]);
    expect(y.notes.map((n) => [n.ruleId, n.data?.shell])).toEqual([
      ['shell-not-analysed', 'pwsh'],
      ['shell-not-analysed', 'cmd'],
    ]);
  });

  it('reads composite actions only, and says why another action is not read', () => {
    expect(extract(GITHUB_ACTION, 'runs:\n  using: composite\n  steps:\n    - shell: bash\n      run: git clean -fdx\n').units.map((u) => u.unit.text)).toEqual(['git clean -fdx']);
    expect(extract(GITHUB_ACTION, "runs:\n  using: node20\n  main: index.js\n").notThisKind).toMatch(/node20/);
  });

  it('reports a YAML syntax error at its line and reads nothing', () => {
    const y = extract(GITHUB_WORKFLOW, 'jobs:\n  a:\n    steps: [\n');
    expect(y.units).toEqual([]);
    expect(y.notes.map((n) => n.ruleId)).toEqual(['source-parse-error']);
  });
});

describe('GitHub expressions', () => {
  it('finds expressions, also with }} inside a string', () => {
    expect(findExpressions("a ${{ format('}}') }} b ${{x}}").map((e) => e.body)).toEqual(["format('}}')", 'x']);
  });

  it('placeholders keep the length and are parameter expansions', () => {
    for (const n of [5, 8, 40]) {
      expect(placeholder(n)).toHaveLength(n);
      expect(placeholder(n)).toMatch(/^\$\{[A-Z_]+\}$/);
    }
  });

  it('tells untrusted properties in any spelling', () => {
    expect(untrustedProperties('github.event.issue.title')).toEqual(['github.event.issue.title']);
    expect(untrustedProperties("github.event['pull_request']['head']['ref']")).toEqual(['github.event.pull_request.head.ref']);
    expect(untrustedProperties('github.event.commits[0].message')).toEqual(['github.event.commits.*.message']);
    expect(untrustedProperties('toJSON(github.event.head_commit.author.name)')).toEqual(['github.event.head_commit.author.name']);
    expect(untrustedProperties('GitHub.Head_Ref')).toEqual(['github.head_ref']);
    expect(untrustedProperties('github.event.pull_request.number')).toEqual([]);
    expect(untrustedProperties("'github.event.issue.title'")).toEqual([]);
    expect(untrustedProperties('github.sha')).toEqual([]);
  });
});

describe('Dockerfiles', () => {
  it('joins continuations, drops comment lines, maps columns', () => {
    const src = 'FROM x\nRUN --mount=type=cache,target=/c apt-get update \\\n  # note\n  && rm -rf /\n';
    const x = extract(DOCKERFILE, src);
    expect(x.units.map((u) => u.unit.text)).toEqual(['apt-get update   && rm -rf /']);
    expect(at(x, 0, x.units[0]!.unit.text.indexOf('rm'))).toBe('4:6');
    expectFaithful(x);
  });

  it('honours # escape=`, heredocs, SHELL and the exec form', () => {
    const src = '# escape=`\nFROM a AS b\nRUN echo `\n  hi\nRUN <<EOF\ngit reset --hard\nEOF\nSHELL ["/bin/bash", "-c"]\nRUN ["rm", "-rf", "/x"]\nRUN echo $BASH\nSHELL ["cmd", "/S", "/C"]\nRUN dir\n';
    const x = extract(DOCKERFILE, src);
    expect(x.units.map((u) => [u.unit.text, u.unit.dialect])).toEqual([
      ['echo   hi', 'sh'],
      ['git reset --hard\n', 'sh'],
      ["rm -rf /x", 'bash'],
      ['echo $BASH', 'bash'],
    ]);
    expect(x.units[2]!.unit.context?.directExec).toBe(true);
    expect(x.notes.map((n) => n.data?.shell)).toEqual(['cmd']);
  });
});

describe('registry', () => {
  it('recognises kinds by name, content and the explicit fallback', () => {
    const id = (p: string, head?: string, explicit = false): string | undefined => identifyKind(p, head, { explicit })?.id;
    expect(id('.github/workflows/ci.yml')).toBe('github-workflow');
    expect(id('a/.github/workflows/x.yaml')).toBe('github-workflow');
    expect(id('action.yml')).toBe('github-action');
    expect(id('sub/Dockerfile')).toBe('dockerfile');
    expect(id('Containerfile.dev')).toBe('dockerfile');
    expect(id('web.Dockerfile')).toBe('dockerfile');
    expect(id('package.json')).toBe('package-json');
    expect(id('.gitlab-ci.yml')).toBe('gitlab-ci');
    expect(id('.pre-commit-config.yaml')).toBe('pre-commit');
    expect(id('.devcontainer/devcontainer.json')).toBe('devcontainer');
    expect(id('.claude/settings.local.json')).toBe('claude-settings');
    expect(id('Makefile')).toBe('makefile');
    expect(id('x.sh')).toBe('shell-script');
    expect(id('tool', '#!/usr/bin/env bash\n')).toBe('shell-script');
    expect(id('x.py', 'print(1)\n', true)).toBeUndefined();
    expect(id('tool', 'echo\n', true)).toBe('shell-script');
    expect(id('tool', 'echo\n', false)).toBeUndefined();
    expect(id('docs/ci.yml', 'jobs:\n')).toBeUndefined();
  });

  it('every note a reader reports is a known rule', () => {
    for (const id of Object.values(NOTE_RULE_IDS)) expect(ruleMeta(id), id).toBeDefined();
    expect(new Set(INPUT_KINDS.map((k) => k.id)).size).toBe(INPUT_KINDS.length);
  });
});

describe('helpers', () => {
  it('shlexSplit splits like shlex, mapping each character', () => {
    const m = new MappedText();
    m.copy(`bash -c 'a "b"' x\\ y "q\\"z"`, 0, 27);
    expect(shlexSplit(m)!.map((w) => w.text)).toEqual(['bash', '-c', 'a "b"', 'x y', 'q"z']);
    const bad = new MappedText();
    bad.copy("a 'b", 0, 4);
    expect(shlexSplit(bad)).toBeUndefined();
  });

  it('blankJsonc keeps offsets and strings', () => {
    const s = '{ // c\n "a": "//x", /* y */ "b": [1,],\n}';
    const b = blankJsonc(s);
    expect(b).toHaveLength(s.length);
    expect(JSON.parse(b)).toEqual({ a: '//x', b: [1] });
  });
});
