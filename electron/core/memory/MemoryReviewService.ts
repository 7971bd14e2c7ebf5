import { lstat, readFile, realpath } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { codesByFile } from '../../../shared/memory/findings';
import type { FindingCode } from '../../../shared/memory/findingCodes';
import { bodyStartOf } from '../../../shared/memory/frontmatterBlock';
import { replaceBody, setFrontmatterField } from '../../../shared/memory/frontmatterPatch';
import { appendPointer, removePointersTo, retargetPointers } from '../../../shared/memory/indexEdits';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import type { MemoryReviewProgress } from '../../../shared/memory/memoryReviewProgress';
import type {
  FrontmatterFieldView,
  IndexView,
  MemoryChangeResult,
  MemoryFileContent,
  MemoryReview,
  ReviewedMemoryFile,
} from '../../../shared/memory/memoryReview';
import { newMemoryText } from '../../../shared/memory/memoryTemplate';
import { manifestLine, memoryAge, memoryFreshnessText, recalledMemoryText } from '../../../shared/memory/modelView';
import { estimateTokens } from '../../../shared/memory/textMetrics';
import type { MemoryType } from '../../../shared/model/memory';
import { CodedError } from '../../../shared/result';
import { ABSENT, contentHash } from '../fs/contentHash';
import { isWithin, resolveInside } from '../fs/pathContainment';
import { conflictError } from '../fs/safeWriter';
import type { ChangeSetWriter, CurrentVersion, FileChange, WrittenChangeSet } from '../changes/changeSetWriter';
import type { HomeService } from '../home/HomeService';
import type { WatchedChange } from '../watch/watchedChange';
import { frontmatterField, parseFrontmatter } from './frontmatter';
import { MemoryFolderAnalyzer, MAX_TOPIC_FILE_BYTES, type AnalyzedFile, type AnalyzedIndex } from './memoryFolderAnalyzer';
import { MemoryFolderResolver, type ResolvedMemoryFolder } from './memoryFolderResolver';
import { ScanProgress } from './scanProgress';
import { SecretMasker } from '../secrets/secretMasker';
import { Emitter } from '../events';
import { INDEX_FILE_NAME } from '../../../shared/memory/indexFileName';

export type MemoryFileEvent = 'add' | 'change' | 'unlink';

export interface MemoryChange {
  readonly folder: MemoryFolderRef;
  readonly relativePath: string;
  readonly event: MemoryFileEvent;
  /** True for this app's own writes; false for Claude Code, a dream or anyone else. */
  readonly byApp: boolean;
}

/** What the service needs of the live watcher. */
export interface MemoryWatch {
  onDidChange(listener: (changes: readonly WatchedChange[]) => void): () => void;
  expectOwnWrite(path: string): void;
}

export interface MemoryReviewServiceOptions {
  readonly home: HomeService;
  /** Every change goes through it; its events are this app's own changes to memory. */
  readonly writer: ChangeSetWriter;
  readonly live: MemoryWatch | null;
  readonly analyzer?: MemoryFolderAnalyzer;
  readonly now?: () => number;
  readonly staleAfterDays?: number;
  /** Test seam: every file read of a review waits this long (see `testReadDelayFrom`). */
  readonly testReadDelayMs?: number;
}

export interface FieldEdits {
  readonly name?: string;
  readonly description?: string;
  readonly type?: MemoryType;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const MAX_FIELD_VALUE_CHARS = 500;

function decodeText(relativePath: string, bytes: Buffer): string {
  if (bytes.includes(0)) throw new CodedError('INVALID_INPUT', `${relativePath} is not a text file`);
  try {
    const text = UTF8.decode(bytes);
    return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf && text.charCodeAt(0) !== 0xfeff ? `\uFEFF${text}` : text;
  } catch {
    throw new CodedError('INVALID_INPUT', `${relativePath} is not valid UTF-8; editing it here would change its bytes`);
  }
}

/** A new topic file's name: a plain `*.md` path inside the folder, never an index or a dotfile. */
function checkNewPath(relativePath: string): void {
  const name = basename(relativePath);
  if (
    !relativePath.endsWith('.md') ||
    name === INDEX_FILE_NAME ||
    name.startsWith('.') ||
    relativePath.split('/').some((s) => s === '' || s === '.' || s === '..')
  )
    throw new CodedError('INVALID_INPUT', `${relativePath} is not a usable memory file name (a .md name, not MEMORY.md)`);
}

/** The indexes that may point at a file: MEMORY.md, and team/MEMORY.md for team files. */
function indexesFor(folder: ResolvedMemoryFolder, relativePath: string): { path: string; folder: string }[] {
  const out = [{ path: INDEX_FILE_NAME, folder: '' }];
  if (folder.kind === 'project' && relativePath.startsWith('team/')) out.push({ path: `team/${INDEX_FILE_NAME}`, folder: 'team' });
  return out;
}

function fieldViews(data: Readonly<Record<string, unknown>>): FrontmatterFieldView[] {
  const show = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))).slice(0, 2000);
  const out: FrontmatterFieldView[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (key === 'metadata' && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [nestedKey, nestedValue] of Object.entries(value)) out.push({ key: nestedKey, nested: true, value: show(nestedValue) });
    } else out.push({ key, nested: false, value: show(value) });
  }
  return out;
}

/**
 * The Memory review: one memory folder (a project's, with its team memory, or an agent's) analysed for the
 * UI, and every change to it — edit, create, rename, prune, undo — made through the change-set writer.
 * Publishes memory changes (Claude Code's and every one this app makes) as they happen.
 */
export class MemoryReviewService {
  private readonly resolver: MemoryFolderResolver;
  private readonly analyzer: MemoryFolderAnalyzer;
  private readonly writer: ChangeSetWriter;
  private readonly masker = new SecretMasker();
  private readonly memoryEmitter = new Emitter<MemoryChange>();
  private readonly progressEmitter = new Emitter<MemoryReviewProgress>();
  private readonly knownAgentDirs = new Set<string>();
  private readonly unsubscribe: (() => void)[];

  constructor(private readonly options: MemoryReviewServiceOptions) {
    this.resolver = new MemoryFolderResolver(options.home);
    this.analyzer = options.analyzer ?? new MemoryFolderAnalyzer();
    this.writer = options.writer;
    this.unsubscribe = [this.writer.onDidWrite((written) => this.onWritten(written))];
    const live = options.live?.onDidChange((changes) => void this.onWatched(changes));
    if (live) this.unsubscribe.push(live);
  }

  onDidChangeMemory(listener: (change: MemoryChange) => void): () => void {
    return this.memoryEmitter.event(listener);
  }

  /** How far each review got: files read of all, then the findings, then done. */
  onDidProgress(listener: (progress: MemoryReviewProgress) => void): () => void {
    return this.progressEmitter.event(listener);
  }

  private reportProgress(progress: MemoryReviewProgress): void {
    this.progressEmitter.fire(progress);
  }

  async getReview(ref: MemoryFolderRef): Promise<MemoryReview> {
    const folder = await this.resolve(ref);
    const now = this.now();
    const progress = new ScanProgress((report) => this.reportProgress({ folder: folder.ref, ...report }), {
      readDelayMs: this.options.testReadDelayMs,
    });
    const analysis = await this.analyzer.analyze({
      memoryDir: folder.memoryDir,
      kind: folder.kind,
      projectPath: folder.projectPath,
      now,
      staleAfterDays: this.options.staleAfterDays,
      // An agent's folder comes from a repository: one that leads out of its project is not read.
      boundary: folder.kind === 'agent' ? folder.root.boundary : null,
      progress,
    });
    const inScan = new Set(analysis.findings.filter((f) => f.code === 'scan.beyond-cap').map((f) => f.file));
    const codes = codesByFile(analysis.findings);
    const files = analysis.files.map((file) =>
      this.reviewedFile(file, !inScan.has(file.relativePath), codes.get(file.relativePath) ?? [], now),
    );
    const indexView = (index: AnalyzedIndex | undefined): IndexView | null =>
      index
        ? {
            relativePath: index.relativePath,
            rawText: index.text,
            hash: index.hash,
            loaded: index.loaded,
            estimatedTokens: estimateTokens(index.loaded.content),
          }
        : null;
    const folderSymlinkOutside = analysis.findings.some((f) => f.code === 'symlink.outside' && f.file === null);
    const folderOutsideRoot = analysis.findings.some((f) => f.code === 'folder.outside-root');
    const readOnlyReason = folder.readOnlyShell
      ? 'This window is read-only'
      : folderOutsideRoot
        ? 'The folder leads outside its project through a symlink; nothing in it is read, written or sent to a model'
        : analysis.lockLive
          ? `A dream is consolidating this memory right now (process ${analysis.lock.holderPid}); editing waits until it is done`
          : folderSymlinkOutside
            ? 'The memory folder is a symlink that leads elsewhere; nothing is written through it'
            : null;
    const review = await this.maskReview({
      folder: folder.ref,
      title: folder.title,
      memoryDir: folder.memoryDir,
      exists: analysis.exists,
      projectPath: folder.projectPath,
      index: indexView(analysis.indexes.find((i) => i.folder === '')),
      teamIndex: indexView(analysis.indexes.find((i) => i.folder === 'team')),
      files,
      findings: analysis.findings,
      lock: { ...analysis.lock, live: analysis.lockLive },
      readOnlyReason,
      staleAfterDays: this.options.staleAfterDays ?? 30,
      warnings: analysis.warnings,
    });
    this.reportProgress({ folder: folder.ref, step: 'done', done: files.length, total: files.length });
    return review;
  }

  /** Masks secrets in the texts of a review (the indexes, descriptions and manifest lines) with one scan. */
  private async maskReview(review: MemoryReview): Promise<MemoryReview> {
    const indexes = [review.index, review.teamIndex];
    const texts = [
      ...indexes.flatMap((index) => (index ? [index.rawText, index.loaded.content] : [])),
      ...review.files.flatMap((file) => [file.description ?? '', file.manifestLine]),
    ];
    const { texts: masked, masked: count } = await this.masker.maskAll(texts);
    if (count === 0) return review;
    let next = 0;
    const take = (): string => masked[next++];
    const [index, teamIndex] = indexes.map((view) =>
      view ? { ...view, rawText: take(), loaded: { ...view.loaded, content: take() } } : null,
    );
    const files = review.files.map((file) => {
      const description = take();
      return { ...file, description: file.description === null ? null : description, manifestLine: take() };
    });
    return { ...review, index, teamIndex, files };
  }

  /**
   * One memory file for the Rendered, Raw, Frontmatter and "As recalled" tabs, and the editor. It is read only where it
   * really lies inside the folder (through every symlink on the way, a symlinked sub-folder included); reached through
   * a symlink, it is shown but not editable. Secrets are masked in every text of it unless `revealSecrets` (the
   * desktop app, on an explicit click, and its editor, which needs the real text).
   */
  async readFile(
    ref: MemoryFolderRef,
    relativePath: string,
    options: { readonly revealSecrets?: boolean } = {},
  ): Promise<MemoryFileContent> {
    const folder = await this.resolve(ref);
    if (folder.kind === 'agent') await this.writer.checkRoot(folder.root);
    const absolutePath = resolveInside(folder.memoryDir, relativePath);
    if (!absolutePath) throw new CodedError('OUTSIDE_ROOT', `${relativePath} is outside the memory folder`);
    const stats = await lstat(absolutePath).catch(() => null);
    if (!stats) throw new CodedError('NOT_FOUND', `${relativePath} does not exist`);
    const [target, root] = await Promise.all([realpath(absolutePath).catch(() => null), realpath(folder.memoryDir)]);
    if (!target || !isWithin(root, target))
      throw new CodedError('OUTSIDE_ROOT', `${relativePath} leads outside the memory folder through a symlink; it is not read`);
    const throughSymlink = target !== join(root, relative(folder.memoryDir, absolutePath));
    const targetStats = await lstat(target);
    if (!targetStats.isFile()) throw new CodedError('NOT_FOUND', `${relativePath} is not a file`);
    if (targetStats.size > MAX_TOPIC_FILE_BYTES) throw new CodedError('INVALID_INPUT', `${relativePath} is too large to open here`);
    const bytes = await readFile(target);
    let text = '';
    let notEditableReason: string | null = null;
    try {
      text = decodeText(relativePath, bytes);
    } catch (error) {
      notEditableReason = (error as Error).message;
      text = bytes.includes(0) ? '' : bytes.toString('utf8');
    }
    if (throughSymlink) notEditableReason ??= 'It is reached through a symlink; nothing is written through it';
    const parsed = parseFrontmatter(text);
    if (parsed.variant === 'executable') notEditableReason ??= 'Its frontmatter is executable; it is never run or changed here';
    // Masking keeps every length and line break, so the offsets parsed from the real text fit the masked one.
    const shown = options.revealSecrets ? { text, masked: 0 } : await this.masker.mask(text);
    const shownFields = shown.masked === 0 ? parsed.data : parseFrontmatter(shown.text).data;
    return {
      folder: folder.ref,
      relativePath,
      text: shown.text,
      hash: contentHash(bytes),
      mtime: new Date(targetStats.mtimeMs).toISOString(),
      bytes: targetStats.size,
      variant: parsed.variant,
      frontmatterError: parsed.error,
      frontmatterText: parsed.variant === 'none' ? null : shown.text.slice(parsed.innerStart, parsed.innerEnd),
      fields: fieldViews(shownFields),
      body: shown.text.slice(bodyStartOf(text)),
      editable: notEditableReason === null,
      notEditableReason,
      recalledText: recalledMemoryText(absolutePath, targetStats.mtimeMs, shown.text, this.now()),
      secretsMasked: shown.masked,
    };
  }

  /** Edits fields and/or the body of a topic file, patching its text so every other byte survives. */
  async save(
    ref: MemoryFolderRef,
    edit: { relativePath: string; baseHash: string; fields?: FieldEdits; body?: string },
  ): Promise<MemoryChangeResult> {
    const folder = await this.resolve(ref);
    const current = (await this.readExpected(folder, edit.relativePath, edit.baseHash)).bytes;
    const text = decodeText(edit.relativePath, current);
    if (parseFrontmatter(text).variant === 'executable')
      throw new CodedError('INVALID_INPUT', 'Executable frontmatter is never changed here');
    let next = text;
    for (const [key, value] of Object.entries(edit.fields ?? {})) {
      if (typeof value !== 'string') continue;
      next = this.patchField(next, key, value);
    }
    if (edit.body !== undefined) {
      const oldBody = text.slice(bodyStartOf(text));
      // A textarea hands back '\n' line ends: keep a CRLF file CRLF.
      const body = oldBody.includes('\r\n') && !edit.body.includes('\r\n') ? edit.body.replace(/\n/g, '\r\n') : edit.body;
      next = replaceBody(next, body);
    }
    if (next === text) throw new CodedError('INVALID_INPUT', 'Nothing to save: the file is unchanged');
    const after = Buffer.from(next, 'utf8');
    const changeSetId = await this.apply(folder, [{ path: edit.relativePath, base: edit.baseHash, after }], `Edited ${edit.relativePath}`);
    return { changeSetId, description: `Saved ${edit.relativePath}`, relativePath: edit.relativePath, hash: contentHash(after) };
  }

  /** Creates a topic file from the template and adds its pointer to the index, as one change. */
  async create(
    ref: MemoryFolderRef,
    request: { scope: 'private' | 'team'; fileName: string; name: string; description: string; type: MemoryType; body: string },
  ): Promise<MemoryChangeResult> {
    const folder = await this.resolve(ref);
    if (request.scope === 'team' && folder.kind !== 'project') throw new CodedError('INVALID_INPUT', 'Only a project has team memory');
    const relativePath = request.scope === 'team' ? `team/${request.fileName}` : request.fileName;
    checkNewPath(relativePath);
    this.checkFieldValue('name', request.name);
    this.checkFieldValue('description', request.description);
    const existing = await this.writer.readCurrent(folder.root, relativePath);
    if (existing.bytes) throw conflictError(relativePath, ABSENT, existing.bytes);
    const text = newMemoryText({ name: request.name, description: request.description, type: request.type, body: request.body });
    const index = indexesFor(folder, relativePath).at(-1) ?? { path: INDEX_FILE_NAME, folder: '' };
    const indexNow = await this.writer.readCurrent(folder.root, index.path);
    const indexText = indexNow.bytes ? decodeText(index.path, indexNow.bytes) : '';
    const after = Buffer.from(text, 'utf8');
    const changes: FileChange[] = [
      { path: relativePath, base: null, after },
      {
        path: index.path,
        base: indexNow.hash,
        after: Buffer.from(appendPointer(indexText, index.folder, relativePath, request.name, request.description), 'utf8'),
      },
    ];
    const changeSetId = await this.apply(folder, changes, `Created ${relativePath}`);
    return { changeSetId, description: `Created ${relativePath}`, relativePath, hash: contentHash(after) };
  }

  /** Renames a topic file; every index pointer follows it. The old file is removed last. */
  async rename(ref: MemoryFolderRef, request: { from: string; to: string; baseHash: string }): Promise<MemoryChangeResult> {
    const folder = await this.resolve(ref);
    checkNewPath(request.to);
    if (request.to === request.from) throw new CodedError('INVALID_INPUT', 'The new name is the old one');
    const { bytes: current, mode } = await this.readExpected(folder, request.from, request.baseHash);
    const target = await this.writer.readCurrent(folder.root, request.to);
    if (target.bytes) throw conflictError(request.to, ABSENT, target.bytes);
    const changes: FileChange[] = [{ path: request.to, base: null, after: current, mode: mode ?? undefined }];
    const indexes = new Map([...indexesFor(folder, request.from), ...indexesFor(folder, request.to)].map((i) => [i.path, i]));
    for (const index of indexes.values()) {
      const now = await this.writer.readCurrent(folder.root, index.path);
      if (!now.bytes) continue;
      const { text, changed } = retargetPointers(decodeText(index.path, now.bytes), index.folder, request.from, request.to);
      if (changed > 0) changes.push({ path: index.path, base: now.hash, after: Buffer.from(text, 'utf8') });
    }
    changes.push({ path: request.from, base: request.baseHash, after: null });
    const changeSetId = await this.apply(folder, changes, `Renamed ${request.from} to ${request.to}`);
    return { changeSetId, description: `Renamed ${request.from} to ${request.to}`, relativePath: request.to, hash: contentHash(current) };
  }

  /** Deletes a topic file together with its pointer lines; both are kept in history, so it can be undone. */
  async prune(ref: MemoryFolderRef, request: { relativePath: string; baseHash: string }): Promise<MemoryChangeResult> {
    const folder = await this.resolve(ref);
    await this.readExpected(folder, request.relativePath, request.baseHash);
    const changes: FileChange[] = [];
    for (const index of indexesFor(folder, request.relativePath)) {
      const now = await this.writer.readCurrent(folder.root, index.path);
      if (!now.bytes) continue;
      const { text, removed } = removePointersTo(decodeText(index.path, now.bytes), index.folder, request.relativePath);
      if (removed > 0) changes.push({ path: index.path, base: now.hash, after: Buffer.from(text, 'utf8') });
    }
    changes.push({ path: request.relativePath, base: request.baseHash, after: null });
    const changeSetId = await this.apply(folder, changes, `Pruned ${request.relativePath}`);
    return { changeSetId, description: `Pruned ${request.relativePath}`, relativePath: null, hash: null };
  }

  /** Puts back what a change set changed, if none of its files changed since (else CONFLICT, nothing touched). */
  async undo(ref: MemoryFolderRef, changeSetId: string): Promise<MemoryChangeResult> {
    const folder = await this.resolve(ref);
    const entries = await this.writer.history.changeSet(changeSetId);
    if (entries.length === 0) throw new CodedError('NOT_FOUND', 'That change is not in the history');
    if (entries.some((entry) => entry.folder !== folder.memoryDir))
      throw new CodedError('INVALID_INPUT', 'That change belongs to another memory folder');
    const planned: (FileChange & { readonly after: Buffer | null; readonly currentMode: number | null })[] = [];
    for (const entry of [...entries].reverse()) {
      const current = await this.writer.readCurrent(folder.root, entry.path);
      if (current.hash !== entry.after) throw conflictError(entry.path, entry.after ?? ABSENT, current.bytes);
      const restored = entry.before ? await this.writer.history.readBlob(entry.before) : null;
      planned.push({ path: entry.path, base: entry.after, after: restored, currentMode: current.mode });
    }
    // Undoing a rename recreates the old file from the new one: it takes that file's mode back with it.
    const changes: FileChange[] = planned.map(({ currentMode: _, ...change }) => {
      if (change.base !== null || change.after === null) return change;
      const restored = change.after;
      const source = planned.find((other) => other.after === null && other.base !== null && other.base === contentHash(restored));
      return source?.currentMode ? { ...change, mode: source.currentMode } : change;
    });
    const summary = `Undid: ${entries[0].summary}`;
    const id = await this.apply(folder, changes, summary);
    const main = changes.find((c) => basename(c.path) !== INDEX_FILE_NAME) ?? changes[0];
    return {
      changeSetId: id,
      description: summary,
      relativePath: main.after !== null ? main.path : null,
      hash: main.after !== null ? contentHash(main.after) : null,
    };
  }

  dispose(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.memoryEmitter.dispose();
    this.progressEmitter.dispose();
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private async resolve(ref: MemoryFolderRef): Promise<ResolvedMemoryFolder> {
    const folder = await this.resolver.resolve(ref);
    if (folder.kind === 'agent') this.knownAgentDirs.add(folder.memoryDir);
    return folder;
  }

  private reviewedFile(file: AnalyzedFile, inScan: boolean, findings: readonly FindingCode[], now: number): ReviewedMemoryFile {
    const t = file.text;
    return {
      relativePath: file.relativePath,
      name: t.name,
      description: t.description,
      type: t.type,
      rawType: t.rawType,
      originSessionId: t.originSessionId,
      variant: t.variant,
      scope: file.scope,
      mtime: new Date(file.mtimeMs).toISOString(),
      bytes: file.bytes,
      readable: t.readable,
      isSymlink: file.isSymlink,
      inScan,
      age: memoryAge(file.mtimeMs, now),
      freshnessNote: memoryFreshnessText(file.mtimeMs, now),
      recall: t.recall
        ? { lines: t.recall.lineCount, totalLines: t.recall.totalLines, truncated: t.recall.truncated, reason: t.recall.reason }
        : { lines: 0, totalLines: 0, truncated: false, reason: null },
      manifestLine: manifestLine(file.relativePath, t.type, file.mtimeMs, t.description),
      findings,
    };
  }

  private checkFieldValue(key: string, value: string): void {
    if (value.length > MAX_FIELD_VALUE_CHARS)
      throw new CodedError('INVALID_INPUT', `The ${key} is longer than ${MAX_FIELD_VALUE_CHARS} characters`);
    if (/[\r\n]/.test(value)) throw new CodedError('INVALID_INPUT', `The ${key} must be one line`);
  }

  /** Patches one field and proves the result reads back as intended; otherwise refuses rather than guess. */
  private patchField(text: string, key: string, value: string): string {
    this.checkFieldValue(key, value);
    for (const style of [null, 'double'] as const) {
      const patched = setFrontmatterField(text, key, value, style);
      if (patched === null) break;
      const parsed = parseFrontmatter(patched);
      if (parsed.error === null && frontmatterField(parsed.data, key) === value) return patched;
    }
    throw new CodedError('INVALID_INPUT', `The frontmatter cannot be changed safely (${key}); edit the file by hand`);
  }

  private async readExpected(
    folder: ResolvedMemoryFolder,
    relativePath: string,
    baseHash: string,
  ): Promise<CurrentVersion & { bytes: Buffer }> {
    const current = await this.writer.readCurrent(folder.root, relativePath);
    if (current.bytes === null || current.hash !== baseHash) throw conflictError(relativePath, baseHash, current.bytes);
    return { ...current, bytes: current.bytes };
  }

  /** Lands a change set through the writer, as an app edit; every file of it is a memory file, so it is journaled. */
  private async apply(folder: ResolvedMemoryFolder, changes: readonly FileChange[], summary: string): Promise<string> {
    const { changeSetId } = await this.writer.apply({ root: folder.root, changes, cause: 'app-edit', summary });
    if (changeSetId === null) throw new CodedError('INTERNAL', 'The change landed without a history record');
    return changeSetId;
  }

  /** This app changed memory files (here, or through history, an import, a job or a snapshot): tell the UI. */
  private async onWritten(written: WrittenChangeSet): Promise<void> {
    const dir = written.root.dir;
    const folders: MemoryFolderRef[] = this.knownAgentDirs.has(dir) ? [{ kind: 'agent', dir }] : await this.resolver.refsFor(dir);
    for (const folder of folders)
      for (const file of written.written) this.emit({ folder, relativePath: file.path, event: file.event, byApp: true });
  }

  private emit(change: MemoryChange): void {
    this.memoryEmitter.fire(change);
  }

  /** Claude Code (or a dream, or an editor) changed memory files: tell the UI which folder and file. */
  private async onWatched(changes: readonly WatchedChange[]): Promise<void> {
    for (const change of changes) {
      if (change.event !== 'add' && change.event !== 'change' && change.event !== 'unlink') continue;
      if (change.kind === 'memory-file' || change.kind === 'consolidation-lock') {
        const relativePath = change.kind === 'memory-file' ? change.relativePath : '.consolidate-lock';
        for (const folder of await this.resolver.refsFor(change.memoryDir))
          this.emit({ folder, relativePath, event: change.event, byApp: false });
        continue;
      }
      if (!change.path.endsWith('.md')) continue;
      for (const dir of this.knownAgentDirs) {
        if (!isWithin(dir, dirname(change.path))) continue;
        const relativePath = change.path
          .slice(dir.length + 1)
          .split(/[\\/]/)
          .join('/');
        this.emit({ folder: { kind: 'agent', dir }, relativePath, event: change.event, byApp: false });
      }
    }
  }
}
