import { statSync } from 'node:fs';
import { join } from 'node:path';
import { isSessionFileName, sessionIdFromFileName } from '../../../shared/claude/sessionFiles';
import type { SubagentLayout } from '../../../shared/model/catalog';
import { entryKindSync, listDirSync } from '../fs/readSafely';
import { yieldWhenSliceIsUsed } from '../async/timeSlices';
import { isUuid } from '../../../shared/claude/sessionIds';

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
  /** Claude Code deleted the file: it is read from the app's archived copy. */
  readonly fromArchive?: boolean;
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
  /** The session file; null when it is gone and only its `<sessionId>/subagents/` folder is left. */
  readonly main: DiscoveredFile | null;
  /** Sub-agent files in `<sessionId>/subagents/` (any depth, for workflow runs). */
  readonly subagents: readonly DiscoveredSubagentFile[];
  readonly sessionMemoryPath: string | null;
  /**
   * False when discovery saw no `<sessionId>/` folder beside the file: nothing kept there (its `custom-title.json`) is
   * looked for then, which spares most sessions a stat. True when there is one, or when it was not looked for.
   */
  readonly mayHaveFolder: boolean;
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
export function identify(path: string): DiscoveredFile | null {
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

function listAgentFiles(dir: string, layout: SubagentLayout, depth: number): DiscoveredSubagentFile[] {
  const listing = listDirSync(dir);
  const out: DiscoveredSubagentFile[] = [];
  const names = new Set(listing.entries.map((entry) => entry.name));
  for (const entry of listing.entries) {
    const kind = entryKindSync(dir, entry);
    if (kind.kind === 'dir' && depth < 3) {
      out.push(...listAgentFiles(join(dir, entry.name), layout, depth + 1));
      continue;
    }
    const match = AGENT_FILE.exec(entry.name);
    if (kind.kind !== 'file' || !match) continue;
    const file = identify(join(dir, entry.name));
    if (!file) continue;
    const metaName = `agent-${match[1]}.meta.json`;
    out.push({ ...file, agentId: match[1], layout, metaPath: names.has(metaName) ? join(dir, metaName) : null });
  }
  return out;
}

/** Where a session's file is, or would be when it is gone. */
export function sessionFilePath(configRoot: string, slug: string, sessionId: string): string {
  return join(configRoot, 'projects', slug, `${sessionId}.jsonl`);
}

/** The newest modification of a session's files (its sub-agents', when its own file is gone). */
export function newestMtimeMs(session: DiscoveredSession): number {
  return Math.max(session.main?.mtimeMs ?? 0, ...session.subagents.map((agent) => agent.mtimeMs));
}

function discoverSessionFolder(
  configRoot: string,
  slug: string,
  dir: string,
  sessionId: string,
  main: DiscoveredFile | null,
): DiscoveredSession {
  const subagents = listAgentFiles(join(dir, sessionId, 'subagents'), 'subagents-folder', 0);
  const summary = join(dir, sessionId, 'session-memory', 'summary.md');
  return { configRoot, slug, sessionId, main, subagents, sessionMemoryPath: identify(summary) ? summary : null, mayHaveFolder: true };
}

/** One project folder, with blocking calls (see `identify`), in time slices: a project may hold thousands of sessions. */
async function discoverProject(configRoot: string, slug: string, dir: string): Promise<DiscoveredProject> {
  const listing = listDirSync(dir);
  const byName = new Map(listing.entries.map((entry) => [entry.name, entry]));
  const sessions: DiscoveredSession[] = [];
  const siblingAgents: DiscoveredSubagentFile[] = [];
  for (const entry of listing.entries) {
    await yieldWhenSliceIsUsed();
    const agentId = AGENT_FILE.exec(entry.name)?.[1];
    if (!isSessionFileName(entry.name) && agentId === undefined) continue;
    if (entryKindSync(dir, entry).kind !== 'file') continue;
    const file = identify(join(dir, entry.name));
    if (!file) continue;
    if (agentId !== undefined) {
      const metaName = `agent-${agentId}.meta.json`;
      siblingAgents.push({ ...file, agentId, layout: 'sibling', metaPath: byName.has(metaName) ? join(dir, metaName) : null });
      continue;
    }
    // Zero-byte files are listed like any session (as `projects` counts them): a 2.0 session's warm-up sub-agents
    // name one as theirs. Unreadable ones are skipped.
    const sessionId = sessionIdFromFileName(entry.name);
    const folder = byName.get(sessionId);
    const folderFound = folder !== undefined && entryKindSync(dir, folder).kind === 'dir';
    sessions.push(
      folderFound && isUuid(sessionId)
        ? discoverSessionFolder(configRoot, slug, dir, sessionId, file)
        : { configRoot, slug, sessionId, main: file, subagents: [], sessionMemoryPath: null, mayHaveFolder: folderFound },
    );
  }
  // A session folder whose file is gone (Claude Code's cleanup, a partial backup) still holds what its sub-agents did.
  for (const entry of listing.entries) {
    if (!isUuid(entry.name) || byName.has(`${entry.name}.jsonl`) || entryKindSync(dir, entry).kind !== 'dir') continue;
    await yieldWhenSliceIsUsed();
    const orphan = discoverSessionFolder(configRoot, slug, dir, entry.name, null);
    if (orphan.subagents.length > 0) sessions.push(orphan);
  }
  return { configRoot, slug, dir, sessions, siblingAgents };
}

/**
 * Every project folder of every config root with its session files, sub-agent files and session memory. Reads
 * only, with blocking calls in time slices (see `discoverProject`). `onProject` hears each project as it is found.
 */
export async function discoverSessionFiles(
  configRoots: readonly string[],
  onProject?: (project: DiscoveredProject) => void,
): Promise<DiscoveredProject[]> {
  const projects: DiscoveredProject[] = [];
  for (const configRoot of configRoots) {
    const projectsDir = join(configRoot, 'projects');
    const listing = listDirSync(projectsDir);
    const slugs = listing.entries.filter((entry) => entryKindSync(projectsDir, entry).kind === 'dir').map((entry) => entry.name);
    for (const slug of slugs.sort()) {
      const project = await discoverProject(configRoot, slug, join(projectsDir, slug));
      projects.push(project);
      onProject?.(project);
    }
  }
  return projects;
}

/**
 * Re-discovers one session (live updates): its file, sub-agents and session memory; null when both its file and
 * its sub-agents are gone.
 */
export function discoverSession(configRoot: string, slug: string, sessionId: string): DiscoveredSession | null {
  const dir = join(configRoot, 'projects', slug);
  const main = identify(join(dir, `${sessionId}.jsonl`));
  const session = discoverSessionFolder(configRoot, slug, dir, sessionId, main);
  return main || session.subagents.length > 0 ? session : null;
}
