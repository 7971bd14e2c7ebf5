import type { AgentMemorySummary } from '../../../shared/model/agents';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import { CodedError } from '../../../shared/result';
import { agentBoundary } from '../layout/agentMemoryDiscovery';
import { agentMemoryRoot, autoMemoryRoot, type WriteRoot } from '../changes/writeRoot';
import type { HomeService } from '../home/HomeService';
import { listAgentMemories } from '../agents/agentMemoryListing';

/** A memory folder the engine knows, with what the review needs to know about it. */
export interface ResolvedMemoryFolder {
  readonly ref: MemoryFolderRef;
  readonly kind: 'project' | 'agent';
  readonly memoryDir: string;
  /** The project's real path (for cited-path checks), or null. */
  readonly projectPath: string | null;
  readonly title: string;
  readonly readOnlyShell: boolean;
  /** Where its changes are written, and the rules for it. */
  readonly root: WriteRoot;
}

function agentTitle(agent: AgentMemorySummary): string {
  return `${agent.agentType} (${agent.scope} agent memory)`;
}

/**
 * Turns a MemoryFolderRef from the renderer into a folder on disk — only ever one the engine discovered
 * itself: a project's auto memory, or an agent memory folder from `listAgentMemories()`.
 */
export class MemoryFolderResolver {
  constructor(private readonly home: HomeService) {}

  async resolve(ref: MemoryFolderRef): Promise<ResolvedMemoryFolder> {
    const snapshot = await this.home.getHome();
    if (ref.kind === 'project') {
      const project = snapshot.projects.find((p) => p.configRoot === ref.configRoot && p.slug === ref.slug);
      if (!project) throw new CodedError('NOT_FOUND', `No project ${ref.slug} under ${ref.configRoot}`);
      return {
        ref: { kind: 'project', configRoot: project.configRoot, slug: project.slug },
        kind: 'project',
        memoryDir: project.memoryDir,
        projectPath: project.path,
        title: project.displayName,
        readOnlyShell: snapshot.readOnly,
        root: autoMemoryRoot(project.memoryDir),
      };
    }
    const agent = (await listAgentMemories(this.home)).find((a) => a.dir === ref.dir);
    if (!agent) throw new CodedError('NOT_FOUND', 'No agent memory folder at that path');
    return {
      ref: { kind: 'agent', dir: agent.dir },
      kind: 'agent',
      memoryDir: agent.dir,
      projectPath: agent.projectPath,
      title: agentTitle(agent),
      readOnlyShell: snapshot.readOnly,
      root: agentMemoryRoot(agent.dir, agentBoundary(agent)),
    };
  }

  /** Every known folder whose memory directory is `memoryDir` (two config roots may share a moved folder). */
  async refsFor(memoryDir: string): Promise<MemoryFolderRef[]> {
    const snapshot = await this.home.getHome();
    return snapshot.projects
      .filter((p) => p.memoryDir === memoryDir)
      .map((p): MemoryFolderRef => ({ kind: 'project', configRoot: p.configRoot, slug: p.slug }));
  }
}
