import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { requestNames } from '../../../shared/contract/channels';
import { eventNames, subscriberName } from '../../../shared/contract/events';
import { hostileValue } from '../support/contractArbitraries';
import { recordFigure } from '../support/figureLog';
import { atScale } from '../support/reliabilityScale';

const electronMock = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events');
  return {
    exposed: [] as [string, unknown][],
    isolated: [] as unknown[],
    ipcRenderer: Object.assign(new EventEmitter(), {
      invoke: vi.fn((..._args: unknown[]) => Promise.resolve({ ok: true, value: null })),
      send: vi.fn(),
      sendSync: vi.fn(),
      postMessage: vi.fn(),
    }),
  };
});

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, value: unknown) => electronMock.exposed.push([key, value]),
    exposeInIsolatedWorld: (...args: unknown[]) => electronMock.isolated.push(args),
  },
  ipcRenderer: electronMock.ipcRenderer,
}));

await import('../../../electron/preload/index');

/** The allow-list is the contract: one invoker per request channel, one subscriber per event. Nothing generic. */
const allowListed = [...requestNames, ...eventNames.map(subscriberName)].sort();

describe('the preload exposes exactly the allow-listed API', () => {
  const [[key, exposed]] = electronMock.exposed;
  const api = exposed as Record<string, (...args: unknown[]) => unknown>;

  it('puts one object, `api`, in the main world and nothing anywhere else', () => {
    expect(electronMock.exposed).toHaveLength(1);
    expect(key).toBe('api');
    expect(electronMock.isolated).toEqual([]);
    expect(Object.keys(api).sort()).toEqual(allowListed);
    expect(Object.getOwnPropertySymbols(api)).toEqual([]);
  });

  it('offers plain functions that carry nothing reachable: no ipcRenderer, no prototype chain of ours', () => {
    for (const name of allowListed) {
      const member = api[name];
      expect(typeof member, name).toBe('function');
      expect(
        Object.getOwnPropertyNames(member).filter((p) => !['length', 'name'].includes(p)),
        name,
      ).toEqual([]);
    }
    const generic = ['invoke', 'send', 'sendSync', 'on', 'once', 'postMessage', 'ipcRenderer', 'require', 'process', 'openExternal'];
    for (const name of generic) expect(Object.hasOwn(api, name), name).toBe(false);
  });

  it('lets no argument choose the channel: each invoker calls its own request channel and nothing else', async () => {
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...requestNames), fc.array(hostileValue, { maxLength: 3 }), async (name, args) => {
        tried++;
        electronMock.ipcRenderer.invoke.mockClear();
        electronMock.ipcRenderer.send.mockClear();
        electronMock.ipcRenderer.sendSync.mockClear();
        await api[name](...args);
        expect(electronMock.ipcRenderer.invoke).toHaveBeenCalledTimes(1);
        expect(electronMock.ipcRenderer.invoke.mock.calls[0][0]).toBe(name);
        expect(electronMock.ipcRenderer.invoke.mock.calls[0][1]).toBe(args[0]);
        expect(electronMock.ipcRenderer.send).not.toHaveBeenCalled();
        expect(electronMock.ipcRenderer.sendSync).not.toHaveBeenCalled();
      }),
      { numRuns: atScale(300, 20_000) },
    );
    recordFigure('badInputs', { tried }, 'ipc');
  });

  it('subscribes each subscriber to its own event only and hands listeners the payload alone', () => {
    fc.assert(
      fc.property(fc.constantFrom(...eventNames), hostileValue, (event, payload) => {
        const before = new Map(eventNames.map((name) => [name, electronMock.ipcRenderer.listenerCount(name)]));
        const received: unknown[][] = [];
        const unsubscribe = api[subscriberName(event)]((...args: unknown[]) => received.push(args)) as () => void;
        for (const name of eventNames) {
          expect(electronMock.ipcRenderer.listenerCount(name), name).toBe((before.get(name) ?? 0) + (name === event ? 1 : 0));
        }
        electronMock.ipcRenderer.emit(event, { sender: electronMock.ipcRenderer, ports: [] }, payload);
        expect(received).toEqual([[payload]]);
        unsubscribe();
        expect(electronMock.ipcRenderer.listenerCount(event)).toBe(before.get(event));
      }),
      { numRuns: atScale(100, 5_000) },
    );
  });
});
