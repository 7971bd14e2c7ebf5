import { lstat, readFile, realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { codesForFile } from '../../../shared/memory/findings';
import { bodyStartOf } from '../../../shared/memory/frontmatterBlock';
import { replaceBody, setFrontmatterField } from '../../../shared/memory/frontmatterPatch';
import { appendPointer, removePointersTo, retargetPointers } from '../../../shared/memory/indexEdits';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import type {
  FrontmatterFieldView,
  IndexView,
  MemoryChangeResult,
  MemoryConflictDetails,
  MemoryFileContent,
  MemoryReview,
  ReviewedMemoryFile,
} from '../../../shared/memory/memoryReview';
import { newMemoryText } from '../../../shared/memory/memoryTemplate';
import { ENTRYPOINT_NAME, manifestLine, memoryAge, memoryFreshnessText, recalledMemoryText } from '../../../shared/memory/modelView';
import { estimateTokens } from '../../../shared/memory/textMetrics';
import type { MemoryType } from '../../../shared/model/memory';
import { CodedError } from '../../../shared/result';
import { ABSENT, contentHash } from '../fs/contentHash';
import { isWithin, resolveInside } from '../fs/pathContainment';
import { SafeWriter, type CurrentFile } from '../fs/safeWriter';
import type { HistoryStore, NewHistoryEntry } from '../history/HistoryStore';
import type { HomeService } from '../home/HomeService';
import type { WatchedChange } from '../watch/watchedChange';
import { frontmatterField, parseFrontmatter } from './frontmatter';
import { MemoryFolderAnalyzer, MAX_TOPIC_FILE_BYTES, type AnalyzedFile, type AnalyzedIndex } from './memoryFolderAnalyzer';
import { MemoryFolderResolver, type ResolvedMemoryFolder } from './memoryFolderResolver';
import { SecretMasker } from './secretMasker';
import { SecretScanner } from './secretScan';

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
  readonly history: HistoryStore;
  readonly live: MemoryWatch | null;
  readonly analyzer?: MemoryFolderAnalyzer;
  readonly now?: () => number;
  readonly staleAfterDays?: number;
}

export interface FieldEdits {
  readonly name?: string;
  readonly description?: string;
  readonly type?: MemoryType;
}

interface PlannedChange {
  readonly path: string;
  /** What the file must still be when the change lands: a hash, or 'absent'. */
  readonly base: string;
  readonly before: Buffer | null;
  readonly after: Buffer | null;
  /** Mode for a file this change creates (a renamed file keeps its mode). */
  readonly mode?: number;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const MAX_FIELD_VALUE_CHARS = 500;

function conflict(relativePath: string, base: string, current: Buffer | null): CodedError {
  const details: MemoryConflictDetails = {
    relativePath,
    baseHash: base,
    currentHash: current ? contentHash(current) : null,
    currentText: current ? current.toString('utf8') : null,
  };
  const what = current === null ? 'was deleted' : base === ABSENT ? 'already exists' : 'changed on disk';
  return new CodedError('CONFLICT', `${relativePath} ${what} since it was opened; nothing was overwritten`, details);
}

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
    name === ENTRYPOINT_NAME ||
    name.startsWith('.') ||
    relativePath.split('/').some((s) => s === '' || s === '.' || s === '..')
  )
    throw new CodedError('INVALID_INPUT', `${relativePath} is not a usable memory file name (a .md name, not MEMORY.md)`);
}

/** The indexes that may point at a file: MEMORY.md, and team/MEMORY.md for team files. */
function indexesFor(folder: ResolvedMemoryFolder, relativePath: string): { path: string; folder: string }[] {
  const out = [{ path: ENTRYPOINT_NAME, folder: '' }];
  if (folder.kind === 'project' && relativePath.startsWith('team/')) out.push({ path: `team/${ENTRYPOINT_NAME}`, folder: 'team' });
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
 * UI, and every change to it — edit, create, rename, prune, undo — stored in history before it lands and
 * written through the safe writer. Publishes memory changes (Claude Code's and our own) as they happen.
 */
export class MemoryReviewService {
  private readonly resolver: MemoryFolderResolver;
  private readonly analyzer: MemoryFolderAnalyzer;
  private readonly writer: SafeWriter;
  private readonly secrets = new SecretScanner();
  private readonly masker = new SecretMasker(this.secrets);
  private readonly listeners = new Set<(change: MemoryChange) => void>();
  private readonly knownAgentDirs = new Set<string>();
  private readonly unsubscribeLive: (() => void) | null;

  constructor(private readonly options: MemoryReviewServiceOptions) {
    this.resolver = new MemoryFolderResolver(options.home);
    this.analyzer = options.analyzer ?? new MemoryFolderAnalyzer();
    this.writer = new SafeWriter({
      onOwnWrite: (path) => options.live?.expectOwnWrite(path),
      now: options.now,
      keepDisplaced: (bytes) => options.history.putBlob(bytes),
    });
    this.unsubscribeLive = options.live?.onDidChange((changes) => void this.onWatched(changes)) ?? null;
  }

  onDidChangeMemory(listener: (change: MemoryChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async getReview(ref: MemoryFolderRef): Promise<MemoryReview> {
    const folder = await this.resolve(ref);
    const now = this.now();
    const analysis = await this.analyzer.analyze({
      memoryDir: folder.memoryDir,
      kind: folder.kind,
      projectPath: folder.projectPath,
      now,
      staleAfterDays: this.options.staleAfterDays,
    });
    const inScan = new Set(analysis.findings.filter((f) => f.code === 'scan.beyond-cap').map((f) => f.file));
    const files = analysis.files.map((file) => this.reviewedFile(file, !inScan.has(file.relativePath), analysis.findings, now));
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
    const readOnlyReason = folder.readOnlyShell
      ? 'This window is read-only'
      : analysis.lockLive
        ? `A dream is consolidating this memory right now (process ${analysis.lock.holderPid}); editing waits until it is done`
        : folderSymlinkOutside
          ? 'The memory folder is a symlink that leads elsewhere; nothing is written through it'
          : null;
    return this.maskReview({
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
   * One memory file for the Rendered, Raw, Frontmatter and "As recalled" tabs. Secrets are masked in every text of
   * it unless `revealSecrets` (the desktop app, on an explicit click, and its editor, which needs the real text).
   */
  async readFile(
    ref: MemoryFolderRef,
    relativePath: string,
    options: { readonly revealSecrets?: boolean } = {},
  ): Promise<MemoryFileContent> {
    const folder = await this.resolve(ref);
    const absolutePath = resolveInside(folder.memoryDir, relativePath);
    if (!absolutePath) throw new CodedError('OUTSIDE_ROOT', `${relativePath} is outside the memory folder`);
    const stats = await lstat(absolutePath).catch(() => null);
    if (!stats) throw new CodedError('NOT_FOUND', `${relativePath} does not exist`);
    if (stats.isSymbolicLink()) {
      const [target, root] = await Promise.all([realpath(absolutePath).catch(() => null), realpath(folder.memoryDir)]);
      if (!target || !isWithin(root, target))
        throw new CodedError('OUTSIDE_ROOT', `${relativePath} is a symlink that leads outside the memory folder`);
    }
    const target = await lstat(await realpath(absolutePath));
    if (!target.isFile()) throw new CodedError('NOT_FOUND', `${relativePath} is not a file`);
    if (target.size > MAX_TOPIC_FILE_BYTES) throw new CodedError('INVALID_INPUT', `${relativePath} is too large to open here`);
    const bytes = await readFile(absolutePath);
    let text = '';
    let notEditableReason: string | null = null;
    try {
      text = decodeText(relativePath, bytes);
    } catch (error) {
      notEditableReason = (error as Error).message;
      text = bytes.includes(0) ? '' : bytes.toString('utf8');
    }
    if (stats.isSymbolicLink()) notEditableReason ??= 'It is a symlink; nothing is written through it';
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
      mtime: new Date(target.mtimeMs).toISOString(),
      bytes: target.size,
      variant: parsed.variant,
      frontmatterError: parsed.error,
      frontmatterText: parsed.variant === 'none' ? null : shown.text.slice(parsed.innerStart, parsed.innerEnd),
      fields: fieldViews(shownFields),
      body: shown.text.slice(bodyStartOf(text)),
      editable: notEditableReason === null,
      notEditableReason,
      recalledText: recalledMemoryText(absolutePath, target.mtimeMs, shown.text, this.now()),
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
    const changeSetId = await this.apply(
      folder,
      [{ path: edit.relativePath, base: edit.baseHash, before: current, after }],
      `Edited ${edit.relativePath}`,
    );
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
    const existing = await this.writer.readCurrent(folder.memoryDir, relativePath).catch(() => null);
    if (existing?.bytes)
      throw new CodedError('CONFLICT', `${relativePath} already exists`, {
        relativePath,
        baseHash: ABSENT,
        currentHash: existing.hash,
        currentText: null,
      });
    const text = newMemoryText({ name: request.name, description: request.description, type: request.type, body: request.body });
    const index = indexesFor(folder, relativePath).at(-1) ?? { path: ENTRYPOINT_NAME, folder: '' };
    const indexNow = await this.writer.readCurrent(folder.memoryDir, index.path).catch(() => ({ bytes: null, hash: null }));
    const indexText = indexNow.bytes ? decodeText(index.path, indexNow.bytes) : '';
    const after = Buffer.from(text, 'utf8');
    const changes: PlannedChange[] = [
      { path: relativePath, base: ABSENT, before: null, after },
      {
        path: index.path,
        base: indexNow.hash ?? ABSENT,
        before: indexNow.bytes,
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
    const target = await this.writer.readCurrent(folder.memoryDir, request.to).catch(() => null);
    if (target?.bytes)
      throw new CodedError('CONFLICT', `${request.to} already exists`, {
        relativePath: request.to,
        baseHash: ABSENT,
        currentHash: target.hash,
        currentText: null,
      });
    const changes: PlannedChange[] = [{ path: request.to, base: ABSENT, before: null, after: current, mode: mode ?? undefined }];
    const indexes = new Map([...indexesFor(folder, request.from), ...indexesFor(folder, request.to)].map((i) => [i.path, i]));
    for (const index of indexes.values()) {
      const now = await this.writer.readCurrent(folder.memoryDir, index.path).catch(() => null);
      if (!now?.bytes || !now.hash) continue;
      const { text, changed } = retargetPointers(decodeText(index.path, now.bytes), index.folder, request.from, request.to);
      if (changed > 0) changes.push({ path: index.path, base: now.hash, before: now.bytes, after: Buffer.from(text, 'utf8') });
    }
    changes.push({ path: request.from, base: request.baseHash, before: current, after: null });
    const changeSetId = await this.apply(folder, changes, `Renamed ${request.from} to ${request.to}`);
    return { changeSetId, description: `Renamed ${request.from} to ${request.to}`, relativePath: request.to, hash: contentHash(current) };
  }

  /** Deletes a topic file together with its pointer lines; both are kept in history, so it can be undone. */
  async prune(ref: MemoryFolderRef, request: { relativePath: string; baseHash: string }): Promise<MemoryChangeResult> {
    const folder = await this.resolve(ref);
    const current = (await this.readExpected(folder, request.relativePath, request.baseHash)).bytes;
    const changes: PlannedChange[] = [];
    for (const index of indexesFor(folder, request.relativePath)) {
      const now = await this.writer.readCurrent(folder.memoryDir, index.path).catch(() => null);
      if (!now?.bytes || !now.hash) continue;
      const { text, removed } = removePointersTo(decodeText(index.path, now.bytes), index.folder, request.relativePath);
      if (removed > 0) changes.push({ path: index.path, base: now.hash, before: now.bytes, after: Buffer.from(text, 'utf8') });
    }
    changes.push({ path: request.relativePath, base: request.baseHash, before: current, after: null });
    const changeSetId = await this.apply(folder, changes, `Pruned ${request.relativePath}`);
    return { changeSetId, description: `Pruned ${request.relativePath}`, relativePath: null, hash: null };
  }

  /** Puts back what a change set changed, if none of its files changed since (else CONFLICT, nothing touched). */
  async undo(ref: MemoryFolderRef, changeSetId: string): Promise<MemoryChangeResult> {
    const folder = await this.resolve(ref);
    const entries = await this.options.history.changeSet(changeSetId);
    if (entries.length === 0) throw new CodedError('NOT_FOUND', 'That change is not in the history');
    if (entries.some((entry) => entry.folder !== folder.memoryDir))
      throw new CodedError('INVALID_INPUT', 'That change belongs to another memory folder');
    const planned: (PlannedChange & { readonly currentMode: number | null })[] = [];
    for (const entry of [...entries].reverse()) {
      const expected = entry.after ?? ABSENT;
      const current = await this.writer.readCurrent(folder.memoryDir, entry.path);
      if ((current.hash ?? ABSENT) !== expected) throw conflict(entry.path, expected, current.bytes);
      const restored = entry.before ? await this.options.history.readBlob(entry.before) : null;
      planned.push({ path: entry.path, base: expected, before: current.bytes, after: restored, currentMode: current.mode });
    }
    // Undoing a rename recreates the old file from the new one: it takes that file's mode back with it.
    const changes: PlannedChange[] = planned.map(({ currentMode: _, ...change }) => {
      if (change.before !== null || change.after === null) return change;
      const source = planned.find((other) => other.after === null && other.before?.equals(change.after as Buffer));
      return source?.currentMode ? { ...change, mode: source.currentMode } : change;
    });
    const summary = `Undid: ${entries[0].summary}`;
    const id = await this.apply(folder, changes, summary);
    const main = changes.find((c) => basename(c.path) !== ENTRYPOINT_NAME) ?? changes[0];
    return {
      changeSetId: id,
      description: summary,
      relativePath: main.after ? main.path : null,
      hash: main.after ? contentHash(main.after) : null,
    };
  }

  dispose(): void {
    this.unsubscribeLive?.();
    this.listeners.clear();
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private async resolve(ref: MemoryFolderRef): Promise<ResolvedMemoryFolder> {
    const folder = await this.resolver.resolve(ref);
    if (folder.kind === 'agent') this.knownAgentDirs.add(folder.memoryDir);
    return folder;
  }

  private reviewedFile(file: AnalyzedFile, inScan: boolean, findings: MemoryReview['findings'], now: number): ReviewedMemoryFile {
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
      findings: codesForFile(findings, file.relativePath),
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
  ): Promise<CurrentFile & { bytes: Buffer }> {
    const current = await this.writer.readCurrent(folder.memoryDir, relativePath);
    if (current.bytes === null || current.hash !== baseHash) throw conflict(relativePath, baseHash, current.bytes);
    return { ...current, bytes: current.bytes };
  }

  /**
   * Lands a change set: every version (before and after) is stored in history first, then each file is
   * written through the safe writer, and what landed is journaled as one change set — also when a later
   * step fails, so history always matches the disk.
   */
  private async apply(folder: ResolvedMemoryFolder, changes: readonly PlannedChange[], summary: string): Promise<string> {
    await this.refuseSecretsInTeam(folder, changes);
    const { history } = this.options;
    for (const change of changes) {
      if (change.before) await history.putBlob(change.before);
      if (change.after) await history.putBlob(change.after);
    }
    const changeSetId = history.newChangeSetId();
    const entries: NewHistoryEntry[] = [];
    try {
      for (const change of changes) {
        if (change.after === null) await this.writer.remove(folder.memoryDir, change.path, change.base);
        else await this.writer.write(folder.memoryDir, change.path, change.after, change.base, { mode: change.mode });
        entries.push({
          folder: folder.memoryDir,
          path: change.path,
          before: change.before ? contentHash(change.before) : null,
          after: change.after ? contentHash(change.after) : null,
          size: change.after ? change.after.length : null,
          cause: 'app-edit',
          changeSetId,
          summary,
        });
        const event: MemoryFileEvent = change.after === null ? 'unlink' : change.before === null ? 'add' : 'change';
        this.emit({ folder: folder.ref, relativePath: change.path, event, byApp: true });
      }
    } finally {
      if (entries.length > 0) await history.append(entries);
    }
    return changeSetId;
  }

  /** Team memory is synced to a server (Claude Code scans it first, teamMemSecretGuard): nothing holding a secret goes in. */
  private async refuseSecretsInTeam(folder: ResolvedMemoryFolder, changes: readonly PlannedChange[]): Promise<void> {
    if (folder.kind !== 'project') return;
    for (const change of changes) {
      if (change.after === null || !change.path.startsWith('team/')) continue;
      const hits = await this.secrets.scan(contentHash(change.after), change.after.toString('utf8'));
      if (hits.length > 0)
        throw new CodedError(
          'FORBIDDEN',
          `${change.path} would put what looks like a secret into team memory, which is shared; remove it first`,
          {
            secrets: hits.map(({ line, kind }) => ({ line, kind })),
          },
        );
    }
  }

  private emit(change: MemoryChange): void {
    for (const listener of this.listeners) listener(change);
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
