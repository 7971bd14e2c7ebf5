import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  releaseConsolidationLockAfterDream,
  rollbackConsolidationLock,
  tryAcquireConsolidationLock,
} from '../../../../electron/core/lock/consolidationLock';
import { DEAD_PID } from '../../../fixtures/scenarioHome';

const HOUR = 3_600_000;
const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-lock-')));
let dir: string;
let counter = 0;
let sleeper: ChildProcess | null = null;

async function writeLock(body: string, mtimeMs: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, '.consolidate-lock'), body);
  await utimes(join(dir, '.consolidate-lock'), mtimeMs / 1000, mtimeMs / 1000);
}

async function lock(): Promise<{ body: string; mtimeMs: number } | null> {
  const path = join(dir, '.consolidate-lock');
  const stats = await stat(path).catch(() => null);
  return stats ? { body: await readFile(path, 'utf8'), mtimeMs: Math.round(stats.mtimeMs) } : null;
}

function livePid(): number {
  sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
  return sleeper.pid!;
}

beforeEach(() => {
  dir = join(tmp, `memory-${++counter}`);
});
afterEach(() => {
  sleeper?.kill();
  sleeper = null;
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('.consolidate-lock, acquired and rolled back as Claude Code does', () => {
  it('creates the folder and the lock with our PID when there is none, and rollback removes it', async () => {
    const held = await tryAcquireConsolidationLock(dir, 4242);
    expect(held).toMatchObject({ priorMtimeMs: 0, pid: 4242 });
    expect((await lock())?.body).toBe('4242');
    await rollbackConsolidationLock(held!);
    expect(await lock()).toBeNull();
  });

  it('takes a lock whose holder is dead, and rollback clears the PID and restores the mtime', async () => {
    const prior = Date.parse('2026-05-01T12:00:00.000Z');
    await writeLock(String(DEAD_PID), prior);
    const held = await tryAcquireConsolidationLock(dir, 4242);
    expect(held?.priorMtimeMs).toBe(prior);
    expect((await lock())?.body).toBe('4242');
    expect((await lock())!.mtimeMs).toBeGreaterThan(prior);
    await rollbackConsolidationLock(held!);
    expect(await lock()).toEqual({ body: '', mtimeMs: prior });
  });

  it('is blocked by a live holder younger than an hour, and leaves that lock exactly as it was', async () => {
    const pid = livePid();
    const recent = Date.now() - 10 * 60_000;
    await writeLock(`${pid}\n`, recent);
    expect(await tryAcquireConsolidationLock(dir, 4242)).toBeNull();
    expect(await lock()).toEqual({ body: `${pid}\n`, mtimeMs: recent });
  });

  it('takes over a live holder older than an hour, and an unparseable body', async () => {
    await writeLock(String(livePid()), Date.now() - 2 * HOUR);
    expect(await tryAcquireConsolidationLock(dir, 4242)).not.toBeNull();
    dir = join(tmp, `memory-${++counter}`);
    await writeLock('garbage', Date.now());
    expect(await tryAcquireConsolidationLock(dir, 4242)).not.toBeNull();
  });

  it('after a dream keeps the mtime of the acquisition and clears the PID', async () => {
    const held = await tryAcquireConsolidationLock(dir, 4242);
    const acquired = (await lock())!.mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await releaseConsolidationLockAfterDream(held!);
    expect(await lock()).toEqual({ body: '', mtimeMs: acquired });
  });

  it('never rolls back or clears a lock another process has taken since', async () => {
    const held = await tryAcquireConsolidationLock(dir, 4242);
    await writeLock('5151', Date.now());
    const before = await lock();
    await rollbackConsolidationLock(held!);
    await releaseConsolidationLockAfterDream(held!);
    expect(await lock()).toEqual(before);
  });

  it('refuses a lock path that is a symlink and writes nothing through it', async () => {
    const target = join(tmp, `target-${counter}`);
    await writeFile(target, 'precious');
    await mkdir(dir, { recursive: true });
    await symlink(target, join(dir, '.consolidate-lock'));
    await expect(tryAcquireConsolidationLock(dir, 4242)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await readFile(target, 'utf8')).toBe('precious');
  });
});
