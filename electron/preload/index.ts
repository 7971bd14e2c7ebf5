import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { Api, Unsubscribe } from '../../shared/contract/api';
import { requestNames } from '../../shared/contract/channels';
import { eventNames, subscriberName, type EventName, type EventPayloads } from '../../shared/contract/events';
import type { RequestArgs, RequestName, RequestResults } from '../../shared/contract/requests';
import type { Result } from '../../shared/result';

/** One request channel as a function: main answers with a Result envelope, so the promise never carries an Error. */
const invoker =
  <K extends RequestName>(name: K) =>
  (args: RequestArgs<K>): Promise<Result<RequestResults[K]>> =>
    ipcRenderer.invoke(name, args);

/** One event channel as a subscription that hands the listener only the payload, never the IPC event object. */
const subscriber =
  <E extends EventName>(event: E) =>
  (listener: (payload: EventPayloads[E]) => void): Unsubscribe => {
    const forward = (_event: IpcRendererEvent, payload: EventPayloads[E]): void => listener(payload);
    ipcRenderer.on(event, forward);
    return () => {
      ipcRenderer.removeListener(event, forward);
    };
  };

// Built from the contract's name lists, so the renderer's Api cannot drift from what main answers.
const api = {
  ...Object.fromEntries(requestNames.map((name) => [name, invoker(name)])),
  ...Object.fromEntries(eventNames.map((event) => [subscriberName(event), subscriber(event)])),
} as Api;

contextBridge.exposeInMainWorld('api', api);
