import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localDay, nextLocalMidnight, TokenBudget } from '../../../../electron/core/jobs/TokenBudget';

describe('TokenBudget', () => {
  let dir: string;
  let now: Date;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ccmem-budget-'));
    now = new Date(2026, 5, 10, 22, 30);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('adds up the day’s background tokens, starts afresh the next local day, and says when it resumes', async () => {
    const path = join(dir, 'background', 'budget.json');
    const budget = new TokenBudget(path, () => now);
    expect(await budget.status(1000, 0)).toEqual({ day: '2026-06-10', limit: 1000, spent: 0, exhausted: false, resumesAt: null });
    await budget.spend(600);
    await budget.spend(300);
    expect(await budget.status(1000, 50)).toMatchObject({ spent: 950, exhausted: false });
    expect(await budget.status(1000, 100)).toEqual({
      day: '2026-06-10',
      limit: 1000,
      spent: 1000,
      exhausted: true,
      resumesAt: new Date(2026, 5, 11).toISOString(),
    });
    // Another process sharing the data folder (a cron `ccmem dream --due`) sees the same total.
    expect(await new TokenBudget(path, () => now).spentToday()).toBe(900);
    now = new Date(2026, 5, 11, 0, 1);
    expect(await budget.status(1000, 0)).toMatchObject({ day: '2026-06-11', spent: 0, exhausted: false });
    await budget.spend(10);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ day: '2026-06-11', spent: 10 });
  });

  it('reads a damaged ledger as nothing spent', async () => {
    const path = join(dir, 'budget.json');
    await writeFile(path, '{"day": "2026-06-10", "spent": -5');
    expect(await new TokenBudget(path, () => now).spentToday()).toBe(0);
  });

  it('uses the local calendar', () => {
    expect(localDay(new Date(2026, 0, 2, 23, 59))).toBe('2026-01-02');
    expect(nextLocalMidnight(new Date(2026, 11, 31, 8))).toEqual(new Date(2027, 0, 1));
  });
});
