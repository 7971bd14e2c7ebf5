import { join } from 'node:path';
import type { SearchHitKind } from '../../../shared/model/search';
import { listDir } from '../fs/readSafely';
import { MAX_MEMORY_FOLDER_DEPTH } from '../layout/memoryFolderWalk';
import type { ListedFile, ListedRole, ListingJob } from './searchListing';
import type { ArchivedBytes } from './searchWorker';

/** One file a search reads. */
export interface SearchTarget {
  readonly kind: SearchHitKind;
  /** For agent memory: the agent's type. */
  readonly agentType: string | null;
  readonly path: string;
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string | null;
  readonly agentId: string | null;
  readonly size: number;
  readonly mtimeMs: number;
  /** Claude Code deleted the file: it is read from the app's archived copy. Null for a file on disk. */
  readonly archive: ArchivedBytes | null;
}

/** A transcript the archive holds, with where its bytes are. */
export interface ArchivedSearchTarget {
  readonly path: string;
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly agentId: string | null;
  readonly mtimeMs: number;
  readonly archive: ArchivedBytes;
}

/**
 * A memory folder to search: a project's auto memory (settings may have moved it outside the config root), or an
 * agent's memory in any scope (then `agentType` is set; `slug` is the project's for project and local scope, '' for
 * user scope).
 */
export interface MemoryFolderTarget {
  readonly configRoot: string;
  readonly slug: string;
  readonly memoryDir: string;
  readonly agentType?: string;
}

/** Lists folders (on the search threads, see searchListing.ts), answering in the order of `jobs`. */
export type FolderLister = (jobs: readonly ListingJob[]) => Promise<readonly (readonly ListedFile[])[]>;

/** A folder a search lists, with what its files' hits carry. */
export interface SearchFolder {
  readonly kind: ListingJob['kind'];
  readonly dir: string;
  readonly configRoot: string;
  readonly slug: string;
  readonly agentType: string | null;
}

const KIND_OF_ROLE: Readonly<Record<ListedRole, SearchHitKind>> = {
  transcript: 'transcript',
  'tool-output': 'tool-output',
  'session-memory': 'session-memory',
  memory: 'memory',
};

/** Every project folder of the config roots, and the default memory folder of each (`<root>/projects/<slug>/memory`). */
export async function projectFolders(roots: readonly string[]): Promise<{ projects: SearchFolder[]; defaultMemory: MemoryFolderTarget[] }> {
  const projects: SearchFolder[] = [];
  const defaultMemory: MemoryFolderTarget[] = [];
  for (const configRoot of roots) {
    const projectsDir = join(configRoot, 'projects');
    for (const entry of (await listDir(projectsDir)).entries) {
      const dir = join(projectsDir, entry.name);
      // A symlinked entry that is no folder lists as empty, so it needs no stat here.
      if (entry.isDirectory() || entry.isSymbolicLink())
        projects.push({ kind: 'project', dir, configRoot, slug: entry.name, agentType: null });
      defaultMemory.push({ configRoot, slug: entry.name, memoryDir: join(dir, 'memory') });
    }
  }
  return { projects, defaultMemory };
}

/** The memory folders to list, each once (the first project that names a folder owns its hits). */
export function memorySearchFolders(memoryFolders: readonly MemoryFolderTarget[]): SearchFolder[] {
  const folders: SearchFolder[] = [];
  const seenDirs = new Set<string>();
  for (const folder of memoryFolders) {
    if (seenDirs.has(folder.memoryDir)) continue;
    seenDirs.add(folder.memoryDir);
    folders.push({
      kind: 'memory',
      dir: folder.memoryDir,
      configRoot: folder.configRoot,
      slug: folder.slug,
      agentType: folder.agentType ?? null,
    });
  }
  return folders;
}

/** Lists folders on the search threads; the answer keeps their order. */
export function listFolderTargets(folders: readonly SearchFolder[], listFolders: FolderLister): Promise<SearchTarget[][]> {
  return listFolders(
    folders.map((folder): ListingJob =>
      folder.kind === 'memory'
        ? { kind: 'memory', dir: folder.dir, maxDepth: MAX_MEMORY_FOLDER_DEPTH }
        : { kind: 'project', dir: folder.dir },
    ),
  ).then((listed) => folders.map((folder, index) => folderTargets(folder, listed[index])));
}

function folderTargets(folder: SearchFolder, files: readonly ListedFile[]): SearchTarget[] {
  const { agentType, configRoot, slug } = folder;
  const targets: SearchTarget[] = [];
  // Spelled out, not spread: spreading thousands of objects that came through postMessage took tens of ms.
  for (const { role, path, size, mtimeMs, sessionId, agentId } of files) {
    const kind = agentType !== null ? 'agent-memory' : KIND_OF_ROLE[role];
    targets.push({ kind, agentType, path, configRoot, slug, sessionId, agentId, size, mtimeMs, archive: null });
  }
  return targets;
}

/**
 * The listed files plus the archived copies of transcripts no longer on disk (where they would have been in the
 * listing), newest first.
 */
export function newestFirst(
  listed: readonly SearchTarget[],
  roots: readonly string[],
  archived: readonly ArchivedSearchTarget[],
): SearchTarget[] {
  const targets = [...listed];
  const listedPaths = new Set(targets.map((target) => target.path));
  for (const file of archived) {
    if (listedPaths.has(file.path) || !roots.includes(file.configRoot)) continue;
    const { path, configRoot, slug, sessionId, agentId, mtimeMs, archive } = file;
    targets.push({ kind: 'transcript', agentType: null, path, configRoot, slug, sessionId, agentId, size: archive.size, mtimeMs, archive });
  }
  return targets.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
}

/**
 * Every transcript (sessions and sub-agents) and memory file of the config roots, newest first, with the archived
 * copies of transcripts no longer on disk. Reads only. The project folders are listed while `memoryFolders` is still
 * being found; null there means every `<root>/projects/<slug>/memory`. Without `listProjects`, only memory folders.
 */
export async function listSearchTargets(
  roots: readonly string[],
  memoryFolders: Promise<readonly MemoryFolderTarget[] | null>,
  listFolders: FolderLister,
  archived: readonly ArchivedSearchTarget[] = [],
  listProjects = true,
): Promise<SearchTarget[]> {
  const { projects, defaultMemory } = await projectFolders(roots);
  const projectTargets = listProjects ? await listFolderTargets(projects, listFolders) : [];
  const memoryTargets = await listFolderTargets(memorySearchFolders((await memoryFolders) ?? defaultMemory), listFolders);
  return newestFirst([...projectTargets.flat(), ...memoryTargets.flat()], roots, archived);
}
