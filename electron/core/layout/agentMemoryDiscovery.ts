import { dirname, join } from 'node:path';
import { agentTypeToFolderName } from '../../../shared/claude/sessionFiles';
import { SNAPSHOTS_FOLDER } from '../../../shared/agents/snapshotStatus';
import type { AgentMemoryScope, AgentMemorySummary, AgentSnapshotStatus, SnapshotSide } from '../../../shared/model/agents';
import type { ItemWarning } from '../../../shared/model/warnings';
import { isReallyWithin } from '../fs/pathContainment';
import { entryKind, listDir, statOrNull, warning } from '../fs/readSafely';
import { scanMemoryFolder } from './memoryFolderScan';
import { INDEX_FILE_NAME } from '../../../shared/memory/indexFileName';
import { readSnapshotStatus } from './snapshotStatusReader';

export interface AgentMemoryPlace {
  readonly scope: AgentMemoryScope;
  /** The folder holding one sub-folder per agent type. */
  readonly baseDir: string;
  readonly projectPath: string | null;
}

/** The three scopes' base folders: user scope under each config root, project and local scopes under each project on disk. */
export function agentMemoryPlaces(configRoots: readonly string[], projectPaths: readonly string[]): AgentMemoryPlace[] {
  const places: AgentMemoryPlace[] = configRoots.map((root) => ({ scope: 'user', baseDir: join(root, 'agent-memory'), projectPath: null }));
  for (const projectPath of projectPaths) {
    places.push({ scope: 'project', baseDir: join(projectPath, '.claude', 'agent-memory'), projectPath });
    places.push({ scope: 'local', baseDir: join(projectPath, '.claude', 'agent-memory-local'), projectPath });
  }
  return places;
}

/** Where a project keeps the committed snapshot of one agent type: the raw type, ':' and all (Claude Code does not sanitise it). */
export function snapshotDirFor(projectPath: string, agentType: string): string {
  return join(projectPath, '.claude', SNAPSHOTS_FOLDER, agentType);
}

/**
 * The folder an agent's memory and its project snapshot must really lie in, through any symlink: its project, or
 * for user scope the config root (`<root>/agent-memory/<type>`). A repository cannot commit a way out of it.
 */
export function agentBoundary(agent: Pick<AgentMemorySummary, 'dir' | 'projectPath'>): string {
  return agent.projectPath ?? dirname(dirname(agent.dir));
}

/** A base folder that leads outside its boundary is not read at all: not even its listing leaves the boundary. */
async function readableBase(base: string, boundary: string, warnings: ItemWarning[]): Promise<boolean> {
  if (await isReallyWithin(boundary, base)) return true;
  warnings.push(warning('outside-root', `Leads outside ${boundary} through a symlink; it is not read, and nothing is written there`, base));
  return false;
}

async function folderNames(dir: string, boundary: string, warnings: ItemWarning[]): Promise<string[]> {
  if (!(await readableBase(dir, boundary, warnings))) return [];
  const listing = await listDir(dir);
  if (listing.warning) warnings.push(listing.warning);
  return listing.entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

/** Snapshot folders, symlinked ones included: Claude Code reads `snapshot.json` through any symlink. */
async function snapshotFolderNames(base: string, boundary: string, warnings: ItemWarning[]): Promise<string[]> {
  if (!(await readableBase(base, boundary, warnings))) return [];
  const listing = await listDir(base);
  if (listing.warning) warnings.push(listing.warning);
  const names: string[] = [];
  for (const entry of listing.entries) {
    const kind = await entryKind(base, entry);
    if (kind.warning) warnings.push(kind.warning);
    if (kind.kind === 'dir') names.push(entry.name);
  }
  return names;
}

/**
 * The snapshots of one project by memory folder name. A plugin agent's snapshot folder `plugin:agent` belongs to
 * the memory folder `plugin-agent`; should both spellings exist, the one named exactly like the folder wins.
 */
async function snapshotsByFolder(projectPath: string, warnings: ItemWarning[]): Promise<Map<string, string>> {
  const byFolder = new Map<string, string>();
  const base = join(projectPath, '.claude', SNAPSHOTS_FOLDER);
  for (const agentType of (await snapshotFolderNames(base, projectPath, warnings)).sort()) {
    const folder = agentTypeToFolderName(agentType);
    const taken = byFolder.get(folder);
    if (taken === undefined || agentType === folder) byFolder.set(folder, agentType);
    const ignored = taken === undefined ? null : agentType === folder ? taken : agentType;
    if (ignored !== null)
      warnings.push(warning('snapshot-invalid', `Two snapshot folders map to the memory folder ${folder}; ${ignored} is ignored`, base));
  }
  return byFolder;
}

const NO_SNAPSHOT: AgentSnapshotStatus = { dir: null, updatedAt: null, syncedFrom: null, action: 'none' };

/** Which of an agent's folders lead outside its boundary, each with its warning. */
async function foldersOutside(
  boundary: string,
  dir: string,
  snapshotDir: string | null,
): Promise<{ sides: SnapshotSide[]; warnings: ItemWarning[] }> {
  const sides: SnapshotSide[] = [];
  const warnings: ItemWarning[] = [];
  const message = (what: string) =>
    `${what} leads outside ${boundary} through a symlink; it is listed, but never read, written or sent to a model`;
  if (!(await isReallyWithin(boundary, dir))) {
    sides.push('local');
    warnings.push(warning('outside-root', message('The memory folder'), dir));
  }
  if (snapshotDir !== null && !(await isReallyWithin(boundary, snapshotDir))) {
    sides.push('snapshot');
    warnings.push(warning('outside-root', message('The snapshot folder'), snapshotDir));
  }
  return { sides, warnings };
}

async function summarize(
  scope: AgentMemoryScope,
  agentType: string,
  dir: string,
  projectPath: string | null,
  placeWarnings: readonly ItemWarning[],
): Promise<AgentMemorySummary> {
  // Claude Code looks for the snapshot by type, without listing, so it is looked for even where none was listed.
  const snapshotDir = projectPath ? snapshotDirFor(projectPath, agentType) : null;
  const outside = await foldersOutside(agentBoundary({ dir, projectPath }), dir, snapshotDir);
  if (outside.sides.length > 0) {
    return {
      agentType,
      scope,
      dir,
      projectPath,
      fileCount: 0,
      hasIndex: false,
      snapshot: NO_SNAPSHOT,
      outsideRoot: outside.sides,
      warnings: [...placeWarnings, ...outside.warnings],
    };
  }
  const scan = await scanMemoryFolder(dir);
  const indexStats = await statOrNull(join(dir, INDEX_FILE_NAME));
  const snapshot = await readSnapshotStatus(dir, snapshotDir);
  return {
    agentType,
    scope,
    dir,
    projectPath,
    fileCount: scan.topicFiles.length + (indexStats?.isFile() ? 1 : 0),
    hasIndex: indexStats?.isFile() ?? false,
    snapshot: snapshot.status,
    outsideRoot: [],
    warnings: [...placeWarnings, ...scan.warnings, ...snapshot.warnings],
  };
}

/**
 * Every agent memory folder in every scope, with its snapshot status. A project's snapshot belongs to the
 * agent's project- and local-scope memory in that project; an agent with a snapshot and no memory folder in
 * either scope yet is listed in project scope with `fileCount` 0, so it can be initialised. Every folder is
 * checked by real path against its boundary (`agentBoundary`): one that leads out is listed but not read.
 */
export async function discoverAgentMemories(
  configRoots: readonly string[],
  projectPaths: readonly string[],
): Promise<AgentMemorySummary[]> {
  const result: AgentMemorySummary[] = [];
  for (const root of configRoots) {
    const warnings: ItemWarning[] = [];
    const baseDir = join(root, 'agent-memory');
    for (const name of (await folderNames(baseDir, root, warnings)).sort())
      result.push(await summarize('user', name, join(baseDir, name), null, warnings));
  }
  for (const projectPath of projectPaths) {
    const warnings: ItemWarning[] = [];
    const snapshots = await snapshotsByFolder(projectPath, warnings);
    const [projectPlace, localPlace] = agentMemoryPlaces([], [projectPath]);
    const projectFolders = await folderNames(projectPlace.baseDir, projectPath, warnings);
    const localFolders = await folderNames(localPlace.baseDir, projectPath, warnings);
    const snapshotOnly = [...snapshots.keys()].filter((folder) => !projectFolders.includes(folder) && !localFolders.includes(folder));
    for (const [place, folders] of [
      [projectPlace, [...projectFolders, ...snapshotOnly]],
      [localPlace, localFolders],
    ] as const) {
      for (const folder of [...folders].sort()) {
        const agentType = snapshots.get(folder) ?? folder;
        result.push(await summarize(place.scope, agentType, join(place.baseDir, folder), projectPath, warnings));
      }
    }
  }
  return result;
}
