import { describe, expect, it } from 'vitest';
import {
  ScanProgress,
  SLOW_MEMORY_READ_ENV,
  testReadDelayFrom,
  type ScanProgressReport,
} from '../../../../electron/core/memory/scanProgress';

describe('the progress of a memory folder scan', () => {
  it('reports the start, then at most every 100 ms, always the last file, then the findings step', async () => {
    let clock = 1000;
    const reports: ScanProgressReport[] = [];
    const progress = new ScanProgress((report) => reports.push(report), { now: () => clock });
    progress.begin(5);
    await progress.fileRead();
    clock += 50;
    await progress.fileRead();
    clock += 60;
    await progress.fileRead();
    await progress.fileRead();
    await progress.fileRead();
    progress.checking();
    expect(reports).toEqual([
      { step: 'reading', done: 0, total: 5 },
      { step: 'reading', done: 3, total: 5 },
      { step: 'reading', done: 5, total: 5 },
      { step: 'checking', done: 5, total: 5 },
    ]);
  });

  it('never counts past the total (a file read twice)', async () => {
    const reports: ScanProgressReport[] = [];
    const progress = new ScanProgress((report) => reports.push(report), { now: () => 0 });
    progress.begin(1);
    await progress.fileRead();
    await progress.fileRead();
    expect(reports.at(-1)).toEqual({ step: 'reading', done: 1, total: 1 });
  });

  it('slows reads only when a test sets the environment variable, and within bounds', () => {
    expect(testReadDelayFrom({})).toBe(0);
    expect(testReadDelayFrom({ [SLOW_MEMORY_READ_ENV]: 'soon' })).toBe(0);
    expect(testReadDelayFrom({ [SLOW_MEMORY_READ_ENV]: '-5' })).toBe(0);
    expect(testReadDelayFrom({ [SLOW_MEMORY_READ_ENV]: '40' })).toBe(40);
    expect(testReadDelayFrom({ [SLOW_MEMORY_READ_ENV]: '999999' })).toBe(2000);
  });
});
