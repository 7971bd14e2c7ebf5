import { EventEmitter } from 'node:events';
import { mkdtempSync, realpathSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IpcMainInvokeEvent } from 'electron';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { HomeSnapshot } from '../../../shared/model/home';
import type { Result } from '../../../shared/result';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';

type InvokeListener = (event: IpcMainInvokeEvent, args: unknown) => Promise<Result<unknown>>;

/** Just enough of Electron to run the composition root under Node. */
const electronMock = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events');
  const { pathToFileURL } = await import('node:url');

  class FakeWebContents extends EventEmitter {
    readonly sent: [string, unknown][] = [];
    mainFrame = { url: '', parent: null, processId: 3, routingId: 1 };
    send(channel: string, payload: unknown): void {
      this.sent.push([channel, payload]);
    }
    isDestroyed(): boolean {
      return false;
    }
  }

  class FakeBrowserWindow extends EventEmitter {
    static readonly created: FakeBrowserWindow[] = [];
    readonly webContents = new FakeWebContents();
    constructor(readonly options: unknown) {
      super();
      FakeBrowserWindow.created.push(this);
    }
    isDestroyed(): boolean {
      return false;
    }
    loadFile(path: string): Promise<void> {
      this.webContents.mainFrame.url = pathToFileURL(path).href;
      this.webContents.emit('did-start-loading');
      return Promise.resolve();
    }
    loadURL(url: string): Promise<void> {
      this.webContents.mainFrame.url = url;
      return Promise.resolve();
    }
  }

  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    paths: new Map<string, string>(),
    setPath(name: string, value: string) {
      app.paths.set(name, value);
    },
    getPath(name: string) {
      const path = app.paths.get(name);
      if (path === undefined) throw new Error(`no fake path for ${name}`);
      return path;
    },
    getAppPath: () => '/nonexistent/app',
    enableSandbox: vi.fn(),
    whenReady: () => Promise.resolve(),
    quit: vi.fn(),
    exit: vi.fn(),
  });

  return {
    app,
    FakeBrowserWindow,
    ipcHandlers: new Map<string, InvokeListener>(),
    session: {
      webRequest: { onHeadersReceived: vi.fn() },
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      setDevicePermissionHandler: vi.fn(),
    },
  };
});

vi.mock('electron', () => ({
  app: electronMock.app,
  BrowserWindow: electronMock.FakeBrowserWindow,
  session: { defaultSession: electronMock.session },
  shell: { openExternal: vi.fn() },
  Notification: { isSupported: () => false },
  ipcMain: {
    handle: (channel: string, listener: InvokeListener) => electronMock.ipcHandlers.set(channel, listener),
    removeHandler: (channel: string) => electronMock.ipcHandlers.delete(channel),
  },
}));

let home: ScenarioHome;
let dataDir: string;
let projectCwd: string;

beforeAll(async () => {
  home = await createScenarioHome({ prefix: 'ccmem-main-' });
  projectCwd = home.workPath('webshop');
  await home.project(projectCwd).session({ title: 'Add a cart page' });
  dataDir = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-main-data-')));
  vi.stubEnv('CLAUDE_CONFIG_DIR', home.root);
  vi.stubEnv('CCMEM_DATA_DIR', dataDir);
  vi.stubEnv('ELECTRON_RENDERER_URL', '');
  await import('../../../electron/main/index');
  // `start` builds the engine (and its watcher) before it opens the window.
  await vi.waitFor(() => expect(electronMock.FakeBrowserWindow.created.length).toBe(1), { timeout: 5000 });
});

afterAll(async () => {
  // An earlier test closed the last window, which called quit already; only the call after will-quit counts here.
  electronMock.app.quit.mockClear();
  electronMock.app.emit('will-quit', { preventDefault: vi.fn() });
  // The app quits for real only once the engine has closed its watchers and history writes.
  await vi.waitFor(() => expect(electronMock.app.quit).toHaveBeenCalled(), { timeout: 10_000 });
  vi.unstubAllEnvs();
  await home.cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

function mainWindow(): InstanceType<typeof electronMock.FakeBrowserWindow> {
  const [window] = electronMock.FakeBrowserWindow.created;
  return window;
}

function fromMainFrame(): IpcMainInvokeEvent {
  const contents = mainWindow().webContents;
  return { sender: contents, senderFrame: contents.mainFrame } as unknown as IpcMainInvokeEvent;
}

function invoke(name: string, event: IpcMainInvokeEvent, args: unknown = {}): Promise<Result<unknown>> {
  const listener = electronMock.ipcHandlers.get(name);
  if (!listener) throw new Error(`no handler for ${name}`);
  return listener(event, args);
}

describe('the Electron composition root', () => {
  it('keeps all app data in CCMEM_DATA_DIR and sandboxes every renderer before the app is ready', () => {
    expect(electronMock.app.getPath('userData')).toBe(dataDir);
    expect(electronMock.app.enableSandbox).toHaveBeenCalled();
    expect(electronMock.app.listenerCount('web-contents-created')).toBe(1);
  });

  it('applies the packaged CSP and denies permissions on the default session', () => {
    expect(electronMock.session.webRequest.onHeadersReceived).toHaveBeenCalledTimes(1);
    expect(electronMock.session.setPermissionRequestHandler).toHaveBeenCalledTimes(1);
    expect(electronMock.session.setPermissionCheckHandler).toHaveBeenCalledTimes(1);
  });

  it('opens one hardened window on the built renderer', () => {
    expect(electronMock.FakeBrowserWindow.created).toHaveLength(1);
    expect(mainWindow().options).toMatchObject({ webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false } });
    expect(mainWindow().webContents.mainFrame.url).toBe(
      pathToFileURL(join(import.meta.dirname, '../../../electron/renderer/index.html')).href,
    );
  });

  it('serves the home from CLAUDE_CONFIG_DIR to the window, as the Electron shell', async () => {
    const result = await invoke('getHome', fromMainFrame());
    expect(result.ok).toBe(true);
    const snapshot = (result as { value: HomeSnapshot }).value;
    expect(snapshot).toMatchObject({ shell: 'electron', readOnly: false, dataDir, empty: false });
    expect(snapshot.projects.map((project) => project.path)).toEqual([projectCwd]);
  });

  it('refuses requests from any other sender', async () => {
    const stranger = {
      sender: new EventEmitter(),
      senderFrame: { url: 'https://evil.example/', parent: null, processId: 9, routingId: 1 },
    };
    await expect(invoke('getHome', stranger as unknown as IpcMainInvokeEvent)).resolves.toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
  });

  it('holds engine events until the renderer is ready, then delivers them', async () => {
    const sent = mainWindow().webContents.sent;
    await invoke('refreshHome', fromMainFrame());
    expect(sent).toEqual([]);
    await expect(invoke('rendererReady', fromMainFrame())).resolves.toEqual({ ok: true, value: null });
    // The first start's discovery streamed its parts (held as well), then the whole home; last, the refresh's.
    const held = sent.map(([channel, payload]) => [channel, (payload as HomeSnapshot).discovering === null]);
    expect(held.slice(-2)).toEqual([
      ['homeChanged', true],
      ['homeChanged', true],
    ]);
    expect(held.every(([channel]) => channel === 'homeChanged')).toBe(true);
    await invoke('refreshHome', fromMainFrame());
    expect(sent.map(([channel]) => channel)).toEqual([...held.map(([channel]) => channel), 'homeChanged']);
  });

  it('quits when the last window closes, except on macOS', () => {
    electronMock.app.emit('window-all-closed');
    expect(electronMock.app.quit).toHaveBeenCalledTimes(process.platform === 'darwin' ? 0 : 1);
  });
});
