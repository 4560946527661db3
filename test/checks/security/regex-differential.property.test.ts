/**
 * Differential tests: on random short strings over an alphabet that matters to each check, the
 * linear hand-written matchers agree with the regular expressions claude-code-reference.md §1.3/§1.6 states (which
 * are fine to run here on short inputs, and are what Claude Code runs).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { View, joinContinuations, stripSafeRedirections } from '../../../src/analyses/security-views.js';
import { detect as braceExpansion } from '../../../src/checks/security/brace-expansion.js';
import { detect as commandSubstitution } from '../../../src/checks/security/command-substitution.js';
import { detect as dangerousVariables } from '../../../src/checks/security/dangerous-variables.js';
import { detect as ifsInjection } from '../../../src/checks/security/ifs-injection.js';
import { detect as incompleteCommands } from '../../../src/checks/security/incomplete-commands.js';
import { detect as jqFileArguments } from '../../../src/checks/security/jq-file-arguments.js';
import { detect as jqSystemFunction } from '../../../src/checks/security/jq-system-function.js';
import { detect as midWordHash } from '../../../src/checks/security/mid-word-hash.js';
import { detect as newlines } from '../../../src/checks/security/newlines.js';
import { detect as procEnvironAccess } from '../../../src/checks/security/proc-environ-access.js';
import { detect as shellMetacharacters } from '../../../src/checks/security/shell-metacharacters.js';
import { analyseGitCommit, commandForText } from '../../../src/checks/security/statement.js';
import { SECURITY_BATTERY } from '../../../src/checks/index.js';

const RUNS = { numRuns: 3000 };
const text = (tokens: readonly string[], maxLength = 14): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...tokens), { maxLength }).map((a) => a.join(''));

describe('views', () => {
  it('stripSafeRedirections = the three replace() passes', () => {
    const tokens = [' ', '\t', '\n', '0', '1', '2', '3', '>', '&', '<', '/dev/null', '/dev/nullx', 'x', '\u00a0'];
    fc.assert(
      fc.property(text(tokens), (s) => {
        const expected = s
          .replace(/\s+2\s*>&\s*1(?=\s|$)/g, '')
          .replace(/[012]?\s*>\s*\/dev\/null(?=\s|$)/g, '')
          .replace(/\s*<\s*\/dev\/null(?=\s|$)/g, '');
        expect(stripSafeRedirections(new View(s, undefined)).text).toBe(expected);
      }),
      RUNS,
    );
  });

  it('joinContinuations = the backslash-newline replace()', () => {
    fc.assert(
      fc.property(text(['\\', '\n', 'a', '#']), (s) => {
        const expected = s.replace(/\\+\n/g, (m) => {
          const n = m.length - 1;
          return n % 2 === 1 ? '\\'.repeat(n - 1) : m;
        });
        expect(joinContinuations(new View(s, undefined)).text).toBe(expected);
      }),
      RUNS,
    );
  });
});

/** Asserts that `detect` fires exactly when `reference` does, on commands from `tokens`. */
function agrees(
  tokens: readonly string[],
  detect: (c: ReturnType<typeof commandForText>) => unknown,
  reference: (c: ReturnType<typeof commandForText>) => boolean,
  prefix = '',
): void {
  fc.assert(
    fc.property(text(tokens), (s) => {
      const cmd = commandForText(prefix + s, SECURITY_BATTERY);
      expect(detect(cmd) !== undefined, JSON.stringify(prefix + s)).toBe(reference(cmd));
    }),
    RUNS,
  );
}

const Q = ["'", '"', '\\', ' '];

describe('checks', () => {
  it('dangerous-variables', () => {
    agrees([...Q, '$', 'a', '_', '1', '|', '<', '>', '\t'], dangerousVariables, (c) => {
      const u = c.views.fullyUnquotedContent.text;
      return /[<>|]\s*\$[A-Za-z_]/.test(u) || /\$[A-Za-z_][A-Za-z0-9_]*\s*[|<>]/.test(u);
    });
  });

  it('newlines', () => {
    agrees([...Q, '\n', '\r', 'a', '\t'], newlines, (c) => {
      const u = c.views.fullyUnquotedPreStrip.text;
      return /[\n\r]/.test(u) && /(?<![\s]\\)[\n\r]\s*\S/.test(u);
    });
  });

  it('ifs-injection (and its position)', () => {
    fc.assert(
      fc.property(text(['$', '{', '}', 'IFS', 'I', 'FS', 'x', ' ']), (s) => {
        const m = /\$IFS|\$\{[^}]*IFS/.exec(s);
        const hit = ifsInjection(commandForText(s, SECURITY_BATTERY));
        expect(hit?.start, JSON.stringify(s)).toBe(m?.index);
      }),
      RUNS,
    );
  });

  it('proc-environ-access (and its position)', () => {
    fc.assert(
      fc.property(text(['/proc/', '/environ', '/', 'x', '\n', '\r', '\u2028']), (s) => {
        const m = /\/proc\/.*\/environ/.exec(s);
        expect(procEnvironAccess(commandForText(s, SECURITY_BATTERY))?.start, JSON.stringify(s)).toBe(m?.index);
      }),
      RUNS,
    );
  });

  it('jq-system-function', () => {
    agrees(['system', 'sys', 'tem', '(', ' ', '\n', 'a', '_', '.'], jqSystemFunction, (c) => /\bsystem\s*\(/.test(c.text), 'jq ');
  });

  it('jq-file-arguments', () => {
    agrees(['-f', '-L', '--from-file', '--rawfile', '--slurpfile', '--library-path', ' ', '\t', 'a', '-', '_'], jqFileArguments, (c) =>
      /(?:^|\s)(?:-f\b|--from-file|--rawfile|--slurpfile|-L\b|--library-path)/.test(c.text.substring(3).trim()), 'jq ');
  });

  it('incomplete-commands', () => {
    agrees([' ', '\t', '\n', '-', '&', '|', ';', '>', '<', 'a'], incompleteCommands, (c) => {
      const t = c.text;
      return /^\s*\t/.test(t) || t.trim().startsWith('-') || /^\s*(&&|\|\||;|>>?|<)/.test(t);
    });
  });

  it('mid-word-hash (without $, whose $# case is a documented deviation)', () => {
    agrees([...Q, '#', '{', 'a', '\n', '\\\n'], midWordHash, (c) => {
      const kq = c.views.unquotedKeepQuoteChars.text;
      const joined = kq.replace(/\\+\n/g, (m) => (m.length % 2 === 0 ? '\\'.repeat(m.length - 2) : m));
      return /\S(?<!\$\{)#/.test(kq) || /\S(?<!\$\{)#/.test(joined);
    });
  });

  it('shell-metacharacters', () => {
    agrees([...Q, ';', '&', '|', 'a', '-name ', '-path ', '-iname ', '-regex ', '\t'], shellMetacharacters, (c) => {
      const u = c.views.unquotedContent.text;
      return (
        /(?:^|\s)["'][^"']*[;&][^"']*["'](?:\s|$)/.test(u) ||
        /-name\s+["'][^"']*[;|&][^"']*["']/.test(u) ||
        /-path\s+["'][^"']*[;|&][^"']*["']/.test(u) ||
        /-iname\s+["'][^"']*[;|&][^"']*["']/.test(u) ||
        /-regex\s+["'][^"']*[;&][^"']*["']/.test(u)
      );
    });
  });

  it('command-substitution', () => {
    agrees([...Q, '`', '$', '(', '[', '{', '}', '<', '>', '=', '~', 'e:', '+', 'a', 'always', '#', ';'], commandSubstitution, (c) => {
      const u = c.views.unquotedContent.text;
      let unescapedBacktick = false;
      for (let i = 0; i < u.length; i++) {
        if (u[i] === '\\' && i + 1 < u.length) i++;
        else if (u[i] === '`') unescapedBacktick = true;
      }
      // `=(` counts unless it ends the `NAME=` of an array assignment at command position (a
      // deliberate deviation from Claude Code: `cmd=(ls -la)` is an array in bash and zsh).
      const processEquals = [...u.matchAll(/=\(/g)].some((m) => {
        const g = /(?:^|[;&|(\n])((?:[^;&|(\n]*\s)?)[A-Za-z_]\w*\+?$/.exec(u.slice(0, m.index));
        return !g || !g[1]!.split(/\s+/).every((t) => t === '' || t.includes('='));
      });
      const patterns = [/<\(/, />\(/, /(?:^|[\s;&|])=[a-zA-Z_]/, /\$\(/, /\$\{/, /\$\[/, /~\[/, /\(e:/, /\(\+/, /\}\s*always\s*\{/, /<#/];
      return unescapedBacktick || processEquals || patterns.some((p) => p.test(u));
    });
  });

  it('brace-expansion (against a forward-scanning reference written from claude-code-reference.md §1.6)', () => {
    agrees([...Q, '{', '}', ',', '.', 'a', '\\'], braceExpansion, (c) => {
      const u = c.views.fullyUnquotedPreStrip.text;
      const esc = (p: number): boolean => {
        let n = 0;
        for (let i = p - 1; i >= 0 && u[i] === '\\'; i--) n++;
        return n % 2 === 1;
      };
      let open = 0;
      let close = 0;
      for (let i = 0; i < u.length; i++) {
        if (u[i] === '{' && !esc(i)) open++;
        else if (u[i] === '}' && !esc(i)) close++;
      }
      if (open > 0 && close > open) return true;
      if (open > 0 && /['"][{}]['"]/.test(c.text)) return true;
      for (let i = 0; i < u.length; i++) {
        if (u[i] !== '{' || esc(i)) continue;
        let depth = 1;
        let m = -1;
        for (let j = i + 1; j < u.length; j++) {
          if (u[j] === '{' && !esc(j)) depth++;
          else if (u[j] === '}' && !esc(j) && --depth === 0) {
            m = j;
            break;
          }
        }
        if (m < 0) continue;
        let d = 0;
        for (let k = i + 1; k < m; k++) {
          if (u[k] === '{' && !esc(k)) d++;
          else if (u[k] === '}' && !esc(k)) d--;
          else if (d === 0 && (u[k] === ',' || (u[k] === '.' && k + 1 < m && u[k + 1] === '.'))) return true;
        }
      }
      return false;
    });
  });

  it('validateGitCommit matching', () => {
    const re = /^git[ \t]+commit[ \t]+[^;&|`$<>()\n\r]*?-m[ \t]+(["'])([\s\S]*?)\1(.*)$/;
    const part = (max: number) => text(['-m', ' ', '\t', '"', "'", 'a', '-', '\n', '$(', '${', ';', '<', '>', '-am', '`', '(', '&'], max);
    const shaped = fc
      .tuple(part(4), fc.constantFrom(' ', '\t', ''), fc.constantFrom('"', "'"), part(5), fc.constantFrom('"', "'", ''), part(6))
      .map(([pre, ws, q, msg, close, rest]) => `${pre}-m${ws}${q}${msg}${close}${rest}`);
    fc.assert(
      fc.property(fc.oneof(part(10), shaped), (s) => {
        const cmd = `git commit ${s}`;
        const m = re.exec(cmd);
        const r = analyseGitCommit(cmd, 'git');
        if (!m) {
          expect(['passthrough', 'not-applicable'], JSON.stringify(cmd)).toContain(r.kind);
          return;
        }
        const [, quote, message = '', remainder = ''] = m;
        let unquoted = '';
        let inS = false;
        let inD = false;
        for (const ch of remainder) {
          if (ch === "'" && !inD) inS = !inS;
          else if (ch === '"' && !inS) inD = !inD;
          else if (!inS && !inD) unquoted += ch;
        }
        let expected: string;
        if (cmd.includes('\\')) expected = 'passthrough';
        else if (quote === '"' && /\$\(|`|\$\{/.test(message)) expected = 'ask-substitution';
        else if (remainder && /[;|&()`]|\$\(|\$\{/.test(remainder)) expected = 'passthrough';
        else if (/[<>]/.test(unquoted)) expected = 'passthrough';
        else if (message.startsWith('-')) expected = 'ask-dash-message';
        else expected = 'allow';
        expect(r.kind, JSON.stringify(cmd)).toBe(expected);
      }),
      { numRuns: 20000 },
    );
  });
});
