import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CONNECT_TIMEOUT_MS,
  RECONNECT_BACKOFF,
  ReconnectLoop,
  reconnectDelay,
  type ConnectionState,
} from '../../../renderer/src/api/reconnectLoop';

/** A loop whose connections are opened by hand: `open` only counts, the test says how each try ends. */
function harness() {
  const states: ConnectionState[] = [];
  const calls = { open: 0, abandon: 0, reconnected: 0 };
  const loop = new ReconnectLoop({
    open: () => calls.open++,
    abandon: () => calls.abandon++,
    onChange: (state) => states.push(state),
    onReconnected: () => calls.reconnected++,
    // No jitter: the waits are exactly the policy's.
    random: () => 0.5,
  });
  return { loop, states, calls };
}

describe('the backoff between tries to reach a lost server', () => {
  it('starts quick, doubles, and stops growing at the ceiling', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => reconnectDelay(attempt, () => 0.5));
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000]);
  });

  it('spreads tries by at most the jitter either way, so tabs do not knock in step', () => {
    const { jitter } = RECONNECT_BACKOFF;
    expect(reconnectDelay(3, () => 0)).toBe(2000 * (1 - jitter));
    expect(reconnectDelay(3, () => 1)).toBe(2000 * (1 + jitter));
    expect(reconnectDelay(0, () => 0.5)).toBe(500);
  });
});

describe('the reconnect loop', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('connects once at the start and says it is online, without calling that a reconnection', () => {
    const { loop, states, calls } = harness();
    expect(loop.current).toEqual({ status: 'connecting' });
    loop.start();
    expect(calls.open).toBe(1);
    loop.opened();
    expect(states.at(-1)).toEqual({ status: 'online' });
    expect(calls.reconnected).toBe(0);
  });

  it('after a loss says so at once, then retries with growing waits until the server is back', () => {
    const { loop, states, calls } = harness();
    loop.start();
    loop.opened();
    loop.closed();
    expect(states.at(-1)).toEqual({ status: 'offline', attempt: 1, retryAt: Date.now() + 500 });
    vi.advanceTimersByTime(499);
    expect(calls.open).toBe(1);
    vi.advanceTimersByTime(1);
    expect(calls.open).toBe(2);
    expect(states.at(-1)).toEqual({ status: 'offline', attempt: 1, retryAt: null });
    loop.closed();
    expect(states.at(-1)).toMatchObject({ status: 'offline', attempt: 2, retryAt: Date.now() + 1000 });
    vi.advanceTimersByTime(1000);
    expect(calls.open).toBe(3);
    loop.closed();
    expect(states.at(-1)).toMatchObject({ attempt: 3, retryAt: Date.now() + 2000 });
    vi.advanceTimersByTime(2000);
    loop.opened();
    expect(states.at(-1)).toEqual({ status: 'online' });
    expect(calls.reconnected).toBe(1);
    // The next loss starts from the quick end again.
    loop.closed();
    expect(states.at(-1)).toMatchObject({ attempt: 1, retryAt: Date.now() + 500 });
  });

  it('"Retry now" skips the wait, and does nothing while a try is under way or when online', () => {
    const { loop, calls } = harness();
    loop.start();
    loop.opened();
    loop.retryNow();
    expect(calls.open).toBe(1);
    loop.closed();
    loop.closed();
    loop.closed();
    loop.retryNow();
    expect(calls.open).toBe(2);
    loop.retryNow();
    expect(calls.open).toBe(2);
    // The wait that was cancelled does not start a second try later.
    vi.advanceTimersByTime(60_000);
    expect(calls.open).toBe(2);
  });

  it('gives up a try that neither opens nor fails, and counts it as failed', () => {
    const { loop, calls } = harness();
    loop.start();
    vi.advanceTimersByTime(CONNECT_TIMEOUT_MS - 1);
    expect(calls.abandon).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls.abandon).toBe(1);
    // The abandoned socket reports its close; a first connection that failed is a loss like any other.
    loop.closed();
    expect(loop.current).toMatchObject({ status: 'offline', attempt: 1 });
    vi.advanceTimersByTime(500);
    loop.opened();
    expect(calls.abandon).toBe(1);
    expect(calls.reconnected).toBe(1);
  });

  it('stops for good when the server refuses the page', () => {
    const { loop, calls, states } = harness();
    loop.start();
    loop.opened();
    loop.closed();
    const seen = states.length;
    loop.stop();
    vi.advanceTimersByTime(60_000);
    loop.retryNow();
    loop.closed();
    expect(calls.open).toBe(1);
    expect(states).toHaveLength(seen);
  });
});
