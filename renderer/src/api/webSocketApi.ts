import type { Api } from '../../../shared/contract/api';
import { eventNames, subscriberName, type EventName } from '../../../shared/contract/events';
import { requestNames } from '../../../shared/contract/channels';
import { ACCESS_CHECK_PATH, TOKEN_PATTERN, TOKEN_PROTOCOL_PREFIX, WIRE_PROTOCOL } from '../../../shared/contract/webShellAccess';
// Types only: the schemas in wire.ts stay out of the renderer's bundle.
import type { WireEvent, WireReply } from '../../../shared/contract/wire';
import { fail, type Result } from '../../../shared/result';

type Listener = (payload: unknown) => void;

const RECONNECT_DELAY_MS = 1000;

/** Why the page cannot reach the engine: it has no token, or the server turned its token down. */
export type AccessProblem = 'missing' | 'refused';

const ACCESS_MESSAGES: Readonly<Record<AccessProblem, string>> = {
  missing: 'This page has no access token: open the URL that `ccmem serve` printed',
  refused: 'The server did not accept this page’s access token (it may have restarted): open the URL that `ccmem serve` printed',
};

export interface WebSocketApiOptions {
  /** The web shell's WebSocket URL on the page's own origin. */
  readonly url: string;
  /** The access token from the printed URL or session storage; null when this tab has none. */
  readonly token: string | null;
  /** Told once when the page cannot get in, so it can say what to do instead of retrying forever. */
  readonly onAccessProblem: (problem: AccessProblem) => void;
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
 * a header on a WebSocket, and a cookie would reach every other service on this host). Requests made while
 * disconnected wait for the next connection; without a token, or with one the server refuses, they fail at once.
 */
export function createWebSocketApi({ url, token, onAccessProblem }: WebSocketApiOptions): Api {
  let socket: WebSocket | null = null;
  let problem: AccessProblem | null = token === null ? 'missing' : TOKEN_PATTERN.test(token) ? null : 'refused';
  let waiters: ((ws: WebSocket | null) => void)[] = [];
  let nextId = 1;
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<EventName, Set<Listener>>(eventNames.map((name) => [name, new Set<Listener>()]));

  function settleWaiters(ws: WebSocket | null): void {
    const settled = waiters;
    waiters = [];
    for (const settle of settled) settle(ws);
  }

  /** The open socket, once there is one; null when the page cannot get in. */
  function whenOpen(): Promise<WebSocket | null> {
    if (socket !== null) return Promise.resolve(socket);
    if (problem !== null) return Promise.resolve(null);
    return new Promise((resolve) => waiters.push(resolve));
  }

  function connect(accessToken: string): void {
    const ws = new WebSocket(url, [WIRE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${accessToken}`]);
    ws.addEventListener('open', () => {
      socket = ws;
      settleWaiters(ws);
    });
    ws.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as Partial<WireReply & WireEvent>;
      if (typeof message.id === 'number') {
        pending.get(message.id)?.(message.result as Result<unknown>);
        pending.delete(message.id);
      } else if (typeof message.event === 'string') {
        for (const listener of listeners.get(message.event as EventName) ?? []) listener(message.payload);
      }
    });
    ws.addEventListener('close', () => {
      socket = null;
      for (const [id, settle] of pending) {
        settle(fail('INTERNAL', 'The connection to the server was lost'));
        pending.delete(id);
      }
      void tokenRefused(accessToken).then((refused) => {
        if (!refused) {
          setTimeout(() => connect(accessToken), RECONNECT_DELAY_MS);
          return;
        }
        problem = 'refused';
        settleWaiters(null);
        onAccessProblem(problem);
      });
    });
  }

  async function request(method: string, args: unknown): Promise<Result<unknown>> {
    const ws = await whenOpen();
    if (ws === null) return fail('FORBIDDEN', ACCESS_MESSAGES[problem ?? 'refused']);
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
  if (problem !== null || token === null) onAccessProblem(problem ?? 'missing');
  else connect(token);
  return api as Api;
}
