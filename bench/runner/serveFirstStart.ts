import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { TOKEN_PROTOCOL_PREFIX, WIRE_PROTOCOL } from '../../shared/contract/webShellAccess';
import { FIRST_LISTING_PAGE } from '../../shared/model/catalog';

export interface ServeFirstStartInput {
  /** The built `ccmem` (index.js). */
  readonly cli: string;
  readonly root: string;
  /** An empty app data folder. */
  readonly dataDir: string;
}

export interface ServeFirstStartOutput {
  /** The serving process's peak RSS (VmHWM) once its background work is done. */
  readonly peakRssMB: number;
}

const START_TIMEOUT_MS = 30_000;
const BACKGROUND_TIMEOUT_MS = 10 * 60 * 1000;
const POLL_MS = 250;

/** The process `ccmem serve` serves from: the one it started (see allocatorRelaunch.ts), or itself when it started none. Linux's /proc. */
function servingPid(launcherPid: number): number {
  const children = readFileSync(`/proc/${launcherPid}/task/${launcherPid}/children`, 'utf8').trim();
  return children === '' ? launcherPid : Number(children.split(/\s+/)[0]);
}

function peakRssMB(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmHWM for process ${pid}`);
  return (Number(match[1]) * 1024) / 1e6;
}

/** Requests over one WebSocket of the web shell, answered by id. */
class WireClient {
  private nextId = 1;
  private readonly waiting = new Map<number, (result: { ok: boolean; value?: unknown; error?: unknown }) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: { ok: boolean; value?: unknown; error?: unknown } };
      if (message.id === undefined || !message.result) return;
      this.waiting.get(message.id)?.(message.result);
      this.waiting.delete(message.id);
    });
  }

  static open(port: number, token: string): Promise<WireClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, [WIRE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`]);
      socket.once('open', () => resolve(new WireClient(socket)));
      socket.once('error', reject);
    });
  }

  request(method: string, args: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (result) =>
        result.ok ? resolve(result.value) : reject(new Error(`${method}: ${JSON.stringify(result.error)}`)),
      );
      this.socket.send(JSON.stringify({ id, method, args }));
    });
  }

  close(): void {
    this.socket.close();
  }
}

/**
 * `ccmem serve` as a user starts it on a home for the first time (empty app data): a page asks for the home and the
 * timeline's first page, as the browser does, and the server's background work that follows (catalog build, saved
 * line indexes, the archive's first run) is waited for; then the serving process's peak RSS is read and it is stopped.
 */
export async function measureServeFirstStart({ cli, root, dataDir }: ServeFirstStartInput): Promise<ServeFirstStartOutput> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0'], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: root, CCMEM_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let output = '';
    const url = await new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`ccmem serve did not start:\n${output}`)), START_TIMEOUT_MS);
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        const match = /Open: (\S+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(new URL(match[1]));
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`ccmem serve exited with ${code}:\n${output}`)));
    });
    const client = await WireClient.open(Number(url.port), url.searchParams.get('token') ?? '');
    try {
      await client.request('getHome', {});
      await client.request('getSessionCatalog', { limit: FIRST_LISTING_PAGE });
      const deadline = Date.now() + BACKGROUND_TIMEOUT_MS;
      // The archive's first run waits for the catalog build and the saved line indexes: its end is the background's.
      while (((await client.request('getArchiveStatus', {})) as { lastRunAt: string | null }).lastRunAt === null) {
        if (Date.now() > deadline) throw new Error('the archive’s first run did not finish');
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    } finally {
      client.close();
    }
    return { peakRssMB: peakRssMB(servingPid(child.pid as number)) };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  }
}
