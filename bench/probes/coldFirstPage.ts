import type { CatalogProgress, SessionCatalogEntry, SessionUpdate } from '../../shared/model/catalog';
import type { HomeSnapshot } from '../../shared/model/home';
import { createWebShellEngine } from './webShellEngine';
import { serveProbe } from './probeProtocol';

export interface ColdFirstPageInput {
  readonly root: string;
  /** An empty app data folder: the app's first start on this home. */
  readonly dataDir: string;
  /** The built catalog scan worker, as the app shells pass it. */
  readonly scanWorker: string;
  /**
   * When the window asks: `'at-once'` as the engine starts (the desktop app, whose window loads while the home is
   * found), or `'after-discovery'` once the whole home is found (`ccmem serve`, with the browser opened later).
   */
  readonly ask: 'at-once' | 'after-discovery';
}

export interface ColdFirstPageOutput {
  /** From creating the engine to the projects list and every session of the project the UI opens on, in its timeline. */
  readonly firstPageMs: number;
  /** From the window's first ask (`getHome`) to the same page. */
  readonly askedToFirstPageMs: number;
  /** From creating the engine to the `homeChanged` that brings the whole projects list. */
  readonly wholeHomeMs: number;
  /** Projects the first page listed, of all; sessions on it. */
  readonly firstPageProjects: number;
  readonly projects: number;
  readonly firstPageSessions: number;
}

/**
 * The app's first start on a home (empty app data), in a new process, seen as the UI sees it: the engine as the web
 * shell creates it (watching the home), `getHome({})` (at once, or once the home is found), the project it opens on (the first listed), then
 * `getSessionCatalog({})` and the `sessionUpdated` events applied on top, as the timeline's store does. The first page
 * is useful once the timeline holds every session of that project; the rest of the home goes on in the background.
 */
serveProbe<ColdFirstPageInput, ColdFirstPageOutput>(async ({ root, dataDir, scanWorker, ask }) => {
  const started = performance.now();
  const engine = await createWebShellEngine({ root, dataDir, watch: true, scanWorker });
  if (ask === 'after-discovery') await engine.home.getHome();
  const timeline = new Map<string, SessionCatalogEntry>();
  let opened: { slug: string; configRoot: string; sessions: number } | null = null;
  let wholeHomeAt: number | null = null;
  let listed = false;
  let settle: { resolve: (at: number) => void; reject: (error: Error) => void } | null = null;
  const firstPage = new Promise<number>((resolve, reject) => (settle = { resolve, reject }));
  const openedRows = (): number =>
    [...timeline.values()].filter((row) => row.configRoot === opened?.configRoot && row.slug === opened.slug).length;
  const check = (): void => {
    if (listed && opened && openedRows() >= opened.sessions) settle?.resolve(performance.now());
  };
  const apply = (update: SessionUpdate): void => {
    for (const entry of update.updated) timeline.set(`${entry.configRoot}\0${entry.slug}\0${entry.sessionId}`, entry);
    for (const key of update.removed) timeline.delete(`${key.configRoot}\0${key.slug}\0${key.sessionId}`);
  };
  const pending: SessionUpdate[] = [];
  engine.subscribe((event, payload) => {
    if (event === 'homeChanged' && (payload as HomeSnapshot).discovering === null) wholeHomeAt ??= performance.now();
    if (event === 'sessionUpdated') {
      // The store keeps the updates that come while the listing is on its way and applies them on top of it.
      if (listed) apply(payload as SessionUpdate);
      else pending.push(payload as SessionUpdate);
      check();
    }
    if (event === 'catalogProgress' && !(payload as CatalogProgress).running && listed && opened && openedRows() < opened.sessions)
      settle?.reject(new Error(`the catalog finished with ${openedRows()} of the ${opened.sessions} sessions of ${opened.slug} listed`));
  });
  const asked = performance.now();
  const home = await engine.handlers.getHome({});
  const first = home.projects[0];
  if (!first) throw new Error('the first answer listed no project');
  opened = { configRoot: first.configRoot, slug: first.slug, sessions: first.sessionCount };
  const listing = await engine.handlers.getSessionCatalog({});
  for (const entry of listing.sessions) timeline.set(`${entry.configRoot}\0${entry.slug}\0${entry.sessionId}`, entry);
  for (const update of pending.splice(0)) apply(update);
  listed = true;
  check();
  const firstPageAt = await firstPage;
  const firstPageSessions = openedRows();
  // The whole home, for its figure; the project the first page opened on must be in it with the same sessions.
  const whole = await engine.home.getHome();
  const stillThere = whole.projects.find((project) => project.configRoot === first.configRoot && project.slug === first.slug);
  if (!stillThere || stillThere.sessionCount !== first.sessionCount)
    throw new Error(`the whole home does not list ${first.slug} with the ${first.sessionCount} sessions the first page showed`);
  // The probe process ends as soon as it has answered; the catalog build and teardown are no part of the figures.
  void engine.dispose();
  return {
    firstPageMs: firstPageAt - started,
    askedToFirstPageMs: firstPageAt - asked,
    // Pushed before the discovery's own answer; a home found whole at the first answer was never pushed in parts.
    wholeHomeMs: (wholeHomeAt ?? performance.now()) - started,
    firstPageProjects: home.projects.length,
    projects: whole.projects.length,
    firstPageSessions,
  };
});
