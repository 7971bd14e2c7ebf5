/** After this long without a word from the server, the page asks whether it is still there. */
export const QUIET_MS = 15_000;
/** An answer to that question must come within this long, or the connection is given up. */
export const ANSWER_MS = 10_000;

export interface LivenessWatchOptions {
  /** Sends the server something it answers at once (a heartbeat). */
  readonly probe: () => void;
  /** Nothing came back: the connection is dead even though no one closed it (a dropped tunnel, a frozen server). */
  readonly onSilent: () => void;
}

/**
 * Notices a connection that went silent without closing, which would leave every request waiting forever. Any
 * message from the server counts as a sign of life; only a quiet connection is probed.
 */
export class LivenessWatch {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly options: LivenessWatchOptions) {}

  /** Starts watching (the connection just opened) or starts over (a message came in). */
  heard(): void {
    this.stop();
    this.timer = setTimeout(() => {
      this.options.probe();
      this.timer = setTimeout(() => {
        this.timer = null;
        this.options.onSilent();
      }, ANSWER_MS);
    }, QUIET_MS);
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
