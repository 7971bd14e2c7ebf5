import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const electronMock = vi.hoisted(() => {
  class FakeBrowserWindow {
    static created: FakeBrowserWindow[] = [];
    readonly loadURL = vi.fn(() => Promise.resolve());
    readonly loadFile = vi.fn(() => Promise.resolve());
    readonly once = vi.fn();
    constructor(readonly options: unknown) {
      FakeBrowserWindow.created.push(this);
    }
  }
  return { FakeBrowserWindow };
});

vi.mock('electron', () => ({ BrowserWindow: electronMock.FakeBrowserWindow }));

const { createMainWindow, mainWindowOptions, preloadScriptPath, rendererUrlMatcher, resolveRendererSource } =
  await import('../../../electron/main/window');

const mainDir = join('/opt', 'app', 'out', 'main');
const builtIndex = join('/opt', 'app', 'out', 'renderer', 'index.html');

describe('mainWindowOptions', () => {
  it('runs the renderer sandboxed and isolated, without Node, with web security and only our preload', () => {
    const preload = preloadScriptPath(mainDir);
    const prefs = mainWindowOptions(preload).webPreferences;
    expect(prefs).toMatchObject({
      preload: join('/opt', 'app', 'out', 'preload', 'index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});

describe('resolveRendererSource', () => {
  it('uses the dev server URL while developing', () => {
    expect(resolveRendererSource({ ELECTRON_RENDERER_URL: 'http://localhost:5173' }, false, mainDir)).toEqual({
      kind: 'devServer',
      url: 'http://localhost:5173',
    });
  });

  it('ignores the dev server URL in a packaged app and loads the built index.html', () => {
    expect(resolveRendererSource({ ELECTRON_RENDERER_URL: 'https://evil.example' }, true, mainDir)).toEqual({
      kind: 'file',
      path: builtIndex,
    });
  });

  it('loads the built index.html when no dev server runs', () => {
    expect(resolveRendererSource({}, false, mainDir)).toEqual({ kind: 'file', path: builtIndex });
  });
});

describe('rendererUrlMatcher', () => {
  it('accepts only the dev server origin', () => {
    const matches = rendererUrlMatcher({ kind: 'devServer', url: 'http://localhost:5173' });
    expect(matches('http://localhost:5173/')).toBe(true);
    expect(matches('http://localhost:5173/index.html#/memory')).toBe(true);
    expect(matches('http://localhost:5174/')).toBe(false);
    expect(matches('https://localhost:5173/')).toBe(false);
    expect(matches('not a url')).toBe(false);
  });

  it('accepts only the built index.html among file URLs, whatever its hash', () => {
    const matches = rendererUrlMatcher({ kind: 'file', path: builtIndex });
    const indexUrl = pathToFileURL(builtIndex).href;
    expect(matches(indexUrl)).toBe(true);
    expect(matches(`${indexUrl}#/sessions`)).toBe(true);
    expect(matches(pathToFileURL(join('/tmp', 'index.html')).href)).toBe(false);
    expect(matches('https://example.com/index.html')).toBe(false);
    expect(matches('about:blank')).toBe(false);
  });
});

describe('createMainWindow', () => {
  beforeEach(() => {
    electronMock.FakeBrowserWindow.created.length = 0;
  });

  it('loads the dev server URL', () => {
    createMainWindow({ kind: 'devServer', url: 'http://localhost:5173' }, preloadScriptPath(mainDir));
    const [window] = electronMock.FakeBrowserWindow.created;
    expect(window.loadURL).toHaveBeenCalledWith('http://localhost:5173');
    expect(window.loadFile).not.toHaveBeenCalled();
  });

  it('loads the built renderer from disk with the hardened options', () => {
    const preload = preloadScriptPath(mainDir);
    createMainWindow({ kind: 'file', path: builtIndex }, preload);
    const [window] = electronMock.FakeBrowserWindow.created;
    expect(window.loadFile).toHaveBeenCalledWith(builtIndex);
    expect(window.options).toEqual(mainWindowOptions(preload));
  });
});
