import { mkdtempSync, realpathSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDreamGate } from '../../../../electron/core/jobs/dreamGate';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-05-10T12:00:00.000Z');
const root = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-gate-')));
afterAll(() => rm(root, { recursive: true, force: true }));

const noLock = { exists: false, lastConsolidatedAt: null, holderPid: null, holderAlive: null };
const lockAt = (ms: number, pid: number | null = null, alive: boolean | null = null) => ({
  exists: true,
  lastConsolidatedAt: new Date(ms).toISOString(),
  holderPid: pid,
  holderAlive: alive,
});
const sessions = (count: number, after: number) => Array.from({ length: count }, (_, i) => after + (i + 1) * 1000);

async function settings(value: unknown): Promise<void> {
  await writeFile(join(root, 'settings.json'), JSON.stringify(value));
}

describe("Claude Code's auto-dream gate", () => {
  it('fires after a day and five sessions when autoDreamEnabled is on', async () => {
    await settings({ autoDreamEnabled: true });
    const last = NOW - 30 * HOUR;
    const gate = await readDreamGate({
      lock: lockAt(last),
      sessionMtimes: [...sessions(5, last), last - 1000],
      configRoot: root,
      now: NOW,
    });
    expect(gate).toMatchObject({ sessionsSince: 5, autoDreamEnabled: true, wouldFire: true, reasons: [], holder: null });
    expect(gate.hoursSince).toBeCloseTo(30, 5);
  });

  it('explains each gate that holds it back', async () => {
    await settings({ autoDreamEnabled: true });
    const last = NOW - 0.5 * HOUR;
    const gate = await readDreamGate({
      lock: lockAt(last, process.pid, true),
      sessionMtimes: sessions(2, last),
      configRoot: root,
      now: NOW,
    });
    expect(gate.wouldFire).toBe(false);
    expect(gate.reasons).toEqual([
      'only 0 h since the last consolidation (needs 24 h)',
      '2 sessions since (needs 5)',
      `process ${process.pid} holds the lock right now`,
    ]);
    expect(gate.holder).toEqual({ pid: process.pid, alive: true, stale: false });
  });

  it('cannot tell when autoDreamEnabled is unset, and never fires when it or auto memory is off', async () => {
    await writeFile(join(root, 'settings.json'), '{}');
    const open = { lock: noLock, sessionMtimes: sessions(6, 0), configRoot: root, now: NOW };
    expect(await readDreamGate(open)).toMatchObject({ wouldFire: null, lastConsolidatedAt: null, hoursSince: null, sessionsSince: 6 });
    await settings({ autoDreamEnabled: false });
    expect((await readDreamGate(open)).wouldFire).toBe(false);
    await settings({ autoDreamEnabled: true, autoMemoryEnabled: false });
    expect(await readDreamGate(open)).toMatchObject({ wouldFire: false, autoMemoryEnabled: false });
  });

  it('says settings.json is unreadable when it is not valid JSON, instead of calling the setting unset', async () => {
    await writeFile(join(root, 'settings.json'), '{"autoDreamEnabled": tru');
    const gate = await readDreamGate({ lock: noLock, sessionMtimes: sessions(6, 0), configRoot: root, now: NOW });
    expect(gate.autoDreamEnabled).toBeNull();
    expect(gate.settingsProblem).toMatch(/^Settings file is not valid JSON/);
    expect(gate.wouldFire).toBeNull();
    expect(gate.reasons).toEqual(['settings.json cannot be read, so whether auto-dream is on is unknown']);
    await settings({ autoDreamEnabled: true });
    expect((await readDreamGate({ lock: noLock, sessionMtimes: sessions(6, 0), configRoot: root, now: NOW })).settingsProblem).toBeNull();
  });

  it('does not count a stale holder (over an hour) as blocking', async () => {
    await settings({ autoDreamEnabled: true });
    const last = NOW - 25 * HOUR;
    const gate = await readDreamGate({ lock: lockAt(last, 1234, true), sessionMtimes: sessions(5, last), configRoot: root, now: NOW });
    expect(gate.holder).toEqual({ pid: 1234, alive: true, stale: true });
    expect(gate.wouldFire).toBe(true);
  });
});
