/**
 * Where `shellward serve` listens and how a client makes sure the socket is this user's: a Unix
 * socket `hook.sock` in `$XDG_RUNTIME_DIR/shellward/` (the per-user runtime directory of the XDG
 * Base Directory specification, mode 0700), else in `<os.tmpdir()>/shellward-<uid>/`, created
 * with mode 0700; `SHELLWARD_SOCKET` names another path. A directory or socket that another user
 * owns, or that others may write to, is refused: whoever controls the socket controls every answer.
 */
import { lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** This process's user id (`-1` where the platform has none: Windows). */
export function currentUid(): number {
  return typeof process.getuid === 'function' ? process.getuid() : -1;
}

/** The directory of the default socket (see the module comment). */
export function socketDir(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime?.startsWith('/')) return join(runtime, 'shellward');
  return join(tmpdir(), `shellward-${currentUid()}`);
}

/** The socket path: `SHELLWARD_SOCKET`, else `hook.sock` in {@link socketDir}. */
export function socketPath(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env.SHELLWARD_SOCKET;
  return explicit && explicit !== '' ? explicit : join(socketDir(env), 'hook.sock');
}

/**
 * Why `path` (a directory, or with `socket` a socket) is not safe to trust, or `undefined` when
 * it is: it must exist, be of that type, be owned by this user, and be writable by nobody else.
 */
export function unsafeBecause(path: string, socket: boolean): string | undefined {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(path);
  } catch (err) {
    return `${path}: ${(err as NodeJS.ErrnoException).code ?? 'cannot be read'}`;
  }
  if (socket ? !st.isSocket() : !st.isDirectory()) return `${path} is not a ${socket ? 'socket' : 'directory'}`;
  const uid = currentUid();
  if (uid !== -1 && st.uid !== uid) return `${path} belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o022) !== 0) return `${path} is writable by other users (mode ${(st.mode & 0o777).toString(8)})`;
  return undefined;
}

/** Why the socket at `path` and its directory are not to be trusted, or `undefined`. */
export function socketUnsafeBecause(path: string): string | undefined {
  return unsafeBecause(dirname(path), false) ?? unsafeBecause(path, true);
}

/** One request of the client to the server: JSON on one line, then the client ends its side. */
export interface ServeRequest {
  /** The client's shellward version: a server of another version refuses to answer. */
  readonly version: string;
  /** The arguments after `shellward hook`. */
  readonly args: readonly string[];
  /** The client's working directory (absolute). */
  readonly cwd: string;
  /** The agent's project directory from the client's environment ({@link agentProjectDir}), when set. */
  readonly projectDir?: string;
  /** The hook event, as read from the client's stdin. */
  readonly input: string;
}

/**
 * The project directory the agent session was started in, as the agent tells its hooks:
 * `CLAUDE_PROJECT_DIR` (Claude Code, https://docs.anthropic.com/en/docs/claude-code/hooks),
 * else `GEMINI_PROJECT_DIR` (Gemini CLI, https://github.com/google-gemini/gemini-cli/blob/main/docs/hooks/index.md);
 * only an absolute path counts. `undefined` when neither is set (Codex CLI sets none).
 */
export function agentProjectDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const v of [env.CLAUDE_PROJECT_DIR, env.GEMINI_PROJECT_DIR]) if (v?.startsWith('/')) return v;
  return undefined;
}

/** The server's answer: the reply to write, or a refusal (another version, a bad request). */
export type ServeResponse =
  | { readonly stdout: string; readonly stderr: string; readonly exitCode: number }
  | { readonly refused: string };
