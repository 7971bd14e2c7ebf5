import { CodedError } from '../../../shared/result';
import { agentBoundary, snapshotDirFor } from '../layout/agentMemoryDiscovery';
import type { HomeService } from '../home/HomeService';
import { agentMemoryRoot, agentSnapshotRoot, autoMemoryRoot, claudeSettingsRoot, type WriteRoot } from '../changes/writeRoot';
import { listAgentMemories } from '../agents/agentMemoryListing';

/**
 * The write root of a folder history names (a change set's folder), found among the folders the engine discovered
 * itself: a project's auto memory, an agent's memory or its project snapshot, or a config root (for Claude Code's
 * settings file). Any other folder is refused, so a folder that once held memory and now leads elsewhere is never
 * written again under an old name.
 */
export async function writeRootOf(home: HomeService, dir: string): Promise<WriteRoot> {
  const snapshot = await home.getHome();
  if (snapshot.projects.some((project) => project.memoryDir === dir)) return autoMemoryRoot(dir);
  if (snapshot.roots.some((root) => root.exists && root.path === dir)) return claudeSettingsRoot(dir);
  for (const agent of await listAgentMemories(home)) {
    if (agent.dir === dir) return agentMemoryRoot(dir, agentBoundary(agent));
    const snapshotDir = agent.projectPath ? (agent.snapshot.dir ?? snapshotDirFor(agent.projectPath, agent.agentType)) : null;
    if (snapshotDir === dir) return agentSnapshotRoot(dir, agentBoundary(agent));
  }
  throw new CodedError('NOT_FOUND', `${dir} is not a memory folder this app knows; nothing is written there`);
}
