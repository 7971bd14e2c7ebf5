import type { Stats } from 'node:fs';
import type { ConfigRootInfo, ProjectSummary } from '../../../shared/model/home';
import type { SessionQuickInfo } from '../../../shared/model/session';
import { readChecksummedJson, writeChecksummedJson } from '../fs/checksummedJsonFile';
import type { ConfigRootSpec } from '../layout/configRoots';
import type { DiscoveredHome } from './projectDiscovery';

/** Change this whenever what discovery records (SessionQuickInfo, ProjectSummary) changes: other formats are ignored. */
const CACHE_FORMAT = 'discovery/2';
/** Far beyond any real home (about 600 bytes per session); a larger file is not ours. */
const MAX_CACHE_BYTES = 256 * 1024 * 1024;

interface CachedSession {
  readonly size: number;
  readonly mtimeMs: number;
  readonly info: SessionQuickInfo;
}

type SavedSession = readonly [file: string, size: number, mtimeMs: number, info: SessionQuickInfo];

/** The last discovery's answer, with each project's sessions as file names into the session entries. */
interface SavedHome {
  readonly specs: readonly ConfigRootSpec[];
  readonly roots: readonly ConfigRootInfo[];
  readonly projects: readonly ProjectSummary[];
  readonly sessionFiles: readonly (readonly [projectKey: string, files: readonly string[]])[];
}

interface SavedDiscovery {
  readonly home: SavedHome | null;
  readonly sessions: readonly SavedSession[];
}

function isSavedSession(value: unknown): value is SavedSession {
  return (
    Array.isArray(value) &&
    value.length === 4 &&
    typeof value[0] === 'string' &&
    typeof value[1] === 'number' &&
    typeof value[2] === 'number' &&
    typeof value[3] === 'object' &&
    value[3] !== null
  );
}

function sameSpecs(a: readonly ConfigRootSpec[], b: readonly ConfigRootSpec[]): boolean {
  return a.length === b.length && a.every((spec, i) => spec.path === b[i].path && spec.source === b[i].source);
}

/**
 * What discovery found, kept in the app data folder so that a restart is quick on a home with thousands of
 * sessions: each session file's head-and-tail read, keyed by the file's size and mtime (one `stat` instead of
 * two reads), and the last answer as a whole, which the app shells show first while they check it.
 */
export class DiscoveryCache {
  private entries = new Map<string, CachedSession>();
  private home: SavedHome | null = null;
  private savedHomeText = '';
  private loading: Promise<void> | null = null;
  private changed = false;

  /** `path` null keeps the cache in memory only. */
  constructor(private readonly path: string | null) {}

  /** Reads the saved cache once; a missing or damaged file starts an empty one. */
  load(): Promise<void> {
    this.loading ??= (async () => {
      if (!this.path) return;
      const saved = (await readChecksummedJson(this.path, CACHE_FORMAT, MAX_CACHE_BYTES)) as Partial<SavedDiscovery> | null;
      if (!saved || !Array.isArray(saved.sessions)) return;
      for (const entry of saved.sessions as unknown[]) {
        if (!isSavedSession(entry)) continue;
        const [file, size, mtimeMs, info] = entry;
        // An entry read while this process was running is newer than the saved one.
        if (!this.entries.has(file)) this.entries.set(file, { size, mtimeMs, info });
      }
      if (saved.home && Array.isArray(saved.home.projects) && Array.isArray(saved.home.sessionFiles)) {
        this.home = saved.home;
        this.savedHomeText = JSON.stringify(saved.home);
      }
    })();
    return this.loading;
  }

  /** The info read earlier from this very file version, or null. */
  lookup(file: string, stats: Stats): SessionQuickInfo | null {
    const cached = this.entries.get(file);
    return cached && cached.size === stats.size && cached.mtimeMs === stats.mtimeMs ? cached.info : null;
  }

  remember(file: string, stats: Stats, info: SessionQuickInfo): void {
    this.entries.set(file, { size: stats.size, mtimeMs: stats.mtimeMs, info });
    this.changed = true;
  }

  /** The last discovery of these very config roots, unchecked; null when there is none. */
  lastHome(specs: readonly ConfigRootSpec[]): DiscoveredHome | null {
    if (!this.home || !sameSpecs(this.home.specs, specs)) return null;
    const sessions = new Map<string, SessionQuickInfo[]>();
    for (const [key, files] of this.home.sessionFiles) {
      const infos: SessionQuickInfo[] = [];
      for (const file of files) {
        const cached = this.entries.get(file);
        if (!cached) return null;
        infos.push(cached.info);
      }
      sessions.set(key, infos);
    }
    return { roots: this.home.roots, projects: this.home.projects, sessions };
  }

  /** Records a finished discovery: forgets sessions it no longer found, and saves when anything changed. */
  async record(specs: readonly ConfigRootSpec[], discovered: DiscoveredHome): Promise<void> {
    const files = new Set<string>();
    const sessionFiles: [string, string[]][] = [];
    for (const [key, sessions] of discovered.sessions) {
      sessionFiles.push([key, sessions.map((session) => session.file)]);
      for (const session of sessions) files.add(session.file);
    }
    for (const file of this.entries.keys()) {
      if (files.has(file)) continue;
      this.entries.delete(file);
      this.changed = true;
    }
    const home: SavedHome = { specs, roots: discovered.roots, projects: discovered.projects, sessionFiles };
    const homeText = JSON.stringify(home);
    if (homeText !== this.savedHomeText) {
      this.home = home;
      this.changed = true;
    }
    if (!this.changed || !this.path) return;
    const saved: SavedDiscovery = {
      home,
      sessions: [...this.entries].map(([file, { size, mtimeMs, info }]) => [file, size, mtimeMs, info]),
    };
    // Cleared before the write: a session remembered while it is under way must still be saved next time.
    this.changed = false;
    try {
      await writeChecksummedJson(this.path, CACHE_FORMAT, saved);
    } catch (error) {
      this.changed = true;
      throw error;
    }
    this.savedHomeText = homeText;
  }
}
