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

interface OwnedJob {
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

/**
 * Every transcript (sessions and sub-agents) and memory file of the config roots, newest first, with the archived
 * copies of transcripts no longer on disk. Reads only.
 * `memoryFolders` null means every `<root>/projects/<slug>/memory`.
 */
export async function listSearchTargets(
  roots: readonly string[],
  memoryFolders: readonly MemoryFolderTarget[] | null,
  listFolders: FolderLister,
  archived: readonly ArchivedSearchTarget[] = [],
): Promise<SearchTarget[]> {
  const projectJobs: OwnedJob[] = [];
  const defaultMemoryFolders: MemoryFolderTarget[] = [];
  for (const configRoot of roots) {
    const projectsDir = join(configRoot, 'projects');
    for (const entry of (await listDir(projectsDir)).entries) {
      const dir = join(projectsDir, entry.name);
      // A symlinked entry that is no folder lists as empty, so it needs no stat here.
      if (entry.isDirectory() || entry.isSymbolicLink())
        projectJobs.push({ kind: 'project', dir, configRoot, slug: entry.name, agentType: null });
      defaultMemoryFolders.push({ configRoot, slug: entry.name, memoryDir: join(dir, 'memory') });
    }
  }
  const memoryJobs: OwnedJob[] = [];
  const seenDirs = new Set<string>();
  for (const folder of memoryFolders ?? defaultMemoryFolders) {
    if (seenDirs.has(folder.memoryDir)) continue;
    seenDirs.add(folder.memoryDir);
    memoryJobs.push({
      kind: 'memory',
      dir: folder.memoryDir,
      configRoot: folder.configRoot,
      slug: folder.slug,
      agentType: folder.agentType ?? null,
    });
  }
  const jobs = [...projectJobs, ...memoryJobs];
  const listed = await listFolders(
    jobs.map((job): ListingJob =>
      job.kind === 'memory' ? { kind: 'memory', dir: job.dir, maxDepth: MAX_MEMORY_FOLDER_DEPTH } : { kind: 'project', dir: job.dir },
    ),
  );
  const targets: SearchTarget[] = [];
  for (const [index, job] of jobs.entries()) {
    const agentType = job.agentType;
    // Spelled out, not spread: spreading thousands of objects that came through postMessage took tens of ms.
    for (const { role, path, size, mtimeMs, sessionId, agentId } of listed[index]) {
      const kind = agentType !== null ? 'agent-memory' : KIND_OF_ROLE[role];
      targets.push({ kind, agentType, path, configRoot: job.configRoot, slug: job.slug, sessionId, agentId, size, mtimeMs, archive: null });
    }
  }
  // Transcripts Claude Code deleted are searched in their archived copies, where they would have been in the listing.
  const listedPaths = new Set(targets.map((target) => target.path));
  for (const file of archived) {
    if (listedPaths.has(file.path) || !roots.includes(file.configRoot)) continue;
    const { path, configRoot, slug, sessionId, agentId, mtimeMs, archive } = file;
    targets.push({ kind: 'transcript', agentType: null, path, configRoot, slug, sessionId, agentId, size: archive.size, mtimeMs, archive });
  }
  return targets.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
}
