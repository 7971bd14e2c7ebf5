import { join } from 'node:path';
import type { RandomAccessSource } from '../fs/randomAccessSource';
import {
  identify,
  type DiscoveredFile,
  type DiscoveredProject,
  type DiscoveredSession,
  type DiscoveredSubagentFile,
} from './catalogDiscovery';
import { sessionKeyOf } from '../../../shared/claude/sessionIds';

/** An archived transcript as the catalog needs it (history/archive's TranscriptArchive records have this shape). */
export interface ArchivedCatalogFile {
  readonly path: string;
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  /** Null for the session's own transcript. */
  readonly agentId: string | null;
  readonly layout: 'session' | 'subagents-folder' | 'sibling';
  /** Bytes archived. */
  readonly bytes: number;
  /** The file as it was when last archived: the catalog keys its cache on it, so a deleted file is not read again. */
  readonly source: { readonly fileId: string; readonly mtimeNs: string; readonly mtimeMs: number };
}

/** What the catalog asks the transcript archive. */
export interface CatalogArchive {
  load(): Promise<void>;
  files(): readonly ArchivedCatalogFile[];
  openSource(path: string): Promise<RandomAccessSource | null>;
}

/** An archived file's identity: the one it had on disk when archived whole, so a cached read of it stays valid. */
function archivedIdentity(file: ArchivedCatalogFile): DiscoveredFile {
  return {
    path: file.path,
    fileId: file.source.fileId,
    size: file.bytes,
    mtimeNs: file.source.mtimeNs,
    mtimeMs: file.source.mtimeMs,
    fromArchive: true,
  };
}

/** A sub-agent file from the disk when it is still there, else from the archive. */
function subagentFile(file: ArchivedCatalogFile): DiscoveredSubagentFile {
  const onDisk = identify(file.path);
  return {
    ...(onDisk ?? archivedIdentity(file)),
    agentId: file.agentId ?? '',
    layout: file.layout === 'sibling' ? 'sibling' : 'subagents-folder',
    metaPath: null,
  };
}

/**
 * Adds to what discovery found on disk the transcripts that only the archive still holds (Claude Code deleted them
 * after `cleanupPeriodDays`): sessions whose own file is gone (marked `archived`, with their sub-agents from the disk
 * or the archive), and sub-agent files gone from sessions still on disk. Reads nothing but a `stat` per sub-agent.
 */
export function withArchivedFiles(
  projects: readonly DiscoveredProject[],
  archived: readonly ArchivedCatalogFile[],
  roots: readonly string[],
): DiscoveredProject[] {
  const onDisk = new Set<string>();
  for (const project of projects) {
    for (const agent of project.siblingAgents) onDisk.add(agent.path);
    for (const session of project.sessions) {
      if (session.main) onDisk.add(session.main.path);
      for (const file of session.subagents) onDisk.add(file.path);
    }
  }
  const missing = new Map<string, ArchivedCatalogFile[]>();
  for (const file of archived) {
    if (onDisk.has(file.path) || !roots.includes(file.configRoot)) continue;
    const key = sessionKeyOf(file.configRoot, file.slug, file.sessionId);
    missing.set(key, [...(missing.get(key) ?? []), file]);
  }
  if (missing.size === 0) return [...projects];
  const byProject = new Map(
    projects.map((project) => [`${project.configRoot}\0${project.slug}`, { ...project, sessions: [...project.sessions] }]),
  );
  for (const files of missing.values()) {
    const { configRoot, slug, sessionId } = files[0];
    const projectKey = `${configRoot}\0${slug}`;
    let project = byProject.get(projectKey);
    const agents = files.filter((file) => file.agentId !== null).map(subagentFile);
    const index = project?.sessions.findIndex((session) => session.sessionId === sessionId) ?? -1;
    const main = files.find((file) => file.agentId === null);
    if (project && index >= 0) {
      // On disk still, or only its sub-agents are (Claude Code's cleanup leaves them): the archive adds what is gone.
      const session = project.sessions[index];
      const ownFile = session.main ?? (main ? archivedIdentity(main) : null);
      project.sessions[index] = { ...session, main: ownFile, subagents: [...session.subagents, ...agents] };
      continue;
    }
    // Sub-agents without their session's own transcript make no session.
    if (!main) continue;
    if (!project) {
      project = { configRoot, slug, dir: join(configRoot, 'projects', slug), sessions: [], siblingAgents: [] };
      byProject.set(projectKey, project);
    }
    // Claude Code's cleanup leaves the session's folder (sub-agents, session memory) when it deletes the transcript.
    const summary = join(project.dir, sessionId, 'session-memory', 'summary.md');
    const session: DiscoveredSession = {
      configRoot,
      slug,
      sessionId,
      main: archivedIdentity(main),
      subagents: agents,
      sessionMemoryPath: identify(summary) ? summary : null,
      mayHaveFolder: true,
    };
    project.sessions.push(session);
  }
  return [...byProject.values()];
}
