import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { AppendDone, AppendRequest } from './appender';
import { createWebShellEngine } from './webShellEngine';
import { serveProbe } from './probeProtocol';

export interface AppendInput {
  readonly root: string;
  /** App data with a saved catalog (a copy), so the catalog is current before the first append. */
  readonly dataDir: string;
  /** The built catalog scan worker, as the app shells pass it. */
  readonly scanWorker: string;
  readonly path: string;
  readonly sessionId: string;
  readonly cwd: string;
  readonly appends: number;
  /** Quiet time between appends, so each one's events are its own. */
  readonly intervalMs: number;
}

export interface AppendOutput {
  /** Per append, from just before the write to `engine.live.onDidChange` reporting that file (ms). */
  readonly changeEventMs: readonly number[];
  /** Per append, from just before the write to the engine's `sessionUpdated` event for that session (ms). */
  readonly sessionUpdatedMs: readonly number[];
}

const EVENT_TIMEOUT_MS = 5_000;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The live path: the engine as the app shells run it (watching the home, events bridged to a sink) and another
 * process appending lines to a session, as Claude Code does. Each append is timed twice: to the watcher's change
 * event, and to the `sessionUpdated` event a shell forwards to the timeline.
 */
serveProbe<AppendInput, AppendOutput>(async (input) => {
  const engine = await createWebShellEngine({ root: input.root, dataDir: input.dataDir, watch: true, scanWorker: input.scanWorker });
  const live = engine.live;
  if (!live) throw new Error('the engine does not watch the home');
  await engine.handlers.getSessionCatalog({});
  await engine.catalog.buildNow();
  // Appends are followed once the watcher has scanned the home.
  await engine.ready;
  let changeAt: number | null = null;
  let updateAt: number | null = null;
  const stopChanges = live.onDidChange((changes) => {
    if (changeAt === null && changes.some((change) => change.kind === 'transcript' && change.path === input.path)) changeAt = now();
  });
  const stopEvents = engine.subscribe((event, payload) => {
    if (event !== 'sessionUpdated' || updateAt !== null) return;
    const { updated } = payload as { updated: readonly { sessionId: string }[] };
    if (updated.some((session) => session.sessionId === input.sessionId)) updateAt = now();
  });
  // The appender sits beside this probe: both from source (through tsx) or both built (see bench/runner/probeBuild.ts).
  const built = import.meta.filename.endsWith('.mjs');
  const appender = fork(join(import.meta.dirname, built ? 'appender.mjs' : 'appender.ts'), [], {
    execArgv: built ? [] : ['--import', 'tsx'],
    stdio: ['ignore', 2, 2, 'ipc'],
  });
  const append = (index: number) =>
    new Promise<AppendDone>((resolve) => {
      appender.once('message', (done: AppendDone) => resolve(done));
      appender.send({ path: input.path, sessionId: input.sessionId, cwd: input.cwd, index } satisfies AppendRequest);
    });
  const changeEventMs: number[] = [];
  const sessionUpdatedMs: number[] = [];
  try {
    for (let index = 0; index < input.appends; index++) {
      await sleep(input.intervalMs);
      changeAt = null;
      updateAt = null;
      const { writtenAtMs } = await append(index);
      const deadline = now() + EVENT_TIMEOUT_MS;
      while ((changeAt === null || updateAt === null) && now() < deadline) await sleep(1);
      if (changeAt === null || updateAt === null)
        throw new Error(`append ${index}: no ${changeAt === null ? 'change' : 'sessionUpdated'} event within ${EVENT_TIMEOUT_MS} ms`);
      changeEventMs.push(changeAt - writtenAtMs);
      sessionUpdatedMs.push(updateAt - writtenAtMs);
    }
  } finally {
    stopChanges();
    stopEvents();
    appender.kill();
    // The probe process ends as soon as it has answered; tearing the watcher down is no part of the figure.
    void engine.dispose();
  }
  return { changeEventMs, sessionUpdatedMs };
});
