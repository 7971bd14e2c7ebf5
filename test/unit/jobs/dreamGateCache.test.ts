import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DreamGateCache } from '../../../electron/core/jobs/DreamGateCache';

const HOUR = 3_600_000;
const ref = { configRoot: '/home/me/.claude', slug: '-home-me-app' };
const NOW = Date.parse('2026-06-10T12:00:00.000Z');

describe('DreamGateCache', () => {
  it('opens after a day and five sessions since the last consolidation, as Claude Code’s gate does', () => {
    const cache = new DreamGateCache();
    const last = NOW - 25 * HOUR;
    cache.setProject(ref, last, [
      ['a', last - HOUR],
      ['b', last + HOUR],
      ['c', last + 2 * HOUR],
      ['d', last + 3 * HOUR],
    ]);
    expect(cache.mayBeOpen(ref, NOW)).toBe(false);
    cache.noteSession(ref, 'e', last + 4 * HOUR);
    expect(cache.mayBeOpen(ref, NOW)).toBe(false);
    // The old session grows: now it counts.
    cache.noteSession(ref, 'a', NOW);
    expect(cache.mayBeOpen(ref, NOW)).toBe(true);
    // Not a day yet since the last consolidation.
    expect(cache.mayBeOpen(ref, last + 23 * HOUR)).toBe(false);
    // A dream ran: everything is counted from its lock again.
    cache.setLastConsolidated(ref, NOW - HOUR);
    expect(cache.mayBeOpen(ref, NOW + 30 * HOUR)).toBe(false);
    // A session that goes away stops counting.
    cache.setLastConsolidated(ref, last);
    cache.noteSession(ref, 'e', null);
    expect(cache.mayBeOpen(ref, NOW)).toBe(false);
  });

  it('stays shut when auto memory or auto-dream is off', () => {
    const cache = new DreamGateCache();
    cache.setProject(
      ref,
      0,
      ['a', 'b', 'c', 'd', 'e'].map((id) => [id, NOW - HOUR] as const),
    );
    expect(cache.mayBeOpen(ref, NOW)).toBe(true);
    cache.setRootSettings(ref.configRoot, { autoDreamEnabled: false, autoMemoryEnabled: true });
    expect(cache.mayBeOpen(ref, NOW)).toBe(false);
    cache.setRootSettings(ref.configRoot, { autoDreamEnabled: null, autoMemoryEnabled: false });
    expect(cache.mayBeOpen(ref, NOW)).toBe(false);
    cache.setRootSettings(ref.configRoot, { autoDreamEnabled: null, autoMemoryEnabled: true });
    expect(cache.mayBeOpen(ref, NOW)).toBe(true);
  });

  it('ignores sessions of projects it does not follow', () => {
    const cache = new DreamGateCache();
    const other = { ...ref, slug: '-other' };
    for (const id of ['a', 'b', 'c', 'd', 'e']) cache.noteSession(other, id, NOW);
    expect(cache.has(other)).toBe(false);
    expect(cache.mayBeOpen(other, NOW)).toBe(false);
  });

  it('counts exactly what a fresh count of every session would, whatever the order of changes', () => {
    const event = fc.oneof(
      fc.record({
        kind: fc.constant('session' as const),
        id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'),
        mtime: fc.option(fc.integer({ min: 0, max: 100 })),
      }),
      fc.record({ kind: fc.constant('lock' as const), last: fc.integer({ min: 0, max: 100 }) }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), (events) => {
        const cache = new DreamGateCache();
        cache.setProject(ref, 0, []);
        const mtimes = new Map<string, number>();
        let last = 0;
        for (const e of events) {
          if (e.kind === 'lock') {
            last = e.last;
            cache.setLastConsolidated(ref, e.last * HOUR);
          } else {
            if (e.mtime === null) mtimes.delete(e.id);
            else mtimes.set(e.id, e.mtime);
            cache.noteSession(ref, e.id, e.mtime === null ? null : e.mtime * HOUR);
          }
          const since = [...mtimes.values()].filter((m) => m > last).length;
          const now = (last + 24) * HOUR;
          expect(cache.mayBeOpen(ref, now)).toBe(since >= 5);
        }
      }),
    );
  });
});
