import { createWebShellEngine } from './webShellEngine';
import { serveProbe } from './probeProtocol';
import { FIRST_LISTING_PAGE } from '../../shared/model/catalog';

export interface WarmStartInput {
  readonly root: string;
  /** An app data folder holding what a previous start saved, catalog and discovery (a copy: the engine refreshes it). */
  readonly dataDir: string;
  /** The built catalog scan worker, as the app shells pass it. */
  readonly scanWorker: string;
}

export interface WarmStartOutput {
  /** From creating the engine to the timeline's listing, through the two requests the UI makes first. */
  readonly firstPageMs: number;
  /** The `getSessionCatalog` request for the timeline's first page alone, once the engine is up. */
  readonly listingMs: number;
  readonly sessions: number;
}

/**
 * A restart of the app, in a new process: the engine as the web shell creates it (watching the home), then what
 * the UI asks before it can show the timeline: `getHome({})` (the sidebar, and the project the timeline opens on),
 * then the first page of `getSessionCatalog` (the rest follows in pages once the timeline shows). Both are answered from what the last run saved, while it is checked in the background.
 */
serveProbe<WarmStartInput, WarmStartOutput>(async ({ root, dataDir, scanWorker }) => {
  const started = performance.now();
  const engine = await createWebShellEngine({ root, dataDir, watch: true, scanWorker });
  const home = await engine.handlers.getHome({});
  if (home.projects.length === 0) throw new Error('the saved home listed no project');
  const requested = performance.now();
  const listing = await engine.handlers.getSessionCatalog({ limit: FIRST_LISTING_PAGE });
  const finished = performance.now();
  // The probe process ends as soon as it has answered; the background refresh and teardown are no part of the figure.
  void engine.dispose();
  if (listing.sessions.length === 0) throw new Error('the saved catalog listed no session');
  return { firstPageMs: finished - started, listingMs: finished - requested, sessions: listing.total };
});
