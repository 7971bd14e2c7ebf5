import type { AgentMemorySummary } from '../../../shared/model/agents';
import type { HomeService } from '../home/HomeService';
import type { HomePlaces } from '../home/homePlaces';
import type { MemoryFolderTarget } from './searchCorpus';
import { listAgentMemories } from '../agents/agentMemoryListing';

/**
 * Every memory folder the app shows, for a search to read: each project's auto memory (settings may have moved it
 * outside the config root) and every agent's memory in the user, project and local scopes.
 */
export async function searchableMemoryFolders(home: HomeService): Promise<MemoryFolderTarget[]> {
  return memoryFoldersToSearch(await home.getHome(), await listAgentMemories(home));
}

/** The memory folders of `searchableMemoryFolders`, from the projects' places and the agent memories found. */
export function memoryFoldersToSearch(home: HomePlaces, agents: readonly AgentMemorySummary[]): MemoryFolderTarget[] {
  const folders: MemoryFolderTarget[] = home.projects
    .filter((project) => project.memoryDirExists)
    .map((project) => ({ configRoot: project.configRoot, slug: project.slug, memoryDir: project.memoryDir }));
  const firstRoot = home.roots.find((root) => root.exists)?.path ?? '';
  for (const agent of agents) {
    if (agent.fileCount === 0) continue;
    const project = agent.projectPath === null ? undefined : home.projects.find((p) => p.path === agent.projectPath);
    folders.push({
      configRoot: project?.configRoot ?? firstRoot,
      slug: project?.slug ?? '',
      memoryDir: agent.dir,
      agentType: agent.agentType,
    });
  }
  return folders;
}
