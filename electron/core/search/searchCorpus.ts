import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { SearchHitKind } from '../../../shared/model/search';
import { discoverSessionFiles, identify } from '../catalog/catalogDiscovery';
import { mapLimit } from '../home/mapLimit';

const MAX_MEMORY_DEPTH = 6;

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

/** Markdown files under a memory folder; symlinked entries are not followed, so the walk stays inside it. */
async function markdownFiles(dir: string, depth: number): Promise<string[]> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && depth < MAX_MEMORY_DEPTH) out.push(...(await markdownFiles(path, depth + 1)));
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) out.push(path);
  }
  return out;
}

/** Every transcript (sessions and sub-agents) and memory file of the config roots, newest first. Reads only. */
export async function listSearchTargets(roots: readonly string[], memoryFolders: readonly MemoryFolderTarget[]): Promise<SearchTarget[]> {
  const targets: SearchTarget[] = [];
  for (const project of await discoverSessionFiles(roots)) {
    const { configRoot, slug } = project;
    for (const session of project.sessions) {
      targets.push({ kind: 'transcript', ...session.main, configRoot, slug, sessionId: session.sessionId, agentId: null });
      for (const agent of session.subagents) {
        targets.push({ kind: 'transcript', ...agent, configRoot, slug, sessionId: session.sessionId, agentId: agent.agentId });
      }
    }
    for (const agent of project.siblingAgents) {
      targets.push({ kind: 'transcript', ...agent, configRoot, slug, sessionId: null, agentId: agent.agentId });
    }
  }
  const seenDirs = new Set<string>();
  for (const folder of memoryFolders) {
    if (seenDirs.has(folder.memoryDir)) continue;
    seenDirs.add(folder.memoryDir);
    const files = await markdownFiles(folder.memoryDir, 0);
    const identified = await mapLimit(files, 16, identify);
    for (const file of identified) {
      if (!file) continue;
      targets.push({ kind: 'memory', ...file, configRoot: folder.configRoot, slug: folder.slug, sessionId: null, agentId: null });
    }
  }
  return targets.sort((a, b) => b.mtimeMs - a.mtimeMs || a.path.localeCompare(b.path));
}
