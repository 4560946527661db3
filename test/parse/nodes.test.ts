import { describe, expect, it } from 'vitest';
import { parse } from '../helpers.js';

describe('parse views', () => {
  it('splits top-level statements and finds nested simple commands', async () => {
    const p = await parse('# c\necho a; echo b &\nf() { rm -r x; }\nx=$(date) && (cd / && ls) | wc -l\n');
    expect(p.statements.map((s) => s.type)).toEqual(['command', 'command', 'function_definition', 'list']);
    expect(p.commands.map((c) => c.name?.value)).toEqual(['echo', 'echo', 'rm', 'date', 'cd', 'ls', 'wc']);
    expect(p.commands.map((c) => c.statement)).toEqual([0, 1, 2, 3, 3, 3, 3]);
    expect(p.comments).toHaveLength(1);
  });
  it('collects assignments, redirections and heredocs', async () => {
    const src = "A=1 B='x y' cmd arg 2>/dev/null >out <<'EOF'\nbody $x\nEOF\n";
    const p = await parse(src);
    const c = p.commands[0]!;
    expect(c.assignments.map((a) => [a.name, a.value?.value])).toEqual([['A', '1'], ['B', 'x y']]);
    expect(c.args.map((a) => a.value)).toEqual(['arg']);
    expect(c.redirects.map((r) => [r.fd, r.operator, r.target?.value])).toEqual([
      ['2', '>', '/dev/null'],
      [undefined, '>', 'out'],
      [undefined, '<<', undefined],
    ]);
    const h = c.redirects[2]!.heredoc!;
    expect(h).toMatchObject({ delimiter: 'EOF', quoted: true, stripTabs: false });
    expect(h.body).toContain('body $x');
    expect(src.slice(h.bodySpan.start, h.bodySpan.end)).toBe(h.body);
  });
  it('keeps the redirections and words written after a heredoc delimiter on its line', async () => {
    // tree-sitter-bash nests them inside the heredoc_redirect node.
    const p = await parse("cat <<'X' > out 2>>err a.txt\nhi\nX\n");
    const c = p.commands[0]!;
    expect(c.redirects.map((r) => [r.fd, r.operator, r.target?.value])).toEqual([
      [undefined, '<<', undefined],
      [undefined, '>', 'out'],
      ['2', '>>', 'err'],
    ]);
    expect(c.args.map((a) => a.value)).toEqual(['a.txt']);
    expect((await parse('grep -r <<-X x /etc\n\tX\n')).commands[0]!.args.map((a) => a.value)).toEqual(['-r', 'x', '/etc']);
    expect((await parse('cat <<X <<<hi\nX\n')).commands[0]!.redirects.map((r) => r.operator)).toEqual(['<<', '<<<']);
    expect(p.unmodelled).toBeUndefined();
  });
  it('finds the commands of a pipeline or list written after a heredoc delimiter', async () => {
    const p = await parse('cat <<X | sh > o && rm y\nhi\nX\n');
    expect(p.commands.map((c) => c.name?.value)).toEqual(['cat', 'sh', 'rm']);
    expect(p.commands[1]!.redirects.map((r) => r.target?.value)).toEqual(['o']);
    expect(p.commands[0]!.redirects.map((r) => r.operator)).toEqual(['<<']);
  });
  it('records words after the heredoc of a compound command as unmodelled', async () => {
    const src = '{ cat; } <<X a\nX\n';
    const p = await parse(src);
    expect(p.unmodelled?.map((u) => src.slice(u.span.start, u.span.end))).toEqual(['a']);
  });
  it('records quoted text that bash may expand as an array subscript', async () => {
    const src = "[[ 1 -eq 'a[$(t)]' ]]; echo ${a['`t`']}; declare -i x='1+b[${y:-$(t)}]'; echo 'a[1]' \"$(t)\"";
    const p = await parse(src);
    // The index's backquote is also a substitution the parser reads as text within `${…}`.
    expect(p.unmodelled?.map((u) => src.slice(u.span.start, u.span.end))).toEqual(["'a[$(t)]'", "${a['`t`']}", "'`t`'", "'1+b[${y:-$(t)}]'"]);
  });
  it('joins the touching words tree-sitter-bash splits into the one word bash reads', async () => {
    // Each shape is one word to bash (checked with bash 5.2: `echo <(true)<(true)` prints
    // `/dev/fd/63/dev/fd/62`, `x=a\`echo b\`c env` has x=abc).
    const one = async (src: string) => (await parse(src)).commands[0]!;
    const cp = await one('cp x dir/`basename $i` y');
    expect(cp.args.map((a) => a.raw)).toEqual(['x', 'dir/`basename $i`', 'y']);
    expect(cp.args[1]!.parts.map((p) => p.kind)).toEqual(['literal', 'dynamic']);
    expect(cp.args[1]!.value).toBeUndefined();
    expect((await one('ls /usr/lib/`cmd`/x')).args.map((a) => a.raw)).toEqual(['/usr/lib/`cmd`/x']);
    expect((await one('echo <(a)<(b)')).args.map((a) => a.raw)).toEqual(['<(a)<(b)']);
    const esc = await one('echo $0\\`');
    expect(esc.args.map((a) => a.raw)).toEqual(['$0\\`']);
    expect(esc.args[0]!.parts).toEqual([{ kind: 'parameter', name: '0', guarded: false, quoted: false, plain: true }, { kind: 'literal', value: '`', quoted: true }]);
    // A command name built with a substitution is dynamic as a whole, never `r`.
    const name = await one('r`true`m x');
    expect(name.name?.raw).toBe('r`true`m');
    expect(name.name?.value).toBeUndefined();
    expect(name.args.map((a) => a.raw)).toEqual(['x']);
    // The tail of an assignment: `cmd` is the command name.
    const assign = await one('x=a`b`c cmd');
    expect(assign.assignments.map((a) => [a.name, a.value?.raw])).toEqual([['x', 'a`b`c']]);
    expect(assign.name?.value).toBe('cmd');
    expect((await one('x=a`b`c')).name).toBeUndefined();
    // Redirection targets and here-strings.
    expect((await one('cat >a`b`c')).redirects.map((r) => r.target?.raw)).toEqual(['a`b`c']);
    expect((await one('cat <<<a`b`c')).redirects.map((r) => r.target?.raw)).toEqual(['a`b`c']);
    const decl = (await parse('local a=b`c`d e')).declarations![0]!;
    expect(decl.assignments.map((a) => a.value?.raw)).toEqual(['b`c`d']);
    expect(decl.words.map((w) => w.raw)).toEqual(['e']);
    const loop = await parse('for f in a`b`c d; do :; done');
    const body = loop.commands.find((c) => c.name?.value === ':')!;
    expect(body.place?.chain?.enclosing.values?.map((w) => w.raw)).toEqual(['a`b`c', 'd']);
    expect(loop.unmodelled).toBeUndefined();
  });
  it('keeps words written after a redirection as arguments', async () => {
    const p = await parse('cmd >f arg1 arg2');
    expect(p.commands[0]!.args.map((a) => a.value)).toEqual(['arg1', 'arg2']);
  });
  it('records ERROR and MISSING nodes with their position', async () => {
    const p = await parse('if [ -f x ; then\n');
    expect(p.problems.map((x) => [x.kind, x.expected])).toEqual([
      ['missing', ']'],
      ['missing', 'fi'],
    ]);
  });
  it('survives deep nesting without recursion limits', async () => {
    const depth = 5000;
    const src = '('.repeat(depth) + 'echo x' + ')'.repeat(depth);
    const p = await parse(src);
    expect(p.commands.length).toBeGreaterThanOrEqual(0);
    expect(p.nodeCount).toBeGreaterThan(depth);
  });
});
