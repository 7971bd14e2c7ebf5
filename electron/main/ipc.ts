import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent, type WebContents } from 'electron';
import type { RequestHandlers } from '../../shared/contract/api';
import { SHELL_CAPABILITIES } from '../../shared/contract/capabilities';
import { requestNames } from '../../shared/contract/channels';
import { dispatchRequest } from '../../shared/contract/dispatch';
import type { EventName, EventPayloads } from '../../shared/contract/events';
import { fail, type Result } from '../../shared/result';

/** Decides whether an IPC message comes from a page we trust to drive the engine. */
export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

/**
 * Trusts only the main frame of the app's own window, and only while it shows our renderer: a subframe,
 * another window, or the window after some other page got into it are all refused.
 */
export function mainFrameSenderCheck(getWindow: () => BrowserWindow | null, isRendererUrl: (url: string) => boolean): SenderCheck {
  return (event) => {
    const window = getWindow();
    const frame = event.senderFrame;
    if (window === null || window.isDestroyed() || frame === null) return false;
    const mainFrame = window.webContents.mainFrame;
    return (
      event.sender === window.webContents &&
      frame.parent === null &&
      frame.processId === mainFrame.processId &&
      frame.routingId === mainFrame.routingId &&
      isRendererUrl(frame.url)
    );
  };
}

/**
 * Answers every request channel of the contract. Each message is checked against `isTrustedSender` before
 * anything else, then validated and run by the shared dispatcher; the reply is always a Result envelope.
 * Returns a function that removes the handlers again.
 */
export function bindRequestHandlers(handlers: RequestHandlers, isTrustedSender: SenderCheck): () => void {
  // The desktop app is the user's own window on their own machine: it may do everything (see capabilities.ts).
  const capabilities = new Set(SHELL_CAPABILITIES);
  for (const name of requestNames) {
    ipcMain.handle(name, (event, args: unknown): Promise<Result<unknown>> => {
      if (!isTrustedSender(event)) return Promise.resolve(fail('FORBIDDEN', `${name} was sent by a frame this app did not create`));
      return dispatchRequest(handlers, name, args, { readOnly: false, capabilities });
    });
  }
  return () => {
    for (const name of requestNames) ipcMain.removeHandler(name);
  };
}

interface QueuedEvent {
  readonly event: EventName;
  readonly payload: unknown;
}

/** Events waiting for a renderer that never becomes ready must not grow without bound; the newest are kept. */
const MAX_QUEUED_EVENTS = 1000;

/**
 * Carries engine events to the renderer. Until the renderer says it is ready (its subscriptions exist), events
 * are queued and then delivered in order; after that they are sent as they happen. A reload starts over.
 */
export class EventBridge {
  private ready = false;
  private queue: QueuedEvent[] = [];

  constructor(private readonly getTarget: () => WebContents | null) {}

  send<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    if (!this.ready) {
      this.queue.push({ event, payload });
      if (this.queue.length > MAX_QUEUED_EVENTS) this.queue.shift();
      return;
    }
    this.deliver(event, payload);
  }

  /** The renderer's subscriptions are in place: flush what was queued, then go live. */
  markReady(): void {
    this.ready = true;
    const queued = this.queue;
    this.queue = [];
    for (const { event, payload } of queued) this.deliver(event, payload);
  }

  /** The renderer is (re)loading and has no subscriptions yet: queue again until it says it is ready. */
  markNotReady(): void {
    this.ready = false;
  }

  private deliver(event: EventName, payload: unknown): void {
    const target = this.getTarget();
    if (target !== null && !target.isDestroyed()) target.send(event, payload);
  }
}
