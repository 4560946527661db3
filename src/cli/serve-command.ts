/**
 * `shellward serve`: answers `shellward hook` from a long-running process on a Unix socket (see
 * hook-socket.ts for where, and why only this user's socket is used). The hook's client
 * (hook-client.ts) then skips loading the analysis and the grammar on every call; without a
 * server, `shellward hook` answers in-process as before. Opt-in: nothing starts it for you.
 *
 * Each connection carries one request (JSON, see {@link ServeRequest}) and gets one response.
 * The configuration is read again for every request, so edits to the shellward config or
 * `.claude/settings*.json` apply at once. A request of another shellward version is refused (the
 * client then answers in-process), so an upgrade never runs old rules.
 */
import { chmodSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { Command, CommanderError } from 'commander';
import { ask } from './hook-client.js';
import { answerHook, defineHookOptions, type HookCliOptions } from './hook-command.js';
import { socketDir, socketPath, unsafeBecause, type ServeRequest, type ServeResponse } from './hook-socket.js';
import { EXIT } from './exit-codes.js';
import { VERSION } from './version.js';

/** Largest request read, in characters (the hook reads at most 16 Mi characters of event). */
const MAX_REQUEST = 17 * 1024 * 1024;

/** The hook options in `args` (as after `shellward hook`), or the usage error commander printed. */
export async function parseHookArgs(args: readonly string[]): Promise<{ opts: HookCliOptions } | { error: string }> {
  let errors = '';
  let parsed: HookCliOptions | undefined;
  const program = new Command('shellward').exitOverride().configureOutput({ writeErr: (s) => (errors += s), writeOut: (s) => (errors += s) });
  const hook = defineHookOptions(program.command('hook'))
    .exitOverride()
    .configureOutput({ writeErr: (s) => (errors += s), writeOut: (s) => (errors += s) })
    .action((opts: HookCliOptions) => {
      parsed = opts;
    });
  void hook;
  try {
    await program.parseAsync(['hook', ...args], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) return { error: errors || err.message + '\n' };
    throw err;
  }
  return parsed ? { opts: parsed } : { error: errors || 'shellward hook: the arguments were not understood\n' };
}

/** The response to one request (never rejects). */
export async function respond(request: unknown): Promise<ServeResponse> {
  const r = request as Partial<ServeRequest> | null;
  if (typeof r !== 'object' || r === null || typeof r.input !== 'string' || !Array.isArray(r.args) || !r.args.every((a) => typeof a === 'string') || typeof r.cwd !== 'string') {
    return { refused: 'malformed request' };
  }
  if (r.version !== VERSION) return { refused: `this server is shellward ${VERSION}, the client ${String(r.version)}` };
  const parsed = await parseHookArgs(r.args);
  if ('error' in parsed) return { stdout: '', stderr: parsed.error, exitCode: EXIT.ERROR };
  return answerHook(r.input, parsed.opts, r.cwd, typeof r.projectDir === 'string' && r.projectDir.startsWith('/') ? r.projectDir : undefined);
}

function handle(socket: Socket): void {
  let data = '';
  let tooLong = false;
  socket.setEncoding('utf8');
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: string) => {
    if (data.length + chunk.length > MAX_REQUEST) tooLong = true;
    else data += chunk;
  });
  socket.on('end', () => {
    void (async () => {
      let response: ServeResponse;
      if (tooLong) response = { refused: 'request too large' };
      else {
        try {
          response = await respond(JSON.parse(data));
        } catch (err) {
          response = { refused: `bad request: ${err instanceof Error ? err.message : String(err)}` };
        }
      }
      socket.end(JSON.stringify(response));
    })();
  });
}

/** Creates the socket directory (mode 0700) when it is the default one; throws when it is not safe. */
function prepareDir(path: string): void {
  const dir = dirname(path);
  if (dir === socketDir()) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
  }
  const problem = unsafeBecause(dir, false);
  if (problem) throw new Error(`refusing to listen: ${problem}`);
}

/**
 * Listens on `path` until a signal stops it. A socket file left by a server that is gone is
 * replaced; one that answers means a server already runs (rejects). Resolves with the server once
 * it listens.
 */
export async function startServer(path: string): Promise<Server> {
  prepareDir(path);
  let exists = true;
  try {
    lstatSync(path);
  } catch {
    exists = false;
  }
  if (exists) {
    const problem = unsafeBecause(path, true);
    if (problem) throw new Error(`refusing to replace ${path}: ${problem}`);
    const alive = await ask(path, { version: VERSION, args: ['--help'], cwd: '/', input: '' }, 500);
    if (alive) throw new Error(`a server already listens on ${path}`);
    unlinkSync(path);
  }
  // allowHalfOpen: the client ends its side after the request; the response still has to go back.
  const server = createServer({ allowHalfOpen: true }, handle);
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(path, () => ok());
  });
  chmodSync(path, 0o600);
  return server;
}

/** Adds the `serve` subcommand to `program`; `setExit` receives the exit code. */
export function registerServeCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('serve')
    .description('answer shellward hook from this process on a Unix socket, so each hook call starts fast (opt-in)')
    .option('--socket <path>', 'socket path (default: $SHELLWARD_SOCKET, else $XDG_RUNTIME_DIR/shellward/hook.sock, else a 0700 directory in the temp dir)')
    .action(async (opts: { socket?: string }) => {
      const path = opts.socket ?? socketPath();
      let server: Server;
      try {
        server = await startServer(path);
      } catch (err) {
        process.stderr.write(`shellward serve: ${err instanceof Error ? err.message : String(err)}\n`);
        setExit(EXIT.ERROR);
        return;
      }
      process.stderr.write(`shellward serve: listening on ${path}\n`);
      // Warm up: load the grammar and the rules now, not on the first hook call.
      await answerHook('{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"true"},"cwd":"/"}', { mode: 'log', askAs: 'deny', timeout: 5000, log: '/dev/null' }, '/');
      await new Promise<void>((stop) => {
        const quit = (): void => {
          server.close();
          try {
            unlinkSync(path);
          } catch {
            // already gone
          }
          stop();
        };
        process.once('SIGINT', quit);
        process.once('SIGTERM', quit);
      });
      setExit(EXIT.OK);
    });
}
