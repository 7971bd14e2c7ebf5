import type { AgentMemorySummary } from '../../../shared/model/agents';
import type { ConfigRootInfo, ProjectSummary } from '../../../shared/model/home';
import { discoverAgentMemories } from '../layout/agentMemoryDiscovery';
import { statOrNull } from '../fs/readSafely';
import { readSessionPlaceInfo } from '../layout/sessionPlaceInfo';
import type { ConfigRootSpec } from '../layout/configRoots';
import { discoverHome } from './projectDiscovery';

/** Where a project is and where its memory is kept. */
export type ProjectPlace = Pick<ProjectSummary, 'configRoot' | 'slug' | 'path' | 'memoryDir' | 'memoryDirExists'>;

/** The config roots and every project's place, in discovery's order (most recently active first). */
export interface HomePlaces {
  readonly roots: readonly ConfigRootInfo[];
  readonly projects: readonly ProjectPlace[];
}

/**
 * Every project's path and memory folder, in the same order, exactly as a full discovery finds them, reading of each
 * session only what places it (see `readSessionPlaceInfo`): about a third of the work of discovering the home, for a
 * one-shot search that needs to know where memory is but not the sessions' titles.
 */
export async function discoverHomePlaces(specs: readonly ConfigRootSpec[]): Promise<HomePlaces> {
  const home = await discoverHome(specs, readSessionPlaceInfo);
  return {
    roots: home.roots,
    projects: home.projects.map(({ configRoot, slug, path, memoryDir, memoryDirExists }) => ({
      configRoot,
      slug,
      path,
      memoryDir,
      memoryDirExists,
    })),
  };
}

/** Agent memory in the user scope of every existing config root and in the project and local scopes of every project on disk. */
export async function agentMemoriesIn(home: HomePlaces): Promise<AgentMemorySummary[]> {
  const existingRoots = home.roots.filter((root) => root.exists).map((root) => root.path);
  const projectPaths = new Set<string>();
  for (const project of home.projects) {
    if (project.path && (await statOrNull(project.path))?.isDirectory()) projectPaths.add(project.path);
  }
  return discoverAgentMemories(existingRoots, [...projectPaths].sort());
}
