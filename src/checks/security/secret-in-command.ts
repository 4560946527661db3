/**
 * secret-in-command: a credential written into a command line (a token, an access key, a private
 * key block, a password in a URL). The command text is kept in the agent's transcript, the shell
 * history and the process list, so the secret has leaked and should be rotated. The finding's
 * message names the kind only; the secret is masked in every output.
 */
import { findSecrets } from '../../analyses/secrets.js';
import { defineCheck } from '../define.js';

export default defineCheck(
  {
    id: 'secret-in-command',
    code: 'S240',
    title: 'Secret in a command line',
    category: 'security',
    severity: { agent: 'error', script: 'warning' },
    docs: {
      rationale:
        'A command line is stored where others can read it: an agent transcript (`~/.claude/projects`, ' +
        '`~/.codex/sessions`, `~/.gemini/tmp`), the shell history, `ps` output and CI logs. A token or ' +
        'password written into it has leaked. Recognised shapes: GitHub tokens (`ghp_`, `gho_`, `ghu_`, ' +
        '`ghs_`, `ghr_`, `github_pat_`; https://docs.github.com/en/authentication/keeping-your-account-and-data-secure/about-authentication-to-github#githubs-token-formats), ' +
        'AWS access key ids (`AKIA…`, `ASIA…`), Google API keys (`AIza…`), `sk-…` secret keys, private key ' +
        'blocks (`-----BEGIN … PRIVATE KEY-----`) and passwords in URLs (`https://user:password@host`).',
      fix:
        'Rotate the secret. Pass secrets through the environment or a credential helper (`gh auth`, ' +
        '`git credential`, `aws configure`, a `.netrc` file) instead of the command line.',
      exceptions:
        'Only these shapes are recognised; a secret in a variable (`$TOKEN`) is not one. The message names the ' +
        'kind of secret, never the secret, and reports mask it (`ghp_…[masked]`).',
    },
    sources: [],
    examples: {
      valid: ['git push https://github.com/o/r.git', 'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com', 'echo sk-short'],
      invalid: [
        'git clone https://x-access-token:ghp_0123456789abcdefghijABCDEFGHIJ012345@github.com/o/r.git',
        'AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE aws s3 ls',
        'curl https://admin:hunter2@db.example.com/backup',
      ],
    },
  },
  (ctx) => {
    for (const s of findSecrets(ctx.unit.text)) {
      ctx.report({
        ruleId: 'secret-in-command',
        message: `The command line holds ${/^[AEIOU]/.test(s.label) ? 'an' : 'a'} ${s.label} (${s.masked}): command lines are kept in transcripts, shell history and process lists, so it has leaked. Rotate it and pass it through the environment or a credential helper.`,
        span: s.span,
        data: { kind: s.kind },
      });
    }
  },
);
