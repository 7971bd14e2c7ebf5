import { statSync } from 'node:fs';
import { join } from 'node:path';
import { isSessionFileName, sessionIdFromFileName } from '../../../shared/claude/sessionFiles';
import type { SubagentLayout } from '../../../shared/model/catalog';
import { entryKind, listDir } from '../fs/readSafely';
import { mapLimit } from '../home/mapLimit';

const IO_PARALLELISM = 16;
const SESSION_DIR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AGENT_FILE = /^agent-(.+)\.jsonl$/;

/** A file's identity and version as the catalog cache keys it: device + inode, size and mtime. */
export interface FileIdentity {
  readonly fileId: string;
  readonly size: number;
  readonly mtimeNs: string;
  readonly mtimeMs: number;
}

export interface DiscoveredFile extends FileIdentity {
  readonly path: string;
}

export interface DiscoveredSubagentFile extends DiscoveredFile {
  readonly agentId: string;
  readonly layout: SubagentLayout;
  /** `agent-<id>.meta.json` beside it, when present. */
  readonly metaPath: string | null;
}

export interface DiscoveredSession {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly main: DiscoveredFile;
  /** Sub-agent files in `<sessionId>/subagents/` (any depth, for workflow runs). */
  readonly subagents: readonly DiscoveredSubagentFile[];
  readonly sessionMemoryPath: string | null;
}

export interface DiscoveredProject {
  readonly configRoot: string;
  readonly slug: string;
  readonly dir: string;
  readonly sessions: readonly DiscoveredSession[];
  /** 2.0-era `agent-*.jsonl` beside the sessions; which session they belong to is read from their lines. */
  readonly siblingAgents: readonly DiscoveredSubagentFile[];
}

/**
 * Stats a file (following symlinks) into the identity the cache keys on; null when it is not a readable file.
 * Blocking on purpose: a build stats thousands of files, and a `stat` of a cached inode takes microseconds,
 * while each asynchronous one cost a promise and a thread-pool round trip (half of a build's discovery time).
 */
export async function identify(path: string): Promise<DiscoveredFile | null> {
  try {
    const stats = statSync(path, { bigint: true });
    if (!stats.isFile()) return null;
    return {
      path,
      fileId: `${stats.dev}:${stats.ino}`,
      size: Number(stats.size),
      mtimeNs: stats.mtimeNs.toString(),
      mtimeMs: Number(stats.mtimeMs),
    };
  } catch {
    return null;
  }
}

async function listAgentFiles(dir: string, layout: SubagentLayout, depth: number): Promise<DiscoveredSubagentFile[]> {
  const listing = await listDir(dir);
  const out: DiscoveredSubagentFile[] = [];
  const names = new Set(listing.entries.map((entry) => entry.name));
  for (const entry of listing.entries) {
    const kind = await entryKind(dir, entry);
    if (kind.kind === 'dir' && depth < 3) {
      out.push(...(await listAgentFiles(join(dir, entry.name), layout, depth + 1)));
      continue;
    }
    const match = AGENT_FILE.exec(entry.name);
    if (kind.kind !== 'file' || !match) continue;
    const file = await identify(join(dir, entry.name));
    if (!file) continue;
    const metaName = `agent-${match[1]}.meta.json`;
    out.push({ ...file, agentId: match[1], layout, metaPath: names.has(metaName) ? join(dir, metaName) : null });
  }
  return out;
}

async function discoverProject(configRoot: string, slug: string, dir: string): Promise<DiscoveredProject> {
  const listing = await listDir(dir);
  const sessionFiles: string[] = [];
  const sessionDirs = new Set<string>();
  const siblingNames: string[] = [];
  for (const entry of listing.entries) {
    if (isSessionFileName(entry.name) || SESSION_DIR.test(entry.name) || AGENT_FILE.test(entry.name)) {
      const kind = await entryKind(dir, entry);
      if (kind.kind === 'file' && isSessionFileName(entry.name)) sessionFiles.push(entry.name);
      else if (kind.kind === 'dir' && SESSION_DIR.test(entry.name)) sessionDirs.add(entry.name);
      else if (kind.kind === 'file') siblingNames.push(entry.name);
    }
  }
  const sessions = await mapLimit(sessionFiles, IO_PARALLELISM, async (name): Promise<DiscoveredSession | null> => {
    const sessionId = sessionIdFromFileName(name);
    const main = await identify(join(dir, name));
    // Zero-byte files are not sessions (Claude Code's own rule); unreadable ones are skipped.
    if (!main || main.size === 0) return null;
    let subagents: DiscoveredSubagentFile[] = [];
    let sessionMemoryPath: string | null = null;
    if (sessionDirs.has(sessionId)) {
      subagents = await listAgentFiles(join(dir, sessionId, 'subagents'), 'subagents-folder', 0);
      const summary = join(dir, sessionId, 'session-memory', 'summary.md');
      if ((await identify(summary)) !== null) sessionMemoryPath = summary;
    }
    return { configRoot, slug, sessionId, main, subagents, sessionMemoryPath };
  });
  const siblingAgents = await mapLimit(siblingNames, IO_PARALLELISM, async (name): Promise<DiscoveredSubagentFile | null> => {
    const file = await identify(join(dir, name));
    const agentId = AGENT_FILE.exec(name)?.[1];
    if (!file || !agentId) return null;
    const metaName = `agent-${agentId}.meta.json`;
    const metaPath = listing.entries.some((entry) => entry.name === metaName) ? join(dir, metaName) : null;
    return { ...file, agentId, layout: 'sibling', metaPath };
  });
  return {
    configRoot,
    slug,
    dir,
    sessions: sessions.filter((s): s is DiscoveredSession => s !== null),
    siblingAgents: siblingAgents.filter((a): a is DiscoveredSubagentFile => a !== null),
  };
}

/** Every project folder of every config root with its session files, sub-agent files and session memory. Reads only. */
export async function discoverSessionFiles(configRoots: readonly string[]): Promise<DiscoveredProject[]> {
  const projects: DiscoveredProject[] = [];
  for (const configRoot of configRoots) {
    const projectsDir = join(configRoot, 'projects');
    const listing = await listDir(projectsDir);
    const slugs: string[] = [];
    for (const entry of listing.entries) if ((await entryKind(projectsDir, entry)).kind === 'dir') slugs.push(entry.name);
    projects.push(...(await mapLimit(slugs.sort(), 4, (slug) => discoverProject(configRoot, slug, join(projectsDir, slug)))));
  }
  return projects;
}

/** Re-discovers one session (live updates): its file, sub-agents and session memory; null when the file is gone. */
export async function discoverSession(configRoot: string, slug: string, sessionId: string): Promise<DiscoveredSession | null> {
  const dir = join(configRoot, 'projects', slug);
  const main = await identify(join(dir, `${sessionId}.jsonl`));
  if (!main || main.size === 0) return null;
  const subagents = await listAgentFiles(join(dir, sessionId, 'subagents'), 'subagents-folder', 0);
  const summary = join(dir, sessionId, 'session-memory', 'summary.md');
  return { configRoot, slug, sessionId, main, subagents, sessionMemoryPath: (await identify(summary)) ? summary : null };
}
