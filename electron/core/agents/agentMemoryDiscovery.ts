import { join } from 'node:path';
import type { AgentMemoryScope, AgentMemorySummary } from '../../../shared/model/agents';
import type { ItemWarning } from '../../../shared/model/warnings';
import { listDir, statOrNull } from '../fs/readSafely';
import { INDEX_FILE_NAME, scanMemoryFolder } from '../memory/memoryFolderScan';

export const SNAPSHOTS_FOLDER = 'agent-memory-snapshots';

export interface AgentMemoryPlace {
  readonly scope: AgentMemoryScope;
  /** The folder holding one sub-folder per agent type. */
  readonly baseDir: string;
  readonly projectPath: string | null;
}

/** The three scopes' base folders: user scope under each config root, project and local scopes under each project on disk. */
export function agentMemoryPlaces(configRoots: readonly string[], projectPaths: readonly string[]): AgentMemoryPlace[] {
  const places: AgentMemoryPlace[] = configRoots.map((root) => ({ scope: 'user', baseDir: join(root, 'agent-memory'), projectPath: null }));
  for (const projectPath of projectPaths) {
    places.push({ scope: 'project', baseDir: join(projectPath, '.claude', 'agent-memory'), projectPath });
    places.push({ scope: 'local', baseDir: join(projectPath, '.claude', 'agent-memory-local'), projectPath });
  }
  return places;
}

async function folderNames(dir: string, warnings: ItemWarning[]): Promise<string[]> {
  const listing = await listDir(dir);
  if (listing.warning) warnings.push(listing.warning);
  return listing.entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

/**
 * Every agent memory folder in every scope, plus project agents that so far have only a committed
 * snapshot (listed with `fileCount` 0 so they can be initialised).
 */
export async function discoverAgentMemories(
  configRoots: readonly string[],
  projectPaths: readonly string[],
): Promise<AgentMemorySummary[]> {
  const result: AgentMemorySummary[] = [];
  for (const place of agentMemoryPlaces(configRoots, projectPaths)) {
    const warnings: ItemWarning[] = [];
    const agentFolders = await folderNames(place.baseDir, warnings);
    const snapshotBase = place.projectPath ? join(place.projectPath, '.claude', SNAPSHOTS_FOLDER) : null;
    const snapshotFolders = place.scope === 'project' && snapshotBase ? await folderNames(snapshotBase, warnings) : [];
    const names = new Set([...agentFolders, ...snapshotFolders]);
    for (const name of [...names].sort()) {
      const dir = join(place.baseDir, name);
      const scan = agentFolders.includes(name) ? await scanMemoryFolder(dir) : { topicFiles: [], warnings: [] };
      const indexStats = await statOrNull(join(dir, INDEX_FILE_NAME));
      result.push({
        agentType: name,
        scope: place.scope,
        dir,
        projectPath: place.projectPath,
        fileCount: scan.topicFiles.length + (indexStats?.isFile() ? 1 : 0),
        hasIndex: indexStats?.isFile() ?? false,
        snapshotDir: snapshotBase && snapshotFolders.includes(name) ? join(snapshotBase, name) : null,
        warnings: [...warnings, ...scan.warnings],
      });
    }
  }
  return result;
}
