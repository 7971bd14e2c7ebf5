import { describe, expect, it } from 'vitest';
import { AsyncDisposableStore, DisposableStore, Emitter } from '../../../electron/core/events';

describe('Emitter', () => {
  it('calls listeners in the order they subscribed, once each however often they subscribed', () => {
    const emitter = new Emitter<number>();
    const heard: string[] = [];
    const first = (n: number) => heard.push(`a${n}`);
    emitter.event(first);
    emitter.event(first);
    emitter.event((n) => heard.push(`b${n}`));
    emitter.fire(1);
    expect(heard).toEqual(['a1', 'b1']);
  });

  it('stops calling a listener once it unsubscribed', () => {
    const emitter = new Emitter<string>();
    const heard: string[] = [];
    const stop = emitter.event((value) => heard.push(value));
    emitter.fire('one');
    stop();
    emitter.fire('two');
    expect(heard).toEqual(['one']);
    expect(emitter.hasListeners).toBe(false);
  });

  it('skips a listener removed by an earlier one during the same fire, and a new one hears only the next fire', () => {
    const emitter = new Emitter<number>();
    const heard: string[] = [];
    let stopSecond = (): void => undefined;
    emitter.event((n) => {
      heard.push(`first${n}`);
      stopSecond();
      emitter.event((m) => heard.push(`late${m}`));
    });
    stopSecond = emitter.event((n) => heard.push(`second${n}`));
    emitter.fire(1);
    expect(heard).toEqual(['first1']);
    emitter.fire(2);
    expect(heard).toEqual(['first1', 'first2', 'late2']);
  });

  it('stops at once when disposed during a fire, and ignores later subscriptions', () => {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    emitter.event(() => emitter.dispose());
    emitter.event((n) => heard.push(n));
    emitter.fire(1);
    emitter.event((n) => heard.push(n));
    emitter.fire(2);
    expect(heard).toEqual([]);
    expect(emitter.hasListeners).toBe(false);
  });

  it('runs every listener when one throws, then throws the first error to the firing code', () => {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    emitter.event(() => {
      throw new Error('first');
    });
    emitter.event((n) => heard.push(n));
    emitter.event(() => {
      throw new Error('second');
    });
    expect(() => emitter.fire(7)).toThrow('first');
    expect(heard).toEqual([7]);
  });

  it('waits for async listeners and hands back the failures instead of rejecting', async () => {
    const emitter = new Emitter<number>();
    const heard: number[] = [];
    emitter.event(async (n) => {
      await new Promise((resolve) => setImmediate(resolve));
      heard.push(n);
    });
    emitter.event(() => Promise.reject(new Error('async failure')));
    emitter.event(() => {
      throw new Error('sync failure');
    });
    const failures = await emitter.fireAndSettle(3);
    expect(heard).toEqual([3]);
    expect(failures.map((error) => (error as Error).message)).toEqual(['async failure', 'sync failure']);
  });
});

describe('DisposableStore', () => {
  it('undoes everything in the order added, past one that throws, then throws its error', () => {
    const store = new DisposableStore();
    const undone: string[] = [];
    store.add(() => undone.push('function'));
    store.add({
      dispose: () => {
        throw new Error('broken');
      },
    });
    store.add({ dispose: () => undone.push('object') });
    expect(() => store.dispose()).toThrow('broken');
    expect(undone).toEqual(['function', 'object']);
    store.dispose();
    expect(undone).toEqual(['function', 'object']);
  });

  it('disposes at once what is added after it was disposed', () => {
    const store = new DisposableStore();
    store.dispose();
    const emitter = store.add(new Emitter<number>());
    const heard: number[] = [];
    emitter.event((n) => heard.push(n));
    emitter.fire(1);
    expect(heard).toEqual([]);
  });
});

describe('AsyncDisposableStore', () => {
  it('awaits each teardown before the next, and a failed one does not stop the rest', async () => {
    const store = new AsyncDisposableStore();
    const undone: string[] = [];
    store.add({
      dispose: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        undone.push('slow');
      },
    });
    store.add(() => Promise.reject(new Error('failed close')));
    store.add(() => {
      undone.push('last');
    });
    await expect(store.dispose()).rejects.toThrow('failed close');
    expect(undone).toEqual(['slow', 'last']);
  });
});
