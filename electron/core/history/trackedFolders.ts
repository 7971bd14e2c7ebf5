import { promises as fs } from 'node:fs';
import { join, sep } from 'node:path';
import type { ProjectSummary } from '../../../shared/model/home';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import type { HomeService } from '../home/HomeService';
import type { TranscriptSource } from './attribution/transcriptEvidence';
import { listAgentMemories } from '../agents/agentMemoryListing';

/** A memory folder whose files history records, and where to look for who wrote them. */
export interface TrackedFolder {
  readonly memoryDir: string;
  readonly ref: MemoryFolderRef;
  readonly label: string;
  /** The project this memory belongs to (auto memory: its git root; agent memory: the project that holds it). */
  readonly project: { readonly configRoot: string; readonly slug: string } | null;
  /** Project folders whose transcripts may hold the writes. */
  readonly sources: readonly TranscriptSource[];
  /** Agent memory is written by its agent only: never by memory extraction. */
  readonly isAgent: boolean;
}

function isUnder(parent: string | null, path: string | null): boolean {
  return parent !== null && path !== null && (path === parent || path.startsWith(parent.endsWith(sep) ? parent : parent + sep));
}

function sourceOf(project: ProjectSummary): TranscriptSource {
  return { configRoot: project.configRoot, slug: project.slug, dir: join(project.configRoot, 'projects', project.slug) };
}

/**
 * Auto memory is kept under the git root's slug while sessions are stored under their launch folder's
 * (claude-code-state.md §5 rule 4), so a folder's writers are the projects sharing it and every project
 * inside its project's path. Of several projects sharing one folder, the one it sits under names it.
 */
function projectFolders(projects: readonly ProjectSummary[]): TrackedFolder[] {
  const byDir = new Map<string, ProjectSummary[]>();
  for (const project of projects) byDir.set(project.memoryDir, [...(byDir.get(project.memoryDir) ?? []), project]);
  const folders: TrackedFolder[] = [];
  for (const [memoryDir, owners] of byDir) {
    const owner = owners.find((p) => memoryDir === join(p.configRoot, 'projects', p.slug, 'memory')) ?? owners[0];
    const writers = projects.filter((p) => p.memoryDir === memoryDir || isUnder(owner.path, p.path));
    folders.push({
      memoryDir,
      ref: { kind: 'project', configRoot: owner.configRoot, slug: owner.slug },
      label: owner.displayName,
      project: { configRoot: owner.configRoot, slug: owner.slug },
      sources: writers.map(sourceOf),
      isAgent: false,
    });
  }
  return folders;
}

/** Every memory folder of the home: each project's auto memory (its `team/` included) and every agent memory in its project. */
export async function trackedFolders(home: HomeService): Promise<TrackedFolder[]> {
  const snapshot = await home.getHome();
  const folders = projectFolders(snapshot.projects);
  const known = new Set(folders.map((f) => f.memoryDir));
  for (const agent of await listAgentMemories(home)) {
    // A folder that leads outside its project is never read, so history keeps nothing of it.
    if (known.has(agent.dir) || agent.outsideRoot.includes('local')) continue;
    known.add(agent.dir);
    const writers =
      agent.scope === 'user'
        ? snapshot.projects
        : snapshot.projects.filter((p) => isUnder(agent.projectPath, p.path) || p.path === agent.projectPath);
    const owner = agent.projectPath ? (snapshot.projects.find((p) => p.path === agent.projectPath) ?? null) : null;
    folders.push({
      memoryDir: agent.dir,
      ref: { kind: 'agent', dir: agent.dir },
      label: `${agent.agentType} (${agent.scope} agent memory)`,
      project: owner ? { configRoot: owner.configRoot, slug: owner.slug } : null,
      sources: writers.map(sourceOf),
      isAgent: true,
    });
  }
  return folders;
}

/**
 * The transcripts to explain a change to this folder with, read at the time of the change: its sources, and the project
 * folders of its project's sub-folders that no tracked folder knows yet. The first session started in a repository's
 * sub-folder writes into the root's memory before discovery has found its project (a sub-folder's slug is the root's
 * followed by `-`; a folder that only looks like one widens what attribution reads, nothing more).
 */
export async function attributionSources(folder: TrackedFolder, folders: readonly TrackedFolder[]): Promise<readonly TranscriptSource[]> {
  const owner = folder.project;
  if (folder.isAgent || !owner || folder.memoryDir !== join(owner.configRoot, 'projects', owner.slug, 'memory')) return folder.sources;
  const known = new Set(folders.flatMap((f) => f.sources.map((source) => source.dir)));
  const projectsDir = join(owner.configRoot, 'projects');
  const entries = await fs.readdir(projectsDir, { withFileTypes: true }).catch(() => []);
  const added = entries
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(`${owner.slug}-`) && !known.has(join(projectsDir, entry.name)))
    .map((entry) => ({ configRoot: owner.configRoot, slug: entry.name, dir: join(projectsDir, entry.name) }));
  return added.length === 0 ? folder.sources : [...folder.sources, ...added];
}
