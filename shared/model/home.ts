import type { ItemWarning } from './warnings';

export type PathSource = 'transcript-cwd' | 'sessions-index' | 'git-root-match' | 'unknown';

export type MemoryDirSource = 'default' | 'user-settings' | 'local-settings';

export type ConfigRootSource = 'CLAUDE_CONFIG_DIR' | 'default' | 'demo';

export interface ConfigRootInfo {
  readonly path: string;
  readonly exists: boolean;
  readonly source: ConfigRootSource;
  readonly warnings: readonly ItemWarning[];
}

/** Identifies a project folder: the slug is only unique within one config root. */
export interface ProjectRef {
  readonly configRoot: string;
  readonly slug: string;
}

export interface ProjectSummary extends ProjectRef {
  /** The real path of the project, or null when it cannot be known. */
  readonly path: string | null;
  readonly pathSource: PathSource;
  /** What to show when `path` is null: a readable guess, never used as a path. */
  readonly displayName: string;
  readonly sessionCount: number;
  /** Where this project's auto memory lives (or would live: see `memoryDirExists`). */
  readonly memoryDir: string;
  readonly memoryDirExists: boolean;
  readonly memoryDirSource: MemoryDirSource;
  /**
   * The project (folder name in the same config root) whose memory folder this one uses: its repository's root,
   * when its sessions were started in a sub-folder (Claude Code keys auto memory on the canonical git root).
   * Null when the memory folder is the project's own.
   */
  readonly memoryOwner: string | null;
  /** The other projects (folder names in the same config root) whose sessions use this project's memory folder. */
  readonly memorySharedWith: readonly string[];
  readonly memoryFileCount: number;
  readonly hasMemoryIndex: boolean;
  /** ISO time of the newest session or memory file change, or null. */
  readonly lastActivity: string | null;
  readonly warnings: readonly ItemWarning[];
}

export type ShellKind = 'electron' | 'web' | 'cli';

/** How far the first discovery of a home got: project folders read of those found. */
export interface HomeDiscoveryProgress {
  readonly projectsRead: number;
  readonly projectsFound: number;
}

export interface HomeSnapshot {
  readonly roots: readonly ConfigRootInfo[];
  readonly projects: readonly ProjectSummary[];
  /**
   * Set while the app's first discovery of the home is under way: `projects` lists those read so far, newest first
   * read, and a `homeChanged` follows with more (the last one, the finished home, has it null).
   */
  readonly discovering: HomeDiscoveryProgress | null;
  /** True when no config root exists: the UI shows its empty state. */
  readonly empty: boolean;
  readonly demo: boolean;
  readonly dataDir: string;
  readonly readOnly: boolean;
  readonly shell: ShellKind;
  readonly warnings: readonly ItemWarning[];
}
