/** Waits between tries to reach a lost server: quick at first (a blip), doubling up to a ceiling. */
export const RECONNECT_BACKOFF = { firstMs: 500, factor: 2, maxMs: 15_000, jitter: 0.2 } as const;

/** A try that has neither opened nor failed by then is given up (a tunnel that swallows the handshake). */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * How long to wait before try number `attempt` (1 for the first after a loss). Jitter of ±20 % keeps the tabs
 * of one server from all knocking at the same instant when it comes back.
 */
export function reconnectDelay(attempt: number, random: () => number = Math.random): number {
  const { firstMs, factor, maxMs, jitter } = RECONNECT_BACKOFF;
  const base = Math.min(maxMs, firstMs * factor ** Math.max(0, attempt - 1));
  return Math.round(base * (1 + jitter * (2 * random() - 1)));
}

/** Where the page's connection to the engine stands. */
export type ConnectionState =
  /** The first connection is on its way: requests wait for it. */
  | { readonly status: 'connecting' }
  | { readonly status: 'online' }
  /**
   * The connection was lost (or never came up): requests fail at once. `retryAt` is when the next try starts, null
   * while one is under way; `attempt` counts the tries since the loss.
   */
  | { readonly status: 'offline'; readonly attempt: number; readonly retryAt: number | null };

export interface ReconnectLoopOptions {
  /** Opens a new connection; its outcome comes back through `opened()` or `closed()`. */
  readonly open: () => void;
  /** Gives up the try under way (it will then report `closed()`). */
  readonly abandon: () => void;
  readonly onChange: (state: ConnectionState) => void;
  /** Told each time the connection comes back after a loss, so what the page shows can be read again. */
  readonly onReconnected: () => void;
  readonly random?: () => number;
}

/**
 * Keeps the page connected: one connection at a time; after a loss, tries again with a growing wait (or at once
 * when asked), and says at every step where it stands. Stopped for good when the server refuses the page.
 */
export class ReconnectLoop {
  private state: ConnectionState = { status: 'connecting' };
  private trying = false;
  private stopped = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private connectTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: ReconnectLoopOptions) {}

  get current(): ConnectionState {
    return this.state;
  }

  start(): void {
    this.tryNow();
  }

  /** The connection under way opened. */
  opened(): void {
    if (this.stopped) return;
    this.trying = false;
    this.clearTimers();
    // Whatever failed while offline (or a first connection that took several tries) is read again.
    const wasLost = this.state.status === 'offline';
    this.publish({ status: 'online' });
    if (wasLost) this.options.onReconnected();
  }

  /** The connection closed, or the try failed: wait, then try again. */
  closed(): void {
    if (this.stopped) return;
    this.trying = false;
    this.clearTimers();
    const attempt = this.state.status === 'offline' ? this.state.attempt + 1 : 1;
    const wait = reconnectDelay(attempt, this.options.random);
    this.retryTimer = setTimeout(() => this.tryNow(), wait);
    this.publish({ status: 'offline', attempt, retryAt: Date.now() + wait });
  }

  /** The "Retry now" button: skip the wait (a try already under way is left to finish). */
  retryNow(): void {
    if (this.stopped || this.trying || this.state.status !== 'offline') return;
    this.tryNow();
  }

  /** The server refused the page: no more tries. */
  stop(): void {
    this.stopped = true;
    this.clearTimers();
  }

  private tryNow(): void {
    this.clearTimers();
    this.trying = true;
    if (this.state.status === 'offline') this.publish({ ...this.state, retryAt: null });
    this.connectTimer = setTimeout(() => this.options.abandon(), CONNECT_TIMEOUT_MS);
    this.options.open();
  }

  private clearTimers(): void {
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    if (this.connectTimer !== null) clearTimeout(this.connectTimer);
    this.retryTimer = null;
    this.connectTimer = null;
  }

  private publish(state: ConnectionState): void {
    this.state = state;
    this.options.onChange(state);
  }
}
