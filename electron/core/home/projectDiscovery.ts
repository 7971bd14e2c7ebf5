import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigRootInfo, HomeDiscoveryProgress, PathSource, ProjectRef, ProjectSummary } from '../../../shared/model/home';
import type { SessionQuickInfo, SessionSummary, TitleSource } from '../../../shared/model/session';
import { toTitle } from '../../../shared/claude/promptText';
import type { ItemWarning } from '../../../shared/model/warnings';
import { pathAndAncestors } from '../../../shared/claude/pathAncestors';
import { MAX_SANITIZED_LENGTH, sanitizePathPrefix, slugDisplayName, slugMatchesPath } from '../../../shared/claude/sanitizePath';
import { isSessionFileName, sessionIdFromFileName } from '../../../shared/claude/sessionFiles';
import { entryKind, listDir, statOrNull, warning } from '../fs/readSafely';
import { scanMemoryFolder } from '../layout/memoryFolderScan';
import { INDEX_FILE_NAME } from '../../../shared/memory/indexFileName';
import { readOrphanSessionInfo } from '../layout/sessionQuickInfo';
import { readSessionsIndexProjectPath } from '../layout/sessionsIndexFile';
import type { ConfigRootSpec } from '../layout/configRoots';
import { canonicalGitRoot } from '../layout/gitRoot';
import { mapLimit } from '../async/mapLimit';
import { resolveMemoryDir } from '../layout/memoryDirResolver';
import { readSettingsFile, validateMemoryDirectory } from '../layout/settingsFiles';
import { isUuid } from '../../../shared/claude/sessionIds';

const IO_PARALLELISM = 16;

/** Reads one session's quick info; the caller decides whether to reuse a cached one. */
export type SessionInfoReader = (file: string, sessionId: string) => Promise<SessionQuickInfo>;

export interface DiscoveredHome {
  readonly roots: readonly ConfigRootInfo[];
  readonly projects: readonly ProjectSummary[];
  /** Sessions per project, keyed by `projectKey()`. */
  readonly sessions: ReadonlyMap<string, readonly SessionQuickInfo[]>;
}

export function projectKey(configRoot: string, slug: string): string {
  return `${configRoot}\0${slug}`;
}

interface ProjectFolder {
  readonly configRoot: string;
  readonly slug: string;
  readonly dir: string;
  readonly sessions: readonly SessionQuickInfo[];
  readonly indexPath: string | null;
  readonly warnings: ItemWarning[];
}

/** The most common first cwd across sessions; ties go to the one seen in the newest session. */
function mostCommonCwd(sessions: readonly SessionQuickInfo[]): string | null {
  const counts = new Map<string, { count: number; newest: string }>();
  for (const session of sessions) {
    if (!session.cwd) continue;
    const entry = counts.get(session.cwd) ?? { count: 0, newest: '' };
    entry.count++;
    if (session.mtime > entry.newest) entry.newest = session.mtime;
    counts.set(session.cwd, entry);
  }
  let best: string | null = null;
  let bestEntry = { count: 0, newest: '' };
  for (const [cwd, entry] of counts) {
    if (entry.count > bestEntry.count || (entry.count === bestEntry.count && entry.newest > bestEntry.newest)) {
      best = cwd;
      bestEntry = entry;
    }
  }
  return best;
}

/** A project folder's session files, listed but not read yet. */
interface ListedFolder {
  readonly configRoot: string;
  readonly slug: string;
  readonly dir: string;
  readonly sessionFiles: readonly string[];
  /** Session folders whose file is gone while their sub-agents are left. */
  readonly orphans: readonly string[];
  readonly warnings: ItemWarning[];
}

/** The newest mtime of the files; blocking `stat`s on purpose: thousands of them cost a few milliseconds (see catalogDiscovery's `identify`). */
function newestMtimeSync(files: readonly string[]): number {
  let newest = 0;
  for (const file of files) {
    try {
      newest = Math.max(newest, statSync(file).mtimeMs);
    } catch {
      // Gone or unreadable: the read reports it.
    }
  }
  return newest;
}

async function listProjectFolder(configRoot: string, slug: string, dir: string): Promise<ListedFolder> {
  const warnings: ItemWarning[] = [];
  const listing = await listDir(dir);
  if (listing.warning) warnings.push(listing.warning);
  const sessionFiles: string[] = [];
  const names = new Set(listing.entries.map((entry) => entry.name));
  const orphans: string[] = [];
  for (const entry of listing.entries) {
    if (isUuid(entry.name) && !names.has(`${entry.name}.jsonl`)) {
      // A session folder whose file is gone: still a session when its sub-agents are left (as the catalog lists it).
      if ((await listDir(join(dir, entry.name, 'subagents'))).entries.some((agent) => /^agent-.+\.jsonl$/.test(agent.name)))
        orphans.push(entry.name);
      continue;
    }
    if (!isSessionFileName(entry.name)) continue;
    const kind = await entryKind(dir, entry);
    if (kind.warning) warnings.push(kind.warning);
    if (kind.kind === 'file') sessionFiles.push(entry.name);
  }
  return { configRoot, slug, dir, sessionFiles, orphans, warnings };
}

async function readListedFolder(folder: ListedFolder, readSession: SessionInfoReader): Promise<ProjectFolder> {
  const { configRoot, slug, dir } = folder;
  const sessions = withSummariesFromOtherFiles([
    ...(await mapLimit(folder.sessionFiles, IO_PARALLELISM, (name) => readSession(join(dir, name), sessionIdFromFileName(name)))),
    ...(await mapLimit(folder.orphans, IO_PARALLELISM, (sessionId) => readOrphanSessionInfo(dir, sessionId))),
  ]);
  sessions.sort((a, b) => (b.lastTimestamp ?? b.mtime).localeCompare(a.lastTimestamp ?? a.mtime));
  return { configRoot, slug, dir, sessions, indexPath: await readSessionsIndexProjectPath(dir), warnings: folder.warnings };
}

async function readProjectFolder(configRoot: string, slug: string, dir: string, readSession: SessionInfoReader): Promise<ProjectFolder> {
  return readListedFolder(await listProjectFolder(configRoot, slug, dir), readSession);
}

/**
 * One project folder's sessions, exactly as `discoverHome` lists them (legacy summaries in other files of the folder
 * title them too), without looking at the rest of the home; empty when the folder cannot be read.
 */
export async function discoverFolderSessions(ref: ProjectRef, readSession: SessionInfoReader): Promise<SessionSummary[]> {
  const folder = await readProjectFolder(ref.configRoot, ref.slug, join(ref.configRoot, 'projects', ref.slug), readSession).catch(
    () => null,
  );
  return (folder?.sessions ?? []).map((session) => ({ ...session, configRoot: ref.configRoot, slug: ref.slug }));
}

const WEAKER_THAN_SUMMARY: ReadonlySet<TitleSource> = new Set(['first-prompt', 'none']);

/**
 * A legacy `summary` line (Claude Code 1.0) titles the session whose message its `leafUuid` names, usually another
 * file of the same project: applied where the session has no stronger title of its own.
 */
function withSummariesFromOtherFiles(sessions: readonly SessionQuickInfo[]): SessionQuickInfo[] {
  const byLeaf = new Map<string, string>();
  for (const session of sessions) for (const { leafUuid, summary } of session.otherSessionSummaries) byLeaf.set(leafUuid, summary);
  if (byLeaf.size === 0) return [...sessions];
  return sessions.map((session) => {
    if (!WEAKER_THAN_SUMMARY.has(session.titleSource)) return session;
    const summary = [...session.leafUuids]
      .reverse()
      .map((leaf) => byLeaf.get(leaf))
      .find((found) => found !== undefined);
    return summary === undefined ? session : { ...session, title: toTitle(summary), titleSource: 'summary' };
  });
}

async function firstWithGit(candidates: readonly string[]): Promise<string | null> {
  for (const candidate of candidates) if (await statOrNull(join(candidate, '.git'))) return candidate;
  return null;
}

type UserSettings = Awaited<ReturnType<typeof readSettingsFile>>;

/** What placing one project needs to know of the whole home. */
interface HomeContext {
  /** Every session cwd read so far, with its ancestors. */
  readonly knownCwds: ReadonlySet<string>;
  readonly slugsByRoot: ReadonlyMap<string, readonly string[]>;
  readonly userSettingsByRoot: ReadonlyMap<string, UserSettings>;
}

interface SummarizedProject {
  readonly summary: ProjectSummary;
  /** Its path came from other projects' cwds (`knownCwds`), so a summary made before they were all read may change. */
  readonly placedByOtherProjects: boolean;
}

/** One project's path, memory folder and activity, from its folder and what is known of the rest of the home. */
async function summarizeProject(folder: ProjectFolder, home: HomeContext): Promise<SummarizedProject> {
  let path: string | null = mostCommonCwd(folder.sessions);
  let pathSource: PathSource = path ? 'transcript-cwd' : 'unknown';
  if (!path && folder.indexPath) {
    path = folder.indexPath;
    pathSource = 'sessions-index';
  }
  const placedByOtherProjects = path === null;
  if (!path) {
    const matches = [...home.knownCwds].filter((candidate) => slugMatchesPath(folder.slug, candidate));
    if (matches.length > 0) {
      // Long (> 200 char) slugs match by prefix, so a sub-folder and its ancestors can all match; auto memory
      // is keyed on the git root, so prefer the candidate that has a `.git` on disk.
      path = matches.length === 1 ? matches[0] : ((await firstWithGit(matches)) ?? matches[0]);
      pathSource = 'git-root-match';
    }
  }
  const pathOnDisk = path && (await statOrNull(path))?.isDirectory() ? path : null;
  const memoryOwner = pathOnDisk
    ? await gitRootProject(pathOnDisk, folder.configRoot, home.slugsByRoot.get(folder.configRoot) ?? [])
    : null;
  const memory = await resolveMemoryDir(
    folder.configRoot,
    folder.slug,
    home.userSettingsByRoot.get(folder.configRoot) ?? { values: null, warning: null },
    pathOnDisk,
    memoryOwner,
  );
  const memoryDirExists = (await statOrNull(memory.memoryDir))?.isDirectory() ?? false;
  const scan = await scanMemoryFolder(memory.memoryDir);
  const indexStats = await statOrNull(join(memory.memoryDir, INDEX_FILE_NAME));
  const memoryNewest = newestMtimeSync(scan.topicFiles.map((file) => file.absolutePath));
  // A session's own last timestamp beats its mtime, which copies and backups reset.
  const sessionNewest = folder.sessions.reduce((max, s) => Math.max(max, Date.parse(s.lastTimestamp ?? s.mtime) || 0), 0);
  const newest = Math.max(memoryNewest, sessionNewest, indexStats?.mtimeMs ?? 0);
  const sessionWarnings = folder.sessions.flatMap((s) => s.warnings);
  const summary: ProjectSummary = {
    configRoot: folder.configRoot,
    slug: folder.slug,
    path,
    pathSource,
    displayName: path ?? slugDisplayName(folder.slug),
    sessionCount: folder.sessions.length,
    memoryDir: memory.memoryDir,
    memoryDirExists,
    memoryDirSource: memory.source,
    memoryOwner: memory.source === 'default' ? memoryOwner : null,
    memorySharedWith: [],
    memoryFileCount: scan.topicFiles.length,
    hasMemoryIndex: indexStats?.isFile() ?? false,
    lastActivity: newest > 0 ? new Date(newest).toISOString() : null,
    warnings: [...folder.warnings, ...memory.warnings, ...scan.warnings, ...sessionWarnings],
  };
  return { summary, placedByOtherProjects };
}

/** The projects as a home lists them: who shares whose memory folder, most recently active first. */
function listedProjects(summaries: readonly ProjectSummary[]): ProjectSummary[] {
  const shared = withSharedMemory(summaries);
  shared.sort((a, b) => (b.lastActivity ?? '').localeCompare(a.lastActivity ?? '') || a.slug.localeCompare(b.slug));
  return shared;
}

/** Streamed parts of the home come at most this often after the first (each lists every project read so far). */
const PART_INTERVAL_MS = 100;

/** Discovery's way of showing the home before it has read all of it. */
export interface DiscoveryStream {
  /**
   * Hears the home as far as it is read: first with the newest project alone (the one whose session file changed
   * last, most likely the one the user opens), then at most every PART_INTERVAL_MS as more are read. The finished
   * home is what `discoverHome` returns, not a part.
   */
  readonly onPart: (part: DiscoveredHome, progress: HomeDiscoveryProgress) => void;
  /** Awaited once the first part is heard, before the rest of the home is read (tests hold discovery there). */
  readonly afterFirstPart?: () => Promise<void>;
}

/**
 * Finds every config root's projects, their real paths, sessions and memory folders. Reads only. With a `stream`,
 * reads the project folders newest first and tells what it has so far as it goes; the result is the same.
 */
export async function discoverHome(
  specs: readonly ConfigRootSpec[],
  readSession: SessionInfoReader,
  stream?: DiscoveryStream,
): Promise<DiscoveredHome> {
  const roots: ConfigRootInfo[] = [];
  const listed: ListedFolder[] = [];
  const userSettingsByRoot = new Map<string, UserSettings>();
  for (const spec of specs) {
    const rootWarnings: ItemWarning[] = [];
    const rootStats = await statOrNull(spec.path);
    const exists = rootStats?.isDirectory() ?? false;
    if (rootStats && !exists) rootWarnings.push(warning('not-a-directory', 'The config root is not a folder', spec.path));
    const userSettings = exists ? await readSettingsFile(join(spec.path, 'settings.json')) : { values: null, warning: null };
    if (userSettings.warning) rootWarnings.push(userSettings.warning);
    const userMemoryDir = userSettings.values?.autoMemoryDirectory;
    if (userMemoryDir !== undefined && validateMemoryDirectory(userMemoryDir) === null) {
      rootWarnings.push(
        warning(
          'settings-invalid-path',
          `autoMemoryDirectory ${JSON.stringify(userMemoryDir)} is not an absolute path or ~/ path; it was ignored`,
          join(spec.path, 'settings.json'),
        ),
      );
    }
    userSettingsByRoot.set(spec.path, userSettings);
    roots.push({ path: spec.path, exists, source: spec.source, warnings: rootWarnings });
    if (!exists) continue;
    const projectsDir = join(spec.path, 'projects');
    const listing = await listDir(projectsDir);
    if (listing.warning) rootWarnings.push(listing.warning);
    const slugs: string[] = [];
    for (const entry of listing.entries) {
      const kind = await entryKind(projectsDir, entry);
      if (kind.warning) rootWarnings.push(kind.warning);
      if (kind.kind === 'dir') slugs.push(entry.name);
    }
    listed.push(...(await mapLimit(slugs, 4, (slug) => listProjectFolder(spec.path, slug, join(projectsDir, slug)))));
  }

  const slugsByRoot = new Map<string, string[]>();
  for (const folder of listed) slugsByRoot.set(folder.configRoot, [...(slugsByRoot.get(folder.configRoot) ?? []), folder.slug]);
  const knownCwds = new Set<string>();
  const context: HomeContext = { knownCwds, slugsByRoot, userSettingsByRoot };
  // Kept in listing order whatever order they are read in, so the result does not depend on it.
  const folders = new Array<ProjectFolder | undefined>(listed.length);
  const summarized = new Array<SummarizedProject | undefined>(listed.length);
  let lastPartAt = -Infinity;
  const partSoFar = (): DiscoveredHome => {
    const read = folders.flatMap((folder, index) => (folder && summarized[index] ? [{ folder, summary: summarized[index].summary }] : []));
    return {
      roots,
      projects: listedProjects(read.map(({ summary }) => summary)),
      sessions: new Map(read.map(({ folder }) => [projectKey(folder.configRoot, folder.slug), folder.sessions])),
    };
  };
  const readFolder = async (index: number): Promise<void> => {
    const folder = await readListedFolder(listed[index], readSession);
    folders[index] = folder;
    for (const session of folder.sessions) if (session.cwd) for (const p of pathAndAncestors(session.cwd)) knownCwds.add(p);
    if (!stream) return;
    summarized[index] = await summarizeProject(folder, context);
    const now = Date.now();
    if (now - lastPartAt < PART_INTERVAL_MS) return;
    lastPartAt = now;
    stream.onPart(partSoFar(), { projectsRead: summarized.filter(Boolean).length, projectsFound: listed.length });
  };
  const indices = listed.map((_, index) => index);
  if (stream) {
    // Only a streamed discovery needs the order: the folder whose session file changed last goes first.
    const changedAt = listed.map((folder) => newestMtimeSync(folder.sessionFiles.map((name) => join(folder.dir, name))));
    const newestFirst = [...indices].sort((a, b) => changedAt[b] - changedAt[a] || a - b);
    const [newest, ...rest] = newestFirst;
    if (newest !== undefined) {
      await readFolder(newest);
      await stream.afterFirstPart?.();
    }
    await mapLimit(rest, 4, readFolder);
  } else {
    await mapLimit(indices, 4, readFolder);
  }

  // A summary made while the home was read stands unless its path came from projects read after it.
  const summaries = await mapLimit(indices, 4, async (index) => {
    const early = summarized[index];
    return early && !early.placedByOtherProjects ? early.summary : (await summarizeProject(folders[index]!, context)).summary;
  });
  const sessions = new Map(folders.map((folder) => [projectKey(folder!.configRoot, folder!.slug), folder!.sessions]));
  return { roots, projects: listedProjects(summaries), sessions };
}

/**
 * The project folder of a sub-folder's repository root, or null when the folder is its own root or in no
 * repository: the root's own folder name when it has one, else the one Claude Code would make (paths up to 200
 * characters; longer ones end in a hash only Claude Code knows).
 */
async function gitRootProject(path: string, configRoot: string, slugs: readonly string[]): Promise<string | null> {
  const root = await canonicalGitRoot(path);
  if (root === null || root === path) return null;
  const known = slugs.find((slug) => slugMatchesPath(slug, root));
  if (known !== undefined) return known;
  const made = sanitizePathPrefix(root);
  return made.length <= MAX_SANITIZED_LENGTH && configRoot !== '' ? made : null;
}

/** Tells each project which others use its memory folder (sub-folders of its repository). */
function withSharedMemory(projects: readonly ProjectSummary[]): ProjectSummary[] {
  return projects.map((project) => {
    if (project.memoryOwner !== null) return project;
    const others = projects
      .filter((other) => other.memoryOwner !== null && other.configRoot === project.configRoot && other.memoryDir === project.memoryDir)
      .map((other) => other.slug)
      .sort();
    return others.length === 0 ? project : { ...project, memorySharedWith: others };
  });
}
