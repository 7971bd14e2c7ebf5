import type { HomeService } from '../home/HomeService';
import type { MemoryFolderTarget } from './searchCorpus';
import { listAgentMemories } from '../agents/agentMemoryListing';

/**
 * Every memory folder the app shows, for a search to read: each project's auto memory (settings may have moved it
 * outside the config root) and every agent's memory in the user, project and local scopes.
 */
export async function searchableMemoryFolders(home: HomeService): Promise<MemoryFolderTarget[]> {
  const snapshot = await home.getHome();
  const folders: MemoryFolderTarget[] = snapshot.projects
    .filter((project) => project.memoryDirExists)
    .map((project) => ({ configRoot: project.configRoot, slug: project.slug, memoryDir: project.memoryDir }));
  const firstRoot = snapshot.roots.find((root) => root.exists)?.path ?? '';
  for (const agent of await listAgentMemories(home)) {
    if (agent.fileCount === 0) continue;
    const project = agent.projectPath === null ? undefined : snapshot.projects.find((p) => p.path === agent.projectPath);
    folders.push({
      configRoot: project?.configRoot ?? firstRoot,
      slug: project?.slug ?? '',
      memoryDir: agent.dir,
      agentType: agent.agentType,
    });
  }
  return folders;
}
