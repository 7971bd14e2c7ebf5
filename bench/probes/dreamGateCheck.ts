import type { SessionCatalogEntry, SessionUpdate } from '../../shared/model/catalog';
import { createEngine } from '../../electron/core/engine';
import { SessionSecretStore } from '../../electron/core/settings/secretStore';
import { serveProbe } from './probeProtocol';
import { listSessions } from '../../electron/core/transcripts/sessionListing';

export interface DreamGateCheckInput {
  readonly root: string;
  readonly dataDir: string;
  /** Session changes to feed through the check. */
  readonly events: number;
}

export interface DreamGateCheckOutput {
  readonly meanMs: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly events: number;
  readonly projects: number;
  readonly sessions: number;
}

const NO_TOKENS = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };

/** A catalog entry as a live update carries it; the check reads identity, mtime, prompts and memory writes. */
function entryOf(configRoot: string, slug: string, sessionId: string, path: string, mtime: string): SessionCatalogEntry {
  return {
    configRoot,
    slug,
    sessionId,
    path,
    mainTranscript: true,
    title: null,
    titleSource: 'none',
    firstTimestamp: null,
    lastTimestamp: mtime,
    durationMs: null,
    cwds: [],
    gitBranches: [],
    versions: [],
    models: [],
    userPrompts: 6,
    assistantTurns: 6,
    toolCalls: 0,
    tokens: NO_TOKENS,
    subagents: [],
    compactions: [],
    memoryReads: [],
    memoryWrites: [],
    hasSessionMemory: false,
    prLinks: [],
    agentName: null,
    mode: null,
    archived: false,
    bytes: 0,
    badLines: 0,
    mtime,
  };
}

/**
 * The check the background scheduler runs on every session change (`sessionsChanged`), with reviewed dreams on for
 * every project and automatic extraction on, over the generated home: each event is one session growing, as an
 * append makes it. Only the synchronous part is timed: that is what every change costs; a gate that looks open reads
 * the disk afterwards, off the event's path. No API key, so no job ever starts and the home is not written.
 */
serveProbe<DreamGateCheckInput, DreamGateCheckOutput>(async ({ root, dataDir, events }) => {
  const engine = await createEngine({
    roots: [{ path: root, source: 'CLAUDE_CONFIG_DIR' }],
    dataDir,
    demoHomeSource: null,
    shell: 'cli',
    readOnly: false,
    watch: false,
    llm: { secrets: new SessionSecretStore(), environment: { apiKey: null, baseUrl: null, maxRetries: 0 } },
  });
  try {
    const scheduler = engine.background;
    await scheduler.start();
    await scheduler.updateSettings({ reviewedDreams: { mode: 'all' }, autoExtraction: { enabled: true, minPrompts: 1 } });
    const home = await engine.home.getHome();
    const sessions: { configRoot: string; slug: string; sessionId: string; file: string }[] = [];
    for (const project of home.projects) {
      for (const session of await listSessions(engine.home, project)) sessions.push({ ...project, ...session });
    }
    if (sessions.length === 0) throw new Error('the generated home has no sessions');
    const samples: number[] = [];
    const base = Date.now();
    for (let i = 0; i < events; i++) {
      const session = sessions[i % sessions.length];
      const mtime = new Date(base + i).toISOString();
      const update: SessionUpdate = {
        updated: [entryOf(session.configRoot, session.slug, session.sessionId, session.file, mtime)],
        removed: [],
      };
      const started = performance.now();
      scheduler.sessionsChanged(update);
      samples.push(performance.now() - started);
      // Let what a looking-open gate started run between events, as it would between real changes.
      if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
    }
    samples.sort((a, b) => a - b);
    return {
      meanMs: samples.reduce((sum, ms) => sum + ms, 0) / samples.length,
      p99Ms: samples[Math.min(samples.length - 1, Math.floor(samples.length * 0.99))],
      maxMs: samples[samples.length - 1],
      events,
      projects: home.projects.length,
      sessions: sessions.length,
    };
  } finally {
    await engine.dispose();
  }
});
