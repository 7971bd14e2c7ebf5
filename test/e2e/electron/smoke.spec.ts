import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import type { WebPreferences } from 'electron';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sanitizePathPrefix } from '../../../shared/claude/sanitizePath';

const mainEntry = fileURLToPath(new URL('../../../out/main/index.js', import.meta.url));

type ElectronBinary = { readonly found: true; readonly path: string } | { readonly found: false; readonly reason: string };

/**
 * Where an Electron binary is installed, the electron package records it in `path.txt` (or the user points
 * ELECTRON_OVERRIDE_DIST_PATH at one). Without either, `require('electron')` would try to download one,
 * which a test must not do, so the suite skips instead.
 */
function findElectronBinary(): ElectronBinary {
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve('electron/package.json'));
  if (!process.env.ELECTRON_OVERRIDE_DIST_PATH && !existsSync(join(packageDir, 'path.txt'))) {
    return {
      found: false,
      reason:
        'node_modules/electron holds no downloaded binary (no path.txt); it downloads on the first `npm start` where the internet is reachable',
    };
  }
  try {
    const binary: unknown = require('electron');
    if (typeof binary === 'string' && existsSync(binary)) return { found: true, path: binary };
    return { found: false, reason: `require('electron') gave ${String(binary)}, which does not exist` };
  } catch (error) {
    return { found: false, reason: (error instanceof Error ? error.message : String(error)).split('\n')[0] };
  }
}

interface TempHome {
  readonly root: string;
  readonly configDir: string;
  readonly dataDir: string;
  readonly projectCwd: string;
}

/** A `~/.claude` with one project whose only session names its cwd, plus an empty app data dir. */
async function createTempHome(): Promise<TempHome> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ccmem-electron-')));
  const configDir = join(root, 'claude');
  const dataDir = join(root, 'data');
  const projectCwd = join(root, 'work', 'webshop');
  const sessionId = '5f0c7a3e-2b1d-4c8e-9a6f-1d2e3f4a5b6c';
  const line = {
    type: 'user',
    uuid: '0b8e2c4a-6d1f-4e3b-8a9c-7f6e5d4c3b2a',
    parentUuid: null,
    sessionId,
    cwd: projectCwd,
    timestamp: '2026-05-01T09:00:00.000Z',
    message: { role: 'user', content: 'Add a cart page' },
  };
  const projectDir = join(configDir, 'projects', sanitizePathPrefix(projectCwd));
  await mkdir(projectDir, { recursive: true });
  await mkdir(projectCwd, { recursive: true });
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(projectDir, `${sessionId}.jsonl`), `${JSON.stringify(line)}\n`);
  return { root, configDir, dataDir, projectCwd };
}

test('the desktop app opens a hardened window that lists the projects of its home', async () => {
  const binary = findElectronBinary();
  if (!binary.found) {
    console.log(`Skipping the Electron suite: no Electron binary on this machine: ${binary.reason}`);
    test.skip(true, `No Electron binary on this machine: ${binary.reason}`);
    return;
  }
  expect(existsSync(mainEntry), `${mainEntry} is missing: run the build first`).toBe(true);

  const home = await createTempHome();
  let app: ElectronApplication | undefined;
  try {
    app = await electron.launch({
      executablePath: binary.path,
      // Chromium refuses to start as root with its OS sandbox (containers, CI); the app's own sandbox: true still applies.
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), mainEntry],
      env: { ...process.env, CLAUDE_CONFIG_DIR: home.configDir, CCMEM_DATA_DIR: home.dataDir },
    });
    const page = await app.firstWindow();

    await expect(page.locator('#root')).toHaveAttribute('data-app-state', 'ready');
    await expect(page.getByRole('navigation', { name: 'Projects' })).toContainText(home.projectCwd);

    const preferences = await app.evaluate(({ BrowserWindow }) =>
      BrowserWindow.getAllWindows().map((window) => {
        // Undocumented but long-standing: the preferences the window's renderer actually runs with.
        const contents = window.webContents as typeof window.webContents & { getLastWebPreferences(): WebPreferences };
        return contents.getLastWebPreferences();
      }),
    );
    expect(preferences.length).toBeGreaterThan(0);
    for (const webPreferences of preferences) {
      expect(webPreferences).toMatchObject({
        sandbox: true,
        contextIsolation: true,
        nodeIntegration: false,
        webSecurity: true,
        webviewTag: false,
      });
      expect(webPreferences.preload).toMatch(/index\.cjs$/);
    }

    const renderer = await page.evaluate(() => ({
      hasRequire: 'require' in window,
      hasProcess: 'process' in window,
      apiKeys: Object.keys((window as unknown as { api: object }).api).sort(),
    }));
    expect(renderer.hasRequire).toBe(false);
    expect(renderer.hasProcess).toBe(false);
    expect(renderer.apiKeys).toContain('getHome');
    expect(renderer.apiKeys).toContain('onHomeChanged');
  } finally {
    await app?.close();
    await rm(home.root, { recursive: true, force: true });
  }
});
