import { join } from 'node:path';
import type { DreamGate } from '../../../shared/jobs/jobTypes';
import type { ConsolidationLockStatus } from '../../../shared/model/memory';
import { readSettingsFile } from '../layout/settingsFiles';
import { HOLDER_STALE_MS } from '../lock/liveDreamLock';
import { countOf } from '../../../shared/text/plural';

/** Claude Code's defaults (autoDream config.ts): a day since the last consolidation and five sessions since. */
export const MIN_HOURS = 24;
export const MIN_SESSIONS = 5;

export interface DreamGateInput {
  readonly lock: ConsolidationLockStatus;
  /** Modification times (ms) of the project's session files. */
  readonly sessionMtimes: readonly number[];
  /** The config root whose `settings.json` holds `autoDreamEnabled` and `autoMemoryEnabled`. */
  readonly configRoot: string;
  readonly now: number;
}

/** Evaluates Claude Code's auto-dream gate (claude-code-state.md §7.3) from what is on disk. Reads only. */
export async function readDreamGate(input: DreamGateInput): Promise<DreamGate> {
  const { lock, now } = input;
  const read = await readSettingsFile(join(input.configRoot, 'settings.json'));
  const settings = read.values ?? {};
  const autoDreamEnabled = typeof settings.autoDreamEnabled === 'boolean' ? settings.autoDreamEnabled : null;
  const autoMemoryEnabled = settings.autoMemoryEnabled !== false;
  const lastMs = lock.lastConsolidatedAt === null ? 0 : Date.parse(lock.lastConsolidatedAt);
  const hoursSince = lock.lastConsolidatedAt === null ? null : (now - lastMs) / 3_600_000;
  const sessionsSince = input.sessionMtimes.filter((mtime) => mtime > lastMs).length;
  const stale = now - lastMs >= HOLDER_STALE_MS;
  const holder = lock.holderPid === null ? null : { pid: lock.holderPid, alive: lock.holderAlive === true, stale };

  const reasons: string[] = [];
  if (!autoMemoryEnabled) reasons.push('auto memory is turned off (autoMemoryEnabled: false)');
  if (autoDreamEnabled === false) reasons.push('auto-dream is turned off (autoDreamEnabled: false)');
  if (hoursSince !== null && hoursSince < MIN_HOURS)
    reasons.push(`only ${Math.floor(hoursSince)} h since the last consolidation (needs ${MIN_HOURS} h)`);
  if (sessionsSince < MIN_SESSIONS) reasons.push(`${countOf(sessionsSince, 'session')} since (needs ${MIN_SESSIONS})`);
  if (holder?.alive && !holder.stale) reasons.push(`process ${holder.pid} holds the lock right now`);
  let wouldFire: boolean | null = reasons.length === 0;
  if (wouldFire && autoDreamEnabled === null) {
    wouldFire = null;
    reasons.push(
      read.warning
        ? 'settings.json cannot be read, so whether auto-dream is on is unknown'
        : 'autoDreamEnabled is not set, so Claude Code follows a server-side flag this app cannot see',
    );
  }
  return {
    lastConsolidatedAt: lock.lastConsolidatedAt,
    hoursSince,
    sessionsSince,
    minHours: MIN_HOURS,
    minSessions: MIN_SESSIONS,
    autoDreamEnabled,
    autoMemoryEnabled,
    settingsProblem: read.warning?.message ?? null,
    holder,
    wouldFire,
    reasons,
  };
}

/**
 * Whether a reviewed dream runs now on this gate: every condition of Claude Code's own (auto memory on, a day and
 * five sessions since the last consolidation, no live holder of the lock) and `autoDreamEnabled` not false. An
 * unset `autoDreamEnabled` counts as on: the server-side flag it would follow cannot be seen, and the user asked
 * for reviewed dreams. `ignoreAutoDreamOff` is for a config root where the user had this app turn Claude Code's
 * auto-dream off so that reviewed dreams take its place.
 */
export function gateOpensForReviewedDream(gate: DreamGate, options: { readonly ignoreAutoDreamOff?: boolean } = {}): boolean {
  if (!gate.autoMemoryEnabled) return false;
  if (gate.autoDreamEnabled === false && !options.ignoreAutoDreamOff) return false;
  if (gate.hoursSince !== null && gate.hoursSince < gate.minHours) return false;
  if (gate.sessionsSince < gate.minSessions) return false;
  return !(gate.holder?.alive && !gate.holder.stale);
}
