import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { Api } from '../../../shared/contract/api';
import { requestNames } from '../../../shared/contract/channels';
import { eventNames, subscriberName } from '../../../shared/contract/events';
import type { HomeSnapshot } from '../../../shared/model/home';

const electronMock = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events');
  return {
    exposed: [] as [string, unknown][],
    ipcRenderer: Object.assign(new EventEmitter(), { invoke: vi.fn((..._args: unknown[]) => Promise.resolve({ ok: true, value: null })) }),
  };
});

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, value: unknown) => electronMock.exposed.push([key, value]),
    exposeInIsolatedWorld: () => {
      throw new Error('the preload must not expose anything to other worlds');
    },
  },
  ipcRenderer: electronMock.ipcRenderer,
}));

await import('../../../electron/preload/index');

const [[exposedKey, exposedApi]] = electronMock.exposed;
const api = exposedApi as Api;

describe('preload', () => {
  it('exposes one object, `api`, and nothing else', () => {
    expect(electronMock.exposed).toHaveLength(1);
    expect(exposedKey).toBe('api');
  });

  it('offers exactly the request invokers and event subscribers of the contract', () => {
    const expected = [...requestNames, ...eventNames.map(subscriberName)].sort();
    expect(Object.keys(api).sort()).toEqual(expected);
    for (const key of expected) expect(typeof (api as unknown as Record<string, unknown>)[key], key).toBe('function');
  });

  it('sends a request on its own channel with the arguments untouched, and returns the envelope', async () => {
    const ref = { configRoot: '/home/me/.claude', slug: '-home-me-project' };
    await expect(api.listSessions(ref)).resolves.toEqual({ ok: true, value: null });
    expect(electronMock.ipcRenderer.invoke).toHaveBeenLastCalledWith('listSessions', ref);
  });

  it('hands subscribers only the payload, never the IPC event, and unsubscribes cleanly', () => {
    const listener = vi.fn();
    const unsubscribe = api.onHomeChanged(listener);
    const payload = { dataDir: '/data' } as unknown as HomeSnapshot;
    const ipcEvent = { sender: electronMock.ipcRenderer, senderId: 0, ports: [] };

    electronMock.ipcRenderer.emit('homeChanged', ipcEvent, payload);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(listener.mock.calls[0]).toEqual([payload]);

    unsubscribe();
    expect(electronMock.ipcRenderer.listenerCount('homeChanged')).toBe(0);
    electronMock.ipcRenderer.emit('homeChanged', ipcEvent, payload);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('keeps each subscription separate', () => {
    const first = vi.fn();
    const second = vi.fn();
    const unsubscribeFirst = api.onHomeChanged(first);
    const unsubscribeSecond = api.onHomeChanged(second);
    unsubscribeFirst();
    electronMock.ipcRenderer.emit('homeChanged', new EventEmitter(), 'payload');
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith('payload');
    unsubscribeSecond();
  });
});
