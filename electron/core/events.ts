/** A subscription: call it with a listener, call what it returns to stop listening. */
export type Event<T> = (listener: (value: T) => void) => () => void;

/** Anything with a `dispose()`, or a bare unsubscribe function. */
export type Disposable = { dispose(): void } | (() => void);

/** The same, for teardowns that finish later (a watcher closing, a worker ending). */
export type AsyncDisposable = { dispose(): void | Promise<void> } | (() => void | Promise<void>);

function disposeOne(item: AsyncDisposable): void | Promise<void> {
  return typeof item === 'function' ? item() : item.dispose();
}

/**
 * One typed event of a service. Its contract:
 * - listeners are called in the order they subscribed, each once per `fire` however often it subscribed;
 * - a listener that unsubscribes (or an emitter disposed) during a `fire` stops the listeners not yet called;
 *   one that subscribes during a `fire` hears the next one, not this one;
 * - a listener that throws does not stop the others: every listener runs, then `fire` throws the first error,
 *   so the firing code sees the failure exactly as it did when listeners were called in a bare loop;
 * - after `dispose` nothing is kept and subscribing does nothing.
 */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return () => undefined;
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Whether anyone listens: lets a service skip computing a payload nobody will read. */
  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  fire(value: T): void {
    if (this.listeners.size === 0) return;
    let failure: { error: unknown } | null = null;
    for (const listener of [...this.listeners]) {
      if (!this.listeners.has(listener)) continue;
      try {
        listener(value);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }

  /**
   * Calls every listener and waits for the promises they return; resolves (never rejects) once all have settled,
   * with the errors of those that failed, so the caller decides what a failed listener means.
   */
  async fireAndSettle(value: T): Promise<unknown[]> {
    const results = await Promise.allSettled([...this.listeners].map((listener) => Promise.resolve().then(() => listener(value))));
    return results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

/**
 * Holds what a service must undo when it goes (subscriptions, emitters) and undoes it all in the order added.
 * One that throws does not stop the rest; the first error is thrown after all ran. What is added after
 * `dispose` is disposed at once.
 */
export class DisposableStore {
  private items: Disposable[] = [];
  private disposed = false;

  add<D extends Disposable>(item: D): D {
    if (this.disposed) disposeOne(item);
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    this.disposed = true;
    const items = this.items;
    this.items = [];
    let failure: { error: unknown } | null = null;
    for (const item of items) {
      try {
        disposeOne(item);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}

/**
 * The async form, for a composition root whose services close one after another in a set order (the scheduler
 * before the jobs it starts, the home last): each is awaited before the next; one that fails does not stop the rest,
 * and the first failure rejects after all ran.
 */
export class AsyncDisposableStore {
  private items: AsyncDisposable[] = [];

  add<D extends AsyncDisposable>(item: D): D {
    this.items.push(item);
    return item;
  }

  async dispose(): Promise<void> {
    const items = this.items;
    this.items = [];
    let failure: { error: unknown } | null = null;
    for (const item of items) {
      try {
        await disposeOne(item);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}
