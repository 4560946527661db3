/** The quote-aware views of claude-code-reference.md §1.3 (src/analyses/security-views.ts). */
import { describe, expect, it } from 'vitest';
import {
  buildSecurityViews,
  joinContinuations,
  stripSafeRedirections,
  View,
  type InertHeredoc,
} from '../../../src/analyses/security-views.js';

const views = (c: string, inert: InertHeredoc[] = []) => buildSecurityViews(c, inert);

describe('extractQuotedContent views', () => {
  it.each([
    // [command, unquotedContent, fullyUnquotedPreStrip, unquotedKeepQuoteChars]
    ['echo plain', 'echo plain', 'echo plain', 'echo plain'],
    ["echo 'single' \"double\"", 'echo  double', 'echo  ', "echo '' \"\""],
    ["echo \"it's\"", "echo it's", 'echo ', 'echo ""'],
    ["echo 'x'#", 'echo #', 'echo #', "echo ''#"],
    ['echo \\" x', 'echo \\" x', 'echo \\" x', 'echo \\" x'],
    ["echo 'a\\' b", 'echo  b', 'echo  b', "echo '' b"], // backslash is literal inside single quotes
    ['echo "a\\"b" c', 'echo a\\"b c', 'echo  c', 'echo "" c'],
  ])('%j', (c, wdq, fu, kq) => {
    const v = views(c);
    expect(v.unquotedContent.text).toBe(wdq);
    expect(v.fullyUnquotedPreStrip.text).toBe(fu);
    expect(v.unquotedKeepQuoteChars.text).toBe(kq);
  });

  it('keeps double-quote characters in unquotedContent for jq', () => {
    const v = views('jq ".a;b" f');
    expect(v.unquotedContent.text).toBe('jq ".a;b" f');
    expect(v.baseCommand).toBe('jq');
  });

  it('takes the base command before the first ASCII space, without trimming', () => {
    expect(views('git commit').baseCommand).toBe('git');
    expect(views(' git commit').baseCommand).toBe('');
    expect(views('ls\t-la').baseCommand).toBe('ls\t-la');
  });

  it('maps view offsets back to the command', () => {
    const c = "a 'b' \"c$d\" e";
    const v = views(c).unquotedContent; // a  c$d e
    const i = v.text.indexOf('$');
    expect(c[v.origin(i)]).toBe('$');
    expect(v.span(i, i + 2)).toEqual({ start: c.indexOf('$'), end: c.indexOf('$') + 2 });
    expect(v.origin(v.text.length)).toBe(c.length);
  });
});

describe('safe redirection stripping (claude-code-reference.md §1.3)', () => {
  const strip = (s: string): string => stripSafeRedirections(new View(s, undefined)).text;
  it.each([
    ['ls 2>&1', 'ls'],
    ['ls 2 >& 1 x', 'ls x'],
    ['ls 2>&1x', 'ls 2>&1x'], // boundary
    ['ls2>&1', 'ls2>&1'], // needs whitespace before
    ['ls > /dev/null', 'ls'],
    ['ls >/dev/null', 'ls'],
    ['ls 2>/dev/null x', 'ls  x'], // leftmost match starts at the fd, the space before it stays
    ['ls 1> /dev/null', 'ls '],
    ['ls 3>/dev/null', 'ls 3'], // the fd is optional: `>/dev/null` goes, `3` stays
    ['echo hi > /dev/nullo', 'echo hi > /dev/nullo'], // boundary: not a prefix match
    ['cat </dev/null', 'cat'],
    ['cat < /dev/null x', 'cat x'],
    ['ls >/dev/null 2>&1', 'ls'],
    ['ls > /dev/null; cat < /dev/null', 'ls > /dev/null; cat'], // `;` is not a boundary
  ])('%j → %j', (input, output) => {
    expect(strip(input)).toBe(output);
  });

  it('keeps the offsets of what remains', () => {
    const v = stripSafeRedirections(new View('ls 2>/dev/null x', undefined));
    expect(v.text).toBe('ls  x');
    expect(v.origin(4)).toBe(15);
  });
});

describe('quoted heredoc bodies are inert', () => {
  it('replaces the operator with a placeholder and drops the body through the closing line', () => {
    const c = "cat <<'EOF' && echo x\nbody $(x)\nEOF\necho after";
    const h: InertHeredoc = { opStart: 4, opEnd: 11, contentStart: 21, contentEnd: 35 };
    const v = views(c, [h]);
    expect(v.processed.text).toBe('cat __HEREDOC_0__ && echo x\necho after');
    expect(v.fullyUnquotedPreStrip.text).toBe('cat __HEREDOC_0__ && echo x\necho after');
    const nl = v.processed.text.indexOf('\n');
    expect(v.processed.origin(nl)).toBe(35);
    expect(v.processed.origin(5)).toBe(4);
  });
});

describe('continuation join (mid-word hash)', () => {
  const join = (s: string): string => joinContinuations(new View(s, undefined)).text;
  it.each([
    ['foo\\\n#bar', 'foo#bar'],
    ['foo\\\\\n#bar', 'foo\\\\\n#bar'],
    ['foo\\\\\\\n#bar', 'foo\\\\#bar'],
    ['a\\b', 'a\\b'],
  ])('%j → %j', (input, output) => {
    expect(join(input)).toBe(output);
  });
});

describe('large inputs', () => {
  // How long the views take on these shapes is measured by `npm run bench`; here, what they hold.
  const n = 150_000;
  it.each([
    ['spaces', ' '.repeat(2 * n) + 'x'],
    ['spaces before 2', ' '.repeat(2 * n) + '2>&'],
    ['redirect prefixes', ' >'.repeat(n)],
    ['backslashes', '\\'.repeat(2 * n) + '\n#'],
    ['digits', '2 '.repeat(n)],
  ])('keeps every view of %s unchanged (nothing is quoted or stripped)', (_name, s) => {
    const v = views(s);
    expect(v.unquotedContent.text).toBe(s);
    expect(v.fullyUnquotedPreStrip.text).toBe(s);
    expect(v.fullyUnquotedContent.text).toBe(s);
    expect(v.unquotedKeepQuoteChars.text).toBe(s);
    expect(joinContinuations(v.unquotedKeepQuoteChars).text).toBe(s); // an even run of backslashes joins nothing
  });

  it('reads alternating quotes as single-quoted " and double-quoted \' pairs', () => {
    // `'"'` is a single-quoted `"`, then `"'"` a double-quoted `'`: period 6.
    const v = views('\'"'.repeat(n));
    expect(v.unquotedContent.text).toBe("'".repeat(n / 3));
    expect(v.fullyUnquotedPreStrip.text).toBe('');
    expect(v.unquotedKeepQuoteChars.text).toBe('\'\'""'.repeat(n / 3));
  });
});
