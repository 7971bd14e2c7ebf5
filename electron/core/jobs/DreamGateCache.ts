import type { ProjectRef } from '../../../shared/model/home';
import { MIN_HOURS, MIN_SESSIONS } from './dreamGate';

const HOUR_MS = 3_600_000;

/** Claude Code's settings that open or shut every project's gate in one config root. */
export interface RootGateSettings {
  readonly autoDreamEnabled: boolean | null;
  readonly autoMemoryEnabled: boolean;
}

interface MemoryGate {
  /** The lock's mtime (Claude Code's lastConsolidatedAt), 0 when there is no lock. */
  lastMs: number;
  /** The mtime of each session file of every project using the memory folder, by `sessionKey`. */
  readonly mtimes: Map<string, number>;
  /** How many of them are newer than `lastMs`, kept as sessions change so a check never walks them. */
  since: number;
}

export function projectKey(ref: ProjectRef): string {
  return `${ref.configRoot}\0${ref.slug}`;
}

/** A session of a project, unique across the projects that share one memory folder. */
export function sessionKey(ref: ProjectRef, sessionId: string): string {
  return `${ref.configRoot}\0${ref.slug}\0${sessionId}`;
}

/**
 * Claude Code's auto-dream gate (dreamGate.ts) kept in memory per memory folder (a repository's sub-folders share
 * its memory, and their sessions count toward its gate), so the check that runs on every session change is a few
 * comparisons instead of a stat of the lock, a read of settings.json and a listing of the sessions. It only says
 * when the gate may have opened; a real read of the gate confirms it. A live lock holder needs no check here: it
 * blocks only within an hour of the lock's mtime, and the time gate already waits a day from that same mtime.
 */
export class DreamGateCache {
  private readonly gates = new Map<string, MemoryGate>();
  private readonly roots = new Map<string, RootGateSettings>();

  /** Starts following a memory folder from what was read on disk: its lock's mtime and every session using it. */
  setGate(memoryDir: string, lastMs: number, sessions: Iterable<readonly [string, number]>): void {
    const gate: MemoryGate = { lastMs, mtimes: new Map(sessions), since: 0 };
    this.recount(gate);
    this.gates.set(memoryDir, gate);
  }

  dropGate(memoryDir: string): void {
    this.gates.delete(memoryDir);
  }

  has(memoryDir: string): boolean {
    return this.gates.has(memoryDir);
  }

  /** The lock moved (a dream ran or rolled back): sessions are counted again from its new mtime. */
  setLastConsolidated(memoryDir: string, lastMs: number): void {
    const gate = this.gates.get(memoryDir);
    if (!gate || gate.lastMs === lastMs) return;
    gate.lastMs = lastMs;
    this.recount(gate);
  }

  setRootSettings(configRoot: string, settings: RootGateSettings): void {
    this.roots.set(configRoot, settings);
  }

  /** A session file using a followed memory folder changed (its new mtime) or went away (null); others are ignored. */
  noteSession(memoryDir: string, key: string, mtimeMs: number | null): void {
    const gate = this.gates.get(memoryDir);
    if (!gate) return;
    const before = gate.mtimes.get(key);
    if (before !== undefined && before > gate.lastMs) gate.since--;
    if (mtimeMs === null) {
      gate.mtimes.delete(key);
      return;
    }
    gate.mtimes.set(key, mtimeMs);
    if (mtimeMs > gate.lastMs) gate.since++;
  }

  /**
   * Whether the gate of a memory folder may be open now, as a project of `configRoot` sees it: auto memory on,
   * auto-dream not turned off (unless `ignoreAutoDreamOff`: the app turned it off for reviewed dreams), a day and
   * five sessions since the last consolidation.
   */
  mayBeOpen(memoryDir: string, configRoot: string, now: number, ignoreAutoDreamOff = false): boolean {
    const gate = this.gates.get(memoryDir);
    if (!gate) return false;
    const root = this.roots.get(configRoot);
    if (root && (!root.autoMemoryEnabled || (root.autoDreamEnabled === false && !ignoreAutoDreamOff))) return false;
    return now - gate.lastMs >= MIN_HOURS * HOUR_MS && gate.since >= MIN_SESSIONS;
  }

  private recount(gate: MemoryGate): void {
    let since = 0;
    for (const mtime of gate.mtimes.values()) if (mtime > gate.lastMs) since++;
    gate.since = since;
  }
}
