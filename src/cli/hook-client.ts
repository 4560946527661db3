/**
 * The client half of `shellward hook` when `shellward serve` runs: reads the event on stdin,
 * sends it with the arguments to the server's Unix socket and writes the server's reply. It
 * loads no analysis (no tree-sitter, no rules, no configuration library), so a hook call costs
 * little more than Node's own start. Whenever the server is absent, refuses (another version),
 * does not answer in time or answers garbage, the caller falls back to answering in-process,
 * with the event already read (hook-input.ts). Node's `net` and the version are loaded only when
 * there is a socket to ask: without a server, which is the usual case, the client costs a few
 * `lstat` calls.
 */
import { setPrereadInput } from './hook-input.js';
import { agentProjectDir, socketPath, socketUnsafeBecause, type ServeRequest, type ServeResponse } from './hook-socket.js';

/** How long the client waits for the server's answer beyond the hook's own `--timeout`, in ms. */
const MARGIN_MS = 1000;

/** `--timeout` from the arguments (either `--timeout N` or `--timeout=N`), default 5000 ms. */
function timeoutFrom(args: readonly string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v = a === '--timeout' ? args[i + 1] : a.startsWith('--timeout=') ? a.slice('--timeout='.length) : undefined;
    if (v !== undefined && /^\d+$/.test(v) && Number(v) > 0) return Number(v);
  }
  return 5000;
}

async function readStdin(): Promise<string> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk as string;
  return text;
}

/** Sends `request` to the socket at `path`; the server's response, or `undefined` on any failure. */
export async function ask(path: string, request: ServeRequest, waitMs: number): Promise<ServeResponse | undefined> {
  const { connect } = await import('node:net');
  return new Promise((done) => {
    let settled = false;
    let data = '';
    const finish = (r: ServeResponse | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      done(r);
    };
    const socket = connect(path);
    const timer = setTimeout(() => finish(undefined), waitMs);
    socket.setEncoding('utf8');
    socket.on('error', () => finish(undefined));
    socket.on('connect', () => socket.end(JSON.stringify(request) + '\n'));
    socket.on('data', (chunk: string) => {
      data += chunk;
    });
    socket.on('end', () => {
      try {
        const v = JSON.parse(data) as Record<string, unknown>;
        if (typeof v.refused === 'string') return finish({ refused: v.refused });
        if (typeof v.stdout === 'string' && typeof v.stderr === 'string' && typeof v.exitCode === 'number') {
          return finish({ stdout: v.stdout, stderr: v.stderr, exitCode: v.exitCode });
        }
      } catch {
        // not an answer: fall back
      }
      finish(undefined);
    });
  });
}

/**
 * Answers `shellward hook ARGS` through the server. Returns the exit code when the server
 * answered (its reply is written), or `undefined` when the caller must answer in-process (the
 * event it read is then recorded for the in-process command). Skipped with `SHELLWARD_NO_SERVER`
 * set to anything but `0` or empty, and for `--help`.
 */
export async function hookViaServer(args: readonly string[]): Promise<number | undefined> {
  const off = process.env.SHELLWARD_NO_SERVER;
  if ((off !== undefined && off !== '' && off !== '0') || args.includes('--help') || args.includes('-h')) return undefined;
  const path = socketPath();
  // Only a socket this user owns is asked; any other case is answered in-process (the common
  // one: no server running, so no directory or no socket).
  if (socketUnsafeBecause(path) !== undefined) return undefined;
  const [input, { VERSION }] = await Promise.all([readStdin(), import('./version.js')]);
  setPrereadInput(input);
  const projectDir = agentProjectDir();
  const response = await ask(path, { version: VERSION, args, cwd: process.cwd(), ...(projectDir !== undefined ? { projectDir } : {}), input }, timeoutFrom(args) + MARGIN_MS);
  if (!response || 'refused' in response) return undefined;
  const write = (stream: NodeJS.WriteStream, text: string): Promise<void> => new Promise((ok) => (text === '' ? ok() : stream.write(text, () => ok())));
  await write(process.stdout, response.stdout);
  await write(process.stderr, response.stderr);
  return response.exitCode;
}
