import type { BrowserWindow, IpcMainInvokeEvent, WebContents } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestHandlers } from '../../../shared/contract/api';
import { requestNames } from '../../../shared/contract/channels';
import type { HomeSnapshot } from '../../../shared/model/home';

type InvokeListener = (event: IpcMainInvokeEvent, args: unknown) => Promise<unknown>;

const electronMock = vi.hoisted(() => ({ handlers: new Map<string, InvokeListener>() }));

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, listener: InvokeListener) => {
      if (electronMock.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      electronMock.handlers.set(channel, listener);
    },
    removeHandler: (channel: string) => electronMock.handlers.delete(channel),
  },
}));

const { EventBridge, bindRequestHandlers, mainFrameSenderCheck } = await import('../../../electron/main/ipc');

const rendererUrl = 'file:///opt/app/out/renderer/index.html';
const isRendererUrl = (url: string): boolean => url.split('#')[0] === rendererUrl;

interface FakeFrame {
  readonly url: string;
  readonly parent: FakeFrame | null;
  readonly processId: number;
  readonly routingId: number;
}

function fakeWindow(): BrowserWindow {
  const mainFrame: FakeFrame = { url: rendererUrl, parent: null, processId: 7, routingId: 1 };
  return { isDestroyed: () => false, webContents: { mainFrame } } as unknown as BrowserWindow;
}

function invokeEvent(sender: unknown, senderFrame: FakeFrame | null): IpcMainInvokeEvent {
  return { sender, senderFrame } as unknown as IpcMainInvokeEvent;
}

const snapshot = { projects: [] } as unknown as HomeSnapshot;

/** A handler for every request the contract names, built from its list so a new request needs no edit here; only the few these tests call answer. */
function fakeHandlers(): RequestHandlers {
  const unused = Object.fromEntries(requestNames.map((name) => [name, vi.fn(() => Promise.reject(new Error(`${name}: not used`)))]));
  return {
    ...unused,
    getHome: vi.fn(() => Promise.resolve(snapshot)),
    refreshHome: vi.fn(() => Promise.resolve(snapshot)),
    listSessions: vi.fn(() => Promise.resolve([])),
  } as unknown as RequestHandlers;
}

describe('bindRequestHandlers', () => {
  let handlers: RequestHandlers;
  let window: BrowserWindow;
  let unbind: () => void;

  beforeEach(() => {
    electronMock.handlers.clear();
    handlers = fakeHandlers();
    window = fakeWindow();
    unbind = bindRequestHandlers(
      handlers,
      mainFrameSenderCheck(() => window, isRendererUrl),
    );
  });

  const call = (name: string, event: IpcMainInvokeEvent, args: unknown): Promise<unknown> => {
    const listener = electronMock.handlers.get(name);
    if (!listener) throw new Error(`no handler for ${name}`);
    return listener(event, args);
  };
  const fromMainFrame = (): IpcMainInvokeEvent => invokeEvent(window.webContents, window.webContents.mainFrame as unknown as FakeFrame);

  it('registers exactly one handler per request channel, and removes them again', () => {
    expect([...electronMock.handlers.keys()].sort()).toEqual([...requestNames].sort());
    unbind();
    expect(electronMock.handlers.size).toBe(0);
  });

  it('answers our main frame with a Result envelope', async () => {
    await expect(call('getHome', fromMainFrame(), {})).resolves.toEqual({ ok: true, value: snapshot });
    await expect(call('getHome', fromMainFrame(), undefined)).resolves.toEqual({ ok: true, value: snapshot });
    expect(handlers.getHome).toHaveBeenCalledTimes(2);
  });

  it('refuses a subframe, another window, a foreign page and a vanished frame without running the handler', async () => {
    const mainFrame = window.webContents.mainFrame as unknown as FakeFrame;
    const strangers = [
      invokeEvent(window.webContents, { url: rendererUrl, parent: mainFrame, processId: 7, routingId: 2 }),
      invokeEvent({ mainFrame }, mainFrame),
      invokeEvent(window.webContents, { ...mainFrame, url: 'https://evil.example/' }),
      invokeEvent(window.webContents, { ...mainFrame, processId: 8 }),
      invokeEvent(window.webContents, null),
    ];
    for (const event of strangers) {
      const result = await call('refreshHome', event, {});
      expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect(handlers.refreshHome).not.toHaveBeenCalled();
  });

  it('refuses everything once the window is gone', async () => {
    window = { ...window, isDestroyed: () => true } as BrowserWindow;
    await expect(call('getHome', fromMainFrame(), {})).resolves.toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(handlers.getHome).not.toHaveBeenCalled();
  });

  it('answers invalid arguments with INVALID_INPUT without running the handler', async () => {
    for (const args of [{}, { configRoot: '/home/me/.claude', slug: '../escape' }, 'nonsense', { configRoot: '/x', slug: 'a', extra: 1 }]) {
      await expect(call('listSessions', fromMainFrame(), args)).resolves.toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    }
    expect(handlers.listSessions).not.toHaveBeenCalled();
  });

  it('turns a handler failure into an error envelope instead of a rejected invoke', async () => {
    const result = await call('listMemoryFiles', fromMainFrame(), { configRoot: '/home/me/.claude', slug: '-home-me-project' });
    expect(result).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'listMemoryFiles: not used' } });
  });
});

describe('EventBridge', () => {
  function fakeTarget(): { contents: WebContents; send: ReturnType<typeof vi.fn>; destroy: () => void } {
    let destroyed = false;
    const send = vi.fn();
    const contents = { send, isDestroyed: () => destroyed } as unknown as WebContents;
    return { contents, send, destroy: () => (destroyed = true) };
  }

  const home = (tag: string): HomeSnapshot => ({ dataDir: tag }) as unknown as HomeSnapshot;

  it('queues events until the renderer is ready, then flushes them in order and goes live', () => {
    const target = fakeTarget();
    const bridge = new EventBridge(() => target.contents);
    bridge.send('homeChanged', home('first'));
    bridge.send('homeChanged', home('second'));
    expect(target.send).not.toHaveBeenCalled();

    bridge.markReady();
    expect(target.send.mock.calls).toEqual([
      ['homeChanged', home('first')],
      ['homeChanged', home('second')],
    ]);

    bridge.send('homeChanged', home('third'));
    expect(target.send).toHaveBeenLastCalledWith('homeChanged', home('third'));
    expect(target.send).toHaveBeenCalledTimes(3);
  });

  it('queues again after a reload until the renderer is ready once more', () => {
    const target = fakeTarget();
    const bridge = new EventBridge(() => target.contents);
    bridge.markReady();
    bridge.markNotReady();
    bridge.send('homeChanged', home('during reload'));
    expect(target.send).not.toHaveBeenCalled();
    bridge.markReady();
    expect(target.send).toHaveBeenCalledWith('homeChanged', home('during reload'));
  });

  it('drops events while there is no live window instead of throwing', () => {
    const target = fakeTarget();
    let current: WebContents | null = null;
    const bridge = new EventBridge(() => current);
    bridge.markReady();
    expect(() => bridge.send('homeChanged', home('no window'))).not.toThrow();
    current = target.contents;
    target.destroy();
    bridge.send('homeChanged', home('destroyed'));
    expect(target.send).not.toHaveBeenCalled();
  });

  it('keeps only the newest events when the renderer never becomes ready', () => {
    const target = fakeTarget();
    const bridge = new EventBridge(() => target.contents);
    for (let i = 0; i < 1500; i++) bridge.send('homeChanged', home(String(i)));
    bridge.markReady();
    expect(target.send).toHaveBeenCalledTimes(1000);
    expect(target.send.mock.calls[0]).toEqual(['homeChanged', home('500')]);
    expect(target.send).toHaveBeenLastCalledWith('homeChanged', home('1499'));
  });
});
