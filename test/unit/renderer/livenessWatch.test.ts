import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANSWER_MS, LivenessWatch, QUIET_MS } from '../../../renderer/src/api/livenessWatch';

describe('the watch on a connection that goes silent without closing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function harness() {
    const calls = { probe: 0, silent: 0 };
    const watch = new LivenessWatch({ probe: () => calls.probe++, onSilent: () => calls.silent++ });
    return { watch, calls };
  }

  it('asks a quiet server whether it is there, and gives the connection up when no answer comes', () => {
    const { watch, calls } = harness();
    watch.heard();
    vi.advanceTimersByTime(QUIET_MS - 1);
    expect(calls.probe).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls.probe).toBe(1);
    vi.advanceTimersByTime(ANSWER_MS - 1);
    expect(calls.silent).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls.silent).toBe(1);
    vi.advanceTimersByTime(10 * QUIET_MS);
    expect(calls).toEqual({ probe: 1, silent: 1 });
  });

  it('takes any message as a sign of life: an answered probe, or a busy connection, is never given up', () => {
    const { watch, calls } = harness();
    watch.heard();
    vi.advanceTimersByTime(QUIET_MS);
    expect(calls.probe).toBe(1);
    vi.advanceTimersByTime(ANSWER_MS - 1);
    watch.heard();
    for (let i = 0; i < 20; i++) {
      vi.advanceTimersByTime(QUIET_MS - 1);
      watch.heard();
    }
    expect(calls).toEqual({ probe: 1, silent: 0 });
  });

  it('watches nothing once stopped (the connection closed by itself)', () => {
    const { watch, calls } = harness();
    watch.heard();
    watch.stop();
    vi.advanceTimersByTime(10 * QUIET_MS);
    expect(calls).toEqual({ probe: 0, silent: 0 });
  });
});
