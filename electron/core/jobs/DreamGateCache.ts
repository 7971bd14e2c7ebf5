import type { ProjectRef } from '../../../shared/model/home';
import { MIN_HOURS, MIN_SESSIONS } from './dreamGate';

const HOUR_MS = 3_600_000;

/** Claude Code's settings that open or shut every project's gate in one config root. */
export interface RootGateSettings {
  readonly autoDreamEnabled: boolean | null;
  readonly autoMemoryEnabled: boolean;
}

interface ProjectGate {
  /** The lock's mtime (Claude Code's lastConsolidatedAt), 0 when there is no lock. */
  lastMs: number;
  /** Each session file's mtime, by session id. */
  readonly mtimes: Map<string, number>;
  /** How many of them are newer than `lastMs`, kept as sessions change so a check never walks them. */
  since: number;
}

export function projectKey(ref: ProjectRef): string {
  return `${ref.configRoot}\0${ref.slug}`;
}

/**
 * Claude Code's auto-dream gate (dreamGate.ts) kept in memory per project, so the check that runs on every
 * session change is a few comparisons instead of a stat of the lock, a read of settings.json and a listing of
 * the project's sessions. It only says when the gate may have opened; a real read of the gate confirms it.
 * A live lock holder needs no check here: it blocks only within an hour of the lock's mtime, and the time
 * gate already waits a day from that same mtime.
 */
export class DreamGateCache {
  private readonly projects = new Map<string, ProjectGate>();
  private readonly roots = new Map<string, RootGateSettings>();

  /** Starts following a project from what its gate read on disk. */
  setProject(ref: ProjectRef, lastMs: number, sessions: Iterable<readonly [string, number]>): void {
    const mtimes = new Map(sessions);
    const gate: ProjectGate = { lastMs, mtimes, since: 0 };
    this.recount(gate);
    this.projects.set(projectKey(ref), gate);
  }

  dropProject(ref: ProjectRef): void {
    this.projects.delete(projectKey(ref));
  }

  has(ref: ProjectRef): boolean {
    return this.projects.has(projectKey(ref));
  }

  /** The lock moved (a dream ran or rolled back): sessions are counted again from its new mtime. */
  setLastConsolidated(ref: ProjectRef, lastMs: number): void {
    const gate = this.projects.get(projectKey(ref));
    if (!gate || gate.lastMs === lastMs) return;
    gate.lastMs = lastMs;
    this.recount(gate);
  }

  setRootSettings(configRoot: string, settings: RootGateSettings): void {
    this.roots.set(configRoot, settings);
  }

  /** A session file of a followed project changed (its new mtime) or went away (null); others are ignored. */
  noteSession(ref: ProjectRef, sessionId: string, mtimeMs: number | null): void {
    const gate = this.projects.get(projectKey(ref));
    if (!gate) return;
    const before = gate.mtimes.get(sessionId);
    if (before !== undefined && before > gate.lastMs) gate.since--;
    if (mtimeMs === null) {
      gate.mtimes.delete(sessionId);
      return;
    }
    gate.mtimes.set(sessionId, mtimeMs);
    if (mtimeMs > gate.lastMs) gate.since++;
  }

  /**
   * Whether the gate may be open now: auto memory on, auto-dream not turned off (unless `ignoreAutoDreamOff`: the
   * app turned it off for reviewed dreams), a day and five sessions since the last consolidation.
   */
  mayBeOpen(ref: ProjectRef, now: number, ignoreAutoDreamOff = false): boolean {
    const gate = this.projects.get(projectKey(ref));
    if (!gate) return false;
    const root = this.roots.get(ref.configRoot);
    if (root && (!root.autoMemoryEnabled || (root.autoDreamEnabled === false && !ignoreAutoDreamOff))) return false;
    return now - gate.lastMs >= MIN_HOURS * HOUR_MS && gate.since >= MIN_SESSIONS;
  }

  private recount(gate: ProjectGate): void {
    let since = 0;
    for (const mtime of gate.mtimes.values()) if (mtime > gate.lastMs) since++;
    gate.since = since;
  }
}
