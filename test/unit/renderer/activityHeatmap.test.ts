import { describe, expect, it } from 'vitest';
import { dayHeatmap, hourHeatmap, levelOf } from '../../../renderer/src/features/sessions/activityHeatmap';

describe('heatmap levels', () => {
  it('is 0 for nothing and 1–4 by quarters of the busiest square', () => {
    expect(levelOf(0, 8)).toBe(0);
    expect(levelOf(1, 8)).toBe(1);
    expect(levelOf(2, 8)).toBe(1);
    expect(levelOf(3, 8)).toBe(2);
    expect(levelOf(6, 8)).toBe(3);
    expect(levelOf(8, 8)).toBe(4);
    expect(levelOf(5, 0)).toBe(0);
  });
});

describe('the year and month heatmaps', () => {
  // Thursday 2026-11-26.
  const today = '2026-11-26';
  const days = [
    { day: '2026-11-26', sessions: 4, tokens: 400 },
    { day: '2026-11-23', sessions: 1, tokens: 10 },
    { day: '2026-11-01', sessions: 2, tokens: 20 },
    { day: '2025-01-01', sessions: 9, tokens: 90 },
  ];

  it('lays a year out as 53 weeks of Monday-to-Sunday columns, ending today', () => {
    const map = dayHeatmap(days, 'year', today);
    expect(map.columns).toBe(53);
    expect(map.rows).toBe(7);
    // 52 full weeks and this week's Monday to Thursday; nothing after today.
    expect(map.cells).toHaveLength(52 * 7 + 4);
    const last = map.cells.at(-1);
    expect(last).toMatchObject({ day: '2026-11-26', column: 52, row: 3, sessions: 4, level: 4 });
    expect(map.cells.find((c) => c.day === '2026-11-23')).toMatchObject({ column: 52, row: 0, sessions: 1, level: 1 });
    expect(map.cells[0]).toMatchObject({ day: '2025-11-24', column: 0, row: 0 });
    // A day older than the year is not in it.
    expect(map.cells.some((c) => c.day === '2025-01-01')).toBe(false);
    expect(map.sessions).toBe(7);
    // 2026-11-01 is a Sunday: the bottom of column 48.
    expect(map.columnLabels.find((label) => label.text === 'Nov')?.column).toBe(48);
  });

  it('lays a month out as the last 6 weeks, labelled from its first day', () => {
    const map = dayHeatmap(days, 'month', today);
    expect(map.columns).toBe(6);
    expect(map.cells).toHaveLength(5 * 7 + 4);
    expect(map.cells[0].day).toBe('2026-10-19');
    expect(map.columnLabels[0]).toEqual({ column: 0, text: 'Oct 19' });
    expect(map.columnLabels).toContainEqual({ column: 1, text: 'Nov 1' });
    expect(map.sessions).toBe(7);
  });
});

describe('the week heatmap', () => {
  it('counts sessions by the hour they started, the last seven days as rows', () => {
    const at = (day: number, hour: number, minute = 0) => new Date(2026, 10, day, hour, minute);
    const map = hourHeatmap(
      [
        { start: at(26, 9, 5), tokens: 100 },
        { start: at(26, 9, 50), tokens: 50 },
        { start: at(20, 23), tokens: 7 },
        { start: at(19, 12), tokens: 1 },
      ],
      '2026-11-26',
    );
    expect(map.columns).toBe(24);
    expect(map.cells).toHaveLength(7 * 24);
    expect(map.rowLabels).toEqual(['Fri 20', 'Sat 21', 'Sun 22', 'Mon 23', 'Tue 24', 'Wed 25', 'Thu 26']);
    expect(map.cells.find((c) => c.day === '2026-11-26' && c.hour === 9)).toMatchObject({
      sessions: 2,
      tokens: 150,
      level: 4,
      row: 6,
      column: 9,
    });
    expect(map.cells.find((c) => c.day === '2026-11-20' && c.hour === 23)).toMatchObject({ sessions: 1, level: 2, row: 0 });
    expect(map.sessions).toBe(3);
  });
});
