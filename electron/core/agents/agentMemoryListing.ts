import type { AgentMemorySummary } from '../../../shared/model/agents';
import { statOrNull } from '../fs/readSafely';
import type { HomeService } from '../home/HomeService';
import { discoverAgentMemories } from '../layout/agentMemoryDiscovery';

/** Every agent memory in the user scope of each config root and the project and local scopes of each project on disk. */
export async function listAgentMemories(home: HomeService): Promise<AgentMemorySummary[]> {
  const snapshot = await home.getHome();
  const existingRoots = snapshot.roots.filter((root) => root.exists).map((root) => root.path);
  const projectPaths = new Set<string>();
  for (const project of snapshot.projects) {
    if (project.path && (await statOrNull(project.path))?.isDirectory()) projectPaths.add(project.path);
  }
  return discoverAgentMemories(existingRoots, [...projectPaths].sort());
}
