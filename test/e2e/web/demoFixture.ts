import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { sanitizePathPrefix } from '../../../shared/claude/sanitizePath';
import { startServe } from './serveFixture';

/** The demo's projects by what the tests and the screenshots call them: their folder names under the demo's config root. */
export const DEMO_PROJECTS = {
  webshop: '-home-demo-code-webshop',
  monorepo: '-home-demo-code-monorepo',
  api: '-home-demo-code-monorepo-packages-api',
  notes: 'C--Users-demo-notes',
} as const;

export interface ServedDemo {
  /** The URL `ccmem serve` printed, token included. */
  readonly url: string;
  /** The demo's config root: its private copy in the app data folder. */
  readonly root: string;
  /** The folder name of the demo project on disk (its path, and so its name, depends on the data folder). */
  readonly designSystemSlug: string;
  /** The address of one page of the app, for one project when given. */
  link(page: string, slug?: string): string;
  stop(): Promise<void>;
}

/**
 * Serves `ccmem serve` with no Claude Code home at all (a new user's first start), with its data folder in a
 * fresh temp folder (or `folder`, emptied first: the screenshots want the same paths every run): the empty screen
 * then offers the demo. The folder is removed when it stops.
 */
export async function serveDemo(options: { readonly folder?: string } = {}): Promise<ServedDemo> {
  const tmp = options.folder ?? (await mkdtemp(join(tmpdir(), 'ccmem-demo-')));
  if (options.folder) {
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true });
  }
  const dataDir = join(tmp, 'data');
  const served = await startServe({ HOME: tmp, CLAUDE_CONFIG_DIR: join(tmp, 'no-claude-home'), CCMEM_DATA_DIR: dataDir });
  const root = join(dataDir, 'demo-home');
  return {
    url: served.url,
    root,
    designSystemSlug: sanitizePathPrefix(join(dataDir, 'demo-workspace', 'design-system')),
    link(page, slug) {
      const params = new URLSearchParams({ page });
      if (slug) {
        params.set('root', root);
        params.set('project', slug);
      }
      return `${served.url}#/${params.toString()}`;
    },
    async stop() {
      await served.stop();
      await rm(tmp, { recursive: true, force: true });
    },
  };
}

/** Opens the app on the empty home and chooses "Open demo data", as a new user does. */
export async function openDemo(page: Page, demo: ServedDemo): Promise<void> {
  await page.goto(demo.url);
  await page.getByRole('button', { name: 'Open demo data' }).click();
  await page.getByRole('navigation', { name: 'Projects' }).waitFor();
}
