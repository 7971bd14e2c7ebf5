import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Engine } from '../../../electron/core/engine';
import { WebShellServer } from '../../../electron/server/WebShellServer';
import type { ShellCapability } from '../../../shared/contract/capabilities';
import { requestNames } from '../../../shared/contract/channels';
import { neededCapability } from '../../../shared/contract/dispatch';
import { requestSchemas, type RequestName } from '../../../shared/contract/requests';
import type { HomeSnapshot } from '../../../shared/model/home';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { recordFigure } from '../support/figureLog';
import { createTestEngine } from '../../fixtures/testEngine';

type Flag = 'reads' | 'mutates';

/**
 * Every request of the contract and whether it changes something: a file, the home every client of the server sees,
 * a process started, or work another client started. A read-only server refuses the mutating ones. A request added
 * to the contract fails this test until it is added here, with its flag decided.
 */
const EXPECTED_FLAGS: Readonly<Record<RequestName, Flag>> = {
  getHome: 'reads',
  // Discovers the same roots again: what every client sees is the disk as it is.
  refreshHome: 'reads',
  // Copies the demo into the data folder and switches every client of the server to it.
  openDemoHome: 'mutates',
  listSessions: 'reads',
  listMemoryFiles: 'reads',
  listAgentMemories: 'reads',
  getAgentSnapshotDiff: 'reads',
  planAgentSnapshotAction: 'reads',
  applyAgentSnapshotAction: 'mutates',
  getLlmSettings: 'reads',
  updateLlmSettings: 'mutates',
  setApiKey: 'mutates',
  clearApiKey: 'mutates',
  // One tiny call with the settings in force; it changes nothing.
  testLlmConnection: 'reads',
  getDreamGate: 'reads',
  startDream: 'mutates',
  estimateExtraction: 'reads',
  startExtraction: 'mutates',
  // Stops a job that may be another client's, and rewrites its record.
  cancelJob: 'mutates',
  listJobs: 'reads',
  getJob: 'reads',
  applyJob: 'mutates',
  discardJob: 'mutates',
  getMemoryReview: 'reads',
  readMemoryFile: 'reads',
  saveMemoryFile: 'mutates',
  createMemoryFile: 'mutates',
  renameMemoryFile: 'mutates',
  pruneMemoryFile: 'mutates',
  undoMemoryChange: 'mutates',
  openTranscript: 'reads',
  readTranscriptPage: 'reads',
  readTranscriptUsage: 'reads',
  readToolOutput: 'reads',
  findInTranscript: 'reads',
  readSessionMemory: 'reads',
  exportTranscript: 'reads',
  // Starts Claude Code in a terminal (the desktop app), which writes to the session and its memory.
  resumeSession: 'mutates',
  getTerminalSetting: 'reads',
  setTerminalSetting: 'mutates',
  getSessionCatalog: 'reads',
  // Brings the server's own cache up to date with the disk, as following changes does anyway.
  refreshSessionCatalog: 'reads',
  // Stops the catalog build every client is waiting for.
  cancelCatalogBuild: 'mutates',
  startSearch: 'reads',
  // Only the holder of the search's id can cancel it.
  cancelSearch: 'reads',
  getHistoryStatus: 'reads',
  listHistory: 'reads',
  getChangeSet: 'reads',
  readChangeSetDiff: 'reads',
  listFileVersions: 'reads',
  readVersionPair: 'reads',
  listDreams: 'reads',
  countUnreviewedDreams: 'reads',
  keepDream: 'mutates',
  planRestore: 'reads',
  restoreVersion: 'mutates',
  planRevert: 'reads',
  revertChangeSet: 'mutates',
  exportMemoryBackup: 'reads',
  previewMemoryImport: 'reads',
  applyMemoryImport: 'mutates',
  getArchiveStatus: 'reads',
  // Copies what the transcripts gained into the app's own archive, as the server does after every catalog build.
  updateArchive: 'reads',
  // Stops the archive run every client sees.
  cancelArchiveUpdate: 'mutates',
  setArchiveSettings: 'mutates',
  pruneArchive: 'mutates',
  deleteProjectArchive: 'mutates',
  blameFile: 'reads',
  getFileOrigin: 'reads',
  listSessionMemoryWrites: 'reads',
  planMemoryFix: 'reads',
  applyMemoryFix: 'mutates',
  getReviewInbox: 'reads',
  getBackgroundStatus: 'reads',
  updateBackgroundSettings: 'mutates',
  turnOffClaudeCodeAutoDream: 'mutates',
  rendererReady: 'reads',
};

/** Requests that need a capability only the desktop app has, and an example of arguments that need it. */
const EXPECTED_CAPABILITIES: readonly { name: RequestName; args: unknown; needs: ShellCapability | null }[] = [
  { name: 'updateLlmSettings', args: { baseUrl: 'https://proxy.example.com' }, needs: 'changeLlmEndpoint' },
  { name: 'updateLlmSettings', args: { baseUrl: null }, needs: 'changeLlmEndpoint' },
  { name: 'updateLlmSettings', args: { model: 'claude-haiku-4-5' }, needs: null },
  { name: 'readMemoryFile', args: { revealSecrets: true }, needs: 'revealSecrets' },
  { name: 'readMemoryFile', args: { revealSecrets: false }, needs: null },
  { name: 'getJob', args: { jobId: 'x', revealSecrets: true }, needs: 'revealSecrets' },
  { name: 'getJob', args: { jobId: 'x' }, needs: null },
];

describe('every request of the contract says whether it changes something', () => {
  it('has a decided flag for every request, and the flags are as decided', () => {
    expect(Object.keys(EXPECTED_FLAGS).sort()).toEqual([...requestNames].sort());
    const actual = Object.fromEntries(requestNames.map((name) => [name, requestSchemas[name].mutates ? 'mutates' : 'reads']));
    recordFigure('badInputs', { tried: requestNames.length }, 'web shell');
    expect(actual).toEqual(EXPECTED_FLAGS);
  });

  it('names the capability a request needs only where it needs one', () => {
    for (const { name, args, needs } of EXPECTED_CAPABILITIES) expect(neededCapability(name, args), name).toBe(needs);
    const withCapability = requestNames.filter((name) => 'needs' in requestSchemas[name]);
    expect(withCapability.sort()).toEqual([...new Set(EXPECTED_CAPABILITIES.map((c) => c.name))].sort());
  });
});

describe('a read-only server changes nothing any client sees', () => {
  let scenario: StandardScenario;
  let engine: Engine;
  let server: WebShellServer;
  let port: number;
  let staticDir: string;
  const token = 'flags-token-0123456789';

  beforeAll(async () => {
    scenario = await createStandardScenario();
    staticDir = mkdtempSync(join(tmpdir(), 'ccmem-static-'));
    mkdirSync(join(staticDir, 'assets'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    engine = await createTestEngine(scenario.home, {
      demoHomeSource: resolve(import.meta.dirname, '../../../resources/demo-home'),
      shell: 'web',
      readOnly: true,
    });
    server = new WebShellServer({
      handlers: engine.handlers,
      subscribe: (sink) => engine.subscribe(sink),
      staticDir,
      token,
      host: '127.0.0.1',
      port: 0,
      readOnly: true,
    });
    port = (await server.start()).port;
  });

  afterAll(async () => {
    await server.close();
    await engine.dispose();
    await scenario.home.cleanup();
    rmSync(staticDir, { recursive: true, force: true });
  });

  /** One client of the server: a WebSocket that sends a request and waits for its reply. */
  async function client(): Promise<{ call: (method: string, args: unknown) => Promise<unknown>; close: () => void }> {
    // A script holding the token, as an attacker would use it: a bearer header, no browser.
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { authorization: `Bearer ${token}` } });
    await new Promise((resolveOpen, reject) => {
      ws.once('open', resolveOpen);
      ws.once('error', reject);
    });
    let nextId = 1;
    return {
      call: (method, args) =>
        new Promise((resolveReply) => {
          const id = nextId++;
          const onMessage = (data: Buffer) => {
            const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
            if (message.id !== id) return;
            ws.off('message', onMessage);
            resolveReply(message.result);
          };
          ws.on('message', onMessage);
          ws.send(JSON.stringify({ id, method, args }));
        }),
      close: () => ws.close(),
    };
  }

  it('refuses to switch every client to the demo home, or to cancel what others wait for', async () => {
    const viewer = await client();
    const other = await client();
    try {
      const before = (await other.call('getHome', {})) as { ok: true; value: HomeSnapshot };
      const demo = await viewer.call('openDemoHome', {});
      const cancel = await viewer.call('cancelCatalogBuild', {});
      const after = (await other.call('getHome', {})) as { ok: true; value: HomeSnapshot };
      recordFigure('badInputs', { tried: 2 }, 'web shell');
      expect(demo).toMatchObject({ ok: false, error: { code: 'READ_ONLY' } });
      expect(cancel).toMatchObject({ ok: false, error: { code: 'READ_ONLY' } });
      expect(after.value.demo).toBe(false);
      expect(after.value.roots.map((root) => root.path)).toEqual(before.value.roots.map((root) => root.path));
    } finally {
      viewer.close();
      other.close();
    }
  });
});
