import { promises as fs } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import type { SessionQuickInfo } from '../../../shared/model/session';
import { CodedError } from '../../../shared/result';
import type { IndexedLine } from '../../../shared/transcript/indexedLine';
import type { UnreachableLine } from '../../../shared/transcript/lineReachability';
import { resumeCommands, isWindowsPath } from '../../../shared/transcript/resumeCommand';
import type { TranscriptUsage } from '../../../shared/transcript/turnUsage';
import { parseSessionMemorySections } from '../../../shared/transcript/sessionMemorySections';
import type { SubagentLink, TranscriptEntry } from '../../../shared/transcript/transcriptEntry';
import {
  LIVE_VIEW,
  type ResumeCommands,
  type SessionMemory,
  type SubagentSummary,
  type TranscriptExportChunk,
  type TranscriptExportFormat,
  type TranscriptFindResult,
  type TranscriptOutline,
  type TranscriptPage,
  type TranscriptViewSpec,
  type ToolOutputPage,
} from '../../../shared/transcript/transcriptOutline';
import { readSmallText, statOrNull } from '../fs/readSafely';
import type { HomeService } from '../home/HomeService';
import type { LiveHome } from '../watch/liveHome';
import { SecretMasker } from '../secrets/secretMasker';
import type { WatchedChange } from '../watch/watchedChange';
import { readOrphanSessionInfo, readSessionQuickInfo } from '../layout/sessionQuickInfo';
import { forkPoints, otherRoots } from './branchChoices';
import { findSubagentFiles, type SiblingOwnerCache, type SubagentFile } from '../layout/subagentFiles';
import { linkSubagents, type LinkedSubagent } from './subagentLinks';
import type { IndexUpdate } from './TranscriptIndex';
import { MAIN_SCOPE, TranscriptDocument, type ConversationScope, type ResolvedView } from './TranscriptDocument';
import { exportFileName, renderExportChunk } from './transcriptExport';
import { DISK_SOURCES, type TranscriptSources } from './transcriptSources';
import { readTextPage } from './textPage';
import type { SavedLineIndexes } from './savedLineIndexes';
import { Emitter } from '../events';

/** Names one session file: the slug is only unique within a config root. */
export interface SessionRef {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
}

export interface TranscriptChange extends SessionRef {
  readonly path: string;
  readonly generation: number;
  readonly bytes: number;
}

/** Where and how a session would be resumed. */
export interface ResumeTarget {
  readonly sessionId: string;
  readonly cwd: string | null;
  readonly cwdExists: boolean;
  readonly commands: ResumeCommands;
}

const MAX_OPEN_SESSIONS = 6;
const MAX_SESSION_MEMORY_BYTES = 4 * 1024 * 1024;
/** A spilled tool output is read in pages of this size. */
const TOOL_OUTPUT_PAGE_BYTES = 64 * 1024;
/** Unreachable lines listed by an outline (all are counted in its stats). */
const MAX_UNREACHABLE_LISTED = 200;
const EXPORT_CHUNK_ROWS = 300;
/** How long an outline may spend indexing a newly opened file before answering with what it has (first screen first). */
const FIRST_SCREEN_BUDGET_MS = 200;
/** Files up to this size are indexed whole before the first answer: it takes well under the budget anyway. */
const WHOLE_FIRST_INDEX_BYTES = 16 * 1024 * 1024;
/** The rest of a huge file is indexed in slices this long, so requests and events get their turn. */
const BACKGROUND_SLICE_MS = 100;
/** Background indexing waits this long after an outline, for the viewer's first page request to go first. */
const BACKGROUND_START_DELAY_MS = 150;
/** How often background indexing reports progress to the viewer. */
const PROGRESS_EVERY_MS = 400;
/** Session memory filed under another project's folder is looked for again at most this often. */
const MEMORY_LOOKUP_EVERY_MS = 60_000;

/** Why a session whose own file is gone cannot be resumed: only its sub-agents' transcripts are left. */
export const MISSING_TRANSCRIPT_RESUME_REASON =
  "This session's own transcript is gone (only its sub-agents' files are left), so `claude --resume` cannot find it.";

/** Why an archived session cannot be resumed: Claude Code looks for the transcript it deleted, not for our copy. */
export const ARCHIVED_RESUME_REASON =
  'Claude Code deleted this transcript (it removes sessions older than cleanupPeriodDays), so `claude --resume` cannot find it. ' +
  "What you see is the copy in this app's archive.";

/** When a newly opened file is indexed only in part before the first answer (tests shrink these to force it). */
export interface FirstScreenOptions {
  readonly budgetMs: number;
  readonly wholeIndexBytes: number;
}

const FIRST_SCREEN: FirstScreenOptions = { budgetMs: FIRST_SCREEN_BUDGET_MS, wholeIndexBytes: WHOLE_FIRST_INDEX_BYTES };

/** How much of the file a request needs indexed before it answers. */
type Freshness = 'first-screen' | 'complete' | 'as-is';

interface OpenSession {
  readonly ref: SessionRef;
  readonly path: string;
  /** False when the session file is gone and only its sub-agents are left. */
  readonly mainTranscript: boolean;
  readonly document: TranscriptDocument;
  subagents: { version: string; list: LinkedSubagent[] } | null;
  readonly agentDocuments: Map<string, TranscriptDocument>;
  quickInfo: { key: string; info: SessionQuickInfo } | null;
  /** The background indexing of a file too big to index before the first screen, while it runs. */
  indexing: Promise<void> | null;
  /** Where the session memory was last looked for in other project folders, and when (that look is not cheap). */
  memoryElsewhere: { readonly path: string | null; readonly at: number } | null;
}

/** A Windows path recorded by a session never exists on another platform, whatever a relative lookup says. */
async function directoryExists(path: string | null): Promise<boolean> {
  if (path === null || (isWindowsPath(path) && process.platform !== 'win32')) return false;
  return Boolean((await statOrNull(path))?.isDirectory());
}

/** The sub-agent each Agent/Task call started, for the pages to show at the call. */
function linksByCall(subagents: readonly LinkedSubagent[]): Map<string, SubagentLink> {
  const links = new Map<string, SubagentLink>();
  for (const agent of subagents) {
    if (agent.toolUseId !== null)
      links.set(agent.toolUseId, { agentId: agent.agentId, agentType: agent.agentType, description: agent.description });
  }
  return links;
}

/**
 * The user and assistant lines of the file shown that no branch reaches, as the outline lists them: at most a few
 * hundred, and none for an inline run (its lines are the session file's).
 */
function listedUnreachable(lines: readonly UnreachableLine[], scope: ConversationScope): UnreachableLine[] {
  return scope.kind === 'inline-agent' ? [] : lines.slice(0, MAX_UNREACHABLE_LISTED);
}

/** The lines that could not be read, and among them those too long to index: one walk of the lines for both. */
function unreadableCounts(lines: readonly IndexedLine[]): { badLines: number; tooLongLines: number } {
  let badLines = 0;
  let tooLongLines = 0;
  for (const line of lines) {
    const reason = line.unreadable;
    if (reason === null) continue;
    badLines++;
    if (reason === 'too-long') tooLongLines++;
  }
  return { badLines, tooLongLines };
}

function sessionKey(ref: SessionRef): string {
  return `${ref.configRoot}\0${ref.slug}\0${ref.sessionId}`;
}

function toSummary(agent: LinkedSubagent, row: number | null): SubagentSummary {
  return {
    agentId: agent.agentId,
    agentType: agent.agentType,
    description: agent.description,
    layout: agent.layout,
    path: agent.path,
    toolUseId: agent.toolUseId,
    callLine: agent.callLine,
    row,
    firstTimestamp: agent.firstTimestamp,
    parentAgentId: agent.parentAgentId,
    depth: agent.depth,
    workflowRunId: agent.workflowRunId,
  };
}

/** What reading transcripts asks of the home: its config roots, and one project folder's sessions (for titles). */
export type TranscriptHome = Pick<HomeService, 'configRoots' | 'sessionsInFolder'>;

/**
 * The transcript viewer's engine side: opens session files (and their sub-agent files) as indexed documents, keeps a
 * few open, answers outlines, pages, finds and exports, and follows appends through the home watcher so an open
 * transcript grows in place. Reads only; it never writes under a config root.
 */
export class TranscriptService {
  private readonly open = new Map<string, OpenSession>();
  private readonly transcriptEmitter = new Emitter<TranscriptChange>();
  private readonly siblingOwners: SiblingOwnerCache = new Map();
  private readonly masker = new SecretMasker();
  private readonly unsubscribeLive: (() => void) | null;

  constructor(
    private readonly home: TranscriptHome,
    live: LiveHome | null,
    private readonly firstScreen: FirstScreenOptions = FIRST_SCREEN,
    /** Where files are read: the disk, then the archive for what Claude Code deleted. */
    private readonly sources: TranscriptSources = DISK_SOURCES,
    /** Line indexes of big transcripts kept between runs (in the app data folder), or none. */
    private readonly savedIndexes: SavedLineIndexes | null = null,
  ) {
    this.unsubscribeLive = live ? live.onDidChange((changes) => void this.onFilesChanged(changes)) : null;
    // What was appended to an open transcript before the watch began has no event of its own: look once it has begun.
    live?.ready.then(
      () => this.recheckOpenSessions(),
      () => undefined,
    );
  }

  onDidChangeTranscript(listener: (change: TranscriptChange) => void): () => void {
    return this.transcriptEmitter.event(listener);
  }

  dispose(): void {
    this.unsubscribeLive?.();
    this.transcriptEmitter.dispose();
    this.open.clear();
  }

  /** Finds a session by id in every config root (for the CLI, which is given an id only). */
  async findSession(sessionId: string): Promise<SessionRef | null> {
    // By file name in each config root: discovering the whole home first would cost a one-shot call a second or more.
    const roots = this.home.configRoots();
    for (const root of roots) {
      let slugs: string[];
      try {
        slugs = await fs.readdir(join(root, 'projects'));
      } catch {
        continue;
      }
      for (const slug of slugs.sort()) {
        if ((await statOrNull(join(root, 'projects', slug, `${sessionId}.jsonl`)))?.isFile()) return { configRoot: root, slug, sessionId };
      }
      // A session whose file is gone but whose sub-agents are left.
      for (const slug of slugs) {
        if ((await statOrNull(join(root, 'projects', slug, sessionId, 'subagents')))?.isDirectory())
          return { configRoot: root, slug, sessionId };
      }
    }
    const archived = await this.sources.archive?.archivedSessions(sessionId);
    const known = archived?.find((place) => roots.includes(place.configRoot));
    return known ? { configRoot: known.configRoot, slug: known.slug, sessionId } : null;
  }

  async outline(ref: SessionRef, spec: TranscriptViewSpec, focusLine: number | null = null): Promise<TranscriptOutline> {
    const session = await this.session(ref, focusLine === null ? 'first-screen' : 'complete');
    // The session's own facts wait on small files only: they are read while the sub-agents are linked.
    const [facts, { subagents, target, view, actualSpec }] = await Promise.all([
      this.sessionFacts(session),
      this.shownView(session, spec, focusLine),
    ]);
    const mainView = session.document.resolve(MAIN_SCOPE, { ...LIVE_VIEW, showMeta: spec.showMeta, showMetadata: spec.showMetadata });
    const { info, cwdExists, archived, hasSessionMemory } = facts;
    const lines = target.document.lines;
    const tree = view.tree;
    const unreachable = target.document.unreachableLines();
    // Each reads a few entries by offset; asked together, their reads overlap.
    const [forks, roots, compactions] = await Promise.all([
      forkPoints(target.document, view),
      otherRoots(target.document, view, target.scope),
      this.compactions(target.document, view),
    ]);
    const outline: TranscriptOutline = {
      sessionId: ref.sessionId,
      configRoot: ref.configRoot,
      slug: ref.slug,
      path: session.path,
      bytes: session.document.index.bytes,
      generation: session.document.generation,
      indexing: session.document.complete
        ? null
        : { indexedBytes: session.document.index.indexedBytes, totalBytes: session.document.index.bytes },
      shownPath: target.document.path,
      title: info.title,
      cwd: info.cwd,
      cwdExists,
      gitBranch: info.gitBranch,
      version: info.version,
      firstTimestamp: info.firstTimestamp,
      lastTimestamp: info.lastTimestamp,
      view: actualSpec,
      rowCount: view.rows.lines.length,
      isLiveBranch: view.isLive,
      forks,
      otherRoots: roots,
      compactions,
      unreachable: listedUnreachable(unreachable, target.scope),
      mainTranscript: session.mainTranscript,
      subagents: subagents.map((agent) =>
        toSummary(agent, agent.callLine !== null ? (mainView.rows.rowOfLine.get(agent.callLine) ?? null) : null),
      ),
      agent: target.agent ? toSummary(target.agent, null) : null,
      focusRow: focusLine !== null ? (view.rows.rowOfLine.get(focusLine) ?? null) : null,
      stats: {
        lines: lines.length,
        ...unreadableCounts(lines),
        ...tree.stats,
        unreachableLines: unreachable.length,
      },
      hasSessionMemory,
      resume: resumeCommands(ref.sessionId, info.cwd),
      archived,
      resumeUnavailable: archived ? ARCHIVED_RESUME_REASON : session.mainTranscript ? null : MISSING_TRANSCRIPT_RESUME_REASON,
    };
    this.indexInBackground(session);
    return outline;
  }

  /** What the outline tells of the session whatever the view: title, place, whether it is archived, its memory. */
  private async sessionFacts(session: OpenSession) {
    const [info, archived, sessionMemory] = await Promise.all([
      this.quickInfo(session),
      this.sources.archivedOnly(session.path),
      this.sessionMemoryPath(session),
    ]);
    return { info, cwdExists: await directoryExists(info.cwd), archived: archived !== null, hasSessionMemory: sessionMemory !== null };
  }

  /** The view asked for, resolved, with the session's sub-agents; a focus line off its branch shows the branch through it. */
  private async shownView(session: OpenSession, spec: TranscriptViewSpec, focusLine: number | null) {
    const subagents = await this.subagents(session);
    let target = await this.target(session, spec, subagents);
    let view = target.document.resolve(target.scope, spec);
    let actualSpec = spec;
    if (focusLine !== null && !view.rows.rowOfLine.has(focusLine)) {
      const node = view.tree.nodes.findIndex((line) => line.line === focusLine);
      if (node >= 0) {
        actualSpec = { ...spec, leafUuid: view.tree.nodes[view.tree.newestTerminalOf(node)].uuid };
        target = await this.target(session, actualSpec, subagents);
        view = target.document.resolve(target.scope, actualSpec);
      }
    }
    return { subagents, target, view, actualSpec };
  }

  async page(ref: SessionRef, spec: TranscriptViewSpec, start: number, limit: number): Promise<TranscriptPage> {
    const session = await this.session(ref, 'as-is');
    const subagents = await this.subagents(session);
    const target = await this.target(session, spec, subagents);
    const links = linksByCall(subagents);
    return target.document.readPage(start, limit, spec, target.scope, links);
  }

  async find(ref: SessionRef, spec: TranscriptViewSpec, query: string, limit: number): Promise<TranscriptFindResult> {
    const session = await this.session(ref, 'complete');
    const target = await this.target(session, spec, await this.subagents(session));
    return target.document.find(query, limit, spec, target.scope);
  }

  /** The token usage of every response of a view (the transcript's usage chart). */
  async usage(ref: SessionRef, spec: TranscriptViewSpec): Promise<TranscriptUsage> {
    const session = await this.session(ref, 'complete');
    const target = await this.target(session, spec, await this.subagents(session));
    return { turns: await target.document.turnUsage(spec, target.scope) };
  }

  /** One chunk of the live branch as Markdown or a self-contained HTML page; chunks keep memory bounded. */
  async exportChunk(ref: SessionRef, format: TranscriptExportFormat, cursor: number): Promise<TranscriptExportChunk> {
    const session = await this.session(ref, cursor === 0 ? 'complete' : 'as-is');
    const subagents = await this.subagents(session);
    const links = linksByCall(subagents);
    const total = session.document.resolve(MAIN_SCOPE, LIVE_VIEW).rows.lines.length;
    const page = await session.document.readPage(cursor, EXPORT_CHUNK_ROWS, LIVE_VIEW, MAIN_SCOPE, links);
    const next = page.start + page.rows.length;
    const last = next >= total;
    const info = await this.quickInfo(session);
    const archived = cursor === 0 && (await this.sources.archivedOnly(session.path)) !== null;
    const rendered = renderExportChunk(
      format,
      {
        archived,
        title: info.title,
        sessionId: ref.sessionId,
        cwd: info.cwd,
        gitBranch: info.gitBranch,
        firstTimestamp: info.firstTimestamp,
        lastTimestamp: info.lastTimestamp,
      },
      page.rows.map((row) => row.entry),
      cursor === 0,
      last,
    );
    // An export leaves the app (a file, a paste into an issue): secrets in it are always masked.
    const { text } = format === 'html' ? await this.masker.maskHtml(rendered) : await this.masker.mask(rendered);
    return {
      fileName: exportFileName(ref.sessionId, format),
      mimeType: format === 'markdown' ? 'text/markdown' : 'text/html',
      text,
      nextCursor: last ? null : next,
      totalRows: total,
    };
  }

  async sessionMemory(ref: SessionRef): Promise<SessionMemory> {
    const session = await this.session(ref, 'as-is');
    const found = await this.sessionMemoryPath(session);
    const beside = join(dirname(session.path), ref.sessionId, 'session-memory', 'summary.md');
    if (found === null) return { path: beside, exists: false, sections: [], modified: null };
    const text = await readSmallText(found, MAX_SESSION_MEMORY_BYTES);
    const stats = await statOrNull(found);
    return { path: found, exists: true, sections: parseSessionMemorySections(text), modified: stats ? stats.mtime.toISOString() : null };
  }

  /**
   * A page of a spilled tool output, `<session>/tool-results/<fileName>`, cut at a character boundary. The name is
   * one file name (the request schema checks it), so the read never leaves that folder.
   */
  async toolOutput(ref: SessionRef, fileName: string, offset: number): Promise<ToolOutputPage> {
    const session = await this.session(ref, 'as-is');
    const path = join(dirname(session.path), ref.sessionId, 'tool-results', fileName);
    const read = await readTextPage(path, offset, TOOL_OUTPUT_PAGE_BYTES);
    return { fileName, path, ...read };
  }

  /** Where and how to resume a session; refused (NOT_FOUND, with the reason) for one only the archive still holds. */
  async resumeTarget(ref: SessionRef): Promise<ResumeTarget> {
    const session = await this.session(ref, 'as-is');
    if ((await this.sources.archivedOnly(session.path)) !== null) throw new CodedError('NOT_FOUND', ARCHIVED_RESUME_REASON);
    if (!session.mainTranscript) throw new CodedError('NOT_FOUND', MISSING_TRANSCRIPT_RESUME_REASON);
    const info = await this.quickInfo(session);
    const cwdExists = await directoryExists(info.cwd);
    return { sessionId: ref.sessionId, cwd: info.cwd, cwdExists, commands: resumeCommands(ref.sessionId, info.cwd) };
  }

  /**
   * The main conversation's live branch (or a sub-agent's), entry by entry, in full (the CLI's `ccmem transcript`).
   * The session and the sub-agent are found before it answers, so a wrong id fails before any entry is read.
   */
  async liveBranch(ref: SessionRef, agentId: string | null = null): Promise<AsyncIterable<TranscriptEntry>> {
    const session = await this.session(ref, 'complete');
    const spec = { ...LIVE_VIEW, agentId, showMeta: true };
    const subagents = await this.subagents(session);
    const target = await this.target(session, spec, subagents);
    return target.document.allEntries(spec, target.scope, linksByCall(subagents));
  }

  // --- sessions ---------------------------------------------------------------------------------------------

  /**
   * Checks that a session lies in a known config root and exists; returns its path and size. A session whose file
   * is gone while its `subagents/` folder is left exists too, with no main transcript.
   */
  private async locate(ref: SessionRef): Promise<{ path: string; bytes: number; mainTranscript: boolean }> {
    if (!this.home.configRoots().includes(ref.configRoot)) {
      throw new CodedError('OUTSIDE_ROOT', `${ref.configRoot} is not one of the Claude Code folders this app reads`);
    }
    const path = join(ref.configRoot, 'projects', ref.slug, `${ref.sessionId}.jsonl`);
    const stats = await statOrNull(path);
    if (stats?.isFile()) return { path, bytes: stats.size, mainTranscript: true };
    // Deleted by Claude Code's cleanup: the archived copy reads the same.
    const archived = await this.sources.archivedOnly(path);
    if (archived) return { path, bytes: archived.bytes, mainTranscript: true };
    if ((await statOrNull(join(dirname(path), ref.sessionId, 'subagents')))?.isDirectory())
      return { path, bytes: 0, mainTranscript: false };
    throw new CodedError('NOT_FOUND', `No session ${ref.sessionId} in ${ref.slug}`);
  }

  private async session(ref: SessionRef, freshness: Freshness): Promise<OpenSession> {
    const key = sessionKey(ref);
    let session = this.open.get(key);
    if (session) {
      this.open.delete(key);
      this.open.set(key, session);
      let read: IndexUpdate = 'unchanged';
      if (freshness === 'complete') read = await session.document.refresh();
      // A fully indexed file only has appends to read; one still being indexed goes on in the background.
      else if (freshness === 'first-screen' && session.indexing === null)
        read = await session.document.refresh(session.document.complete ? undefined : this.firstScreen.budgetMs);
      // A request that reads an append before the watcher's event does tells the viewer itself: the event's own read
      // then finds nothing new, and without this nobody would ask for the new outline.
      if (read !== 'unchanged') this.emitChange(session);
    } else {
      const { path, bytes, mainTranscript } = await this.locate(ref);
      const budgetMs = freshness === 'complete' || bytes <= this.firstScreen.wholeIndexBytes ? undefined : this.firstScreen.budgetMs;
      session = {
        ref,
        path,
        mainTranscript,
        document: await TranscriptDocument.open(path, {
          budgetMs,
          missingIsEmpty: !mainTranscript,
          opener: this.sources.open,
          savedIndexes: this.savedIndexes,
        }),
        subagents: null,
        agentDocuments: new Map(),
        quickInfo: null,
        indexing: null,
        memoryElsewhere: null,
      };
      this.open.set(key, session);
      while (this.open.size > MAX_OPEN_SESSIONS) this.open.delete(this.open.keys().next().value as string);
    }
    return session;
  }

  /**
   * Indexes the rest of a huge file in slices, telling the viewer as rows become available. It starts a moment after
   * the outline is answered, so the first page request is not kept waiting behind it.
   */
  private indexInBackground(session: OpenSession): void {
    if (session.indexing !== null || session.document.complete) return;
    const key = sessionKey(session.ref);
    session.indexing = (async () => {
      await new Promise((resolve) => setTimeout(resolve, BACKGROUND_START_DELAY_MS));
      let reported = performance.now();
      while (!session.document.complete && this.open.get(key) === session) {
        await session.document.refresh(BACKGROUND_SLICE_MS, { publish: false });
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (session.document.complete || performance.now() - reported > PROGRESS_EVERY_MS) {
          reported = performance.now();
          session.document.publish();
          this.emitChange(session);
        }
      }
    })()
      .catch(() => undefined)
      .finally(() => {
        session.indexing = null;
      });
  }

  private emitChange(session: OpenSession): void {
    const change: TranscriptChange = {
      ...session.ref,
      path: session.path,
      generation: session.document.generation,
      bytes: session.document.index.bytes,
    };
    this.transcriptEmitter.fire(change);
  }

  private async quickInfo(session: OpenSession): Promise<SessionQuickInfo> {
    const key = `${session.document.index.bytes}:${session.document.index.mtimeMs}`;
    if (session.quickInfo?.key !== key) {
      const { ref } = session;
      let info = session.mainTranscript
        ? await readSessionQuickInfo(session.path, ref.sessionId, this.sources.open)
        : await readOrphanSessionInfo(dirname(session.path), ref.sessionId);
      if (info.titleSource === 'first-prompt' || info.titleSource === 'none') {
        // A legacy summary in another file of the project may title it (the project listing resolves those).
        const listed = (await this.home.sessionsInFolder(ref)).find((other) => other.sessionId === ref.sessionId);
        if (listed?.titleSource === 'summary') info = { ...info, title: listed.title, titleSource: 'summary' };
      }
      session.quickInfo = { key, info };
    }
    return session.quickInfo.info;
  }

  private async subagents(session: OpenSession): Promise<LinkedSubagent[]> {
    const version = `${session.document.generation}:${session.document.lines.length}`;
    if (session.subagents?.version === version) return session.subagents.list;
    const files = await findSubagentFiles(session.path, session.ref.sessionId, this.siblingOwners);
    const archived = await this.archivedSubagents(session.ref, new Set(files.map((file) => file.path)));
    const list = await linkSubagents(session.document, [...files, ...archived], this.sources.open);
    session.subagents = { version, list };
    return list;
  }

  /** Sub-agent transcripts of the session only the archive still holds (those on disk are read from there). */
  private async archivedSubagents(ref: SessionRef, onDisk: ReadonlySet<string>): Promise<readonly SubagentFile[]> {
    return (await this.sources.archive?.archivedSubagents(ref.configRoot, ref.slug, ref.sessionId, onDisk)) ?? [];
  }

  /** The document and scope a view reads from: the session file, or a sub-agent's file or inline run. */
  private async target(
    session: OpenSession,
    spec: TranscriptViewSpec,
    subagents: readonly LinkedSubagent[],
  ): Promise<{ document: TranscriptDocument; scope: ConversationScope; agent: LinkedSubagent | null }> {
    if (spec.agentId === null) return { document: session.document, scope: MAIN_SCOPE, agent: null };
    const agent = subagents.find((candidate) => candidate.agentId === spec.agentId);
    if (!agent) throw new CodedError('NOT_FOUND', `Session ${session.ref.sessionId} has no sub-agent ${spec.agentId}`);
    if (agent.layout === 'inline')
      return { document: session.document, scope: { kind: 'inline-agent', rootUuid: agent.rootUuid as string }, agent };
    let document = session.agentDocuments.get(agent.path);
    if (!document) {
      document = await TranscriptDocument.open(agent.path, { opener: this.sources.open, savedIndexes: this.savedIndexes });
      session.agentDocuments.set(agent.path, document);
    } else {
      await document.refresh();
    }
    return { document, scope: { kind: 'agent-file' }, agent };
  }

  private async compactions(document: TranscriptDocument, view: ResolvedView) {
    const lines = view.rows.compactionRows.map((row) => view.rows.lines[row]);
    const entries = await document.readEntries(lines);
    return view.rows.compactionRows.map((row) => {
      const entry = entries.get(view.rows.lines[row]);
      const body = entry?.body.kind === 'compact-boundary' ? entry.body : null;
      return {
        row,
        trigger: body?.trigger ?? null,
        preTokens: body?.preTokens ?? null,
        postTokens: body?.postTokens ?? null,
        timestamp: entry?.timestamp ?? null,
      };
    });
  }

  /**
   * `summary.md` beside the transcript, or — because Claude Code files it under the slug of the *current* cwd — in
   * another project folder of the same config root.
   */
  private async sessionMemoryPath(session: OpenSession): Promise<string | null> {
    const { ref } = session;
    const relative = join(ref.sessionId, 'session-memory', 'summary.md');
    const beside = join(dirname(session.path), relative);
    if ((await statOrNull(beside))?.isFile()) return beside;
    const cached = session.memoryElsewhere;
    if (cached && Date.now() - cached.at < MEMORY_LOOKUP_EVERY_MS) return cached.path;
    let found: string | null = null;
    try {
      for (const slug of (await fs.readdir(join(ref.configRoot, 'projects'))).sort()) {
        const candidate = join(ref.configRoot, 'projects', slug, relative);
        if (slug !== ref.slug && (await statOrNull(candidate))?.isFile()) {
          found = candidate;
          break;
        }
      }
    } catch {
      found = null;
    }
    session.memoryElsewhere = { path: found, at: Date.now() };
    return found;
  }

  // --- live -------------------------------------------------------------------------------------------------

  /** Reads on every open session as if its transcript had changed (those that did not answer "unchanged", unheard). */
  private recheckOpenSessions(): void {
    const changes = [...this.open.values()].map((session): WatchedChange => ({
      kind: 'transcript',
      event: 'change',
      path: session.path,
      ...session.ref,
    }));
    if (changes.length > 0) void this.onFilesChanged(changes);
  }

  private async onFilesChanged(changes: readonly WatchedChange[]): Promise<void> {
    const touched = new Set<OpenSession>();
    for (const change of changes) {
      if (change.kind !== 'transcript' && change.kind !== 'subagent-transcript') continue;
      for (const session of this.open.values()) {
        const projectDir = dirname(session.path);
        if (change.path === session.path || change.path.startsWith(join(projectDir, session.ref.sessionId) + sep)) touched.add(session);
        else if (change.kind === 'subagent-transcript' && dirname(change.path) === projectDir) touched.add(session);
      }
    }
    for (const session of touched) {
      try {
        if (session.mainTranscript && !(await statOrNull(session.path))?.isFile()) continue;
        // A file still being indexed in the background is picked up by that loop.
        if (session.indexing !== null) continue;
        const main = await session.document.refresh(session.document.complete ? undefined : this.firstScreen.budgetMs);
        this.indexInBackground(session);
        let agentsChanged = false;
        for (const document of session.agentDocuments.values()) {
          if ((await statOrNull(document.path))?.isFile() && (await document.refresh()) !== 'unchanged') agentsChanged = true;
        }
        session.subagents = null;
        if (main === 'unchanged' && !agentsChanged && !changes.some((c) => c.kind === 'subagent-transcript')) continue;
        this.emitChange(session);
      } catch {
        // A file that vanished or cannot be read right now: the next change or request tries again.
      }
    }
  }
}
