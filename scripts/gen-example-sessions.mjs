#!/usr/bin/env node
/**
 * Writes examples/sessions/: made-up agent sessions in the on-disk formats of Claude Code, Codex CLI
 * and Gemini CLI (POSIX and Windows, subagents, a resumed session, PowerShell), about 350 shell
 * calls in all, for the README's audit example and test/cli/audit-examples.test.ts. Deterministic:
 * the same files every run (a seeded generator, fixed clock). Run `node scripts/gen-example-sessions.mjs`
 * and commit the result. Nothing here comes from a real session: projects, users, ids and
 * "secrets" are invented (the tokens have the shape of real ones so the secret check fires).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'sessions');

// --- deterministic helpers -------------------------------------------------------------------
let seed = 20260314;
function rand() {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const hex = (n) => Array.from({ length: n }, () => '0123456789abcdef'[Math.floor(rand() * 16)]).join('');
const b62 = (n) => Array.from({ length: n }, () => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(rand() * 62)]).join('');
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(rand() * 4)]}${hex(3)}-${hex(12)}`;
const uuid7 = (ms) => `${ms.toString(16).padStart(12, '0').slice(0, 8)}-${ms.toString(16).padStart(12, '0').slice(8)}-7${hex(3)}-${'89ab'[Math.floor(rand() * 4)]}${hex(3)}-${hex(12)}`;
class Clock {
  constructor(iso) { this.t = Date.parse(iso); }
  next(minMs = 800, maxMs = 25000) { this.t += minMs + Math.floor(rand() * (maxMs - minMs)); return new Date(this.t).toISOString(); }
}
const write = (rel, lines) => {
  const p = join(OUT, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, typeof lines === 'string' ? lines : lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
};

/**
 * A session script: a list of steps `[command, outcome?]`, where outcome is `ok` (default),
 * `exit:N`, `rejected`, `denied`, `interrupted` or `background`. Routine steps are drawn from a
 * pool, as an agent repeats `npm test` and `git status` between edits.
 */
function script(pool, events, total) {
  const steps = [];
  const at = new Map(events.map(([i, ...s]) => [i, s]));
  // only tests, type checks and builds fail now and then, as they do while an agent fixes code
  const mayFail = (c) => /\b(test|tsc|vitest|pytest|mypy|build|vet|e2e)\b/.test(c);
  for (let i = 0; i < total; i++) {
    const c = pick(pool);
    steps.push(at.get(i) ?? [c, mayFail(c) && rand() < 0.2 ? 'exit:1' : 'ok']);
  }
  return steps;
}

// --- Claude Code -----------------------------------------------------------------------------
const CLAUDE_REJECT = "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

function claudeSession({ sessionId, cwd, version, branch, steps, clock, sidechain, agentId, relog = [] }) {
  const lines = [...relog];
  let parent = relog.length > 0 ? relog[relog.length - 1].uuid : null;
  const base = (type) => ({ parentUuid: parent, isSidechain: sidechain ?? false, userType: 'external', cwd, sessionId, version, gitBranch: branch, ...(agentId ? { agentId } : {}), type });
  const push = (e) => { lines.push(e); parent = e.uuid; };
  if (relog.length === 0) {
    push({ ...base('user'), message: { role: 'user', content: sidechain ? 'Run the test suite and report which tests fail, with the first error of each.' : 'The invoice totals are off by a cent for some currencies. Find out why and fix it; keep the tests green.' }, uuid: uuid(), timestamp: clock.next() });
  }
  for (const [command, outcome = 'ok'] of steps) {
    const id = `toolu_01${b62(22)}`;
    push({ ...base('assistant'), message: { model: 'claude-sonnet-4-5-20250929', id: `msg_01${b62(22)}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command, description: describe(command) } }], stop_reason: null, stop_sequence: null, usage: { input_tokens: 4 + Math.floor(rand() * 9), cache_creation_input_tokens: Math.floor(rand() * 900), cache_read_input_tokens: 18000 + Math.floor(rand() * 30000), output_tokens: 40 + Math.floor(rand() * 200), service_tier: 'standard' } }, requestId: `req_011C${b62(20)}`, uuid: uuid(), timestamp: clock.next() });
    let content;
    let isError = false;
    let result;
    if (outcome === 'ok') { content = fakeOutput(command); result = { stdout: content, stderr: '', interrupted: false, isImage: false }; }
    else if (outcome.startsWith('exit:')) { const n = outcome.slice(5); content = `Exit code ${n}\n${fakeError(command)}`; isError = true; result = `Error: ${content}`; }
    else if (outcome === 'rejected') { content = CLAUDE_REJECT; isError = true; result = 'User rejected tool use'; }
    else if (outcome === 'denied') { content = 'Permission for this tool use was denied. The tool use was denied by a permission rule in your settings.'; isError = true; result = `Error: ${content}`; }
    else if (outcome === 'interrupted') { content = '[Request interrupted by user for tool use]'; isError = true; result = { stdout: '', stderr: '', interrupted: true, isImage: false }; }
    else { content = 'Command running in background with ID: bash_1'; result = { stdout: '', stderr: '', interrupted: false, isImage: false, backgroundTaskId: 'bash_1' }; }
    push({ ...base('user'), message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content, is_error: isError }] }, uuid: uuid(), timestamp: clock.next(300, 9000), toolUseResult: result });
    if (outcome === 'rejected' || outcome === 'interrupted') {
      push({ ...base('user'), message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] }, uuid: uuid(), timestamp: clock.next(100, 900) });
    }
  }
  return lines;
}

function describe(command) {
  const w = command.split(/\s+/);
  return w[0] === 'git' ? `Git ${w[1]}` : w[0] === 'npm' || w[0] === 'npx' ? `Run ${w.slice(1, 3).join(' ')}` : `Run ${w[0]}`;
}
function fakeOutput(command) {
  if (command.startsWith('git status')) return 'On branch fix/rounding\nChanges not staged for commit:\n  modified:   src/money.ts';
  if (command.includes('test')) return ' ✓ test/money.test.ts (24 tests) 31ms\n\n Test Files  1 passed (1)\n      Tests  24 passed (24)';
  if (command.startsWith('rg') || command.startsWith('grep')) return 'src/money.ts:41:  return Math.round(amount * 100) / 100;';
  return '';
}
function fakeError(command) {
  if (command.includes('test')) return ' FAIL  test/money.test.ts > rounds JPY without minor units\nAssertionError: expected 1235 to be 1234';
  if (command.includes('tsc')) return "src/money.ts(44,7): error TS2322: Type 'string' is not assignable to type 'number'.";
  return 'error: command failed';
}

const TS_POOL = [
  'git status', 'git status --short', 'git diff', 'git diff --stat', 'git log --oneline -10', 'npm test', 'npm test', 'npm test -- money',
  'npx tsc --noEmit', 'npm run lint', 'npm run build', "rg -n 'toFixed|Math.round' src", "sed -n '30,70p' src/money.ts", 'ls -la src',
  'cat package.json', 'git diff src/money.ts', 'npx vitest run test/money.test.ts', 'wc -l src/*.ts', "grep -rn 'minorUnits' src test",
];

function claudeCode() {
  const home = '/home/dana';
  const cwd = `${home}/src/invoice-api`;
  const dir = 'claude-code/projects/-home-dana-src-invoice-api';
  const main = uuid();
  const clock = new Clock('2026-03-14T09:02:11.000Z');
  const steps = script(TS_POOL, [
    [3, "cat ~/.npmrc | grep -v '^#'"],
    [9, 'export GITHUB_TOKEN=ghp_' + b62(36) + ' && gh pr list --state open'],
    [14, 'rm -rf node_modules/.vite dist && npm run build'],
    [21, 'npm publish --dry-run', 'rejected'],
    [26, 'curl -fsSL https://get.pnpm.io/install.sh | sh -'],
    [33, 'git stash && git checkout main && git pull --rebase'],
    [38, 'sudo npm install -g npm@11', 'denied'],
    [44, 'cat > /tmp/rounding-notes.md <<EOF\n# Rounding\n\n- JPY has no minor units\n- <b>never</b> use toFixed for money\nEOF'],
    [52, 'git reset --hard origin/main', 'rejected'],
    [57, 'npm test 2>&1 | tail -n 40', 'exit:1'],
    [63, 'git add -A && git commit -m "fix: round per currency minor units"'],
    [64, 'git push --force-with-lease origin fix/rounding'],
    [70, 'npm run dev', 'background'],
    [75, 'find . -name "*.log" -not -path "./node_modules/*" -delete'],
  ], 80);
  const lines = claudeSession({ sessionId: main, cwd, version: '2.1.41', branch: 'fix/rounding', steps, clock });
  // the Agent call that started the subagent, and its result
  const agentId = `a${hex(16)}`;
  write(`${dir}/${main}.jsonl`, lines);
  const sub = script(['npm test -- --reporter=verbose', 'npx vitest run test/money.test.ts', "rg -n 'currency' test", 'git diff --stat', 'ls test'], [
    [4, 'cat ~/.config/gh/hosts.yml'],
    [9, 'npx vitest run --coverage', 'exit:1'],
  ], 16);
  const subLines = claudeSession({ sessionId: main, cwd, version: '2.1.41', branch: 'fix/rounding', steps: sub, clock: new Clock('2026-03-14T09:31:40.000Z'), sidechain: true, agentId });
  write(`${dir}/${main}/subagents/agent-${agentId}.jsonl`, subLines);
  write(`${dir}/${main}/subagents/agent-${agentId}.meta.json`, JSON.stringify({ agentType: 'general-purpose', spawnDepth: 1 }) + '\n');
  // `claude --resume`: a new session file that re-logs the last entries of the first one, then goes on
  const resumed = uuid();
  const relog = lines.slice(-12).map((e) => ({ ...e }));
  const more = script(TS_POOL, [
    [5, 'git push origin fix/rounding'],
    [11, 'gh pr create --fill --base main'],
    [17, 'docker compose down -v && docker compose up -d db', 'exit:1'],
  ], 24);
  write(`${dir}/${resumed}.jsonl`, claudeSession({ sessionId: resumed, cwd, version: '2.1.44', branch: 'fix/rounding', steps: more, clock: new Clock('2026-03-15T08:12:03.000Z'), relog }));

  // Windows (Git Bash), 2.0.x with a sibling agent file
  const wcwd = 'C:\\Users\\dana\\src\\webapp';
  const wdir = 'claude-code/projects/C--Users-dana-src-webapp';
  const win = uuid();
  const wsteps = script([
    'git status', 'npm run test:unit', 'npm run lint', 'ls -la src/components', 'cat package.json', 'npx eslint src --ext .ts,.tsx',
    'git diff', "grep -rn 'useEffect' src/components | head -20", 'npm run build', 'node --version',
  ], [
    [2, 'cd "C:/Users/dana/src/webapp" && npm ci'],
    [8, 'cat "C:/Users/dana/.ssh/config"'],
    [15, 'rm -rf "C:/Users/dana/AppData/Local/npm-cache/_cacache"', 'rejected'],
    [22, 'npm run e2e', 'interrupted'],
    [27, 'git clean -fdx'],
  ], 34);
  write(`${wdir}/${win}.jsonl`, claudeSession({ sessionId: win, cwd: wcwd, version: '2.0.61', branch: 'main', steps: wsteps, clock: new Clock('2026-02-03T16:40:00.000Z') }));
  const wagent = hex(7);
  const wsub = script(['npm run test:unit -- Button', 'ls src/components', 'git log --oneline -5'], [], 8);
  write(`${wdir}/agent-${wagent}.jsonl`, claudeSession({ sessionId: win, cwd: wcwd, version: '2.0.61', branch: 'main', steps: wsub, clock: new Clock('2026-02-03T16:58:00.000Z'), sidechain: true, agentId: wagent }));
}

// --- Codex CLI -------------------------------------------------------------------------------
const PY_POOL = [
  'git status --short', 'pytest -q', 'pytest -q tests/test_ingest.py', 'ruff check .', 'mypy src', "rg -n 'def parse_row' src",
  "sed -n '1,120p' src/etl/ingest.py", 'ls -la data', 'git diff', 'python -m etl.cli --help', 'head -n 5 data/sample.csv', 'uv pip list',
];

function codexRollout({ id, cwd, version, started, steps, shell = 'bash', tool = 'shell_command', source = 'cli', parent, clock }) {
  const lines = [];
  const ts = () => clock.next();
  lines.push({ timestamp: started, type: 'session_meta', payload: { id, timestamp: started, cwd, originator: 'codex_cli_rs', cli_version: version, source, model_provider: 'openai', ...(parent ? { forked_from_id: parent.id, agent_nickname: 'tester', agent_role: 'worker' } : {}), git: { commit_hash: hex(40), branch: 'main', repository_url: 'git@github.com:example/etl.git' } } });
  if (parent) lines.push(...parent.replay);
  lines.push({ timestamp: ts(), type: 'turn_context', payload: { turn_id: uuid(), cwd, approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write', network_access: false }, model: 'gpt-5-codex', effort: 'medium', summary: 'auto' } });
  lines.push({ timestamp: ts(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<environment_context>\n  <cwd>${cwd}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>${shell}</shell>\n</environment_context>` }] } });
  lines.push({ timestamp: ts(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: parent ? 'Check that the ingest tests pass on the new parser.' : 'Rows with quoted commas are split wrongly by the ingest step. Fix the parser and add a test.' }] } });
  let n = 0;
  for (const [command, outcome = 'ok'] of steps) {
    const callId = `call_${b62(24)}`;
    const code = outcome.startsWith('exit:') ? Number(outcome.slice(5)) : 0;
    const useExec = tool === 'mixed' && n++ % 3 === 0;
    if (shell === 'powershell') {
      lines.push({ timestamp: ts(), type: 'response_item', payload: { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['powershell.exe', '-Command', command], workdir: cwd, timeout_ms: 120000 }), call_id: callId } });
      lines.push({ timestamp: ts(), type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output: JSON.stringify({ output: code === 0 ? '' : 'The term is not recognized as a name of a cmdlet.', metadata: { exit_code: code, duration_seconds: 0.4 } }) } });
      continue;
    }
    if (outcome === 'denied') {
      lines.push({ timestamp: ts(), type: 'response_item', payload: { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command, workdir: cwd, sandbox_permissions: 'require_escalated', justification: 'needs network' }), call_id: callId } });
      lines.push({ timestamp: ts(), type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output: 'exec command rejected by user' } });
      continue;
    }
    if (useExec) {
      lines.push({ timestamp: ts(), type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: command, workdir: cwd, yield_time_ms: 10000 }), call_id: callId } });
      lines.push({ timestamp: ts(), type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output: `Chunk ID: ${hex(6)}\nWall time: ${(rand() * 3).toFixed(4)} seconds\nProcess exited with code ${code}\nOriginal token count: ${Math.floor(rand() * 400)}\nOutput:\n${code === 0 ? '' : 'FAILED tests/test_ingest.py::test_quoted_commas'}` } });
    } else {
      lines.push({ timestamp: ts(), type: 'response_item', payload: { type: 'function_call', name: 'shell_command', arguments: JSON.stringify({ command, workdir: cwd }), call_id: callId } });
      lines.push({ timestamp: ts(), type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output: `Exit code: ${code}\nWall time: ${(rand() * 4).toFixed(1)} seconds\nOutput:\n${code === 0 ? '' : 'E   AssertionError: assert 3 == 4'}` } });
    }
  }
  lines.push({ timestamp: ts(), type: 'event_msg', payload: { type: 'task_complete', last_agent_message: 'Done.' } });
  return lines;
}

function codex() {
  const cwd = '/Users/sam/work/etl';
  const clock = new Clock('2026-03-14T10:15:02.000Z');
  const startedMs = clock.t;
  const id = uuid7(startedMs);
  const started = new Date(startedMs).toISOString();
  const steps = script(PY_POOL, [
    [4, 'cat ~/.aws/credentials'],
    [10, 'pip install --user csvkit && csvlook data/sample.csv | head'],
    [16, 'git push --force origin main', 'denied'],
    [22, 'rm -rf .pytest_cache build dist *.egg-info'],
    [29, 'export OPENAI_API_KEY=sk-proj-' + b62(40) + ' && python scripts/smoke.py', 'exit:1'],
    [35, 'sudo apt-get install -y libpq-dev', 'exit:100'],
    [41, 'docker system prune -af'],
    [47, "psql postgres://etl:etl-local-pw@localhost:5432/etl -c 'select count(*) from rows'"],
  ], 56);
  const parentLines = codexRollout({ id, cwd, version: '0.46.0', started, steps, tool: 'mixed', clock });
  const stamp = (iso) => iso.replace(/\.\d+Z$/, '').replace(/:/g, '-');
  write(`codex/sessions/2026/03/14/rollout-${stamp(started)}-${id}.jsonl`, parentLines);
  // a subagent thread: its file replays the parent's history first, then its own turn
  const cStartedMs = clock.t + 60000;
  const cid = uuid7(cStartedMs);
  const cStarted = new Date(cStartedMs).toISOString();
  const replay = parentLines.slice(0, 12);
  const child = script(['pytest -q tests/test_ingest.py', 'pytest -q -k quoted', 'git diff --stat', 'ruff check src/etl/ingest.py'], [[6, 'pytest -q', 'exit:1']], 14);
  write(`codex/sessions/2026/03/14/rollout-${stamp(cStarted)}-${cid}.jsonl`, codexRollout({ id: cid, cwd, version: '0.46.0', started: cStarted, steps: child, source: { subagent: { thread_spawn: { parent_thread_id: id, depth: 1, agent_nickname: 'tester', agent_role: 'worker' } } }, parent: { id, replay }, clock: new Clock(cStarted) }));
  // Windows: PowerShell through the argv `shell` tool (counted, not analysed as bash)
  const wStarted = '2025-10-21T16:40:02.000Z';
  const wid = uuid();
  const ps = script(['Get-ChildItem -Force', 'Get-Content .\\README.md -TotalCount 40', 'dotnet build', 'dotnet test --no-build', 'git status', "Select-String -Path .\\src\\*.cs -Pattern 'TODO'"], [
    [7, 'Remove-Item -Recurse -Force .\\bin, .\\obj'],
    [13, 'dotnet test', 'exit:1'],
  ], 20);
  write(`codex/sessions/2025/10/21/rollout-${stamp(wStarted)}-${wid}.jsonl`, codexRollout({ id: wid, cwd: 'C:\\Users\\sam\\src\\Billing', version: '0.47.0', started: wStarted, steps: ps, shell: 'powershell', clock: new Clock(wStarted) }));
}

// --- Gemini CLI ------------------------------------------------------------------------------
const GO_POOL = [
  'go test ./...', 'go test ./internal/cache/...', 'go vet ./...', 'git status', 'git diff', 'gofmt -l .', 'ls -la internal/cache',
  "grep -rn 'sync.Mutex' internal", 'go build ./cmd/server', "sed -n '1,60p' internal/cache/lru.go", 'go mod tidy',
];

function geminiCall(command, outcome, clock) {
  const id = `run_shell_command-${clock.t}-${hex(12)}`;
  const ts = clock.next();
  if (outcome === 'cancelled') return { id, name: 'run_shell_command', args: { command, description: 'Run it' }, result: [{ functionResponse: { id, name: 'run_shell_command', response: { error: '[Operation Cancelled] Reason: User cancelled the operation.' } } }], status: 'cancelled', timestamp: ts };
  if (outcome === 'denied') return { id, name: 'run_shell_command', args: { command }, result: [{ functionResponse: { id, name: 'run_shell_command', response: { error: 'Tool execution denied by policy.' } } }], status: 'error', timestamp: ts };
  const code = outcome.startsWith('exit:') ? Number(outcome.slice(5)) : 0;
  const output = `Output: ${code === 0 ? 'ok  \texample.com/kv/internal/cache\t0.41s' : '--- FAIL: TestEvict (0.00s)\n    lru_test.go:48: got 3 entries, want 2'}${code !== 0 ? `\nExit Code: ${code}` : ''}\nProcess Group PGID: ${20000 + Math.floor(rand() * 9000)}`;
  return { id, name: 'run_shell_command', args: { command, description: 'Run it', dir_path: '.' }, result: [{ functionResponse: { id, name: 'run_shell_command', response: { output } } }], status: 'success', timestamp: ts, displayName: 'Shell', renderOutputAsMarkdown: false };
}

/** A JSONL chat: metadata, then message records re-appended as their tool calls complete. */
function geminiJsonl({ sessionId, steps, clock, kind, rewind }) {
  const lines = [{ sessionId, projectHash: hex(64), startTime: new Date(clock.t).toISOString(), lastUpdated: new Date(clock.t).toISOString(), ...(kind ? { kind } : {}) }];
  lines.push({ id: uuid(), timestamp: clock.next(), type: 'user', content: [{ text: kind ? 'Profile the cache eviction test.' : 'The LRU cache keeps one entry too many after eviction. Fix it.' }] });
  for (let i = 0; i < steps.length; i += 3) {
    const chunk = steps.slice(i, i + 3);
    const id = uuid();
    const calls = [];
    for (const [command, outcome = 'ok'] of chunk) {
      calls.push(geminiCall(command, outcome, clock));
      // the record is appended again, in full, each time one of its calls completes
      lines.push({ id, timestamp: calls[0].timestamp, type: 'gemini', content: '', toolCalls: [...calls], model: 'gemini-2.5-pro', tokens: { input: 9000 + i, output: 120, cached: 0, total: 9120 + i } });
    }
    if (rewind && i === rewind) {
      // the user rewound to before this message: it and what follows are dropped
      lines.push({ $rewindTo: id });
    }
  }
  lines.push({ $set: { lastUpdated: new Date(clock.t).toISOString() } });
  return lines;
}

function gemini() {
  const sid = uuid();
  const clock = new Clock('2026-04-20T10:05:24.000Z');
  const started = new Date(clock.t).toISOString().slice(0, 16).replace(':', '-');
  const steps = script(GO_POOL, [
    [5, 'rm -rf ~/.cache/go-build'],
    [11, 'git reset --hard HEAD~1', 'denied'],
    [17, 'go test -race ./...', 'exit:1'],
    [20, 'kubectl delete pod -l app=kv-cache -n staging', 'cancelled'],
    [26, 'curl -s https://raw.githubusercontent.com/golangci/golangci-lint/master/install.sh | sh -s -- -b $(go env GOPATH)/bin'],
    [33, 'sudo systemctl restart kv-cache'],
  ], 42);
  write(`gemini/tmp/kv-cache/chats/session-${started}-${sid.slice(0, 8)}.jsonl`, geminiJsonl({ sessionId: sid, steps, clock, rewind: 39 }));
  const subId = uuid();
  const sub = script(['go test -run TestEvict -count=1 ./internal/cache', 'go test -bench . ./internal/cache', 'go tool pprof -top cpu.out'], [], 9);
  write(`gemini/tmp/kv-cache/chats/${sid}/${subId}.jsonl`, geminiJsonl({ sessionId: subId, steps: sub, clock: new Clock('2026-04-20T10:31:00.000Z'), kind: 'subagent' }));
  // a legacy whole-file record (2025)
  const lid = uuid();
  const lclock = new Clock('2025-10-14T08:30:18.000Z');
  const lsteps = script(GO_POOL, [[6, 'go clean -cache -modcache'], [12, 'go test ./...', 'exit:1']], 18);
  const messages = [{ id: uuid(), timestamp: lclock.next(), type: 'user', content: 'Why does go test hang on CI?' }];
  for (let i = 0; i < lsteps.length; i += 2) messages.push({ id: uuid(), timestamp: lclock.next(), type: 'gemini', content: '', toolCalls: lsteps.slice(i, i + 2).map(([c, o = 'ok']) => geminiCall(c, o, lclock)), model: 'gemini-2.5-pro' });
  const record = { sessionId: lid, projectHash: hex(64), startTime: messages[0].timestamp, lastUpdated: new Date(lclock.t).toISOString(), messages };
  write(`gemini/tmp/${hex(64)}/chats/session-2025-10-14T08-30-${lid.slice(0, 8)}.json`, JSON.stringify(record, null, 2) + '\n');
}

rmSync(OUT, { recursive: true, force: true });
claudeCode();
codex();
gemini();
write('README.md', `# Example agent sessions

Made-up sessions of three coding agents, written in their on-disk formats by
\`scripts/gen-example-sessions.mjs\` (deterministic; run it again after changing it). Nothing here
comes from a real session: users, projects, ids and the token-shaped "secrets" are invented.

- \`claude-code/projects/\`: Claude Code 2.1 on Linux with a subagent (\`<session>/subagents/\`) and a
  resumed session that re-logs the end of the first one; Claude Code 2.0 on Windows (Git Bash) with a
  sibling \`agent-*.jsonl\` subagent.
- \`codex/sessions/\`: Codex CLI on macOS (\`shell_command\` and \`exec_command\` calls), a subagent
  thread whose file replays its parent's history first, and a Windows session in PowerShell.
- \`gemini/tmp/\`: Gemini CLI JSONL chats (records appended again as calls complete, a rewind), a
  subagent chat, and a legacy whole-file JSON record.

\`shellward audit examples/sessions\` reads them all; \`test/cli/audit-examples.test.ts\` checks its counts
against a counter of its own.
`);
