import type { Api } from '../../../shared/contract/api';
import { eventNames, subscriberName, type EventName } from '../../../shared/contract/events';
import { requestNames } from '../../../shared/contract/channels';
import type { WireEvent, WireReply } from '../../../shared/contract/wire';
import { fail, type Result } from '../../../shared/result';

type Listener = (payload: unknown) => void;

const RECONNECT_DELAY_MS = 1000;

/**
 * The Api over the web shell's WebSocket. The access token travels as an HttpOnly cookie set by the
 * server, so this client never sees it. Requests made while disconnected wait for the next connection.
 */
export function createWebSocketApi(url: string): Api {
  let socket: WebSocket | null = null;
  let open: Promise<WebSocket> | null = null;
  let nextId = 1;
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<EventName, Set<Listener>>(eventNames.map((name) => [name, new Set<Listener>()]));

  function connect(): Promise<WebSocket> {
    open ??= new Promise<WebSocket>((resolve) => {
      const ws = new WebSocket(url);
      ws.addEventListener('open', () => {
        socket = ws;
        resolve(ws);
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
        open = null;
        for (const [id, settle] of pending) {
          settle(fail('INTERNAL', 'The connection to the server was lost'));
          pending.delete(id);
        }
        setTimeout(() => void connect(), RECONNECT_DELAY_MS);
      });
    });
    return open;
  }

  async function request(method: string, args: unknown): Promise<Result<unknown>> {
    const ws = socket ?? (await connect());
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
  void connect();
  return api as Api;
}
