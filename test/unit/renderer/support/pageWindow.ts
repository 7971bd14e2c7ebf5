import type { Api } from '../../../../shared/contract/api';

/**
 * The part of a browser window the renderer's stores use: the location with its hash, the history they push onto,
 * its `popstate`, and the Api the preload would expose. The tests run under node (no DOM is installed), so this stands
 * in for the page; installing it before a store is imported is what the page's bootstrap does.
 */
export class PageWindow {
  readonly location = { origin: 'http://127.0.0.1:4173', pathname: '/', hash: '' };
  /** Every hash pushed onto the history, oldest first; the first is the one the page was opened with. */
  readonly entries: string[];
  private position = 0;
  private readonly popListeners: (() => void)[] = [];
  readonly history = {
    pushState: (_state: unknown, _title: string, hash: string): void => {
      this.entries.splice(this.position + 1, Infinity, hash);
      this.position = this.entries.length - 1;
      this.location.hash = hash;
    },
  };

  constructor(
    openedAt: string,
    readonly api?: Api,
  ) {
    this.location.hash = openedAt;
    this.entries = [openedAt];
  }

  addEventListener(type: string, listener: () => void): void {
    if (type === 'popstate') this.popListeners.push(listener);
  }

  /** The back button: the previous entry's hash, then `popstate`, as a browser does. */
  back(): void {
    if (this.position === 0) return;
    this.position--;
    this.location.hash = this.entries[this.position];
    for (const listener of this.popListeners) listener();
  }

  install(): void {
    (globalThis as { window?: unknown }).window = this;
  }
}
