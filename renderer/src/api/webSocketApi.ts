import type { Api } from '../../../shared/contract/api';
import { eventNames, subscriberName, type EventName } from '../../../shared/contract/events';
import { requestNames } from '../../../shared/contract/channels';
import { ACCESS_CHECK_PATH, TOKEN_PATTERN, TOKEN_PROTOCOL_PREFIX, WIRE_PROTOCOL } from '../../../shared/contract/webShellAccess';
// Types only: the schemas in wire.ts stay out of the renderer's bundle.
import type { WireEvent, WireHeartbeat, WireReply } from '../../../shared/contract/wire';
import { fail, type Result } from '../../../shared/result';
import { LivenessWatch } from './livenessWatch';
import { ReconnectLoop, type ConnectionState } from './reconnectLoop';

type Listener = (payload: unknown) => void;

/** Why the page cannot reach the engine: it has no token, or the server turned its token down. */
export type AccessProblem = 'missing' | 'refused';

const ACCESS_MESSAGES: Readonly<Record<AccessProblem, string>> = {
  missing: 'This page has no access token: open the URL that `ccmem serve` printed',
  refused: 'The server did not accept this page’s access token (it may have restarted): open the URL that `ccmem serve` printed',
};

const OFFLINE_MESSAGE = 'Lost the connection to ccmem serve: reconnecting. This is read again once it is back';
const DROPPED_MESSAGE = 'Lost the connection to ccmem serve before it answered; the page reads everything again once it is back';

export interface WebSocketApiOptions {
  /** The web shell's WebSocket URL on the page's own origin. */
  readonly url: string;
  /** The access token from the printed URL or session storage; null when this tab has none. */
  readonly token: string | null;
  /** Told once when the page cannot get in, so it can say what to do instead of retrying forever. */
  readonly onAccessProblem: (problem: AccessProblem) => void;
  /** Told at every change of the connection: the page shows a banner while it is lost. */
  readonly onConnectionChange: (state: ConnectionState) => void;
  /** Told when the connection is back after a loss: what the page shows is read again (events were missed). */
  readonly onReconnected: () => void;
}

export interface WebShellConnection {
  readonly api: Api;
  /** Tries to reconnect now instead of at the end of the current wait. */
  readonly retryNow: () => void;
}

/**
 * Whether the server turns this token down (true), or cannot be asked right now (false: it is down or restarting).
 * A browser hides why a WebSocket handshake failed, so the page asks the access check.
 */
async function tokenRefused(token: string): Promise<boolean> {
  try {
    const response = await fetch(ACCESS_CHECK_PATH, { headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' });
    return response.status === 401;
  } catch {
    return false;
  }
}

/**
 * The Api over the web shell's WebSocket. The token travels as a subprotocol on every connection (a page cannot set
 * a header on a WebSocket, and a cookie would reach every other service on this host). Requests made before the
 * first connection wait for it; once it is lost, requests fail at once (the page says why and reads everything again
 * when it is back) while the connection is retried with a growing wait. Without a token, or with one the server
 * refuses, requests fail at once and no connection is tried.
 */
export function createWebSocketApi(options: WebSocketApiOptions): WebShellConnection {
  const { url, token, onAccessProblem } = options;
  let socket: WebSocket | null = null;
  let problem: AccessProblem | null = token === null ? 'missing' : TOKEN_PATTERN.test(token) ? null : 'refused';
  let waiters: ((ws: WebSocket | null) => void)[] = [];
  let nextId = 1;
  let nextHeartbeat = 1;
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<EventName, Set<Listener>>(eventNames.map((name) => [name, new Set<Listener>()]));
  let attempt: WebSocket | null = null;

  const loop = new ReconnectLoop({
    open: () => {
      if (token !== null) connect(token);
    },
    abandon: () => {
      if (attempt) drop(attempt);
    },
    onChange: (state) => {
      if (state.status === 'offline') settleWaiters(null);
      options.onConnectionChange(state);
    },
    onReconnected: options.onReconnected,
  });

  const liveness = new LivenessWatch({
    probe: () => socket?.send(JSON.stringify({ heartbeat: nextHeartbeat++ } satisfies WireHeartbeat)),
    onSilent: () => {
      if (socket) drop(socket);
    },
  });

  function settleWaiters(ws: WebSocket | null): void {
    const settled = waiters;
    waiters = [];
    for (const settle of settled) settle(ws);
  }

  /** The open socket; before the first connection, once there is one; null when there is none to be had now. */
  function whenOpen(): Promise<WebSocket | null> {
    if (socket !== null) return Promise.resolve(socket);
    if (problem !== null || loop.current.status !== 'connecting') return Promise.resolve(null);
    return new Promise((resolve) => waiters.push(resolve));
  }

  /** Gives up one connection, once, whether it closed itself or went silent: pending requests fail, the loop retries. */
  function drop(ws: WebSocket): void {
    if (ws !== attempt) return;
    attempt = null;
    socket = null;
    liveness.stop();
    ws.close();
    for (const [id, settle] of pending) {
      settle(fail('UNAVAILABLE', DROPPED_MESSAGE));
      pending.delete(id);
    }
    loop.closed();
    if (token === null) return;
    void tokenRefused(token).then((refused) => {
      if (!refused || problem !== null) return;
      problem = 'refused';
      loop.stop();
      settleWaiters(null);
      onAccessProblem(problem);
    });
  }

  function connect(accessToken: string): void {
    const ws = new WebSocket(url, [WIRE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${accessToken}`]);
    attempt = ws;
    ws.addEventListener('open', () => {
      if (ws !== attempt) return;
      socket = ws;
      liveness.heard();
      loop.opened();
      settleWaiters(ws);
    });
    ws.addEventListener('message', (event) => {
      if (ws !== attempt) return;
      liveness.heard();
      const message = JSON.parse(String(event.data)) as Partial<WireReply & WireEvent>;
      if (typeof message.id === 'number') {
        pending.get(message.id)?.(message.result as Result<unknown>);
        pending.delete(message.id);
      } else if (typeof message.event === 'string') {
        for (const listener of listeners.get(message.event as EventName) ?? []) listener(message.payload);
      }
    });
    ws.addEventListener('close', () => drop(ws));
  }

  async function request(method: string, args: unknown): Promise<Result<unknown>> {
    const ws = await whenOpen();
    if (problem !== null) return fail('FORBIDDEN', ACCESS_MESSAGES[problem]);
    if (ws === null || ws.readyState !== WebSocket.OPEN) return fail('UNAVAILABLE', OFFLINE_MESSAGE);
    const id = nextId++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, args }));
    });
  }

  const api: Record<string, unknown> = {};
  for (const name of requestNames) api[name] = (args: unknown) => request(name, args);
  for (const name of eventNames) {
    api[subscriberName(name)] = (listener: Listener) => {
      listeners.get(name)?.add(listener);
      return () => listeners.get(name)?.delete(listener);
    };
  }
  if (problem !== null) onAccessProblem(problem);
  else {
    options.onConnectionChange(loop.current);
    loop.start();
  }
  return { api: api as Api, retryNow: () => loop.retryNow() };
}
