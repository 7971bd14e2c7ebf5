import { join } from 'node:path';
import type { SearchHitKind } from '../../../shared/model/search';
import { listDir } from '../fs/readSafely';
import type { ListedFile, ListingJob } from './searchListing';

/** One file a search reads. */
export interface SearchTarget {
  readonly kind: SearchHitKind;
  readonly path: string;
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string | null;
  readonly agentId: string | null;
  readonly size: number;
  readonly mtimeMs: number;
}

/** A project's memory folder (settings may have moved it outside the config root). */
export interface MemoryFolderTarget {
  readonly configRoot: string;
  readonly slug: string;
  readonly memoryDir: string;
}

/** Lists folders (on the search threads, see searchListing.ts), answering in the order of `jobs`. */
export type FolderLister = (jobs: readonly ListingJob[]) => Promise<readonly (readonly ListedFile[])[]>;

interface OwnedJob extends ListingJob {
  readonly configRoot: string;
  readonly slug: string;
}

/**
 * Every transcript (sessions and sub-agents) and memory file of the config roots, newest first. Reads only.
 * `memoryFolders` null means every `<root>/projects/<slug>/memory`.
 */
export async function listSearchTargets(
  roots: readonly string[],
  memoryFolders: readonly MemoryFolderTarget[] | null,
  listFolders: FolderLister,
): Promise<SearchTarget[]> {
  const projectJobs: OwnedJob[] = [];
  const defaultMemoryFolders: MemoryFolderTarget[] = [];
  for (const configRoot of roots) {
    const projectsDir = join(configRoot, 'projects');
    for (const entry of (await listDir(projectsDir)).entries) {
      const dir = join(projectsDir, entry.name);
      // A symlinked entry that is no folder lists as empty, so it needs no stat here.
      if (entry.isDirectory() || entry.isSymbolicLink()) projectJobs.push({ kind: 'project', dir, configRoot, slug: entry.name });
      defaultMemoryFolders.push({ configRoot, slug: entry.name, memoryDir: join(dir, 'memory') });
    }
  }
  const memoryJobs: OwnedJob[] = [];
  const seenDirs = new Set<string>();
  for (const folder of memoryFolders ?? defaultMemoryFolders) {
    if (seenDirs.has(folder.memoryDir)) continue;
    seenDirs.add(folder.memoryDir);
    memoryJobs.push({ kind: 'memory', dir: folder.memoryDir, configRoot: folder.configRoot, slug: folder.slug });
  }
  const jobs = [...projectJobs, ...memoryJobs];
  const listed = await listFolders(jobs.map(({ kind, dir }) => ({ kind, dir })));
  const targets: SearchTarget[] = [];
  for (const [index, job] of jobs.entries()) {
    const kind = job.kind === 'project' ? 'transcript' : 'memory';
    // Spelled out, not spread: spreading thousands of objects that came through postMessage took tens of ms.
    for (const { path, size, mtimeMs, sessionId, agentId } of listed[index]) {
      targets.push({ kind, path, configRoot: job.configRoot, slug: job.slug, sessionId, agentId, size, mtimeMs });
    }
  }
  return targets.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
}
