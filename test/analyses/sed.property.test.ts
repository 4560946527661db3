/**
 * The sed deny-list (src/analyses/sed.ts `sedDenyReason`) against Claude Code's own regular
 * expressions (claude-code-reference.md §4.2 item 6), differential on short random strings: the
 * regexes are fine to run on these, and they are what Claude Code runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sedDenyReason } from '../../src/analyses/sed.js';

describe('§4.2 item 6: deny-list', () => {
  /** Claude Code's `containsDangerousOperations`, regex for regex (fine on short strings). */
  function reference(expression: string): boolean {
    const cmd = expression.trim();
    if (!cmd) return false;
    // eslint-disable-next-line no-control-regex
    if (/[^\x01-\x7F]/.test(cmd)) return true;
    if (cmd.includes('{') || cmd.includes('}')) return true;
    if (cmd.includes('\n')) return true;
    const hashIndex = cmd.indexOf('#');
    if (hashIndex !== -1 && !(hashIndex > 0 && cmd[hashIndex - 1] === 's')) return true;
    if (/^!/.test(cmd) || /[/\d$]!/.test(cmd)) return true;
    if (/\d\s*~\s*\d|,\s*~\s*\d|\$\s*~\s*\d/.test(cmd)) return true;
    if (/^,/.test(cmd)) return true;
    if (/,\s*[+-]/.test(cmd)) return true;
    if (/s\\/.test(cmd) || /\\[|#%@]/.test(cmd)) return true;
    if (/\\\/.*[wW]/.test(cmd)) return true;
    if (/\/[^/]*\s+[wWeE]/.test(cmd)) return true;
    if (/^s\//.test(cmd) && !/^s\/[^/]*\/[^/]*\/[^/]*$/.test(cmd)) return true;
    if (/^s./.test(cmd) && /[wWeE]$/.test(cmd)) {
      if (!/^s([^\\\n]).*?\1.*?\1[^wWeE]*$/.test(cmd)) return true;
    }
    if (
      /^[wW]\s*\S+/.test(cmd) ||
      /^\d+\s*[wW]\s*\S+/.test(cmd) ||
      /^\$\s*[wW]\s*\S+/.test(cmd) ||
      /^\/[^/]*\/[IMim]*\s*[wW]\s*\S+/.test(cmd) ||
      /^\d+,\d+\s*[wW]\s*\S+/.test(cmd) ||
      /^\d+,\$\s*[wW]\s*\S+/.test(cmd) ||
      /^\/[^/]*\/[IMim]*,\/[^/]*\/[IMim]*\s*[wW]\s*\S+/.test(cmd)
    ) return true;
    if (
      /^e/.test(cmd) ||
      /^\d+\s*e/.test(cmd) ||
      /^\$\s*e/.test(cmd) ||
      /^\/[^/]*\/[IMim]*\s*e/.test(cmd) ||
      /^\d+,\d+\s*e/.test(cmd) ||
      /^\d+,\$\s*e/.test(cmd) ||
      /^\/[^/]*\/[IMim]*,\/[^/]*\/[IMim]*\s*e/.test(cmd)
    ) return true;
    const m = cmd.match(/s([^\\\n]).*?\1.*?\1(.*?)$/);
    if (m) {
      const flags = m[2] ?? '';
      if (/[wWeE]/.test(flags)) return true;
    }
    if (/y([^\\\n])/.test(cmd) && /[wWeE]/.test(cmd)) return true;
    return false;
  }

  it('agrees with the original regexes on random expressions', () => {
    const tokens = ['s', '/', '\\', 'w', 'W', 'e', 'E', 'y', 'p', 'g', 'I', 'M', '1', '2', '$', ',', '~', '!', '+', '-', '#', '|', ' ', '\t', '\r', '\n', ';', 'a', 'x', '{', 'é'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...tokens), { maxLength: 12 }), (a) => {
        const s = a.join('');
        expect(sedDenyReason(s) !== undefined, JSON.stringify(s)).toBe(reference(s));
      }),
      { numRuns: 20000 },
    );
  });

  it('agrees on substitution-shaped expressions', () => {
    const part = fc.array(fc.constantFrom('a', '/', '|', '\\', 'w', 'e', 's', ' ', '\r', 'g', '2'), { maxLength: 5 }).map((x) => x.join(''));
    fc.assert(
      fc.property(fc.constantFrom('', '1', '/x/', '$'), fc.constantFrom('s', 'y'), fc.constantFrom('/', '|', 'w', 'e', '\r', 's'), part, part, part, (addr, c, d, x, y, z) => {
        const s = `${addr}${c}${d}${x}${d}${y}${d}${z}`;
        expect(sedDenyReason(s) !== undefined, JSON.stringify(s)).toBe(reference(s));
      }),
      { numRuns: 20000 },
    );
  });
});
