import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DreamGateCache } from '../../../../electron/core/jobs/DreamGateCache';

const HOUR = 3_600_000;
const ROOT = '/home/me/.claude';
const MEMORY = '/home/me/.claude/projects/-home-me-app/memory';
const NOW = Date.parse('2026-06-10T12:00:00.000Z');

describe('DreamGateCache', () => {
  it('opens after a day and five sessions since the last consolidation, as Claude Code’s gate does', () => {
    const cache = new DreamGateCache();
    const last = NOW - 25 * HOUR;
    cache.setGate(MEMORY, last, [
      ['a', last - HOUR],
      ['b', last + HOUR],
      ['c', last + 2 * HOUR],
      ['d', last + 3 * HOUR],
    ]);
    expect(cache.mayBeOpen(MEMORY, ROOT, NOW)).toBe(false);
    cache.noteSession(MEMORY, 'e', last + 4 * HOUR);
    expect(cache.mayBeOpen(MEMORY, ROOT, NOW)).toBe(false);
    // The old session grows: now it counts.
    cache.noteSession(MEMORY, 'a', NOW);
    expect(cache.mayBeOpen(MEMORY, ROOT, NOW)).toBe(true);
    // Not a day yet since the last consolidation.
    expect(cache.mayBeOpen(MEMORY, ROOT, last + 23 * HOUR)).toBe(false);
    // A dream ran: everything is counted from its lock again.
    cache.setLastConsolidated(MEMORY, NOW - HOUR);
    expect(cache.mayBeOpen(MEMORY, ROOT, NOW + 30 * HOUR)).toBe(false);
    // A session that goes away stops counting.
    cache.setLastConsolidated(MEMORY, last);
    cache.noteSession(MEMORY, 'e', null);
    expect(cache.mayBeOpen(MEMORY, ROOT, NOW)).toBe(false);
  });

  it('stays shut when auto memory or auto-dream is off', () => {
    const cache = new DreamGateCache();
    cache.setGate(
      MEMORY,
      0,
      ['a', 'b', 'c', 'd', 'e'].map((id) => [id, NOW - HOUR] as const),
    );
    expect(cache.mayBeOpen(MEMORY, ROOT, NOW)).toBe(true);
    cache.setRootSettings(ROOT, { autoDreamEnabled: false, autoMemoryEnabled: true });
    expect(cache.mayBeOpen(MEMORY, ROOT, NOW)).toBe(false);
    cache.setRootSettings(ROOT, { autoDreamEnabled: null, autoMemoryEnabled: false });
    expect(cache.mayBeOpen(MEMORY, ROOT, NOW)).toBe(false);
    cache.setRootSettings(ROOT, { autoDreamEnabled: null, autoMemoryEnabled: true });
    expect(cache.mayBeOpen(MEMORY, ROOT, NOW)).toBe(true);
  });

  it('ignores sessions of memory folders it does not follow', () => {
    const cache = new DreamGateCache();
    const other = '/home/me/.claude/projects/-other/memory';
    for (const id of ['a', 'b', 'c', 'd', 'e']) cache.noteSession(other, id, NOW);
    expect(cache.has(other)).toBe(false);
    expect(cache.mayBeOpen(other, ROOT, NOW)).toBe(false);
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
        cache.setGate(MEMORY, 0, []);
        const mtimes = new Map<string, number>();
        let last = 0;
        for (const e of events) {
          if (e.kind === 'lock') {
            last = e.last;
            cache.setLastConsolidated(MEMORY, e.last * HOUR);
          } else {
            if (e.mtime === null) mtimes.delete(e.id);
            else mtimes.set(e.id, e.mtime);
            cache.noteSession(MEMORY, e.id, e.mtime === null ? null : e.mtime * HOUR);
          }
          const since = [...mtimes.values()].filter((m) => m > last).length;
          const now = (last + 24) * HOUR;
          expect(cache.mayBeOpen(MEMORY, ROOT, now)).toBe(since >= 5);
        }
      }),
    );
  });
});
