import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProcessAlive, LOCK_FILE_NAME, readConsolidationLockStatus } from '../../../../electron/core/lock/consolidationLockStatus';
import { DEAD_PID } from '../../../fixtures/scenarioHome';

let tmp: string;
let n = 0;
const MTIME = new Date('2026-05-03T04:05:06.000Z');

beforeAll(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-lock-')));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function memoryWithLock(body: string | null): Promise<string> {
  const dir = join(tmp, `m${n++}`);
  await mkdir(dir, { recursive: true });
  if (body !== null) {
    await writeFile(join(dir, LOCK_FILE_NAME), body);
    await utimes(join(dir, LOCK_FILE_NAME), MTIME, MTIME);
  }
  return dir;
}

describe('readConsolidationLockStatus', () => {
  it('no lock file', async () => {
    expect(await readConsolidationLockStatus(await memoryWithLock(null))).toEqual({
      exists: false,
      lastConsolidatedAt: null,
      holderPid: null,
      holderAlive: null,
    });
  });

  it('no memory folder at all', async () => {
    expect((await readConsolidationLockStatus(join(tmp, 'does-not-exist'))).exists).toBe(false);
  });

  it('a live holder (this process)', async () => {
    expect(await readConsolidationLockStatus(await memoryWithLock(String(process.pid)))).toEqual({
      exists: true,
      lastConsolidatedAt: MTIME.toISOString(),
      holderPid: process.pid,
      holderAlive: true,
    });
  });

  it('a dead holder', async () => {
    expect(await readConsolidationLockStatus(await memoryWithLock(`${DEAD_PID}\n`))).toEqual({
      exists: true,
      lastConsolidatedAt: MTIME.toISOString(),
      holderPid: DEAD_PID,
      holderAlive: false,
    });
  });

  it.each([
    ['garbage', 'not-a-pid'],
    ['empty body (after rollback)', ''],
    ['negative', '-5'],
    ['zero', '0'],
    ['float', '12.5'],
    ['too long', '1'.repeat(80)],
    ['binary', '\u0000\u0001'],
  ])('%s body → exists, lastConsolidatedAt from mtime, no holder', async (_label, body) => {
    expect(await readConsolidationLockStatus(await memoryWithLock(body))).toEqual({
      exists: true,
      lastConsolidatedAt: MTIME.toISOString(),
      holderPid: null,
      holderAlive: null,
    });
  });

  it('a folder named .consolidate-lock has no holder', async () => {
    const dir = await memoryWithLock(null);
    await mkdir(join(dir, LOCK_FILE_NAME));
    expect(await readConsolidationLockStatus(dir)).toMatchObject({ exists: true, holderPid: null, holderAlive: null });
  });

  it('never touches the lock (mtime and body unchanged)', async () => {
    const dir = await memoryWithLock(String(process.pid));
    await readConsolidationLockStatus(dir);
    const after = await stat(join(dir, LOCK_FILE_NAME));
    expect(after.mtime.toISOString()).toBe(MTIME.toISOString());
  });

  it('isProcessAlive', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(DEAD_PID)).toBe(false);
  });
});
