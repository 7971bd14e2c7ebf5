import { BrowserWindow, type BrowserWindowConstructorOptions } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the renderer comes from: electron-vite's dev server while developing, the built files otherwise. */
export type RendererSource = { readonly kind: 'devServer'; readonly url: string } | { readonly kind: 'file'; readonly path: string };

/**
 * Picks the renderer for this run. `ELECTRON_RENDERER_URL` is set by `electron-vite dev`; a packaged app
 * ignores it so an environment variable can never point the app's privileged window at another page.
 */
export function resolveRendererSource(env: NodeJS.ProcessEnv, isPackaged: boolean, mainDir: string): RendererSource {
  const devServerUrl = env.ELECTRON_RENDERER_URL?.trim();
  if (!isPackaged && devServerUrl) return { kind: 'devServer', url: devServerUrl };
  return { kind: 'file', path: join(mainDir, '../renderer/index.html') };
}

/** electron-vite puts the preload beside main's output, as CommonJS so it can run in a sandboxed renderer. */
export function preloadScriptPath(mainDir: string): string {
  return join(mainDir, '../preload/index.cjs');
}

/** Builds the test for "this URL is our renderer": the dev server's origin, or exactly our built index.html. */
export function rendererUrlMatcher(source: RendererSource): (url: string) => boolean {
  if (source.kind === 'devServer') {
    const origin = new URL(source.url).origin;
    return (url) => URL.canParse(url) && new URL(url).origin === origin;
  }
  return (url) => {
    if (!URL.canParse(url)) return false;
    const parsed = new URL(url);
    return parsed.protocol === 'file:' && parsed.host === '' && fileURLToPath(parsed) === source.path;
  };
}

/** The main window's options: a sandboxed, isolated renderer with no Node access and only our preload. */
export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 800,
    minHeight: 500,
    title: 'Claude Memory Manager',
    show: false,
    webPreferences: {
      preload: preloadPath,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}

/** Creates the main window, shows it once it has painted, and loads the renderer. */
export function createMainWindow(source: RendererSource, preloadPath: string): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(preloadPath));
  window.once('ready-to-show', () => window.show());
  const loading = source.kind === 'devServer' ? window.loadURL(source.url) : window.loadFile(source.path);
  // A failed load leaves a blank window; the reason belongs on the console, not in an unhandled rejection.
  loading.catch((error: unknown) => console.error('Could not load the renderer:', error));
  return window;
}
