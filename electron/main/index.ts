import { app, session, type BrowserWindow } from 'electron';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RequestHandlers } from '../../shared/contract/api';
import { bundledScanWorkerScript } from '../core/catalog/scanWorkerScript';
import { createEngine } from '../core/engine';
import { configRootsFromEnv } from '../core/layout/configRoots';
import { llmEnvironmentFrom } from '../core/settings/LlmSettingsService';
import { bindRequestHandlers, EventBridge, mainFrameSenderCheck } from './ipc';
import { notifyInboxArrivals } from './inboxNotifier';
import { KeychainSecretStore } from './secretStore';
import { resumeRequestHandlers, TerminalLauncher } from './terminalLauncher';
import { applyContentSecurityPolicy, buildContentSecurityPolicy, denyAllPermissions, lockDownAllWebContents } from './security';
import { createMainWindow, preloadScriptPath, rendererUrlMatcher, resolveRendererSource } from './window';

// Tests isolate everything the app stores, the engine's data and Chromium's profile alike, by pointing userData at a temp dir.
const dataDirOverride = process.env.CCMEM_DATA_DIR?.trim();
if (dataDirOverride) app.setPath('userData', resolve(dataDirOverride));

app.enableSandbox();
lockDownAllWebContents(app);

const rendererSource = resolveRendererSource(process.env, app.isPackaged, import.meta.dirname);
const preloadPath = preloadScriptPath(import.meta.dirname);
let mainWindow: BrowserWindow | null = null;

/** The sample home shipped as an extra resource (see electron-builder), or null when this build has none. */
function findDemoHomeSource(): string | null {
  const folder = app.isPackaged ? join(process.resourcesPath, 'demo-home') : join(app.getAppPath(), 'resources', 'demo-home');
  return existsSync(folder) ? folder : null;
}

async function start(): Promise<void> {
  const policy = buildContentSecurityPolicy(rendererSource.kind === 'devServer' ? rendererSource.url : null);
  applyContentSecurityPolicy(session.defaultSession, policy);
  denyAllPermissions(session.defaultSession);

  const engine = await createEngine({
    roots: configRootsFromEnv(),
    dataDir: app.getPath('userData'),
    demoHomeSource: findDemoHomeSource(),
    shell: 'electron',
    readOnly: false,
    watch: true,
    // Under `npm run dev` the engine's sources are rebuilt as they change but the worker bundle is not: one thread.
    catalogScanWorker: rendererSource.kind === 'devServer' ? null : bundledScanWorkerScript(import.meta.dirname),
    // The desktop keeps a typed key in the OS keychain; ANTHROPIC_API_KEY is for the CLI and the web shell. It alone
    // saves a base URL, after the person confirmed the host their key will go to.
    llm: {
      secrets: new KeychainSecretStore(join(app.getPath('userData'), 'anthropic-api-key.enc')),
      environment: llmEnvironmentFrom(process.env, { useApiKey: false, useSavedBaseUrl: true }),
    },
  });
  const bridge = new EventBridge(() => mainWindow?.webContents ?? null);
  const stopForwarding = engine.subscribe((event, payload) => bridge.send(event, payload));
  const terminal = new TerminalLauncher({
    settingsFile: join(app.getPath('userData'), 'terminal.json'),
    platform: process.platform,
    spawn,
  });
  const handlers: RequestHandlers = {
    ...engine.handlers,
    ...resumeRequestHandlers(terminal, engine.transcripts),
    rendererReady: () => {
      bridge.markReady();
      return Promise.resolve(null);
    },
  };
  const unbindRequests = bindRequestHandlers(
    handlers,
    mainFrameSenderCheck(() => mainWindow, rendererUrlMatcher(rendererSource)),
  );

  const openMainWindow = (): void => {
    const window = createMainWindow(rendererSource, preloadPath);
    // A (re)load drops the renderer's subscriptions, so events wait until it says it is ready again.
    window.webContents.on('did-start-loading', () => bridge.markNotReady());
    window.on('closed', () => {
      bridge.markNotReady();
      if (mainWindow === window) mainWindow = null;
    });
    mainWindow = window;
  };
  openMainWindow();
  const stopNotifying = notifyInboxArrivals(engine.inbox, () => {
    if (mainWindow === null) openMainWindow();
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.show();
    mainWindow?.focus();
  });

  // macOS keeps the app running without windows; clicking the dock icon brings the window back.
  app.on('activate', () => {
    if (mainWindow === null) openMainWindow();
  });
  // Quitting waits for the engine to close its watchers and finish history writes, then quits for real.
  let engineDisposed = false;
  app.on('will-quit', (event) => {
    if (engineDisposed) return;
    event.preventDefault();
    unbindRequests();
    stopForwarding();
    stopNotifying();
    void engine.dispose().finally(() => {
      engineDisposed = true;
      app.quit();
    });
  });
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app
  .whenReady()
  .then(start)
  .catch((error: unknown) => {
    console.error('Claude Memory Manager could not start:', error);
    app.exit(1);
  });
