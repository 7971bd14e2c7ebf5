import type { Result } from '../result';
import type { EventName, EventPayloads, SubscriberName } from './events';
import type { RequestArgs, RequestName, RequestResults } from './requests';

export type Unsubscribe = () => void;

type Invokers = {
  readonly [K in RequestName]: (args: RequestArgs<K>) => Promise<Result<RequestResults[K]>>;
};

type Subscribers = {
  readonly [E in EventName as SubscriberName<E>]: (listener: (payload: EventPayloads[E]) => void) => Unsubscribe;
};

/** The renderer's whole view of the engine, derived from the contract (preload in Electron, WebSocket in a browser). */
export type Api = Invokers & Subscribers;

/** What one shell implements: one async function per request, returning a plain value or throwing a CodedError. */
export type RequestHandlers = {
  readonly [K in RequestName]: (args: RequestArgs<K>) => Promise<RequestResults[K]>;
};
