import { createWebShellEngine } from './webShellEngine';
import { serveProbe } from './probeProtocol';

export interface MemoryReviewInput {
  readonly root: string;
  /** An empty app data folder: nothing of an earlier run helps. */
  readonly dataDir: string;
  /** The project whose memory folder holds the 1,000 topic files. */
  readonly slug: string;
}

export interface MemoryReviewOutput {
  /** The first `getMemoryReview` of the folder in a new process: every file read. */
  readonly coldMs: number;
  /** The same request again, the folder unchanged. */
  readonly warmMs: number;
  readonly files: number;
  readonly findings: number;
}

/**
 * The request the Memory page makes, `getMemoryReview`, through the engine's request handlers as a shell calls
 * them: first in a new process (cold), then again (warm). The engine does not watch the home here, so the figure
 * is the request's own cost, not its share of the first start's background work (the watcher's scan, history).
 */
serveProbe<MemoryReviewInput, MemoryReviewOutput>(async ({ root, dataDir, slug }) => {
  const engine = await createWebShellEngine({ root, dataDir, watch: false });
  // The page asks for the home first (the sidebar); the figure starts when the Memory page asks for its folder.
  const home = await engine.handlers.getHome({});
  const project = home.projects.find((p) => p.slug === slug);
  if (!project) throw new Error(`no project ${slug}`);
  const folder = { kind: 'project', configRoot: project.configRoot, slug } as const;
  const coldStarted = performance.now();
  await engine.handlers.getMemoryReview({ folder });
  const coldMs = performance.now() - coldStarted;
  const warmStarted = performance.now();
  const review = await engine.handlers.getMemoryReview({ folder });
  const warmMs = performance.now() - warmStarted;
  void engine.dispose();
  return { coldMs, warmMs, files: review.files.length, findings: review.findings.length };
});
