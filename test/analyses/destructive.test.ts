import { describe, expect, it } from 'vitest';
import { matchDestructive } from '../../src/analyses/destructive.js';
import { parse } from '../helpers.js';

/** The destructive rule id of each simple command in `src`, in order (undefined when none). */
async function ids(src: string): Promise<(string | undefined)[]> {
  const p = await parse(src);
  return p.commands.map((c) => matchDestructive(c)?.id);
}

describe('destructive commands on parsed argv', () => {
  it.each([
    ['sudo rm -rf x', 'rm-recursive-force'],
    ['command rm -fr x', 'rm-recursive-force'],
    ['/bin/rm -r -f x', 'rm-recursive-force'],
    ['rm -r --force x', 'rm-recursive-force'],
    ['rm -Rf x', 'rm-recursive-force'],
    ['env -i PATH=/bin nice -n 5 timeout 10 rm -rf x', 'rm-recursive-force'],
    ['xargs -0 rm -rf', 'rm-recursive-force'],
    ['git -C repo -c a=b reset --hard', 'git-reset-hard'],
    ['git push origin +main', 'git-push-force'],
    ['git push --force-with-lease', 'git-push-force'],
    ['git push origin :feature', 'git-push-delete'],
    ['git push -d origin feature', 'git-push-delete'],
    ['git clean -xdf', 'git-clean-force'],
    ['git checkout main -- .', 'git-checkout-discard'],
    ['git restore -W --staged .', 'git-restore-discard'],
    ['git stash clear', 'git-stash-drop'],
    ['git branch -df x', 'git-branch-force-delete'],
    ['git merge --no-verify x', 'git-no-verify'],
    ['git commit --amend -m x', 'git-commit-amend'],
    ['find . -type f -execdir /bin/rm {} +', 'find-delete'],
    ["mysql -uroot -e 'drop database app'", 'sql-drop-truncate'],
    ["psql --command='TRUNCATE TABLE t'", 'sql-drop-truncate'],
    ["sqlite3 db.sqlite 'DELETE FROM t;'", 'sql-delete-all'],
    ["psql <<< 'DELETE FROM t'", 'sql-delete-all'],
    ['oc delete pod x', 'kubectl-delete'],
    ['tofu destroy', 'terraform-destroy'],
  ])('%s → %s', async (src, id) => {
    expect(await ids(src)).toEqual([id]);
  });

  it.each([
    'echo "rm -rf /"',
    '# rm -rf /',
    "cat <<'EOF'\nrm -rf /\nEOF",
    'printf "%s" "git reset --hard"',
    'rm -- -rf',
    'git commit -m --amend',
    'git commit -m "use git push --force"',
    'git push -n origin main',
    'git clean -nfd',
    'git restore --staged .',
    'git stash drop-not-a-command || true',
    "psql -c 'DELETE FROM t WHERE id = 1'",
    'kubectl get pods',
    'terraform plan -destroy',
    'find . -name "*.rm" -print',
    'command -v rm',
    '$RM -rf x',
  ])('no warning for %s', async (src) => {
    expect((await ids(src)).filter(Boolean)).toEqual([]);
  });

  it('lets the first matching rule win within a command, like Claude Code', async () => {
    expect(await ids('git commit --no-verify --amend')).toEqual(['git-no-verify']);
    expect(await ids('git push --force --delete x')).toEqual(['git-push-force']);
  });

  it('finds commands inside substitutions, subshells and functions', async () => {
    expect((await ids('x=$(rm -rf a); (git reset --hard); f() { kubectl delete ns x; }')).filter(Boolean)).toEqual([
      'rm-recursive-force',
      'git-reset-hard',
      'kubectl-delete',
    ]);
  });
});
