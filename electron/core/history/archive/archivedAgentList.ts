import { isAbsolute, join, sep } from 'node:path';
import { readChecksummedJson, writeChecksummedJsonText } from '../../fs/checksummedJsonFile';
import type { ArchivedFileRecord } from './archiveModel';

/**
 * The archive's sub-agent transcripts by session, saved beside the manifest with the manifest's hash. The transcript
 * viewer asks the archive for a session's sub-agents Claude Code deleted, and almost always there are none: this list
 * says so without the manifest, which on a big home is megabytes of frames and stamps (10,156 files: 9.3 MB, 60 ms of
 * hashing, parsing and checking, and as much again in garbage collection, on the first transcript opened).
 */
const AGENT_LIST_FORMAT = 'ccmem-archive-agents-1';

/** A list this large is not one the archive wrote. */
const MAX_AGENT_LIST_BYTES = 256 * 1024 * 1024;

/** Config root → project slug → session id → its archived sub-agent files, relative to the project folder. */
type AgentTree = Record<string, Record<string, Record<string, string[]>>>;

interface AgentListBody {
  readonly manifestSha1: string;
  readonly roots: AgentTree;
}

export function agentListPath(dir: string): string {
  return join(dir, 'agents.json');
}

function projectFolderPrefix(configRoot: string, slug: string): string {
  return join(configRoot, 'projects', slug) + sep;
}

/** The own property `key` of a parsed object, if it is an object itself (a slug may well be named `constructor`). */
function child<T>(parent: unknown, key: string): T | null {
  if (typeof parent !== 'object' || parent === null || !Object.hasOwn(parent, key)) return null;
  const value = (parent as Record<string, unknown>)[key];
  return typeof value === 'object' && value !== null ? (value as T) : null;
}

/** Writes the list of the manifest whose body hashes to `manifestSha1`. */
export async function writeAgentList(dir: string, manifestSha1: string, files: readonly ArchivedFileRecord[]): Promise<void> {
  // Maps, not objects, while gathering: a slug or session id may be named like an object's own members (`constructor`).
  const roots = new Map<string, Map<string, Map<string, string[]>>>();
  for (const file of files) {
    if (file.agentId === null) continue;
    const prefix = projectFolderPrefix(file.configRoot, file.slug);
    let projects = roots.get(file.configRoot);
    if (!projects) roots.set(file.configRoot, (projects = new Map()));
    let sessions = projects.get(file.slug);
    if (!sessions) projects.set(file.slug, (sessions = new Map()));
    let paths = sessions.get(file.sessionId);
    if (!paths) sessions.set(file.sessionId, (paths = []));
    paths.push(file.path.startsWith(prefix) ? file.path.slice(prefix.length) : file.path);
  }
  const tree: AgentTree = Object.fromEntries(
    [...roots].map(([root, projects]) => [
      root,
      Object.fromEntries([...projects].map(([slug, sessions]) => [slug, Object.fromEntries(sessions)])),
    ]),
  );
  const body: AgentListBody = { manifestSha1, roots: tree };
  await writeChecksummedJsonText(agentListPath(dir), AGENT_LIST_FORMAT, [JSON.stringify(body)]);
}

/** A session's archived sub-agent files by path, as the saved list names them. */
export type ArchivedAgentPaths = (configRoot: string, slug: string, sessionId: string) => readonly string[];

/**
 * The saved list, if it was made from the manifest whose body hashes to `manifestSha1`; null when there is none, it is
 * corrupt, or it was made from another manifest (another process saved one since, or a save stopped between the two).
 */
export async function readAgentList(dir: string, manifestSha1: string): Promise<ArchivedAgentPaths | null> {
  const body = (await readChecksummedJson(agentListPath(dir), AGENT_LIST_FORMAT, MAX_AGENT_LIST_BYTES)) as Partial<AgentListBody> | null;
  if (body?.manifestSha1 !== manifestSha1) return null;
  return (configRoot, slug, sessionId) => {
    const names = child<unknown[]>(child(child(body.roots, configRoot), slug), sessionId);
    if (!Array.isArray(names)) return [];
    const prefix = projectFolderPrefix(configRoot, slug);
    return names.filter((name): name is string => typeof name === 'string').map((name) => (isAbsolute(name) ? name : prefix + name));
  };
}
