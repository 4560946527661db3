/** `shellward audit` through the built CLI, on the transcript fixtures. */
import { describe, expect, it } from 'vitest';
import { codeScanningViolations } from '../report/code-scanning.js';
import { validateSarif } from '../report/sarif-schema.js';
import { shellward } from './cli.js';

const DIR = 'test/fixtures/transcripts';

describe('shellward audit', () => {
  it('counts every fixture call per session and overall (json)', async () => {
    const r = await shellward(['audit', '--format', 'json', DIR]);
    expect(String(r.stderr)).toBe('');
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(String(r.stdout));
    expect(doc.version).toBe(2);
    expect(doc.files).toBe(10);
    expect(doc.overall).toMatchObject({ calls: 36, ran: 32, rejected: 1, denied: 2, cancelled: 1, interrupted: 1, backgrounded: 2, unknown: 0, destructiveRan: 7 });
    // 7, not 5: the Gemini retries `rm -rf coverage` and `rm -rf packages/web/dist … && find … -delete` ran and are destructive too
    expect(doc.sessions).toHaveLength(8);
    // a subagent's calls count in its parent session
    const claude = doc.sessions.find((s: { sessionId: string }) => s.sessionId === '7f3e2a91-4c5d-4e8b-9a1f-2b3c4d5e6f70');
    expect(claude.counts.calls).toBe(8);
    expect(claude.files).toHaveLength(2);
    // the rejected force push is never suggested away, alone or with the rules of the call it is part of
    const rules = doc.suggestions.flatMap((s: { rules: string[] }) => s.rules);
    expect(rules).not.toContain('Bash(git push:*)');
    expect(rules.some((r: string) => r.startsWith('Bash(git push'))).toBe(false);
    // A command that hits a destructive pack gets no allow-rule suggestion at all, so there is
    // nothing left for the audit to exclude (it used to list the git add + commit + push set here).
    expect(doc.excludedSuggestions).toEqual([]);
    // `curl … | sh` / `| bash`: the suggested curl rule leaves the shell asked, so it is never suggested
    expect(rules.some((r: string) => r.startsWith('Bash(curl'))).toBe(false);
    // a rule that would have saved one prompt is a one-off, not suggested; each is in its agent's syntax
    expect(doc.suggestions.every((s: { covers: number }) => s.covers >= 2)).toBe(true);
    expect(doc.suggestions).toContainEqual({
      rule: 'Bash(npm run:*)', rules: ['Bash(npm run:*)'], covers: 2, agent: 'gemini',
      native: ['[[rule]] toolName = "run_shell_command", commandPrefix = "npm run", decision = "allow"'],
    });
    expect(doc.overall).toMatchObject({ notAnalysed: 0, sudoRan: 1, secrets: 0, outsideCwdUnknown: 4 });
    // No allow rule is suggested for a command that hits a destructive pack, so such calls count as
    // no rule would help rather than as suggestions falling short.
    expect(doc).toMatchObject({ askedAndRun: 24, noRuleHelps: 13, suggestionsFellShort: 1, noRuleBecause: { destructive: 7, askRule: 0, paths: 5, checks: 0, fellShort: 1 } });
  });

  it('writes valid SARIF at the transcript file and line, errors for destructive calls that ran', async () => {
    const r = await shellward(['audit', '--format', 'sarif', DIR]);
    expect(r.exitCode).toBe(0);
    const log = JSON.parse(String(r.stdout));
    expect(validateSarif(log)).toEqual([]);
    expect(codeScanningViolations(log, String(r.stdout), { requireLineHash: true })).toEqual([]);
    const results = log.runs[0].results as { ruleId: string; level: string; locations: { physicalLocation: { region: { startLine: number } } }[] }[];
    const push = results.filter((x) => x.ruleId === 'git-push-force');
    expect(push.map((x) => [x.level, x.locations[0]!.physicalLocation.region.startLine]).sort()).toEqual([['error', 18], ['note', 18]]);
  });

  it('prints readable text and markdown, and no progress bar when stderr is not a terminal', async () => {
    const text = await shellward(['audit', DIR]);
    expect(String(text.stdout)).toMatch(/^shellward audit: 10 transcript files, 8 sessions, 36 shell calls$/m);
    expect(String(text.stdout)).toContain('Rules that would have saved prompts');
    expect(String(text.stdout)).toMatch(/^ {2}no rule would help: 13 of 24 calls asked and run$/m);
    // why: the destructive calls get no allow rule on purpose, and the report says so
    expect(String(text.stdout)).toMatch(/^ {4}7 calls matching a destructive-command rule: none is suggested, it would let them run unprompted$/m);
    expect(String(text.stdout)).toMatch(/^ {4}1 call whose suggested rules would still leave a part asked/m);
    // what a reviewer asks first comes first, in this order
    // (7 destructive runs and 13 calls no rule helps: see the json test above)
    const order = ['Destructive commands that ran: 7', 'Denied or rejected calls (never ran): 3', 'Commands outside the project that ran: 1 (not known for 4 calls', 'Secrets seen in command lines (masked): 0', 'sudo calls that ran: 1', 'Failures (exit-code semantics): 11', 'Rules that would have saved prompts'];
    const at = order.map((t) => String(text.stdout).indexOf(t));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(String(text.stdout)).toContain('  … and 8 more');
    expect(String(text.stderr)).toBe('');
    const md = await shellward(['audit', '-f', 'markdown', DIR]);
    expect(String(md.stdout)).toMatch(/^## shellward audit$/m);
    expect(String(md.stdout)).toContain('| **all** | 36 | 32 |');
    expect(String(md.stdout)).toContain('### Destructive commands that ran: 7');
    expect(String(md.stdout)).toContain('No rule would help: 13 of 24 calls asked and run');
  });

  it('exits 2 for a missing path and without paths', async () => {
    expect((await shellward(['audit', 'no/such/dir'])).exitCode).toBe(2);
    expect((await shellward(['audit'])).exitCode).toBe(2);
  });
});
