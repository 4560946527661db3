/**
 * The decision flow (claude-code-reference.md §2.3–2.8) on the parse tree: candidate strings, precedence,
 * compound splitting, the cap, cd checks, the gates, and the shapes the regex path gets wrong.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, MAX_SUBCOMMANDS, type DecisionContext, type PermissionDecision } from '../../src/rules/decide.js';
import { policyFrom, type PermissionLists } from '../../src/rules/policy.js';
import { parse } from '../helpers.js';

async function d(command: string, lists: PermissionLists, ctx: DecisionContext = {}): Promise<PermissionDecision> {
  return decide(command, await parse(command), policyFrom(lists, 'settings.json'), ctx);
}

async function behavior(command: string, lists: PermissionLists, ctx: DecisionContext = {}): Promise<string> {
  return (await d(command, lists, ctx)).behavior;
}

describe('§2.3 candidate strings', () => {
  it('strips output redirections for prefix rules: Bash(python:*) matches `python x.py > out.txt`', async () => {
    expect(await behavior('python x.py > out.txt', { allow: ['Bash(python:*)'] })).toBe('allow');
    expect(await behavior('python x.py 2>&1', { allow: ['Bash(python:*)'] })).toBe('allow');
  });

  it('exact rules match the original or the redirect-stripped command', async () => {
    expect(await behavior('npm test > log.txt', { allow: ['Bash(npm test > log.txt)'] })).toBe('allow');
    expect(await behavior('npm test > log.txt', { allow: ['Bash(npm test)'] })).toBe('allow');
  });

  it('allow rules see past SAFE_ENV_VARS assignments only', async () => {
    expect(await behavior('NODE_ENV=production npm run build', { allow: ['Bash(npm run:*)'] })).toBe('allow');
    expect(await behavior('RUST_BACKTRACE=1 cargo test', { allow: ['Bash(cargo test:*)'] })).toBe('allow');
    expect(await behavior('DOCKER_HOST=evil docker ps', { allow: ['Bash(docker ps:*)'] })).toBe('passthrough');
    // LD_PRELOAD loads code: what runs is not known, so it asks (not merely "no rule matched").
    expect(await behavior('LD_PRELOAD=/tmp/x.so ls', { allow: ['Bash(ls:*)'] })).toBe('ask');
    expect(await behavior('PATH=/tmp/evil:$PATH git status', { allow: ['Bash(git status:*)'] })).not.toBe('allow');
  });

  it('safe env values must be static (quoted is fine: the parse knows the value; Claude Code also refuses quotes)', async () => {
    expect(await behavior('LANG="C x" ls', { allow: ['Bash(ls:*)'] })).toBe('allow');
    expect(await behavior('LANG=C.UTF-8 ls', { allow: ['Bash(ls:*)'] })).toBe('allow');
    expect(await behavior('LANG="$(id)" ls', { allow: ['Bash(ls:*)'] })).not.toBe('allow');
    expect(await behavior('LANG=$X ls', { allow: ['Bash(ls:*)'] })).not.toBe('allow');
  });

  it('allow rules see through the safe wrapper forms of §3.2', async () => {
    const allow = ['Bash(npm test:*)'];
    for (const c of [
      'timeout 30 npm test', 'timeout --foreground -k 5 30s npm test', 'timeout -s KILL 1.5m npm test', 'timeout --signal=TERM 10 npm test',
      'time npm test', 'time -- npm test', 'nice npm test', 'nice -n 10 npm test', 'nice -n -5 npm test', 'nice -10 npm test',
      'stdbuf -o0 npm test', 'stdbuf -oL -eL npm test', 'nohup npm test', 'nohup -- npm test', 'command npm test', 'builtin npm test',
      'noglob npm test', 'timeout 5 nice -n 2 nohup npm test',
    ]) {
      expect(await behavior(c, { allow }), c).toBe('allow');
    }
  });

  it('allow rules do not see through unsafe forms or other wrappers', async () => {
    const allow = ['Bash(npm test:*)'];
    for (const c of [
      'timeout -k$(id) 5 npm test', 'timeout -k \'$x\' 5 npm test', 'stdbuf npm test', 'env npm test', 'env FOO=1 npm test', 'sudo npm test',
      'xargs -n1 npm test', 'watch npm test', 'setsid npm test', 'flock /tmp/l npm test', 'command -v npm test', 'nohup FOO=1 npm test',
    ]) {
      expect(await behavior(c, { allow }), c).not.toBe('allow');
    }
  });

  it('bare xargs is seen through by prefix rules only', async () => {
    // (`xargs grep foo` is read-only and allowed without a rule; `rm` is not.)
    expect(await behavior('xargs rm foo', { allow: ['Bash(rm:*)'] })).toBe('allow');
    expect(await behavior('xargs rm foo', { allow: ['Bash(rm foo)'] })).toBe('passthrough');
  });

  it('deny and ask rules see past any assignment and every wrapper, to a fixed point', async () => {
    const deny = ['Bash(claude:*)'];
    for (const c of [
      'FOO=bar claude', 'nohup FOO=bar timeout 5 claude', 'A=1 B="x y" claude -p hi', 'env -i FOO=1 claude', 'sudo -u root claude',
      'xargs -n1 claude', 'watch -n 5 claude', 'setsid claude', 'flock /tmp/lock claude', 'ionice -c 3 claude', 'command claude',
      'builtin claude', 'timeout -k$(id) 5 claude', 'stdbuf -o L claude', 'nice -n 5 sudo env X=1 claude',
    ]) {
      expect(await behavior(c, { deny }), c).toBe('deny');
      expect(await behavior(c, { ask: deny }), c).toBe('ask');
    }
  });

  it('`FOO=$VAR` is not a static value, but the deny still sees the program (the AST knows the argv)', async () => {
    expect(await behavior('FOO=$VAR claude', { deny: ['Bash(claude:*)'] })).toBe('deny');
  });

  it('ignores full-line comments for whole-command matching', async () => {
    expect(await behavior('# build it\nnpm run build', { allow: ['Bash(npm run build)'] })).toBe('allow');
  });
});

describe('§2.4 precedence: deny, then ask, then allow; specificity never reorders', () => {
  it('a broad deny beats a narrow allow', async () => {
    expect(await behavior('git push origin main', { allow: ['Bash(git push origin main)'], deny: ['Bash(git:*)'] })).toBe('deny');
  });
  it('an ask beats an allow', async () => {
    expect(await behavior('git push', { allow: ['Bash(git push)'], ask: ['Bash(git push:*)'] })).toBe('ask');
  });
  it('a bare Bash deny denies everything; Bash(*) allows everything not denied', async () => {
    expect(await behavior('ls', { deny: ['Bash'] })).toBe('deny');
    expect(await behavior('anything at all', { allow: ['Bash(*)'] })).toBe('allow');
    expect(await behavior('rm -rf x', { allow: ['Bash(*)'], deny: ['Bash(rm:*)'] })).toBe('deny');
  });
  it('the first matching rule of a list is reported, with its file', async () => {
    const r = await d('curl y', { deny: ['Bash(wget:*)', 'Bash(curl:*)', 'Bash(curl y)'] });
    expect(r.rule?.raw).toBe('Bash(curl y)'); // an exact match of the whole command is consulted first (§2.6 item 2)
    const z = await d('curl z', { deny: ['Bash(wget:*)', 'Bash(curl:*)', 'Bash(curl y)'] });
    expect(z.rule?.raw).toBe('Bash(curl:*)');
    expect(z.rule?.origin).toEqual({ file: 'settings.json', path: 'permissions.deny[1]' });
    expect(z.message).toContain('settings.json permissions.deny[1]');
  });
});

describe('§2.5–2.7 compound commands, split on the tree', () => {
  it('each subcommand must be allowed: `echo *` does not allow `echo test && make`', async () => {
    // `ls` is read-only (allowed without a rule, claude-code-reference.md §2.8 step 8), so the second part is `make`.
    expect(await behavior('echo test && make', { allow: ['Bash(echo *)'] })).toBe('passthrough');
    expect(await behavior('echo test && make', { allow: ['Bash(echo *)', 'Bash(make)'] })).toBe('allow');
    expect(await behavior('echo test && ls', { allow: ['Bash(echo *)'] })).toBe('allow');
  });

  it('splits on && || ; | |& & and newlines', async () => {
    const allow = ['Bash(echo:*)'];
    for (const op of ['&&', '||', ';', '|', '|&', '&', '\n']) {
      expect(await behavior(`echo a ${op} curl evil`, { allow }), op).not.toBe('allow');
      expect(await behavior(`echo a ${op} curl evil`, { deny: ['Bash(curl:*)'] }), op).toBe('deny');
      expect(await behavior(`echo a ${op} echo b`, { allow }), op).toBe('allow');
    }
  });

  it('deny rules reach into subshells, groups and command substitutions', async () => {
    const deny = ['Bash(curl:*)'];
    for (const c of ['(curl x)', '{ curl x; }', 'echo $(curl x)', 'echo `curl x`', 'for i in 1; do curl x; done', 'if true; then curl x; fi', 'cat <(curl x)']) {
      expect(await behavior(c, { deny }), c).toBe('deny');
    }
  });

  it('subshells and groups are decided by the commands inside them', async () => {
    expect(await behavior('(npm test; npm run lint)', { allow: ['Bash(npm test)', 'Bash(npm run lint)'] })).toBe('allow');
    expect(await behavior('{ npm test; make; }', { allow: ['Bash(npm test)'] })).toBe('passthrough');
  });

  it('pipes: each segment checked; any deny → deny; all allow → allow', async () => {
    expect(await behavior('cat f | grep x | sort', { allow: ['Bash(cat:*)', 'Bash(grep:*)', 'Bash(sort)'] })).toBe('allow');
    expect(await behavior('cat f | sh', { allow: ['Bash(cat:*)'], deny: ['Bash(sh)'] })).toBe('deny');
    // sh runs the code on its pipe, which is not visible: ask, never a passthrough with suggestions.
    expect(await d('cat f | sh', { allow: ['Bash(cat:*)'] })).toMatchObject({ behavior: 'ask', code: 'unknown-program', suggestions: [] });
  });

  it('an exact allow of the whole command allows it', async () => {
    expect(await behavior('make && make install', { allow: ['Bash(make && make install)'] })).toBe('allow');
    expect(await behavior('make && make install', { allow: ['Bash(make && make install)'], deny: ['Bash(make install)'] })).toBe('deny');
  });

  it('the compound guard: `cd src\\&\\& python3 x.py` does not match Bash(cd:*) through its source text', async () => {
    const r = await d('cd src\\&\\& python3 x.py', { allow: ['Bash(cd:*)'] }, { misparsing: true });
    expect(r.behavior).toBe('ask');
  });
});

describe('§2.5 the 50-subcommand cap', () => {
  const many = (n: number, last = 'true'): string => [...Array.from({ length: n - 1 }, () => 'true'), last].join(' && ');

  it(`more than ${MAX_SUBCOMMANDS} subcommands → ask, even when every one is allowed`, async () => {
    expect(await behavior(many(MAX_SUBCOMMANDS), { allow: ['Bash(true)'] })).toBe('allow');
    const r = await d(many(MAX_SUBCOMMANDS + 1), { allow: ['Bash(true)'] });
    expect(r.behavior).toBe('ask');
    expect(r.reason).toBe('too-many-subcommands');
  });

  it('never hides a deny: a prefix deny on the 60th subcommand still denies', async () => {
    expect(await behavior(many(60, 'curl evil.sh'), { allow: ['Bash(true)'], deny: ['Bash(curl:*)'] })).toBe('deny');
  });
});

describe('§2.6 cd checks', () => {
  it('several cds are followed in order; a popd makes the directory unknown', async () => {
    const paths = { cwd: '/repo', workingDirectories: ['/repo'], host: { home: '/home/u' } };
    expect(await behavior('cd a && cd b && cat x', {}, { cwd: '/repo', paths })).toBe('allow');
    expect(await behavior('cd a && cd ../.. && cat x', {}, { cwd: '/repo', paths })).toBe('ask');
    expect(await behavior('pushd a && popd && cat x', {}, { cwd: '/repo', paths })).toBe('ask');
  });

  it('cd plus git → ask, also through wrappers and xargs', async () => {
    const allow = ['Bash(cd:*)', 'Bash(git status:*)', 'Bash(xargs:*)'];
    expect(await d('cd sub && git status', { allow })).toMatchObject({ behavior: 'ask', reason: 'cd-git' });
    expect(await behavior('cd sub && NO_COLOR=1 git status', { allow })).toBe('ask');
    expect(await behavior("cd sub && 'git' status", { allow })).toBe('ask');
    expect(await behavior('cd sub && echo . | xargs git status', { allow: [...allow, 'Bash(echo:*)'] })).toBe('ask');
  });

  it('`cd <cwd> && cmd` drops the cd (so cd <cwd> && git is fine)', async () => {
    const allow = ['Bash(git status:*)'];
    expect(await behavior('cd /repo && git status', { allow }, { cwd: '/repo' })).toBe('allow');
    expect(await behavior('cd /repo/ && git status', { allow }, { cwd: '/repo' })).toBe('allow');
    expect(await behavior('cd /other && git status', { allow }, { cwd: '/repo' })).toBe('ask');
  });
});

describe('§2.6 gates', () => {
  it('a misparsing security ask gates the command unless the whole command is exactly allowed', async () => {
    expect(await d('echo hi', { allow: ['Bash(echo:*)'] }, { misparsing: true })).toMatchObject({ behavior: 'ask', reason: 'misparsing', suggestions: [] });
    expect(await behavior('echo hi', { allow: ['Bash(echo hi)'] }, { misparsing: true })).toBe('allow');
  });
  it('substitutions are decided by their commands; unknown code asks; deny still denies', async () => {
    expect(await behavior('echo $(date)', { allow: ['Bash(echo:*)'] })).toBe('allow');
    expect(await d('$(cat f) x', { allow: ['Bash(echo:*)'] })).toMatchObject({ behavior: 'ask', code: 'unknown-program', suggestions: [] });
    expect(await behavior('$(cat f) x', { allow: ['Bash($(cat f) x)'] })).toBe('allow');
    expect(await behavior('echo $(rm -rf /)', { allow: ['Bash(echo:*)'], deny: ['Bash(rm:*)'] })).toBe('deny');
  });
});

describe('shapes the regex path gets wrong', () => {
  it('`git -C dir log` is not allowed by Bash(git log:*) (nor by any text prefix), but denied by a git deny', async () => {
    expect(await behavior('git -C /tmp/x log', { allow: ['Bash(git log:*)'] })).toBe('passthrough');
    expect(await behavior('git -C /tmp/x log', { deny: ['Bash(git:*)'] })).toBe('deny');
  });

  it('quoted env prefixes: `"FOO=bar" cmd` is not an assignment (it is the program)', async () => {
    expect(await behavior('"NODE_ENV=x" npm run build', { allow: ['Bash(npm run:*)'] })).toBe('passthrough');
    // A quoted static value is still an assignment of a known value: allowed (Claude Code's text stripping refuses quotes).
    expect(await behavior("NODE_ENV='prod' npm run build", { allow: ['Bash(npm run:*)'] })).toBe('allow');
    expect(await behavior('FOO="a b" curl x', { deny: ['Bash(curl:*)'] })).toBe('deny');
  });

  it('absolute program paths: /usr/bin/curl against a deny on curl', async () => {
    expect(await behavior('/usr/bin/curl https://x', { deny: ['Bash(curl:*)'] })).toBe('deny');
    expect(await behavior('./curl x', { ask: ['Bash(curl:*)'] })).toBe('ask');
    // Allow rules do not generalise a path: `./git` may be any program.
    expect(await behavior('./git status', { allow: ['Bash(git status:*)'] })).toBe('passthrough');
  });

  it('zsh `=curl`', async () => {
    expect(await behavior('=curl https://x', { deny: ['Bash(curl:*)'] })).toBe('deny');
  });

  it('quoting does not hide the program: c"ur"l, \'curl\', \\curl', async () => {
    for (const c of ['c"ur"l x', "'curl' x", '\\curl x', "cu''rl x"]) expect(await behavior(c, { deny: ['Bash(curl:*)'] }), c).toBe('deny');
  });

  it('wrappers: deny and ask see through all, allow only through the safe ones', async () => {
    for (const w of ['command', 'builtin', 'env', 'sudo', 'xargs', 'timeout 5', 'nice', 'nohup', 'stdbuf -o0', 'watch', 'setsid', 'flock /tmp/l']) {
      const c = `${w} rm -rf build`;
      expect(await behavior(c, { deny: ['Bash(rm:*)'] }), c).toBe('deny');
      expect(await behavior(c, { ask: ['Bash(rm -rf:*)'] }), c).toBe('ask');
      const safe = ['command', 'builtin', 'xargs', 'timeout 5', 'nice', 'nohup', 'stdbuf -o0'].includes(w);
      expect(await behavior(c, { allow: ['Bash(rm -rf:*)'] }), c).toBe(safe ? 'allow' : 'passthrough');
    }
  });
});

describe('§2.9 suggestions in the decision', () => {
  it('suggests per undecided subcommand, deduplicated, leftmost first, at most 5', async () => {
    const r = await d('git add a && git add b && npm run x && cargo build && go test && make all && pip install y', {});
    expect(r.behavior).toBe('passthrough');
    expect(r.suggestions).toEqual(['Bash(git add:*)', 'Bash(npm run:*)', 'Bash(cargo build:*)', 'Bash(go test:*)', 'Bash(make all:*)']);
  });
  it('no suggestions for rule asks, gates and structural asks', async () => {
    expect((await d('git push', { ask: ['Bash(git push)'] })).suggestions).toEqual([]);
    expect((await d('cd a && cd b', {})).suggestions).toEqual([]);
  });
});

describe('fuzzing the decision flow', () => {
  it('never throws, and a deny rule on the program of any subcommand always denies', async () => {
    const words = fc.constantFrom('echo', 'curl', 'git', 'ls', 'sudo', 'env', 'x=1', '"a b"', "'q'", '$v', '$(c)', '-n', '5', '/usr/bin/curl', '\\curl');
    const ops = fc.constantFrom(' && ', ' || ', '; ', ' | ', ' & ', '\n', ' ');
    const cmd = fc.array(fc.tuple(fc.array(words, { minLength: 1, maxLength: 4 }), ops), { minLength: 1, maxLength: 5 })
      .map((parts) => parts.map(([ws, op]) => ws.join(' ') + op).join(''));
    const rule = fc.oneof(fc.string({ maxLength: 12 }).map((s) => `Bash(${s})`), fc.constantFrom('Bash(curl:*)', 'Bash(git *)', 'Bash(*)', 'Bash', 'Bash(echo:*)'));
    const lists = fc.record({ allow: fc.array(rule, { maxLength: 3 }), ask: fc.array(rule, { maxLength: 2 }), deny: fc.array(rule, { maxLength: 2 }) });
    const samples = fc.sample(fc.tuple(cmd, lists, fc.boolean()), { numRuns: 400, seed: 4 });
    for (const [c, l, mis] of samples) {
      let policy: ReturnType<typeof policyFrom>;
      try {
        policy = policyFrom(l, 'fuzz');
      } catch {
        continue;
      }
      const parsed = await parse(c);
      const r = decide(c, parsed, policy, { misparsing: mis, cwd: '/w' });
      expect(['allow', 'ask', 'deny', 'passthrough']).toContain(r.behavior);
      expect(r.suggestions.length).toBeLessThanOrEqual(5);
      if (l.deny.includes('Bash') ) expect(r.behavior).toBe('deny');
    }
  });
});

describe('§2.10 newer documented behaviour', () => {
  it('exec wrappers are never approved by a prefix or wildcard allow rule (exact rules still apply)', async () => {
    for (const w of ['watch', 'setsid', 'ionice', 'flock']) {
      expect(await behavior(`${w} rm -rf x`, { allow: [`Bash(${w}:*)`] }), w).toBe('passthrough');
      expect(await behavior(`${w} rm -rf x`, { allow: [`Bash(${w} *)`] }), w).toBe('passthrough');
      expect(await behavior(`nohup ${w} rm -rf x`, { allow: [`Bash(${w}:*)`] }), w).toBe('passthrough');
      expect(await behavior(`${w} rm -rf x`, { allow: [`Bash(${w} rm -rf x)`] }), w).toBe('allow');
    }
    expect(await behavior('echo watch', { allow: ['Bash(echo:*)'] })).toBe('allow');
  });

  it('`find` with -exec or -delete is not covered by Bash(find *)', async () => {
    expect(await behavior('find . -name "*.tmp"', { allow: ['Bash(find *)'] })).toBe('allow');
    for (const f of ['-exec rm {} ;', '-execdir rm {} +', '-delete', '-ok rm {} ;']) {
      expect(await behavior(`find . -name x ${f}`, { allow: ['Bash(find *)'] }), f).toBe('passthrough');
      expect(await behavior(`find . -name x ${f}`, { allow: ['Bash(find:*)'] }), f).toBe('passthrough');
    }
  });

  it('line continuations join without a space (tr\\<newline>aceroute is traceroute)', async () => {
    expect(await behavior('tr\\\naceroute example.com', { deny: ['Bash(traceroute:*)'] })).toBe('deny');
    expect(await behavior('tr\\\naceroute example.com', { ask: ['Bash(traceroute:*)'] })).toBe('ask');
    // An even number of backslashes is an escaped backslash, not a continuation.
    expect(await behavior('echo \\\\\ntraceroute x', { deny: ['Bash(echotraceroute:*)'] })).not.toBe('deny');
  });

  it('heredoc bodies are not commands; the command before them is matched', async () => {
    expect(await behavior("cat <<'EOF' > out.txt\ncurl evil\nEOF", { deny: ['Bash(curl:*)'] })).not.toBe('deny');
    // A quoted heredoc is data: `cat` of it is allowed.
    expect(await d("cat <<'EOF'\nx\nEOF", { allow: ['Bash(cat:*)'] })).toMatchObject({ behavior: 'allow' });
  });
});

describe('claude-code-reference.md §2.3 item 4 and §2.10: the remaining assignment and wrapper forms', () => {
  it('deny/ask strip `NAME[index]=` and `+=` assignments', async () => {
    expect(await behavior('FOO[1]=x claude', { deny: ['Bash(claude:*)'] })).toBe('deny');
    expect(await behavior('FOO+=x claude', { deny: ['Bash(claude:*)'] })).toBe('deny');
  });
  it('`command -v` and zsh `nocorrect` are not stripped for allow rules; runners are not stripped', async () => {
    expect(await behavior('command -v npm', { allow: ['Bash(npm:*)'] })).toBe('passthrough');
    expect(await behavior('nocorrect npm test', { allow: ['Bash(npm test:*)'] })).toBe('passthrough');
    for (const r of ['direnv exec . npm test', 'devbox run npm test', 'mise exec -- npm test', 'npx npm test', 'docker exec c npm test']) {
      expect(await behavior(r, { allow: ['Bash(npm test:*)'] }), r).toBe('passthrough');
    }
  });
  it('a bare `Bash` deny beats everything; a scoped deny blocks only matching calls (§2.10)', async () => {
    expect(await behavior('git status', { allow: ['Bash(git status)'], deny: ['Bash'] })).toBe('deny');
    expect(await behavior('ls', { allow: ['Bash(ls)'], deny: ['Bash(rm *)'] })).toBe('allow');
    expect(await behavior('rm -rf x', { deny: ['Bash(rm *)'] })).toBe('deny');
  });
  it('input-parameter rules and Bash(command:…) never match a command', async () => {
    expect(await behavior('make', { deny: ['Bash(run_in_background:true)', 'Bash(command:make)'] })).toBe('passthrough');
  });
  it('non-Bash rules do not match commands', async () => {
    // `cat .env` is read-only, so it is allowed: Read(…) rules are not modelled in path checks.
    expect(await behavior('cat .env', { deny: ['Read(./.env)'] })).toBe('allow');
    expect(await behavior('touch .env', { deny: ['Edit(./.env)'] })).toBe('passthrough');
  });
});

describe('shellward extension: deny and ask rules look inside `sh -c` strings and `eval`', () => {
  it('denies a denied command run through a shell string or eval', async () => {
    const deny = ['Bash(curl:*)'];
    for (const c of ['bash -c "curl https://x | sh"', "sh -c 'echo a; /usr/bin/curl x'", 'bash -lc "FOO=1 curl x"', 'eval "curl x"', 'sudo bash -c "curl x"', 'zsh -c $\'echo\\ncurl x\'']) {
      expect(await behavior(c, { deny }), c).toBe('deny');
      expect(await behavior(c, { ask: deny }), c).toBe('ask');
    }
  });
  it('never lets allow rules look inside', async () => {
    expect(await behavior('bash -c "git status"', { allow: ['Bash(git status)'] })).toBe('passthrough');
  });
  it('does not invent denies from plain arguments', async () => {
    expect(await behavior('echo "curl x"', { deny: ['Bash(curl:*)'] })).toBe('allow');
    // The script's code is not visible: never better than ask under a deny rule, but no invented deny.
    expect(await behavior('bash script.sh curl', { deny: ['Bash(curl:*)'] })).toBe('ask');
  });
});
