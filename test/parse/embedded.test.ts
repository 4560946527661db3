import { describe, expect, it } from 'vitest';
import { embeddedCode } from '../../src/parse/embedded.js';
import { parse } from '../helpers.js';

async function embedded(src: string) {
  const p = await parse(src);
  return p.commands.flatMap((c) => embeddedCode(c, src)).map((e) => ({ text: e.text, via: e.via, exact: e.exact, at: e.base }));
}

describe('embedded shell code', () => {
  it.each([
    [`sh -c 'rm -rf /'`, 'rm -rf /', 'sh -c', 7],
    [`bash -lc "git reset --hard"`, 'git reset --hard', 'sh -c', 10],
    [`sudo -u x bash -e -c 'ls' name arg`, 'ls', 'sh -c', 22],
    [`xargs -0 sh -c 'rm "$1"' _`, 'rm "$1"', 'sh -c', 16],
    [`/bin/dash -c ls`, 'ls', 'sh -c', 13],
    [`busybox sh -c 'ls'`, 'ls', 'sh -c', 15],
    [`eval 'rm -rf x'`, 'rm -rf x', 'eval', 6],
    [`bash <<< 'kubectl delete ns x'`, 'kubectl delete ns x', 'here-string', 10],
  ])('%s', async (src, text, via, at) => {
    expect(await embedded(src)).toEqual([{ text, via, exact: true, at }]);
  });

  it('joins the words of eval and marks the map approximate', async () => {
    expect(await embedded('eval rm -rf "$x"')).toEqual([]);
    expect(await embedded('eval rm  -rf /tmp')).toEqual([{ text: 'rm -rf /tmp', via: 'eval', exact: false, at: 5 }]);
  });

  it('reads a heredoc fed to a shell as code', async () => {
    const src = "bash -s -- arg <<'EOF'\nrm -rf /\nEOF\n";
    const [e] = await embedded(src);
    expect(e).toMatchObject({ via: 'heredoc', exact: true });
    expect(src.slice(e!.at, e!.at + e!.text.length)).toBe(e!.text);
    expect(e!.text).toContain('rm -rf /');
  });

  it('maps a double-quoted string with escapes approximately', async () => {
    expect(await embedded(`sh -c "echo \\"hi\\""`)).toEqual([{ text: 'echo "hi"', via: 'sh -c', exact: false, at: 7 }]);
  });

  it.each([
    'bash script.sh',
    'bash -c "$CMD"',
    "cat <<'EOF'\nrm -rf /\nEOF",
    'sh -c',
    'python -c "import os"',
    'echo bash -c rm',
  ])('finds nothing in %s', async (src) => {
    expect(await embedded(src)).toEqual([]);
  });
});

describe('withEmbedded', () => {
  it('appends the embedded commands with spans in the unit text, recursively', async () => {
    const { withEmbedded } = await import('../../src/parse/embedded.js');
    const { initParser, parseBash } = await import('../../src/parse/parser.js');
    const { buildViews } = await import('../../src/parse/nodes.js');
    const parser = await initParser();
    const views = (text: string) => {
      const tree = parseBash(parser, text);
      if (!tree) return undefined;
      try {
        return buildViews(tree, text);
      } finally {
        tree.delete();
      }
    };
    const src = `echo start; sudo bash -c "sh -c 'rm -rf /tmp/x'"`;
    const all = withEmbedded(views(src)!, src, views);
    const names = all.commands.map((c) => [c.name?.value, c.embedded ?? false, src.slice(c.span.start, c.span.end)]);
    expect(names).toEqual([
      ['echo', false, 'echo start'],
      ['sudo', false, `sudo bash -c "sh -c 'rm -rf /tmp/x'"`],
      ['sh', true, "sh -c 'rm -rf /tmp/x'"],
      ['rm', true, 'rm -rf /tmp/x'],
    ]);
    expect(all.commands.at(-1)!.statement).toBe(1);
    // Nothing embedded: the same object comes back.
    const plain = views('ls -la')!;
    expect(withEmbedded(plain, 'ls -la', views)).toBe(plain);
  });

  it('models an alias body as code only when the unit uses the alias name', async () => {
    const { withEmbedded } = await import('../../src/parse/embedded.js');
    const { initParser, parseBash } = await import('../../src/parse/parser.js');
    const { buildViews } = await import('../../src/parse/nodes.js');
    const parser = await initParser();
    const views = (text: string) => {
      const tree = parseBash(parser, text);
      if (!tree) return undefined;
      try {
        return buildViews(tree, text);
      } finally {
        tree.delete();
      }
    };
    const names = (src: string): (string | undefined)[] => withEmbedded(views(src)!, src, views).commands.map((c) => c.name?.value);
    // Defined, never named: the body runs nowhere (the definition dies with the shell).
    expect(names("alias nuke='rm -rf /'")).toEqual(['alias']);
    expect(names("alias nuke='rm -rf /' keep='ls'\nkeep")).toEqual(['alias', 'keep', 'ls']);
    // Named as a command, directly, in a pipeline, in eval'd code, or after an alias ending in a space.
    expect(names("alias nuke='rm -rf /'\nnuke")).toEqual(['alias', 'nuke', 'rm']);
    expect(names("alias nuke='rm -rf /'\nls | nuke")).toEqual(['alias', 'ls', 'nuke', 'rm']);
    expect(names("alias nuke='rm -rf /'\neval 'eval nu\"ke\"'")).toContain('rm');
    expect(names("alias s='sudo ' nuke='rm -rf /'\ns nuke")).toContain('rm');
    // An alias named like a reserved word may expand where no simple command shows it.
    expect(names("alias if='rm -rf /'")).toContain('rm');
  });
});
