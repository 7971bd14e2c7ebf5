import fc from 'fast-check';
import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { join, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { requestNames } from '../../../shared/contract/channels';
import { requestSchemas, type RequestName } from '../../../shared/contract/requests';
import type { ErrorCode } from '../../../shared/result';
import { createEngine, type Engine } from '../../../electron/core/engine';
import { createStandardScenario, type StandardScenario } from '../../fixtures/scenarioHome';
import { payloadArbitrary } from '../support/contractArbitraries';
import { recordFigure } from '../support/figureLog';
import { statTree } from '../support/statTree';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';
import { listAgentMemories } from '../../../electron/core/agents/agentMemoryListing';

type InvokeListener = (event: IpcMainInvokeEvent, args: unknown) => Promise<unknown>;

// The real ipcMain binding runs here; only Electron's registry of handlers is replaced.
const electronMock = vi.hoisted(() => ({ handlers: new Map<string, InvokeListener>() }));
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, listener: InvokeListener) => electronMock.handlers.set(channel, listener),
    removeHandler: (channel: string) => electronMock.handlers.delete(channel),
  },
}));

const { bindRequestHandlers, mainFrameSenderCheck } = await import('../../../electron/main/ipc');

const rendererUrl = 'file:///opt/app/out/renderer/index.html';
const mainFrame = { url: rendererUrl, parent: null, processId: 7, routingId: 1 };
const appWindow = { isDestroyed: () => false, webContents: { mainFrame } } as unknown as BrowserWindow;
const fromOurWindow = { sender: appWindow.webContents, senderFrame: mainFrame } as unknown as IpcMainInvokeEvent;

/** Any code of the contract is a typed error but INTERNAL, which stands for an exception nobody meant to throw. */
const UNTYPED: ErrorCode = 'INTERNAL';

// Requests that reach the model must fail for want of a key, never call out from a test.
delete process.env.ANTHROPIC_API_KEY;
process.env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:9';

const CALL_TIMEOUT_MS = 10_000;

interface Envelope {
  readonly ok: boolean;
  readonly error?: { readonly code: ErrorCode; readonly message: string };
}

function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  if (candidate.ok === true) return 'value' in candidate;
  const error = candidate.error as Record<string, unknown> | undefined;
  return candidate.ok === false && typeof error?.code === 'string' && typeof error.message === 'string';
}

function changedPaths(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => before.get(key) !== after.get(key)).sort();
}

describe('random payloads to every IPC channel', () => {
  let scenario: StandardScenario;
  let engine: Engine;
  let call: (name: string, event: IpcMainInvokeEvent, args: unknown) => Promise<unknown>;
  let writableDirs: string[];
  let realStrings: string[];

  // Everything the user owns: the config root and the project folders (with their .claude settings and agent memory).
  const snapshotUserFiles = (): Promise<Map<string, string>> => statTree([scenario.home.root, scenario.home.workDir]);

  beforeAll(async () => {
    scenario = await createStandardScenario();
    engine = await createEngine({
      roots: [{ path: scenario.home.root, source: 'CLAUDE_CONFIG_DIR' }],
      dataDir: join(scenario.home.tmp, 'data'),
      demoHomeSource: null,
      shell: 'electron',
      readOnly: false,
      watch: false,
    });
    bindRequestHandlers(
      engine.handlers,
      mainFrameSenderCheck(
        () => appWindow,
        (url) => url === rendererUrl,
      ),
    );
    call = (name, event, args) => {
      const listener = electronMock.handlers.get(name);
      if (!listener) throw new Error(`no handler bound for ${name}`);
      return Promise.race([
        listener(event, args),
        new Promise((_resolve, reject) =>
          setTimeout(() => reject(new Error(`${name} did not answer within ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS),
        ),
      ]);
    };
    const home = await engine.home.getHome();
    const agents = await listAgentMemories(engine.home);
    // A mutating request that succeeds may change memory, and nothing else.
    writableDirs = [...home.projects.map((p) => p.memoryDir), ...agents.map((a) => (a as unknown as { dir: string }).dir)].filter(Boolean);
    const { webshop, windows, monorepo } = scenario;
    realStrings = [
      scenario.home.root,
      webshop.slug,
      windows.slug,
      monorepo.sessionSlug,
      monorepo.memorySlug,
      webshop.memoryDir,
      webshop.path,
      ...webshop.topicFiles,
      'MEMORY.md',
      '.consolidate-lock',
      ...webshop.sessions.map((s) => s.sessionId),
      webshop.sessions[0].file,
      'code-reviewer',
      'qa',
    ];
  });

  afterAll(async () => {
    await engine.dispose();
    await scenario.home.cleanup();
  });

  it('registers a handler for every channel of the contract', () => {
    expect([...electronMock.handlers.keys()].sort()).toEqual([...requestNames].sort());
  });

  it(
    'answers every payload with a typed Result and touches no file unless a change was asked for and made',
    async () => {
      let tried = 0;
      let outOfRoot = 0;
      const problems: string[] = [];
      const report = (problem: string): void => {
        if (!problems.includes(problem)) problems.push(problem);
      };
      // Any value of the wrong kind, and typed arrays in particular (structured clone carries them; zod once threw on them).
      const wrongKinds = [undefined, fc.constantFrom(new Uint8Array([1, 2]), new Float64Array(1), new DataView(new ArrayBuffer(2)))];
      // Turning Claude Code's own auto-dream off writes one file outside memory, by design: the user's settings.json.
      const userSettings = join(scenario.home.root, 'settings.json');
      const outsideMemory = (name: string, changed: readonly string[]): string[] =>
        changed.filter(
          (path) =>
            !writableDirs.some((dir) => path === dir || path.startsWith(dir + sep)) &&
            !(name === 'turnOffClaudeCodeAutoDream' && path === userSettings),
        );
      for (const [name, wrongKind] of requestNames.flatMap((n) => wrongKinds.map((kind) => [n, kind] as const))) {
        const spec = requestSchemas[name as RequestName];
        // A read request may change nothing at all, so one look before and after its whole batch is enough;
        // a change request may change memory when it succeeds, so each of its calls is looked at on its own.
        const batchBefore = spec.mutates ? null : await snapshotUserFiles();
        await fc.assert(
          fc.asyncProperty(payloadArbitrary(spec.args, { realStrings, wrongKind }), async (payload) => {
            let cloned: unknown;
            try {
              // What survives Electron's structured clone is what main would receive.
              cloned = structuredClone(payload);
            } catch {
              return;
            }
            tried++;
            const before = spec.mutates ? await snapshotUserFiles() : null;
            const result = await call(name, fromOurWindow, cloned);
            if (!isEnvelope(result)) report(`${name}: not a Result envelope: ${JSON.stringify(result)?.slice(0, 200)}`);
            else if (!result.ok && result.error!.code === UNTYPED)
              report(`${name}: ${result.error!.code} ${result.error!.message.slice(0, 200)}`);
            if (before === null || !isEnvelope(result)) return;
            const changed = changedPaths(before, await snapshotUserFiles());
            const outside = outsideMemory(name, changed);
            outOfRoot += outside.length;
            if (!result.ok && changed.length > 0) report(`${name}: refused, yet changed ${changed.join(', ')}`);
            if (outside.length > 0) report(`${name}: wrote outside memory: ${outside.join(', ')}`);
          }),
          { numRuns: wrongKind === undefined ? atScale(6, 300) : atScale(2, 50) },
        );
        if (batchBefore !== null) {
          const changed = changedPaths(batchBefore, await snapshotUserFiles());
          outOfRoot += outsideMemory(name, changed).length;
          if (changed.length > 0) report(`${name}: a read request changed ${changed.join(', ')}`);
        }
      }
      recordFigure('badInputs', { tried }, 'ipc');
      recordFigure('outOfRootWrites', { writes: outOfRoot, attempts: tried });
      expect(problems).toEqual([]);
    },
    timeoutAtScale(60_000, 3_600_000),
  );

  it(
    'refuses every sender but our own main frame before looking at the payload',
    async () => {
      const frame = fc.record({
        url: fc.oneof(
          fc.constantFrom(rendererUrl, `${rendererUrl}#x`, 'https://evil.example/', 'file:///etc/passwd', 'about:blank'),
          fc.webUrl(),
        ),
        parent: fc.oneof(fc.constant(null), fc.constant(mainFrame)),
        processId: fc.oneof(fc.constant(7), fc.nat()),
        routingId: fc.oneof(fc.constant(1), fc.nat()),
      });
      const sender = fc.oneof(fc.constant(appWindow.webContents), fc.constant({ mainFrame }), fc.constant(null));
      let tried = 0;
      const before = await snapshotUserFiles();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...requestNames), sender, fc.option(frame), async (name, from, senderFrame) => {
          const trusted =
            from === appWindow.webContents &&
            senderFrame !== null &&
            senderFrame.parent === null &&
            senderFrame.processId === 7 &&
            senderFrame.routingId === 1 &&
            senderFrame.url === rendererUrl;
          if (trusted) return;
          tried++;
          const result = await call(name, { sender: from, senderFrame } as unknown as IpcMainInvokeEvent, {});
          expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
        }),
        { numRuns: atScale(100, 5_000) },
      );
      recordFigure('badInputs', { tried }, 'ipc');
      expect(await snapshotUserFiles()).toEqual(before);
    },
    timeoutAtScale(30_000, 1_800_000),
  );
});
